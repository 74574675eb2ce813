/**
 * The log store's record of the latest snapshot's meta (`<dir>/snapshot-meta`):
 * after compaction or an installed snapshot it is the only source of
 * term(snapshot index) and of the configuration the core starts from.
 */
import type { SnapshotMeta } from '../types.js';
import { encodeRecord, readRecordFile, writeFileAtomic } from './atomic-file.js';
import { CorruptionError } from './errors.js';
import { type FileSystem, nodeFileSystem } from './file-system.js';

export const SNAPSHOT_META_FILE = 'snapshot-meta';
export const EMPTY_SNAPSHOT_META: SnapshotMeta = { index: 0, term: 0, conf: { voters: [], learners: [] } };

export function encodeSnapshotMeta(meta: SnapshotMeta): Buffer {
  const { index, term, conf } = meta;
  const body = { index, term, conf: { voters: [...conf.voters], learners: [...conf.learners] } };
  return Buffer.from(JSON.stringify(body), 'utf8');
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === 'string');
}

/** Parses meta JSON; `file`/`offset` name the place for the CorruptionError. */
export function decodeSnapshotMeta(bytes: Uint8Array, file: string, offset: number): SnapshotMeta {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('utf8'));
  } catch {
    throw new CorruptionError(file, offset, 'snapshot meta is not valid JSON');
  }
  const { index, term, conf } = (parsed ?? {}) as Record<string, unknown>;
  const { voters, learners } = (conf ?? {}) as Record<string, unknown>;
  if (
    !Number.isSafeInteger(index) ||
    !Number.isSafeInteger(term) ||
    !isStringArray(voters) ||
    !isStringArray(learners)
  ) {
    throw new CorruptionError(file, offset, 'snapshot meta has wrong fields');
  }
  return { index: index as number, term: term as number, conf: { voters, learners } };
}

export function readSnapshotMetaFile(
  path: string,
  fs: FileSystem = nodeFileSystem,
): SnapshotMeta | undefined {
  const body = readRecordFile(path, fs);
  return body === undefined ? undefined : decodeSnapshotMeta(body, path, 12);
}

export function writeSnapshotMetaFile(
  path: string,
  meta: SnapshotMeta,
  fs: FileSystem = nodeFileSystem,
): Promise<void> {
  return writeFileAtomic(path, encodeRecord(encodeSnapshotMeta(meta)), { fs });
}
