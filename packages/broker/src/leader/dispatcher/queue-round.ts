/**
 * One queue's lease rounds on the leader (QueueRound): the state the
 * dispatcher keeps per queue, and the rules that change it.
 */
import type { Clock } from '@fermata/base';
import { decodeKey, dueField } from '../../keys.js';

/**
 * Least time between two lease rounds of a queue whose next entry is not
 * urgent (due later than `pushAheadMs`, or this, from now): with a look-ahead of
 * seconds, every ack that frees a slot or publish that adds an entry within
 * it would otherwise start a round of its own (a Raft round on every node for
 * a few entries). An urgent entry is leased at once.
 */
export const LEASE_ROUND_INTERVAL_MS = 25;

/** Where a queue's next read starts (see `QueueRound.cursor`). */
interface ScanCursor {
  /** The first key the read looks at (inclusive). */
  readonly tag: Uint8Array;
  /** The tag's due field: a time bucket, or the due ms with no buckets. */
  readonly bucket: number;
  readonly timeBucketMs: number;
}

/** What a due read (BrokerReader.scanDue) tells the round besides the entries it took. */
export interface DueRead {
  readonly nextDueMs: number | undefined;
  readonly resumeTag: Uint8Array | undefined;
  readonly passedLeaseEndMs: number;
}

/** A due time as the queue key's due field. */
function bucketOf(dueMs: number, timeBucketMs: number): number {
  return Number(dueField(BigInt(dueMs), BigInt(timeBucketMs)));
}

/**
 * One queue's lease rounds on the leader: whether a read of it runs, the
 * lease commands it proposed that are not answered yet (and the tags they
 * carry, which reads skip), where its next read starts, and when its last
 * round started. A queue is read by one round at a time; several of its lease
 * commands may await apply at once. The dispatcher keeps one per queue that
 * has any of this state, for one leadership (`halt` drops them all).
 */
export class QueueRound {
  /** A lease round is reading the queue (one read at a time). */
  private scanning = false;
  /** Lease commands proposed and not yet answered. */
  private commandsInFlight = 0;
  /** Tags (`tagKeyOf`) carried by lease commands not yet answered: reads skip them. */
  readonly leasing = new Set<string>();
  /** The earliest due time noted while a read was running (the read may have missed it). */
  private notedDuringScan: number | undefined;
  /**
   * Where the next read starts: the first entry the last read met and neither
   * took nor passed (`scanDue`'s `resumeTag`), while nothing came due at or
   * before it since (`noteDue` drops the cursor of any earlier entry, and
   * every insert or move reaches `noteDue`) and no lease before it can have
   * run out (`lapseAtMs`). Entries leased in place stay at the queue's head,
   * and acked ones leave deleted keys that LevelDB would otherwise step over
   * on every read until a compaction drops them.
   */
  private cursor: ScanCursor | undefined;
  /**
   * The earliest end of a lease that a read passed or a lease command took
   * since the last read from the queue's start: from then on an entry before
   * the cursor may be due again, so the next read starts over.
   */
  private lapseAtMs: number | undefined;
  /** When the last lease round started, on the monotonic clock (see LEASE_ROUND_INTERVAL_MS). */
  private lastRoundAtMs: number | undefined;

  /** Nothing is kept for the queue: the dispatcher may forget the round. */
  get idle(): boolean {
    return (
      !this.scanning &&
      this.commandsInFlight === 0 &&
      this.leasing.size === 0 &&
      this.notedDuringScan === undefined &&
      this.cursor === undefined &&
      this.lapseAtMs === undefined &&
      this.lastRoundAtMs === undefined
    );
  }

  /** Whether a new round may read the queue: none reads it, and fewer than `maxInFlight` commands await apply. */
  mayStart(maxInFlight: number): boolean {
    return !this.scanning && this.commandsInFlight < maxInFlight;
  }

  /** A round starts reading the queue at `monotonicMs`. */
  beginRead(monotonicMs: number): void {
    this.scanning = true;
    this.lastRoundAtMs = monotonicMs;
  }

  /** The round's read ended (answered or failed). */
  endRead(): void {
    this.scanning = false;
    this.notedDuringScan = undefined;
  }

  /**
   * Where the read at `nowMs` starts: the cursor, unless the queue's time
   * buckets changed or a lease behind it ran out; undefined = the queue's
   * start, and a read from the start passes every running lease of the
   * queue, so it learns their earliest end anew.
   */
  readFrom(timeBucketMs: number, nowMs: number): Uint8Array | undefined {
    const c = this.cursor;
    if (c && (c.timeBucketMs !== timeBucketMs || (this.lapseAtMs ?? Number.POSITIVE_INFINITY) <= nowMs)) {
      this.cursor = undefined;
    }
    if (!this.cursor) this.lapseAtMs = undefined;
    return this.cursor?.tag;
  }

