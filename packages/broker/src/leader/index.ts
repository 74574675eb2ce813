// The leader layer: what only the leader runs (proposing, dispatching,
// housekeeping), over the state machine and a Raft node, on a Clock and a
// metrics sink handed in, so that it runs the same under simulated time.
export { allowAllDeadLetters, type DeadLetterGate } from './dead-letter-gate.js';
export { type Consumer, type DeliverySink, heldAheadSchedule } from './dispatcher/consumer.js';
export { emptySlots } from './dispatcher/consumer-registry.js';
export { Dispatcher, type DispatcherCounters, type DispatcherOptions } from './dispatcher/dispatcher.js';
export { pushAtMs } from './dispatcher/lease-placement.js';
export { LEASE_ROUND_INTERVAL_MS } from './dispatcher/round-cadence.js';
export {
  JANITOR_INTERVAL_MS,
  Janitor,
  PUBLISH_CHECK_MARGIN_MS,
  PUBLISH_KEYS_PER_SWEEP,
  PUBLISH_PASS_INTERVAL_MS,
  PUBLISH_RECORDS_PER_SWEEP,
} from './janitor.js';
export {
  discardScheduleMetrics,
  MATERIALIZE_INTERVAL_MS,
  SCHEDULE_AHEAD_MS,
  ScheduleMaterializer,
  type ScheduleMetrics,
} from './materializer.js';
export { discardLeaderMetrics, type LeaderMetrics } from './metrics.js';
export {
  type CommandBody,
  leaderNotReady,
  MAX_ACK_ENTRIES_IN_FLIGHT,
  MAX_PUBLISH_ENTRIES_IN_FLIGHT,
  MAX_QUEUED_ACK_TAGS,
  MAX_QUEUED_PUBLISH_BYTES,
  Proposer,
  type ProposerOptions,
  type ProposeTarget,
} from './proposer.js';
export {
  discardPurgeMetrics,
  PURGE_RETRY_PAUSE_MS,
  type PurgeMetrics,
  Purger,
  type PurgerOptions,
} from './purger.js';
