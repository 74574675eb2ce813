/**
 * One queue's lease rounds on the leader (QueueRound): the state the
 * dispatcher keeps per queue, and the rules that change it.
 */
import { decodeKey, dueField } from '../../keys.js';

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
 * rounds whose lease commands are not all answered yet (and the tags they
 * carry, which reads skip) and where its next read starts. A queue is read
 * by one round at a time; several of its rounds may await apply at once.
 * When rounds may start is the dispatcher's (RoundCadence). The dispatcher
 * keeps one per queue that has any of this state, for one leadership
 * (`halt` drops them all).
 */
export class QueueRound {
  /** A lease round is reading the queue (one read at a time). */
  private scanning = false;
  /** Rounds whose entries went into lease commands not all answered yet. */
  private commandsInFlight = 0;
  /** Tags (`tagKeyOf`) of those rounds: reads skip them. */
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

  /** Nothing is kept for the queue: the dispatcher may forget the round. */
  get idle(): boolean {
    return (
      !this.scanning &&
      this.commandsInFlight === 0 &&
      this.leasing.size === 0 &&
      this.notedDuringScan === undefined &&
      this.cursor === undefined &&
      this.lapseAtMs === undefined
    );
  }

  /** Whether a new round may read the queue: none reads it, and fewer than `maxInFlight` rounds await apply. */
  mayStart(maxInFlight: number): boolean {
    return !this.scanning && this.commandsInFlight < maxInFlight;
  }

  /** A round starts reading the queue. */
  beginRead(): void {
    this.scanning = true;
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

  /** What the read found: where the next one starts, and the queue's next due time (infinity: nothing left). */
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
    return next;
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

  /** A round's entries (`tagKeys`) go into lease commands (one, or several the dispatcher fills). */
  proposed(tagKeys: readonly string[]): void {
    for (const k of tagKeys) this.leasing.add(k);
    this.commandsInFlight++;
  }

  /** Every lease command carrying the round's `tagKeys` was answered (or failed and waited its pause). */
  answered(tagKeys: readonly string[]): void {
    if (this.commandsInFlight > 0) this.commandsInFlight--;
    for (const k of tagKeys) this.leasing.delete(k);
  }
}
