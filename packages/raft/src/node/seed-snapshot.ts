import { join } from 'node:path';
import { SnapshotFiles, type SnapshotInfo } from '../log/snapshot-store.js';
import type { NodeId, SnapshotMeta } from '../types.js';
import type { MemberAddresses } from './members.js';
import { withHeader } from './snapshot-data.js';

/**
 * Seeds an empty Raft directory (a node's `<dataDir>/raft`) with a snapshot
 * of state `chunks` at `meta`, as a restore from a backup does. Only the
 * snapshot file is written: at start-up the node finds a snapshot file ahead
 * of its (empty) log and finishes it the way it finishes an interrupted
 * install (`recover`): the log starts after `meta.index`, the state machine is
 * restored from the file, and `members` fill the address book.
 */
export function seedSnapshot(
  raftDir: string,
  meta: SnapshotMeta,
  members: Readonly<Record<NodeId, MemberAddresses>>,
  chunks: AsyncIterable<Uint8Array>,
): Promise<SnapshotInfo> {
  return new SnapshotFiles(join(raftDir, 'snapshot')).write(
    meta,
    withHeader({ members: { ...members } }, chunks),
  );
}
