export * from './keys.js';
export * from './server/index.js';
export * from './state/index.js';
