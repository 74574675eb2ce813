import { createHash } from 'node:crypto';
import { type BackupClient, makeClient, type pb, toBigInt, toSafeNumber } from '@fermata/protocol';
import * as grpc from '@grpc/grpc-js';
import type { Connection } from './connection.js';
import { FermataError, toFermataError, UnavailableError } from './errors.js';

/** What a backup says about itself: where and when it was taken. */
export interface BackupInfo {
  /** Version of the data format (the server's state snapshot stream). */
  readonly formatVersion: number;
  readonly clusterId: string;
  /** The leader that took it, and its term. */
  readonly nodeId: string;
  readonly term: bigint;
  /** The Raft index the snapshot is at: every write committed up to it is in the backup. */
  readonly appliedIndex: bigint;
  /** The leader's clock when it was taken (epoch ms). */
  readonly takenAtMs: number;
  /** Pending and in-flight queue entries when it was taken (for progress). */
  readonly queueEntries: number;
}

/** One piece of a backup's data, with the counts sent so far (this piece included). */
export interface BackupPiece {
  readonly data: Uint8Array;
  readonly records: number;
  readonly messages: number;
}

/** The end of a backup: sizes and the leader's SHA-256 of the data, which the SDK checked. */
export interface BackupTotals {
  readonly dataBytes: number;
  readonly records: number;
  readonly messages: number;
  /** Hex SHA-256 of the data. */
  readonly sha256: string;
}

/** A backup being streamed from the leader (see {@link FermataClient.backup}). */
export interface BackupStream {
  readonly info: BackupInfo;
  /**
   * The data, piece by piece. Ends once the trailer arrived and the data
   * matched its checksum (then `totals` is set); throws otherwise. Read once.
   */
  pieces(): AsyncIterable<BackupPiece>;
  /** Set after `pieces()` ended without error. */
  readonly totals: BackupTotals | undefined;
  /** Stops the stream (the leader releases its snapshot). */
  cancel(): void;
}

/** How long the leader may take to start a backup (its ReadIndex round and snapshot). */
const START_TIMEOUT_MS = 30_000;

class Stream implements BackupStream {
  totals: BackupTotals | undefined;
  private read = false;

  constructor(
    readonly info: BackupInfo,
    private readonly call: grpc.ClientReadableStream<pb.BackupChunk>,
    private readonly rest: AsyncIterator<pb.BackupChunk>,
  ) {}

  cancel(): void {
    this.call.cancel();
  }

  async *pieces(): AsyncGenerator<BackupPiece> {
    if (this.read) throw new Error('a backup stream is read once'); // boundary: iterated twice
    this.read = true;
    const hash = createHash('sha256');
    let dataBytes = 0;
    try {
      for (;;) {
        let next: IteratorResult<pb.BackupChunk>;
        try {
          next = await this.rest.next();
        } catch (e) {
          throw toFermataError(e);
        }
        if (next.done) throw new UnavailableError('the backup stream ended before its trailer');
        const chunk = next.value;
        if (chunk.data) {
          const data = chunk.data.data ?? new Uint8Array(0);
          hash.update(data);
          dataBytes += data.length;
          yield {
            data,
            records: toSafeNumber(chunk.data.records, 'data.records'),
            messages: toSafeNumber(chunk.data.messages, 'data.messages'),
          };
          continue;
        }
        if (chunk.trailer) {
          const t = chunk.trailer;
          const totals: BackupTotals = {
            dataBytes: toSafeNumber(t.dataBytes, 'trailer.data_bytes'),
            records: toSafeNumber(t.records, 'trailer.records'),
            messages: toSafeNumber(t.messages, 'trailer.messages'),
            sha256: Buffer.from(t.sha256 ?? new Uint8Array(0)).toString('hex'),
          };
          const sha256 = hash.digest('hex');
          if (sha256 !== totals.sha256 || dataBytes !== totals.dataBytes) {
            throw new FermataError(
              grpc.status.DATA_LOSS,
              `backup data damaged in transit: received ${dataBytes} bytes with sha256 ${sha256}, the leader sent ${totals.dataBytes} bytes with sha256 ${totals.sha256}`,
            );
          }
          this.totals = totals;
          return;
        }
        throw new FermataError(grpc.status.INTERNAL, 'unexpected message in the backup stream');
      }
    } finally {
      if (this.totals === undefined) this.call.cancel();
    }
  }
}

/**
 * Opens a backup stream on the leader (retrying on not-leader and
 * unavailable until the header arrives, within `deadlineMs`).
 */
export function openBackup(conn: Connection, deadlineMs?: number): Promise<BackupStream> {
  return conn.call(
    'backup',
    async (ctx) => {
      // The Backup service on the node's existing channel.
      const client: BackupClient = makeClient(
        'Backup',
        ctx.stubs.address,
        grpc.credentials.createInsecure(),
        {
          channelOverride: ctx.stubs.cluster.getChannel(),
        },
      );
      const call = client.takeBackup({}, ctx.metadata);
      const rest = call[Symbol.asyncIterator]() as AsyncIterator<pb.BackupChunk>;
      const timer = setTimeout(() => call.cancel(), START_TIMEOUT_MS);
      let first: IteratorResult<pb.BackupChunk>;
      try {
        first = await rest.next();
      } catch (e) {
        call.cancel();
        throw toFermataError(e);
      } finally {
        clearTimeout(timer);
      }
      const h = first.done ? undefined : first.value.header;
      if (!h) {
        call.cancel();
        throw new UnavailableError('the backup stream did not start with its header');
      }
      const info: BackupInfo = {
        formatVersion: h.formatVersion ?? 0,
        clusterId: h.clusterId ?? '',
        nodeId: h.nodeId ?? '',
        term: toBigInt(h.term),
        appliedIndex: toBigInt(h.appliedIndex),
        takenAtMs: toSafeNumber(h.takenAtMs, 'header.taken_at_ms'),
        queueEntries: toSafeNumber(h.queueEntries, 'header.queue_entries'),
      };
      return new Stream(info, call, rest);
    },
    deadlineMs,
  );
}
