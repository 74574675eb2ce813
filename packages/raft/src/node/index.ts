/** The running node: driver, its errors, its ports and the member address book. */
export {
  type DiskFull,
  DiskFullError,
  type DiskName,
  type DropReason,
  NodeClosedError,
  NodeStartError,
  NodeTimeoutError,
  ProposalDroppedError,
} from './errors.js';
export { atomicSmallFile, openFilePorts } from './file-ports.js';
export { decodeMemberContext, encodeMemberContext, type MemberAddresses } from './members.js';
export {
  type MemberRole,
  type MemberStatus,
  NODE_DEFAULTS,
  type RaftDriverOptions,
  type RaftNodeEvents,
  type RaftNodeOptions,
  type RaftNodeStatus,
} from './node-options.js';
export {
  type AdmissionView,
  admitPeerMessages,
  MAX_TERM_AHEAD,
  storedTermProblem,
  termLimit,
} from './peer-admission.js';
export type {
  IncomingSnapshots,
  LogStorage,
  NodePorts,
  SmallFile,
  SnapshotStorage,
  StableStorage,
  Transport,
} from './ports.js';
export { RaftNode } from './raft-node.js';
export { seedSnapshot } from './seed-snapshot.js';
export {
  inspectStoredTerm,
  resetStoredTerm,
  type StoredTerm,
  TermRepairError,
} from './term-repair.js';
export type { ClockRefusals } from './vote-clock.js';
