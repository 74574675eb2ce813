/**
 * The latest state-machine snapshot as one file, `<dir>/latest.snap`:
 *
 *   header:  u32 magic | u16 version | u16 zero | u32 metaBytes | meta JSON | u32 crc(header so far)
 *   data:    the state machine's chunks, as given
 *   trailer: u32 magic | u64 dataBytes | u32 crc(data) | u32 crc(trailer so far)
 *
 * The data checksum is only known at the end, hence the trailer. A snapshot is
 * written to a temporary file, synced, and renamed over the old one, so readers
 * see either the old or the new snapshot, never a partial one. The node driver
 * uses the same file for taking snapshots, sending them to followers and
 * receiving them from the leader (with the sender's size and checksum).
 */
import { mkdirSync } from 'node:fs';
import { type FileHandle, open, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import type { SnapshotMeta } from '../types.js';
import { fsyncDirectoryAsync, removeStaleTempFiles, tempPathFor } from './atomic-file.js';
import { CorruptionError, invariant, LimitError } from './errors.js';
import { decodeSnapshotMeta, encodeSnapshotMeta } from './snapshot-meta-file.js';

const HEADER_MAGIC = 0x504e_5346; // "FSNP"
const TRAILER_MAGIC = 0x454e_5346; // "FSNE"
const VERSION = 1;
const TRAILER_BYTES = 20;
const MAX_META_BYTES = 1024 * 1024;
export const DEFAULT_SNAPSHOT_CHUNK_BYTES = 1024 * 1024;
export const DEFAULT_MAX_SNAPSHOT_BYTES = 64 * 1024 ** 3;
export const SNAPSHOT_FILE = 'latest.snap';

export interface SnapshotInfo {
  readonly meta: SnapshotMeta;
  readonly dataBytes: number;
  /** CRC-32 (node:zlib) of the data: what a receiver checks the transfer against. */
  readonly crc32: number;
}

export interface SnapshotReader extends SnapshotInfo {
  /** The data in chunks of at most chunkBytes; throws CorruptionError if it no longer matches its checksum. */
  readonly chunks: AsyncIterable<Uint8Array>;
  /** Releases the file when `chunks` is not read to the end. */
  close(): Promise<void>;
}

export interface SnapshotFilesOptions {
  readonly chunkBytes?: number;
  readonly maxSnapshotBytes?: number;
}

export class SnapshotFiles {
  readonly path: string;
  private readonly chunkBytes: number;
  private readonly maxSnapshotBytes: number;

  /** Uses (and creates) directory `dir`; removes temporary files of interrupted writes. */
  constructor(
    readonly dir: string,
    options: SnapshotFilesOptions = {},
  ) {
    this.chunkBytes = options.chunkBytes ?? DEFAULT_SNAPSHOT_CHUNK_BYTES;
    this.maxSnapshotBytes = options.maxSnapshotBytes ?? DEFAULT_MAX_SNAPSHOT_BYTES;
    invariant(this.chunkBytes > 0, () => `chunkBytes ${this.chunkBytes} must be positive`);
    mkdirSync(dir, { recursive: true });
    this.path = join(dir, SNAPSHOT_FILE);
    removeStaleTempFiles(dir, this.path);
  }

  /** Meta, size and checksum of the latest snapshot (header and trailer checked, data not read). */
  async latest(): Promise<SnapshotInfo | undefined> {
    const opened = await this.openLatest();
    if (opened === undefined) return undefined;
    await opened.handle.close();
    return opened.info;
  }

  /**
   * Opens the latest snapshot for reading. With `verifyFirst` (default) the
   * whole data is checked before any chunk is handed out, so a consumer that
   * applies chunks as they come never sees a corrupted prefix.
   */
  async read(options: { verifyFirst?: boolean } = {}): Promise<SnapshotReader | undefined> {
    const opened = await this.openLatest();
    if (opened === undefined) return undefined;
    const { handle, info, dataStart } = opened;
    try {
      if (options.verifyFirst ?? true) {
        for await (const _ of this.readData(handle, info, dataStart)) {
          // Reading through is the check.
        }
      }
    } catch (err) {
      await handle.close();
      throw err;
    }
    const chunks = async function* (this: SnapshotFiles) {
      try {
        yield* this.readData(handle, info, dataStart);
      } finally {
        await handle.close();
      }
    }.call(this);
    return { ...info, chunks, close: () => handle.close() };
  }

  /**
   * Writes a snapshot from `chunks` and makes it the latest, unless the latest
   * is already at a higher index (then the new one is discarded and the latest
   * returned). With `expected`, the received size and checksum must match the
   * sender's, or the write fails with CorruptionError and leaves nothing behind.
   */
  async write(
    meta: SnapshotMeta,
    chunks: AsyncIterable<Uint8Array>,
    expected?: { dataBytes: number; crc32: number },
  ): Promise<SnapshotInfo> {
    const temp = tempPathFor(this.path);
    const handle = await open(temp, 'w');
    let renamed = false;
    try {
      const metaBytes = encodeSnapshotMeta(meta);
      const header = Buffer.alloc(12 + metaBytes.length + 4);
      header.writeUInt32LE(HEADER_MAGIC, 0);
      header.writeUInt16LE(VERSION, 4);
      header.writeUInt32LE(metaBytes.length, 8);
      header.set(metaBytes, 12);
      header.writeUInt32LE(crc32(header.subarray(0, 12 + metaBytes.length)), 12 + metaBytes.length);
      await writeAll(handle, header, 0);
      let position = header.length;
      let dataBytes = 0;
      let crc = 0;
      for await (const chunk of chunks) {
        dataBytes += chunk.length;
        if (dataBytes > this.maxSnapshotBytes)
          throw new LimitError('maxSnapshotBytes', this.maxSnapshotBytes, dataBytes);
        crc = crc32(chunk, crc);
        await writeAll(handle, chunk, position);
        position += chunk.length;
      }
      if (expected && (expected.dataBytes !== dataBytes || expected.crc32 !== crc)) {
        throw new CorruptionError(
          temp,
          header.length,
          `received ${dataBytes} bytes with crc ${crc}, sender announced ${expected.dataBytes} bytes with crc ${expected.crc32}`,
        );
      }
      await writeAll(handle, encodeTrailer(dataBytes, crc), position);
      await handle.sync();
      await handle.close();
      const current = await this.latest().catch(() => undefined);
      if (current !== undefined && current.meta.index > meta.index) return current;
      await rename(temp, this.path);
      renamed = true;
      await fsyncDirectoryAsync(this.dir);
      return { meta, dataBytes, crc32: crc };
    } finally {
      await handle.close().catch(() => {});
      if (!renamed) await rm(temp, { force: true });
    }
  }

  private async openLatest(): Promise<
    { handle: FileHandle; info: SnapshotInfo; dataStart: number } | undefined
  > {
    let handle: FileHandle;
    try {
      handle = await open(this.path, 'r');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
    try {
      const fail = (offset: number, detail: string): never => {
        throw new CorruptionError(this.path, offset, detail);
      };
      const { size } = await handle.stat();
      const fixed = await readAt(handle, 0, 12);
      if (fixed.length < 12 || fixed.readUInt32LE(0) !== HEADER_MAGIC)
        fail(0, 'not a snapshot file (bad magic)');
      if (fixed.readUInt16LE(4) !== VERSION) fail(4, `unsupported snapshot version ${fixed.readUInt16LE(4)}`);
      const metaBytes = fixed.readUInt32LE(8);
      if (metaBytes > MAX_META_BYTES) fail(8, `impossible meta length ${metaBytes}`);
      const dataStart = 12 + metaBytes + 4;
      if (size < dataStart + TRAILER_BYTES) fail(size, `file too short (${size} bytes)`);
      const header = await readAt(handle, 0, dataStart);
      if (crc32(header.subarray(0, dataStart - 4)) !== header.readUInt32LE(dataStart - 4)) {
        fail(dataStart - 4, 'header checksum mismatch');
      }
      const meta = decodeSnapshotMeta(header.subarray(12, 12 + metaBytes), this.path, 12);
      const trailerAt = size - TRAILER_BYTES;
      const trailer = await readAt(handle, trailerAt, TRAILER_BYTES);
      if (
        trailer.readUInt32LE(0) !== TRAILER_MAGIC ||
        crc32(trailer.subarray(0, 16)) !== trailer.readUInt32LE(16)
      ) {
        fail(trailerAt, 'trailer damaged');
      }
      const dataBytes = trailer.readUInt32LE(4) + trailer.readUInt32LE(8) * 2 ** 32;
      if (dataBytes !== trailerAt - dataStart)
        fail(trailerAt, `trailer says ${dataBytes} data bytes, file holds ${trailerAt - dataStart}`);
      return { handle, info: { meta, dataBytes, crc32: trailer.readUInt32LE(12) }, dataStart };
    } catch (err) {
      await handle.close();
      throw err;
    }
  }

  private async *readData(
    handle: FileHandle,
    info: SnapshotInfo,
    dataStart: number,
  ): AsyncGenerator<Uint8Array> {
    let crc = 0;
    for (let done = 0; done < info.dataBytes; ) {
      const chunk = await readAt(handle, dataStart + done, Math.min(this.chunkBytes, info.dataBytes - done));
      if (chunk.length === 0)
        throw new CorruptionError(this.path, dataStart + done, 'unexpected end of file');
      crc = crc32(chunk, crc);
      done += chunk.length;
      if (done === info.dataBytes && crc !== info.crc32) {
        throw new CorruptionError(
          this.path,
          dataStart,
          `data checksum ${crc} does not match trailer ${info.crc32}`,
        );
      }
      yield chunk;
    }
  }
}

function encodeTrailer(dataBytes: number, crc: number): Buffer {
  const out = Buffer.alloc(TRAILER_BYTES);
  out.writeUInt32LE(TRAILER_MAGIC, 0);
  out.writeUInt32LE(dataBytes % 2 ** 32, 4);
  out.writeUInt32LE(Math.floor(dataBytes / 2 ** 32), 8);
  out.writeUInt32LE(crc, 12);
  out.writeUInt32LE(crc32(out.subarray(0, 16)), 16);
  return out;
}

async function readAt(handle: FileHandle, position: number, length: number): Promise<Buffer> {
  const buf = Buffer.allocUnsafe(length);
  let done = 0;
  while (done < length) {
    const { bytesRead } = await handle.read(buf, done, length - done, position + done);
    if (bytesRead === 0) break;
    done += bytesRead;
  }
  return done === length ? buf : buf.subarray(0, done);
}

async function writeAll(handle: FileHandle, bytes: Uint8Array, position: number): Promise<void> {
  for (let done = 0; done < bytes.length; ) {
    const { bytesWritten } = await handle.write(bytes, done, bytes.length - done, position + done);
    done += bytesWritten;
  }
}
