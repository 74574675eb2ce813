import type { NodeId } from '../types.js';

/** A ReadIndex request waiting for a heartbeat quorum (§6.4): answered with `index` once confirmed. */
export interface PendingRead {
  readonly seq: number;
  readonly index: number;
  readonly from: NodeId;
  readonly context: Uint8Array;
}

/**
 * The leader's queue of ReadIndex requests. Each request gets a sequence number;
 * every heartbeat carries the newest number at the time it is sent, and followers
 * echo it. A follower that echoes `seq` has confirmed, after every request with a
 * number <= seq was registered, that this node was still its leader.
 */
export class ReadOnlyQueue {
  private seq = 0;
  private pending: PendingRead[] = [];
  private acks = new Map<NodeId, number>();
  /** Requests that arrived before the leader committed an entry of its term. */
  private waiting: { from: NodeId; context: Uint8Array }[] = [];

  latestSeq(): number {
    return this.seq;
  }

  add(self: NodeId, index: number, from: NodeId, context: Uint8Array): void {
    this.seq++;
    this.pending.push({ seq: this.seq, index, from, context });
    this.acks.set(self, this.seq);
  }

  wait(from: NodeId, context: Uint8Array): void {
    this.waiting.push({ from, context });
  }

  takeWaiting(): { from: NodeId; context: Uint8Array }[] {
    const out = this.waiting;
    this.waiting = [];
    return out;
  }

  ack(from: NodeId, seq: number): void {
    if ((this.acks.get(from) ?? 0) < seq) this.acks.set(from, seq);
  }

  /** Removes and returns the requests confirmed by a quorum of `voters`. */
  takeConfirmed(voters: readonly NodeId[], quorum: number): PendingRead[] {
    const out: PendingRead[] = [];
    while (this.pending.length > 0) {
      const head = this.pending[0]!;
      let count = 0;
      for (const voter of voters) if ((this.acks.get(voter) ?? 0) >= head.seq) count++;
      if (count < quorum) break;
      out.push(head);
      this.pending.shift();
    }
    return out;
  }

  /** Leadership lost: requests are dropped (callers time out and retry). Sequence numbers keep growing. */
  clear(): void {
    this.pending = [];
    this.waiting = [];
    this.acks.clear();
  }
}

export function encodeReadSeq(seq: number): Uint8Array {
  return new TextEncoder().encode(`read:${seq}`);
}

export function decodeReadSeq(context: Uint8Array | undefined): number {
  if (!context) return 0;
  const text = new TextDecoder().decode(context);
  if (!text.startsWith('read:')) return 0;
  const seq = Number(text.slice(5));
  return Number.isSafeInteger(seq) ? seq : 0;
}
