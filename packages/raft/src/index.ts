export * from './core/index.js';
export { type AtomicWriteOptions, writeFileAtomic } from './log/atomic-file.js';
export { CorruptionError, isNoSpace, StorageError } from './log/errors.js';
export type { FsyncSample } from './log/group-writer.js';
export { EMPTY_HARD_STATE, HardStateFile, mustPersist } from './log/hard-state.js';
export {
  DEFAULT_CACHE_BYTES,
  DEFAULT_MAX_ENTRY_BYTES,
  DEFAULT_SEGMENT_BYTES,
  LogStore,
  type LogStoreOptions,
} from './log/log-store.js';
export {
  DEFAULT_SNAPSHOT_CHUNK_BYTES,
  SnapshotFiles,
  type SnapshotFilesOptions,
  type SnapshotInfo,
  type SnapshotReader,
} from './log/snapshot-store.js';
export * from './node/index.js';
export * from './transport/index.js';
export * from './transport/tls.js';
export type * from './types.js';
