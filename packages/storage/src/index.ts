export * from './digest.js';
export * from './errors.js';
export { compareBytes, LevelStore, openStore } from './level-store.js';
export * from './namespace.js';
export { slabBytes, slabCopy } from './slab.js';
export type * from './store.js';
