/**
 * Offline repairs of a node's data directory (`fermata repair ...`), run on a
 * stopped node. They know the directory's layout: `<dataDir>/raft` holds the
 * Raft log and hard state, `<dataDir>/state` the state machine's LevelDB,
 * which a running node keeps locked.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type HardState, resetStoredTerm, type StoredTerm, TermRepairError } from '@fermata/raft';
import { openStore } from '@fermata/storage';

export { TermRepairError };

/** Throws TermRepairError unless `dataDir` is a node's data directory that no running node holds. */
async function assertStoppedNode(dataDir: string): Promise<void> {
  if (!existsSync(join(dataDir, 'raft'))) {
    throw new TermRepairError(`${dataDir} holds no Raft data (no raft directory): is it the node's dataDir?`);
  }
  const statePath = join(dataDir, 'state');
  if (!existsSync(statePath)) return;
  try {
    const store = await openStore({ engine: 'leveldb', path: statePath });
    await store.close();
  } catch (error) {
    throw new TermRepairError(
      `cannot open ${statePath} (${String(error)}): a node is running on ${dataDir}? stop it first`,
    );
  }
}

/** `fermata repair reset-term`: see term-repair.ts in @fermata/raft for the rule. */
export async function repairResetTerm(options: {
  readonly dataDir: string;
  readonly term?: number;
  readonly force?: boolean;
  /** The highest term a majority of the other voters reports (see resetStoredTerm). */
  readonly clusterTerm?: number;
}): Promise<{ before: StoredTerm; after: HardState; votedTermBound: number }> {
  await assertStoppedNode(options.dataDir);
  return resetStoredTerm(join(options.dataDir, 'raft'), {
    ...(options.term !== undefined ? { term: options.term } : {}),
    ...(options.force ? { force: true } : {}),
    ...(options.clusterTerm !== undefined ? { clusterTerm: options.clusterTerm } : {}),
  });
}
