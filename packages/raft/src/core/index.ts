export { applyConfChange, decodeConfChange, encodeConfChange, validateConfChange } from './conf-change.js';
export {
  ConfChangeInProgressError,
  InvalidConfChangeError,
  type LeaderAddresses,
  NotLeaderError,
} from './errors.js';
export { MemoryLog } from './memory-log.js';
export {
  DEFAULT_MAX_INFLIGHT,
  DEFAULT_MAX_MSG_BYTES,
  DEFAULT_MAX_UNCOMMITTED_BYTES,
  type FollowerProgress,
  MAX_TERM,
  RaftCore,
  type RaftCoreOptions,
  type RaftStatus,
  TRANSFER_CONTEXT,
} from './raft-core.js';
