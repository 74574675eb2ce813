/**
 * The record of a simulated run that the checker reads: every client call
 * with its answer (an answer that never came is `unknown`), and every
 * delivery a consumer received. Times are true simulated time (`atMs`) unless
 * named after the leader's clock.
 */
import { createHash } from 'node:crypto';

export type Outcome = 'ok' | 'lease-expired' | 'unknown' | 'error';

/** A rule of the checker (checker.ts) that a run broke. */
export interface Violation {
  readonly rule: string;
  readonly id?: bigint;
  readonly message: string;
}

export interface PublishCall {
  readonly key: string;
  readonly invokedAtMs: number;
  answeredAtMs?: number;
  /** Present when the publish was acknowledged. */
  answer?: { id: bigint; dueAtMs: number; deduplicated: boolean };
  readonly ttlMs: number;
  /** The publish's delay (its due time is the leader's stamp plus it): checked in true time too. */
  readonly delayMs?: number;
  /** Its deadline (`deliver_before_ms`, by the leaders' clocks), when it has one. */
  readonly deliverBeforeMs?: number;
  /** Its ordering key, in a run whose topic orders by key (per-key ordering rules). */
  readonly orderingKey?: string;
}

export interface DeliveryRecord {
  /** The topic (absent: `sim`, the topic of the publishes). */
  readonly topic?: string;
  readonly atMs: number;
  readonly id: bigint;
  readonly tag: string;
  readonly attempt: number;
  readonly dueAtMs: number;
  /** When it was sent, by the delivering leader's clock (its stamp). */
  readonly sentLeaderMs: number;
  /** When the application got it, by the delivering leader's clock (its stamp, or the lease start if later). */
  readonly handoverLeaderMs: number;
  /** When its lease ends unless extended (the state machine's clock). */
  readonly leaseEndMs?: number;
  readonly node: string;
  readonly consumer: number;
  /** The sending node had applied the deletion of the delivery's topic (it was being purged there). */
  readonly topicDeletingOnSender?: boolean;
}

export interface SettleCall {
  readonly kind: 'ack' | 'nack' | 'extend';
  readonly id: bigint;
  readonly tag: string;
  readonly invokedAtMs: number;
  answeredAtMs?: number;
  outcome: Outcome;
}

export interface ControlCall {
  readonly kind: 'cancel' | 'reschedule';
  /** The message the call named (by id or by its key). */
  readonly id: bigint;
  readonly byKey: boolean;
  readonly invokedAtMs: number;
  answeredAtMs?: number;
  /** cancelled / rescheduled / not-found / in-flight / already-done, or unknown. */
  status: string;
  dueAtMs?: number;
}

/**
 * What the replicated log applied to the queues of the publishes' topic, in
 * log order: each change of its pause (the topic's, or a group's) and each
 * lease command's leases. Recorded from whichever replica applied an index
 * first (delivery-controls.ts `LogObserver`): every replica applies the same.
 */
export type AppliedRecord =
  | {
      readonly kind: 'pause';
      readonly index: number;
      /** '' for the topic's own flag. */
      readonly group: string;
      readonly paused: boolean;
    }
  | {
      readonly kind: 'lease';
      readonly index: number;
      readonly group: string;
      /** The state machine's time at the command (its stamp, never behind an earlier one). */
      readonly nowMs: number;
      /** What it leased: the message and when its lease starts (later than nowMs when taken ahead). */
      readonly leased: ReadonlyArray<{ readonly id: bigint; readonly startsAtMs: number }>;
    };

export class History {
  readonly publishes: PublishCall[] = [];
  readonly deliveries: DeliveryRecord[] = [];
  readonly settles: SettleCall[] = [];
  readonly controls: ControlCall[] = [];
  /** Pauses and leases of the publishes' topic as the log applied them (absent where nothing observed it). */
  readonly applied: AppliedRecord[] = [];
  /** The last lines of what happened, for a failure report. */
  private readonly trace: string[] = [];
  private traceCount = 0;
  private readonly hash = createHash('sha256');

  note(atMs: number, line: string): void {
    this.traceCount++;
    const text = `${atMs.toString().padStart(7)} ${line}`;
    this.hash.update(text).update('\n');
    this.trace.push(text);
    if (this.trace.length > 400) this.trace.splice(0, 200);
  }

  get traceLines(): number {
    return this.traceCount;
  }

  /** sha256 of every trace line so far: equal on replay. */
  digest(): string {
    return this.hash.copy().digest('hex').slice(0, 16);
  }

  /** Trace lines naming `needle` (a message id), else the last ones. */
  tail(needle?: string, max = 16): string[] {
    const hits = needle ? this.trace.filter((l) => l.includes(needle)) : [];
    return (hits.length > 0 ? hits : this.trace).slice(-max);
  }

  /** Acknowledged messages by id: the first answer that named them. */
  acknowledged(): Map<bigint, PublishCall> {
    const out = new Map<bigint, PublishCall>();
    for (const p of this.publishes) if (p.answer && !out.has(p.answer.id)) out.set(p.answer.id, p);
    return out;
  }
}
