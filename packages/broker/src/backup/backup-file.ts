/**
 * A backup file (`fermata backup --out FILE`): the leader's state machine
 * snapshot stream as it came over the Backup API, between a header and a
 * checksummed trailer.
 *
 *   "FMBKUP01" | u32 header length | header JSON
 *   data: the state machine's snapshot stream (snapshot.ts: "FMSNAP01" and frames)
 *   "FMBKEND1" | u64 data bytes | u64 records | u64 messages | sha256(data) | sha256(everything before it)
 *
 * The data checksum is the leader's (the Backup API sends it and the client
 * checks it on arrival); the file checksum covers the header too. A file is
 * written to `<FILE>.partial`, synced and renamed, so FILE is either absent or
 * whole. Reading verifies both checksums before anything is handed out.
 */
import { createHash, type Hash } from 'node:crypto';
import { closeSync, fsyncSync, openSync } from 'node:fs';
import { type FileHandle, open, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';

const HEADER_MAGIC = Buffer.from('FMBKUP01', 'latin1');
const TRAILER_MAGIC = Buffer.from('FMBKEND1', 'latin1');
const TRAILER_BYTES = 8 + 8 * 3 + 32 + 32;
const MAX_HEADER_BYTES = 64 * 1024;
/** The version of the data (the state machine's snapshot stream) this build writes and reads. */
export const BACKUP_FORMAT_VERSION = 1;
const READ_CHUNK_BYTES = 1024 * 1024;

/** What a backup says about itself (its header). */
export interface BackupInfo {
  readonly formatVersion: number;
  /** The cluster it was taken from. */
  readonly clusterId: string;
  /** The leader that took it, its term, and the Raft index the snapshot is at. */
  readonly nodeId: string;
  readonly term: number;
  readonly appliedIndex: number;
  /** The leader's clock when it was taken. */
  readonly takenAtMs: number;
  /** Pending and in-flight queue entries when it was taken. */
  readonly queueEntries: number;
}

export interface BackupTotals {
  readonly dataBytes: number;
  readonly records: number;
  readonly messages: number;
  /** Hex SHA-256 of the data. */
  readonly sha256: string;
}

/** A file that is not a whole, intact backup (named with what is wrong). */
export class BackupFileError extends Error {
  override readonly name = 'BackupFileError';
}

function checkInfo(raw: unknown, path: string): BackupInfo {
  const o = raw as Record<string, unknown>;
  const num = (k: string) => {
    const v = o?.[k];
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0)
      throw new BackupFileError(`${path}: header field ${k} is not a non-negative integer`);
    return v;
  };
  const str = (k: string) => {
    const v = o?.[k];
    if (typeof v !== 'string' || v === '') throw new BackupFileError(`${path}: header field ${k} is missing`);
    return v;
  };
  const info: BackupInfo = {
    formatVersion: num('formatVersion'),
    clusterId: str('clusterId'),
    nodeId: str('nodeId'),
    term: num('term'),
    appliedIndex: num('appliedIndex'),
    takenAtMs: num('takenAtMs'),
    queueEntries: num('queueEntries'),
  };
  if (info.formatVersion !== BACKUP_FORMAT_VERSION) {
    throw new BackupFileError(
      `${path}: data format version ${info.formatVersion}; this build reads version ${BACKUP_FORMAT_VERSION}`,
    );
  }
  if (info.appliedIndex < 1) throw new BackupFileError(`${path}: header appliedIndex must be at least 1`);
  return info;
}

/** Writes a backup as it arrives; `finish` checks the data against the leader's checksum. */
export class BackupWriter {
  private readonly fileHash: Hash = createHash('sha256');
  private readonly dataHash: Hash = createHash('sha256');
  private position = 0;
  private dataBytes = 0;
  private done = false;

  private constructor(
    readonly path: string,
    private readonly partial: string,
    private readonly handle: FileHandle,
  ) {}

  /** Creates `<path>.partial` (replacing a leftover one) and writes the header. */
  static async create(path: string, info: BackupInfo): Promise<BackupWriter> {
    const partial = `${path}.partial`;
    const handle = await open(partial, 'w');
    const writer = new BackupWriter(path, partial, handle);
    try {
      const json = Buffer.from(JSON.stringify(checkInfo(info, 'backup header')), 'utf8');
      const len = Buffer.alloc(4);
      len.writeUInt32BE(json.length);
      await writer.append(Buffer.concat([HEADER_MAGIC, len, json]));
    } catch (err) {
      await writer.abort();
      throw err;
    }
    return writer;
  }

  private async append(bytes: Uint8Array): Promise<void> {
    this.fileHash.update(bytes);
    for (let done = 0; done < bytes.length; ) {
      const { bytesWritten } = await this.handle.write(bytes, done, bytes.length - done, this.position);
      done += bytesWritten;
      this.position += bytesWritten;
    }
  }

  async data(chunk: Uint8Array): Promise<void> {
    this.dataHash.update(chunk);
    this.dataBytes += chunk.length;
    await this.append(chunk);
  }

