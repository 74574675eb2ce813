export * from './backup/index.js';
export * from './keys.js';
export * from './leader/index.js';
export * from './server/index.js';
export * from './state/index.js';
