/**
 * Repair of a stored term that is out of bounds (peer-admission.ts): one a
 * forged message left in the hard state before terms were bounded. Such a
 * term came from no election, so no member acted on it; the repair writes a
 * lower term, with no vote, and keeps the commit index. Run on a stopped node
 * only (the caller checks).
 *
 * The new term must be above every term in which this node may have voted:
 * voting again in such a term could elect a second leader in it. The hard
 * state records the highest term in which the node voted (`votedTerm`,
 * hard-state.ts), so the repair takes a term above it and above the log's
 * last term. A hard state written before that was recorded bounds the votes
 * only by its own (out-of-bounds) term; then the bound comes from the cluster:
 * the highest term a majority of the other voters reports (`clusterTerm`,
 * asked by the caller). A leader elected with this node's vote was elected by
 * a majority holding that term or a later one, and that majority shares a
 * member with any majority of the other voters. A term in which this node
 * voted and no leader was elected cannot elect one later: its candidate left
 * it when its election timed out, long before a repair of a stopped node.
 */
import { join } from 'node:path';
import { writeFileAtomic } from '../log/atomic-file.js';
import { encodeHardState, HARD_STATE_FILE, HardStateFile } from '../log/hard-state.js';
import { LogStore } from '../log/log-store.js';
import type { HardState } from '../types.js';
import { MAX_TERM_AHEAD, storedTermProblem } from './peer-admission.js';

export interface StoredTerm {
  readonly hardState: HardState;
  /** Term of the last entry in the log (or of the snapshot the log starts from). */
  readonly lastLogTerm: number;
  /** The highest term in which the node may have voted, as its hard state bounds it. */
  readonly votedTerm: number;
  /** Why the term must be repaired, or undefined when it is within bounds. */
  readonly problem: string | undefined;
}

/** Reads the hard state and the log's last term of a Raft data directory. */
export async function inspectStoredTerm(raftDir: string): Promise<StoredTerm> {
  const file = HardStateFile.open(raftDir);
  const hardState = file.get();
  const log = LogStore.open({ dir: raftDir });
  try {
    const lastLogTerm = log.term(log.lastIndex()) ?? 0;
    return {
      hardState,
      lastLogTerm,
      votedTerm: file.votedTerm(),
      problem: storedTermProblem(hardState.term, lastLogTerm)?.message,
    };
  } finally {
    await log.close();
  }
}

export class TermRepairError extends Error {
  override name = 'TermRepairError';
}

export interface TermRepairOptions {
  /** The new term; default one above every term the node may have voted in. */
  readonly term?: number;
  /** Rewrite a term that is within bounds. */
  readonly force?: boolean;
  /**
   * The highest term a majority of the other voters reports (the caller asks
   * them): the bound on this node's votes when its hard state cannot give one.
   */
  readonly clusterTerm?: number;
}

/**
 * Replaces an out-of-bounds term, clearing the vote. The new term is `term`, or
 * by default one above the log's last term and above every term the node may
 * have voted in: the hard state's `votedTerm` when that gives a term within
 * bounds, else `clusterTerm`. Throws TermRepairError, changing nothing, when
 * the stored term is within bounds (unless `force`), when no bound on the
 * votes gives a term within bounds, or when `term` is not above the bound or
 * is itself out of bounds. Resolves with the states before and after.
 */
export async function resetStoredTerm(
  raftDir: string,
  options: TermRepairOptions = {},
): Promise<{ before: StoredTerm; after: HardState; votedTermBound: number }> {
  const before = await inspectStoredTerm(raftDir);
  const { hardState, lastLogTerm, votedTerm } = before;
  if (before.problem === undefined && !options.force) {
    throw new TermRepairError(
      `hard state term ${hardState.term} is within bounds (log's last term ${lastLogTerm}, MAX_TERM_AHEAD ${MAX_TERM_AHEAD}): nothing to repair (--force rewrites it anyway)`,
    );
  }
  const withinBounds = (t: number) =>
    Number.isSafeInteger(t) && storedTermProblem(t, lastLogTerm) === undefined;
  let bound: number;
  let source: string;
  if (withinBounds(Math.max(lastLogTerm, votedTerm) + 1)) {
    bound = Math.max(lastLogTerm, votedTerm);
    source = `the log's last term ${lastLogTerm} and the highest term this node voted in, ${votedTerm}`;
  } else if (options.clusterTerm !== undefined) {
    bound = Math.max(lastLogTerm, options.clusterTerm);
    source = `the log's last term ${lastLogTerm} and the highest term a majority of the other voters reports, ${options.clusterTerm}`;
  } else {
    throw new TermRepairError(
      `this node may have voted in any term up to ${votedTerm} (its hard state bounds its votes by no lower term), and a term above that is out of bounds: pass --endpoints with the client addresses of the other members, so that the new term is taken above the highest term a majority of them reports`,
    );
  }
  const term = options.term ?? bound + 1;
  if (!Number.isSafeInteger(term) || term <= bound) {
    throw new TermRepairError(
      `new term ${term} must be an integer above ${source}: a vote already cast in a term must never be cast again`,
    );
  }
  if (!withinBounds(term)) {
    throw new TermRepairError(
      `new term ${term} is itself out of bounds: at most the log's last term ${lastLogTerm} + MAX_TERM_AHEAD ${MAX_TERM_AHEAD}`,
    );
  }
  const after: HardState = { term, vote: '', commit: hardState.commit };
  // No vote can have been cast above the bound that matters (see the file comment).
  await writeFileAtomic(join(raftDir, HARD_STATE_FILE), encodeHardState(after, bound));
  return { before, after, votedTermBound: bound };
}
