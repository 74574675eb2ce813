export * from './chromium.js';
export * from './clients.js';
export * from './harness.js';
export * from './raw-consumer.js';
