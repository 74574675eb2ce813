/**
 * Small files replaced atomically (hard state, snapshot meta, snapshot files):
 * write a temporary file, fsync it, rename it over the target, fsync the
 * directory. After a crash the target holds either the old or the new bytes;
 * a leftover temporary file is ignored and removed at the next open.
 *
 * Small records carry a checksum so a damaged file is a CorruptionError
 * rather than a misread term or vote.
 */
import { basename, dirname, join } from 'node:path';
import { crc32 } from 'node:zlib';
import { CorruptionError, StorageError } from './errors.js';
import { type FileSystem, nodeFileSystem } from './file-system.js';

const TEMP_SUFFIX = '.tmp';
let tempCounter = 0;

/** A fresh temporary path next to `path` (same directory, so rename is atomic). */
export function tempPathFor(path: string): string {
  tempCounter += 1;
  return `${path}.${process.pid}.${tempCounter}${TEMP_SUFFIX}`;
}

export interface AtomicWriteOptions {
  /** Crash-injection point for tests: runs after the temp file is durable, before the rename. */
  readonly beforeRename?: () => void | Promise<void>;
  /** The file system (default node:fs). */
  readonly fs?: FileSystem;
}

/** Replaces `path` by `bytes` atomically; a failed step is a StorageError. */
export async function writeFileAtomic(
  path: string,
  bytes: Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const fs = options.fs ?? nodeFileSystem;
  const temp = tempPathFor(path);
  const fd = await fs.openAsync(temp, { write: true, create: true }).catch((error: unknown) => {
    throw StorageError.of('create', temp, error);
  });
  try {
    const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let done = 0;
    while (done < buf.length) {
      done += await fs.write(fd, buf, done, buf.length - done, done).catch((error: unknown) => {
        throw StorageError.of('write', temp, error);
      });
    }
    await fs.fsync(fd).catch((error: unknown) => {
      throw StorageError.of('fsync', temp, error);
    });
  } catch (error) {
    // The target is untouched; the temporary file goes (it may hold the room a retry needs).
    fs.close(fd);
    try {
      fs.unlink(temp);
    } catch {
      // removed at the next open in any case
    }
    throw error;
  }
  fs.close(fd);
  await options.beforeRename?.();
  try {
    await fs.rename(temp, path);
    await fs.syncDirAsync(dirname(path));
  } catch (error) {
    throw StorageError.of('rename', path, error);
  }
}

/** As fsyncDirectory, without blocking the event loop (hard state saves are on the hot path of elections). */
export function fsyncDirectoryAsync(dir: string, fs: FileSystem = nodeFileSystem): Promise<void> {
  return fs.syncDirAsync(dir);
}

/** Makes creations, renames and deletions in `dir` durable. */
export function fsyncDirectory(dir: string, fs: FileSystem = nodeFileSystem): void {
  fs.syncDir(dir);
}

/** Removes temporary files left by writes that crashed before their rename. */
export function removeStaleTempFiles(dir: string, target: string, fs: FileSystem = nodeFileSystem): void {
  const prefix = `${basename(target)}.`;
  for (const name of fs.readdir(dir)) {
    if (name.startsWith(prefix) && name.endsWith(TEMP_SUFFIX)) fs.unlink(join(dir, name));
  }
}

const RECORD_MAGIC = 0x4443_5246; // "FRCD"
const RECORD_HEADER_BYTES = 12;

/** u32 magic | u32 crc(body) | u32 body length | body. */
export function encodeRecord(body: Uint8Array): Buffer {
  const out = Buffer.alloc(RECORD_HEADER_BYTES + body.length);
  out.writeUInt32LE(RECORD_MAGIC, 0);
  out.writeUInt32LE(crc32(body), 4);
  out.writeUInt32LE(body.length, 8);
  out.set(body, RECORD_HEADER_BYTES);
  return out;
}

/** Reads a record file; undefined when it does not exist, CorruptionError when damaged. */
export function readRecordFile(path: string, fs: FileSystem = nodeFileSystem): Buffer | undefined {
  const bytes = fs.readFile(path);
  if (bytes === undefined) return undefined;
  if (bytes.length < RECORD_HEADER_BYTES || bytes.readUInt32LE(0) !== RECORD_MAGIC) {
    throw new CorruptionError(path, 0, 'bad record header');
  }
  const length = bytes.readUInt32LE(8);
  if (length !== bytes.length - RECORD_HEADER_BYTES) {
    throw new CorruptionError(
      path,
      8,
      `record length ${length} but ${bytes.length - RECORD_HEADER_BYTES} bytes follow`,
    );
  }
  const body = bytes.subarray(RECORD_HEADER_BYTES);
  if (crc32(body) !== bytes.readUInt32LE(4)) throw new CorruptionError(path, 4, 'record checksum mismatch');
  return body;
}
