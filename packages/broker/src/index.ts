export * from './keys.js';
export * from './server/index.js';