  /**
   * What the read found: where the next one starts, and the queue's next due
   * time (infinity: nothing left, and the round interval starts over).
   */
  afterRead(read: DueRead, timeBucketMs: number, leaseAheadMs: number): number {
    this.noteLapse(read.passedLeaseEndMs);
    const noted = this.notedDuringScan;
    const resume = read.resumeTag;
    const bucket = resume && Number(decodeKey(resume).due);
    // Something noted during the read at or before where the next one would start may lie before it: no cursor.
    if (resume && bucket !== undefined && (noted === undefined || bucketOf(noted, timeBucketMs) > bucket)) {
      this.cursor = { tag: resume, bucket, timeBucketMs };
    } else {
      this.cursor = undefined;
    }
    // A lease behind the cursor that runs out makes the queue due then (as a due time: its end + the look-ahead).
    const lapse = this.lapseAtMs;
    const next = Math.min(
      read.nextDueMs ?? Number.POSITIVE_INFINITY,
      noted ?? Number.POSITIVE_INFINITY,
      lapse === undefined ? Number.POSITIVE_INFINITY : lapse + leaseAheadMs,
    );
    if (next === Number.POSITIVE_INFINITY) this.lastRoundAtMs = undefined;
    return next;
  }

  /** The queue has nothing to lease (no topic, or it is being deleted): the round interval starts over. */
  forgetLastRound(): void {
    this.lastRoundAtMs = undefined;
  }

  /** An entry became due at `dueMs` (publish, nack, reschedule): a cursor past it goes, a running read notes it. */
  noteDue(dueMs: number): void {
    const c = this.cursor;
    if (c && bucketOf(dueMs, c.timeBucketMs) <= c.bucket) this.cursor = undefined;
    this.noteDuringRead(dueMs);
  }

  /**
   * Entries from `dueMs` on lie behind the cursor and are pending (a round
   * took them and did not lease them): the next read starts from the queue's
   * start, and a read running now sets no cursor.
   */
  rereadFrom(dueMs: number): void {
    this.cursor = undefined;
    this.noteDuringRead(dueMs);
  }

  private noteDuringRead(dueMs: number): void {
    if (!this.scanning) return;
    const before = this.notedDuringScan;
    if (before === undefined || dueMs < before) this.notedDuringScan = dueMs;
  }

  /** A lease of the queue ends at `endMs`: its entry, before the cursor, may be due again then. */
  noteLapse(endMs: number): void {
    if (endMs === Number.POSITIVE_INFINITY) return;
    const before = this.lapseAtMs;
    if (before === undefined || endMs < before) this.lapseAtMs = endMs;
  }

  /** The read position is no longer known (a new leadership, or the queue was deleted). */
  forgetPosition(): void {
    this.cursor = undefined;
    this.lapseAtMs = undefined;
  }

  /** A lease command carrying `tagKeys` was proposed. */
  proposed(tagKeys: readonly string[]): void {
    for (const k of tagKeys) this.leasing.add(k);
    this.commandsInFlight++;
  }

  /** The lease command carrying `tagKeys` was answered (or failed and waited its pause). */
  answered(tagKeys: readonly string[]): void {
    if (this.commandsInFlight > 0) this.commandsInFlight--;
    for (const k of tagKeys) this.leasing.delete(k);
  }

  /**
   * The earliest time the queue's next lease round may start: at once when it
   * has not had one for LEASE_ROUND_INTERVAL_MS or its next entry
   * (`nextDueMs`) is due within `pushAheadMs` (at least the interval) from
   * then on, else when the interval ends.
   */
  allowedAtMs(
    nowMs: number,
    clock: Pick<Clock, 'monotonicMs'>,
    nextDueMs: number | undefined,
    pushAheadMs: number,
  ): number {
    const last = this.lastRoundAtMs;
    const wait = last === undefined ? 0 : last + LEASE_ROUND_INTERVAL_MS - clock.monotonicMs();
    if (wait <= 0) return nowMs;
    // With a push-ahead shorter than the interval, an entry due within the interval is urgent too.
    const urgentAt = (nextDueMs ?? Number.POSITIVE_INFINITY) - Math.max(pushAheadMs, LEASE_ROUND_INTERVAL_MS);
    return Math.max(nowMs, Math.min(nowMs + wait, urgentAt));
  }
}