  /**
   * Writes the trailer, syncs and renames the file into place. Throws
   * BackupFileError (and leaves nothing) when the data is not what the leader sent.
   */
  async finish(totals: BackupTotals): Promise<BackupTotals> {
    try {
      const sha = this.dataHash.digest('hex');
      if (totals.sha256 !== sha || totals.dataBytes !== this.dataBytes) {
        throw new BackupFileError(
          `received ${this.dataBytes} bytes with sha256 ${sha}; the leader sent ${totals.dataBytes} bytes with sha256 ${totals.sha256}`,
        );
      }
      const head = Buffer.alloc(TRAILER_BYTES - 32);
      TRAILER_MAGIC.copy(head, 0);
      head.writeBigUInt64BE(BigInt(this.dataBytes), 8);
      head.writeBigUInt64BE(BigInt(totals.records), 16);
      head.writeBigUInt64BE(BigInt(totals.messages), 24);
      Buffer.from(sha, 'hex').copy(head, 32);
      await this.append(head);
      await this.append(this.fileHash.copy().digest());
      await this.handle.sync();
      await this.handle.close();
      await rename(this.partial, this.path);
      const dir = openSync(dirname(this.path), 'r');
      try {
        fsyncSync(dir);
      } finally {
        closeSync(dir);
      }
      this.done = true;
      return { ...totals, sha256: sha };
    } finally {
      if (!this.done) await this.abort();
    }
  }

  /** Removes the partial file. */
  async abort(): Promise<void> {
    await this.handle.close().catch(() => undefined);
    await rm(this.partial, { force: true });
  }
}

/** An intact backup file: its header, totals and data. */
export interface BackupReader {
  readonly path: string;
  readonly info: BackupInfo;
  readonly totals: BackupTotals;
  /** The data, checked again against its checksum as it is read (a file changed since `openBackup` throws at the end). */
  chunks(): AsyncIterable<Uint8Array>;
}

async function readAt(handle: FileHandle, position: number, length: number): Promise<Buffer> {
  const buf = Buffer.alloc(length);
  let done = 0;
  while (done < length) {
    const { bytesRead } = await handle.read(buf, done, length - done, position + done);
    if (bytesRead === 0) break;
    done += bytesRead;
  }
  return buf.subarray(0, done);
}

/** Opens a backup file and verifies it whole (both checksums) before returning. */
export async function openBackup(path: string): Promise<BackupReader> {
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (err) {
    throw new BackupFileError(`cannot open ${path}: ${(err as Error).message}`);
  }
  try {
    const { size } = await handle.stat();
    const fixed = await readAt(handle, 0, 12);
    if (fixed.length < 12 || !fixed.subarray(0, 8).equals(HEADER_MAGIC))
      throw new BackupFileError(`${path} is not a Fermata backup (bad magic)`);
    const headerBytes = fixed.readUInt32BE(8);
    if (headerBytes > MAX_HEADER_BYTES)
      throw new BackupFileError(`${path}: header of ${headerBytes} bytes is larger than ${MAX_HEADER_BYTES}`);
    const dataStart = 12 + headerBytes;
    if (size < dataStart + TRAILER_BYTES)
      throw new BackupFileError(`${path} is truncated (${size} bytes): no trailer`);
    const header = await readAt(handle, 12, headerBytes);
    let parsed: unknown;
    try {
      parsed = JSON.parse(header.toString('utf8'));
    } catch {
      throw new BackupFileError(`${path}: the header is not JSON`);
    }
    const info = checkInfo(parsed, path);
    const trailerAt = size - TRAILER_BYTES;
    const trailer = await readAt(handle, trailerAt, TRAILER_BYTES);
    if (!trailer.subarray(0, 8).equals(TRAILER_MAGIC))
      throw new BackupFileError(`${path} is truncated or damaged: no trailer at its end`);
    const dataBytes = Number(trailer.readBigUInt64BE(8));
    if (dataBytes !== trailerAt - dataStart)
      throw new BackupFileError(
        `${path}: the trailer says ${dataBytes} data bytes, the file holds ${trailerAt - dataStart}`,
      );
    const totals: BackupTotals = {
      dataBytes,
      records: Number(trailer.readBigUInt64BE(16)),
      messages: Number(trailer.readBigUInt64BE(24)),
      sha256: trailer.subarray(32, 64).toString('hex'),
    };
    // One pass over the whole file checks both sums.
    const fileHash = createHash('sha256');
    const dataHash = createHash('sha256');
    for (let at = 0; at < trailerAt + TRAILER_BYTES - 32; ) {
      const end = trailerAt + TRAILER_BYTES - 32;
      const chunk = await readAt(handle, at, Math.min(READ_CHUNK_BYTES, end - at));
      if (chunk.length === 0) throw new BackupFileError(`${path} ended early`);
      fileHash.update(chunk);
      const from = Math.max(at, dataStart);
      const to = Math.min(at + chunk.length, trailerAt);
      if (to > from) dataHash.update(chunk.subarray(from - at, to - at));
      at += chunk.length;
    }
    if (dataHash.digest('hex') !== totals.sha256)
      throw new BackupFileError(`${path}: the data does not match its sha256 ${totals.sha256} (damaged)`);
    if (!fileHash.digest().equals(trailer.subarray(64, 96)))
      throw new BackupFileError(`${path}: the file does not match its checksum (damaged header or trailer)`);
    await handle.close();
    return {
      path,
      info,
      totals,
      chunks: () => dataChunks(path, dataStart, dataBytes, totals.sha256),
    };
  } catch (err) {
    await handle.close().catch(() => undefined);
    throw err;
  }
}

async function* dataChunks(
  path: string,
  start: number,
  length: number,
  sha256: string,
): AsyncGenerator<Uint8Array> {
  const handle = await open(path, 'r');
  try {
    const hash = createHash('sha256');
    for (let done = 0; done < length; ) {
      const chunk = await readAt(handle, start + done, Math.min(READ_CHUNK_BYTES, length - done));
      if (chunk.length === 0) throw new BackupFileError(`${path} ended early`);
      hash.update(chunk);
      done += chunk.length;
      if (done === length && hash.digest('hex') !== sha256)
        throw new BackupFileError(`${path} changed while it was read (sha256 mismatch)`);
      yield chunk;
    }
  } finally {
    await handle.close();
  }
}
