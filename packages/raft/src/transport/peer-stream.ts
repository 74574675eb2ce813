import type { pb, RaftClient } from '@fermata/protocol';
import * as grpc from '@grpc/grpc-js';
import type { Message, NodeId } from '../types.js';
import { messageBytes, messageToWire } from './codec.js';
import type { Logger } from './logger.js';

export interface PeerStreamLimits {
  /** Most messages queued for one peer; beyond it the oldest are dropped (Raft tolerates loss). */
  readonly maxQueuedMessages: number;
  /** Most entry bytes in one stream write. */
  readonly maxBatchBytes: number;
  readonly minBackoffMs: number;
  readonly maxBackoffMs: number;
}

export interface PeerStreamStats {
  connected: boolean;
  queued: number;
  batchesSent: number;
  messagesSent: number;
  messagesDropped: number;
  reconnects: number;
}

/**
 * The one long-lived `SendMessages` stream to one peer. Everything queued for
 * the peer when the stream is writable goes out as one batch. While the peer
 * is down, messages wait in a bounded queue (oldest dropped first) and the
 * stream is re-opened with exponential backoff, so a dead peer costs the others
 * nothing.
 */
export class PeerStream {
  readonly stats: PeerStreamStats = {
    connected: false,
    queued: 0,
    batchesSent: 0,
    messagesSent: 0,
    messagesDropped: 0,
    reconnects: 0,
  };
  private queue: Message[] = [];
  private head = 0;
  private call: grpc.ClientWritableStream<pb.RaftBatch.$Properties> | undefined;
  private writable = false;
  private flushScheduled = false;
  private backoffMs: number;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    readonly peer: NodeId,
    readonly address: string,
    readonly client: RaftClient,
    private readonly self: {
      readonly id: NodeId;
      readonly clusterId: string;
      readonly address?: string;
      /** This node's wall clock: a message stamped with one (`wallTimeMs`) is stamped again as it leaves. */
      readonly wallNowMs?: () => number;
    },
    private readonly limits: PeerStreamLimits,
    private readonly onUnreachable: (peer: NodeId) => void,
    private readonly log: Logger,
  ) {
    this.backoffMs = limits.minBackoffMs;
  }

  enqueue(message: Message): void {
    if (this.closed) return;
    this.queue.push(message);
    if (this.queue.length - this.head > this.limits.maxQueuedMessages) {
      this.head++;
      this.stats.messagesDropped++;
      this.onUnreachable(this.peer);
    }
    this.stats.queued = this.queue.length - this.head;
    this.scheduleFlush();
  }

  close(): void {
    this.closed = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.call?.end();
    this.call = undefined;
    this.queue = [];
    this.head = 0;
    this.client.close();
  }

  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    // setImmediate, not a microtask: every message the driver sends in this
    // turn of the event loop joins the same write.
    setImmediate(() => {
      this.flushScheduled = false;
      this.flush();
    });
  }

  private flush(): void {
    if (this.closed) return;
    if (!this.call) {
      if (!this.reconnectTimer) this.open();
      return;
    }
    while (this.writable && this.head < this.queue.length) {
      const batch: Message[] = [];
      let bytes = 0;
      while (this.head < this.queue.length) {
        const m = this.queue[this.head] as Message;
        const size = messageBytes(m);
        if (batch.length > 0 && bytes + size > this.limits.maxBatchBytes) break;
        batch.push(m);
        bytes += size;
        this.head++;
      }
      this.stats.batchesSent++;
      this.stats.messagesSent += batch.length;
      const ok = this.call.write({
        clusterId: this.self.clusterId,
        from: this.self.id,
        ...(this.self.address ? { fromAddress: this.self.address } : {}),
        messages: batch.map((m) => messageToWire(this.stamped(m))),
      });
      if (!ok) {
        this.writable = false;
        const call = this.call;
        call.once('drain', () => {
          if (this.call !== call) return;
          this.writable = true;
          this.flush();
        });
      }
    }
    if (this.head === this.queue.length) {
      this.queue = [];
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    this.stats.queued = this.queue.length - this.head;
  }

  /**
   * A vote request (or a refusal for the clock) carries the time it leaves, not
   * the time it was queued: one that waited here for a peer that was down would
   * otherwise look like a clock that far behind (node/vote-clock.ts).
   */
  private stamped(m: Message): Message {
    const now = this.self.wallNowMs;
    return m.wallTimeMs && now ? { ...m, wallTimeMs: now() } : m;
  }

  private open(): void {
    const call = this.client.sendMessages(new grpc.Metadata(), {}, (error) => {
      if (this.call !== call) return;
      this.call = undefined;
      this.writable = false;
      this.stats.connected = false;
      if (this.closed) return;
      if (error) {
        // Refused (another cluster, not a member, wrong secret or certificate): retrying fast cannot help.
        const refused =
          error.code === grpc.status.PERMISSION_DENIED || error.code === grpc.status.UNAUTHENTICATED;
        this.log[refused ? 'warn' : 'debug'](
          { peer: this.peer, address: this.address, code: error.code, details: error.details },
          'raft peer stream ended',
        );
        if (refused) this.backoffMs = this.limits.maxBackoffMs;
      }
      // Whatever was written into the dead stream may be lost: let Raft probe again.
      this.onUnreachable(this.peer);
      this.stats.reconnects++;
      this.reconnectTimer = setTimeout(() => {
        this.reconnectTimer = undefined;
        this.flush();
        // Keep a stream open even with nothing to send, so a restarted peer is
        // reconnected before the next heartbeat needs it.
        if (!this.call && !this.closed && !this.reconnectTimer) this.open();
      }, this.backoffMs);
      this.backoffMs = Math.min(this.backoffMs * 2, this.limits.maxBackoffMs);
    });
    // The server sends its headers as soon as it accepted the stream: only
    // then is the peer known to be up, and the backoff starts over.
    // Nothing is written until then: messages written into a stream that never
    // connects are lost, while queued ones survive (the newest, up to the limit).
    call.on('metadata', () => {
      if (this.call !== call) return;
      this.stats.connected = true;
      this.backoffMs = this.limits.minBackoffMs;
      this.writable = true;
      this.flush();
    });
    call.on('error', () => undefined);
    this.call = call;
    this.writable = false;
  }
}
