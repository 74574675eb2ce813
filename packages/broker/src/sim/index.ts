// What runs of real processes share with the simulation (`npm run chaos`,
// test-cluster/src/nemesis): the history it records and the one checker.
export {
  CALM_GRACE_MS,
  type CalmWindow,
  calmWindow,
  check,
  type FinalState,
  TIMELY_MS,
  type Violation,
} from './checker.js';
export {
  type ControlCall,
  type DeliveryRecord,
  History,
  type Outcome,
  type PublishCall,
  type SettleCall,
} from './history.js';
export { checkScheduleOccurrences, type ScheduleCheckTarget } from './schedules.js';
