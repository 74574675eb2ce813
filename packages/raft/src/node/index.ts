/** The running node: driver, its errors, its ports and the member address book. */
export { type DropReason, NodeClosedError, NodeNotLeaderError, ProposalDroppedError } from './errors.js';
export { atomicSmallFile, openFilePorts, systemClock } from './file-ports.js';
export { decodeMemberContext, encodeMemberContext, type MemberAddresses } from './members.js';
export type {
  Clock,
  IncomingSnapshots,
  LogStorage,
  NodePorts,
  SmallFile,
  SnapshotStorage,
  StableStorage,
  Transport,
} from './ports.js';
export {
  type MemberRole,
  type MemberStatus,
  NODE_DEFAULTS,
  type RaftDriverOptions,
  RaftNode,
  type RaftNodeEvents,
  type RaftNodeOptions,
  type RaftNodeStatus,
} from './raft-node.js';
