/**
 * `fermata restore --from FILE --data DIR`: seeds the data directory of one
 * node of a new cluster from a backup. Every node of the new cluster is
 * seeded from the same file with the same members, which gives each the same
 * Raft snapshot: the log starts after the backup's index, at term
 * RESTORE_TERM, with the new members as voters. Nothing is applied here: at
 * start-up the node finishes the snapshot the way it finishes an interrupted
 * install (the state machine is restored from the snapshot file).
 *
 * The new cluster has a new identity: its cluster id must differ from the
 * backup's, so no node of the old cluster is ever taken for a member of the
 * new one (every peer batch carries the id).
 */
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { type MemberAddresses, seedSnapshot, writeFileAtomic } from '@fermata/raft';
import { CLUSTER_ID_FILE, ensureClusterIdentity } from '../server/cluster-identity.js';
import type { InitialMember } from '../server/config-schema.js';
import { type BackupInfo, type BackupTotals, openBackup } from './backup-file.js';

/**
 * The term of a restored snapshot. Above the bootstrap's term 1, so a node
 * started empty by mistake next to restored ones can never win an election
 * against them (its log is less up to date), and is brought up to date by
 * the snapshot instead.
 */
export const RESTORE_TERM = 2;
/** Written last: the data directory holds a finished restore of the backup it names. */
export const RESTORED_MARKER_FILE = 'restored-from.json';
/** Written first, removed last: a restore that did not finish (a rerun starts over). */
const IN_PROGRESS_FILE = '.restore-in-progress';
/** What a fresh filesystem may hold without counting as data (ext4 makes it). */
const IGNORED_ENTRIES = new Set(['lost+found']);
/** What a restore writes, and so what an interrupted one may have left. */
const RESTORE_WRITES = ['raft', CLUSTER_ID_FILE, RESTORED_MARKER_FILE, IN_PROGRESS_FILE];

export class RestoreError extends Error {
  override readonly name = 'RestoreError';
}

export interface RestoreOptions {
  /** The backup file. */
  readonly from: string;
  /** The node's data directory (its dataDir setting): empty, or absent. */
  readonly dataDir: string;
  /** The new cluster's id: must differ from the backup's. */
  readonly clusterId: string;
  /** The node being seeded: one of `members`. */
  readonly nodeId: string;
  /** Every voter of the new cluster, with its addresses (the same list on every node). */
  readonly members: readonly InitialMember[];
}

export interface RestoreResult {
  readonly info: BackupInfo;
  readonly totals: BackupTotals;
  /** True when `dataDir` already held a finished restore of this backup (nothing was written). */
  readonly alreadyRestored: boolean;
}

interface Marker {
  readonly sha256: string;
  readonly sourceClusterId: string;
  readonly clusterId: string;
  readonly appliedIndex: number;
  readonly members: readonly string[];
}

function readMarker(dataDir: string): Marker | undefined {
  const path = join(dataDir, RESTORED_MARKER_FILE);
  if (!existsSync(path)) return undefined;
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Marker;
  } catch {
    return undefined;
  }
}

/** The entries of `dir` that are data (none when it does not exist). */
function dataEntries(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((e) => !IGNORED_ENTRIES.has(e));
}

export async function restoreDataDir(options: RestoreOptions): Promise<RestoreResult> {
  const { dataDir, clusterId, nodeId, members } = options;
  const backup = await openBackup(options.from);
  const { info, totals } = backup;
  if (info.clusterId === clusterId) {
    throw new RestoreError(
      `the backup comes from cluster "${info.clusterId}" and the new cluster's id is the same: a restore makes a new cluster, so give it another clusterId (--cluster-id or FERMATA_CLUSTER_ID); nodes of the old cluster then can never be taken for members of the new one`,
    );
  }
  if (members.length === 0) throw new RestoreError('the new cluster needs at least one member');
  if (!members.some((m) => m.id === nodeId)) {
    throw new RestoreError(
      `node "${nodeId}" is not one of the new cluster's members (${members.map((m) => m.id).join(', ')})`,
    );
  }
  const ids = members.map((m) => m.id);
  if (new Set(ids).size !== ids.length)
    throw new RestoreError(`a member id appears twice: ${ids.join(', ')}`);

  const marker = readMarker(dataDir);
  const entries = dataEntries(dataDir);
  if (marker && !entries.includes(IN_PROGRESS_FILE)) {
    const same =
      marker.sha256 === totals.sha256 &&
      marker.clusterId === clusterId &&
      marker.members.join(',') === [...ids].sort().join(',');
    if (same) return { info, totals, alreadyRestored: true };
    throw new RestoreError(
      `${dataDir} already holds a restore of another backup or cluster (${join(dataDir, RESTORED_MARKER_FILE)}: sha256 ${marker.sha256}, cluster "${marker.clusterId}"); use an empty data directory`,
    );
  }
  if (entries.includes(IN_PROGRESS_FILE)) {
    // An interrupted restore: what it wrote is removed and the restore starts over.
    const foreign = entries.filter((e) => !RESTORE_WRITES.includes(e));
    if (foreign.length > 0) {
      throw new RestoreError(
        `${dataDir} holds an interrupted restore and other files (${foreign.join(', ')}); use an empty data directory`,
      );
    }
    for (const e of entries) rmSync(join(dataDir, e), { recursive: true, force: true });
  } else if (entries.length > 0) {
    throw new RestoreError(
      `${dataDir} is not empty (${entries.slice(0, 5).join(', ')}${entries.length > 5 ? ', ...' : ''}): a restore seeds the data directory of a new node; use an empty one`,
    );
  }

  await mkdir(dataDir, { recursive: true });
  await writeFileAtomic(join(dataDir, IN_PROGRESS_FILE), Buffer.from(`${totals.sha256}\n`));
  const book: Record<string, MemberAddresses> = {};
  for (const m of members) book[m.id] = { peerAddress: m.peerAddress, clientAddress: m.clientAddress };
  await seedSnapshot(
    join(dataDir, 'raft'),
    {
      index: info.appliedIndex,
      term: RESTORE_TERM,
      conf: { voters: [...ids].sort(), learners: [] },
    },
    book,
    backup.chunks(),
  );
  await ensureClusterIdentity(dataDir, clusterId);
  const written: Marker = {
    sha256: totals.sha256,
    sourceClusterId: info.clusterId,
    clusterId,
    appliedIndex: info.appliedIndex,
    members: [...ids].sort(),
  };
  await writeFileAtomic(join(dataDir, RESTORED_MARKER_FILE), Buffer.from(`${JSON.stringify(written)}\n`));
  rmSync(join(dataDir, IN_PROGRESS_FILE), { force: true });
  return { info, totals, alreadyRestored: false };
}
