/**
 * Small files replaced atomically (hard state, snapshot meta, snapshot files):
 * write a temporary file, fsync it, rename it over the target, fsync the
 * directory. After a crash the target holds either the old or the new bytes;
 * a leftover temporary file is ignored and removed at the next open.
 *
 * Small records carry a checksum so a damaged file is a CorruptionError
 * rather than a misread term or vote.
 */
import { closeSync, fsyncSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { open, rename } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { crc32 } from 'node:zlib';
import { CorruptionError } from './errors.js';

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
}

export async function writeFileAtomic(
  path: string,
  bytes: Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const temp = tempPathFor(path);
  const handle = await open(temp, 'w');
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await options.beforeRename?.();
  await rename(temp, path);
  await fsyncDirectoryAsync(dirname(path));
}

/** As fsyncDirectory, without blocking the event loop (hard state saves are on the hot path of elections). */
export async function fsyncDirectoryAsync(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Makes creations, renames and deletions in `dir` durable. */
export function fsyncDirectory(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Removes temporary files left by writes that crashed before their rename. */
export function removeStaleTempFiles(dir: string, target: string): void {
  const prefix = `${basename(target)}.`;
  for (const name of readdirSync(dir)) {
    if (name.startsWith(prefix) && name.endsWith(TEMP_SUFFIX)) rmSync(join(dir, name), { force: true });
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
export function readRecordFile(path: string): Buffer | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
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
