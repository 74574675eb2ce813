export * from './clients.js';
export * from './harness.js';
