import { createHash, randomBytes } from 'node:crypto';
import { type FileHandle, mkdir, open, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { pb } from '@fermata/protocol';
import * as grpc from '@grpc/grpc-js';
import type { Message } from '../types.js';
import { MalformedMessageError, messageFromWire } from './codec.js';

export class SnapshotTransferError extends Error {
  override name = 'SnapshotTransferError';
  constructor(
    message: string,
    readonly code: grpc.status,
  ) {
    super(message);
  }
}

/**
 * Receives one `InstallSnapshot` stream into a temporary file under `dir`,
 * hashing as it writes. `finish()` checks the final checksum and fsyncs; only
 * then is the file handed on. Anything else removes the file.
 */
export class SnapshotReceiver {
  message: Message | undefined;
  bytes = 0;
  readonly path: string;
  private file: FileHandle | undefined;
  private readonly hash = createHash('sha256');
  private done = false;

  constructor(
    dir: string,
    private readonly maxSnapshotBytes: number,
  ) {
    this.path = join(dir, `incoming-${Date.now()}-${randomBytes(6).toString('hex')}.tmp`);
  }

  /** The first chunk: the snapshot message. */
  async start(dir: string, chunk: pb.SnapshotChunk): Promise<Message> {
    if (!chunk.message) {
      throw new SnapshotTransferError(
        'the first snapshot chunk carries no message',
        grpc.status.INVALID_ARGUMENT,
      );
    }
    let message: Message;
    try {
      message = messageFromWire(chunk.message as pb.RaftMessage);
    } catch (error) {
      if (error instanceof MalformedMessageError) {
        throw new SnapshotTransferError(error.message, grpc.status.INVALID_ARGUMENT);
      }
      throw error;
    }
    if (message.type !== 'snapshot' || !message.snapshot) {
      throw new SnapshotTransferError(
        `the first snapshot chunk carries a ${message.type} message without snapshot meta`,
        grpc.status.INVALID_ARGUMENT,
      );
    }
    if (message.from !== chunk.from) {
      throw new SnapshotTransferError(
        `snapshot message from ${message.from} on a stream from ${chunk.from}`,
        grpc.status.INVALID_ARGUMENT,
      );
    }
    this.message = message;
    await mkdir(dir, { recursive: true });
    this.file = await open(this.path, 'wx');
    return message;
  }

  async write(data: Uint8Array): Promise<void> {
    if (!this.file)
      throw new SnapshotTransferError('snapshot data before its message', grpc.status.INVALID_ARGUMENT);
    if (data.length === 0) return;
    this.bytes += data.length;
    if (this.bytes > this.maxSnapshotBytes) {
      throw new SnapshotTransferError(
        `snapshot exceeds maxSnapshotBytes (${this.maxSnapshotBytes})`,
        grpc.status.RESOURCE_EXHAUSTED,
      );
    }
    this.hash.update(data);
    await this.file.write(data);
  }

  /** Verifies the checksum of the last chunk; the file is then complete and durable. */
  async finish(sha256: Uint8Array): Promise<void> {
    if (!this.file)
      throw new SnapshotTransferError('snapshot ended before its message', grpc.status.INVALID_ARGUMENT);
    const actual = this.hash.digest();
    if (!actual.equals(sha256)) {
      throw new SnapshotTransferError(
        `snapshot checksum mismatch after ${this.bytes} bytes: got ${actual.toString('hex')}, sender says ${Buffer.from(sha256).toString('hex')}`,
        grpc.status.DATA_LOSS,
      );
    }
    await this.file.sync();
    await this.file.close();
    this.file = undefined;
    this.done = true;
  }

  /** Removes the temporary file unless it was handed on (then its new owner removes it) or `evenIfDone`. */
  async discard(evenIfDone = false): Promise<void> {
    const file = this.file;
    this.file = undefined;
    await file?.close().catch(() => undefined);
    if (!this.done || evenIfDone) await unlink(this.path).catch(() => undefined);
  }
}
