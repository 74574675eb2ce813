export {
  type Consumer,
  type DeliverySink,
  Dispatcher,
  LEASE_ROUND_INTERVAL_MS,
  pushAtMs,
} from './dispatch/dispatcher.js';
export { Janitor } from './dispatch/janitor.js';
export * from './keys.js';
export * from './server/index.js';
export * from './state/index.js';
