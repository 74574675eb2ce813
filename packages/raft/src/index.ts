export * from './core/index.js';
export type * from './types.js';
