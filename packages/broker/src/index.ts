export { type Consumer, type DeliverySink, Dispatcher } from './dispatch/dispatcher.js';
export { Janitor } from './dispatch/janitor.js';
export * from './keys.js';
export * from './server/index.js';
export * from './state/index.js';
