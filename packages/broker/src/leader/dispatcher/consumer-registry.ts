/**
 * Who is consuming which queue, with how much credit: the dispatcher's view of
 * its consumer streams. Pure bookkeeping (no timers, no I/O): the dispatcher
 * records deliveries (`writing`, `sent`, `delivered`), frees slots (`settled`,
 * `lapse`, `clear`) and shares lease rounds among consumers (`assign`).
 *
 * A consumer's window is the most unacked deliveries it may hold (prefetch,
 * changed by `credit{n}`). A slot frees on ack, nack, or when the lease lapses
 * after its delivery was sent: a delivery written to a stream the client does
 * not read (its write has not completed) keeps its slot past its lease, so
 * that the deliveries held for a client, read or not, never exceed its window.
 */
export interface ConsumerSlotHolder<Q> {
  readonly id: number;
  readonly queue: Q;
  window: number;
  /** Delivery tag (`tagKeyOf`) -> lease end (ms). */
  readonly inFlight: Map<string, number>;
  /** Tags of `inFlight` written to the stream whose write has not completed (the client is not reading). */
  readonly unsent: Set<string>;
  /**
   * No sent delivery's lease ends before this (ms; infinity when none is held):
   * a lower bound that a `lapse` which looks at every slot makes exact, so the
   * dispatcher's rounds need not look at every slot until it passes.
   */
  lapseFloorMs: number;
  /** The stream's write buffer is full (a write returned false) and has not drained since. */
  blocked: boolean;
  /**
   * The node's buffer for all streams was full at its last push
   * (DeliverySink.accepts): nothing more is pushed or promised to it until
   * room frees (Dispatcher.roomFreed).
   */
  bufferFull: boolean;
  /**
   * An unsent delivery's lease ended: the client has stopped reading. Such a
   * consumer is promised nothing more (no free slots) until its writes
   * complete, so the lapsed leases are not pushed again into its stream.
   */
  stalled: boolean;
  /**
   * Deliveries promised to this consumer and not yet pushed: entries carried
   * by lease commands not yet applied, and leased deliveries waiting for their
   * due time or for a free slot.
   */
  reserved: number;
  /**
   * Slots expected to free within the lease look-ahead (the consumer's recent
   * settle rate): leases may be taken ahead for that many more than the
   * window. Pushes never exceed the window.
   */
  ahead: number;
}

/** The slots of a consumer that holds nothing yet: every field of `ConsumerSlotHolder` but its names and window. */
export function emptySlots(): Pick<
  ConsumerSlotHolder<unknown>,
  'inFlight' | 'unsent' | 'lapseFloorMs' | 'blocked' | 'bufferFull' | 'stalled' | 'reserved' | 'ahead'
> {
  return {
    inFlight: new Map(),
    unsent: new Set(),
    lapseFloorMs: Number.POSITIVE_INFINITY,
    blocked: false,
    bufferFull: false,
    stalled: false,
    reserved: 0,
    ahead: 0,
  };
}

export class ConsumerRegistry<Q, C extends ConsumerSlotHolder<Q>> {
  private readonly byQueue = new Map<Q, C[]>();
  /** Round-robin cursor per queue: the index of the consumer served first next time. */
  private readonly cursor = new Map<Q, number>();

  add(consumer: C): void {
    const list = this.byQueue.get(consumer.queue) ?? [];
    list.push(consumer);
    this.byQueue.set(consumer.queue, list);
  }

  remove(consumer: C): void {
    const list = this.byQueue.get(consumer.queue);
    if (!list) return;
    const at = list.indexOf(consumer);
    if (at >= 0) list.splice(at, 1);
    if (list.length === 0) {
      this.byQueue.delete(consumer.queue);
      this.cursor.delete(consumer.queue);
    }
  }

  count(queue: Q): number {
    return this.byQueue.get(queue)?.length ?? 0;
  }

  queues(): IterableIterator<Q> {
    return this.byQueue.keys();
  }

  consumers(queue: Q): readonly C[] {
    return this.byQueue.get(queue) ?? [];
  }

  /** Deliveries one consumer may still be promised (leased for it): none while its stream does not drain. */
  static free<Q>(c: ConsumerSlotHolder<Q>): number {
    if (c.blocked || c.bufferFull || c.stalled) return 0;
    return Math.max(0, c.window + c.ahead - c.inFlight.size - c.reserved);
  }

  /** Total free slots over a queue's consumers. */
  credit(queue: Q): number {
    let total = 0;
    for (const c of this.byQueue.get(queue) ?? []) total += ConsumerRegistry.free(c);
    return total;
  }

  /**
   * Splits `n` deliveries of a queue among its consumers, one at a time in
   * round-robin order, never past a consumer's free slots. Returns how many each
   * gets (only consumers that get some); the cursor moves on so the next
   * assignment starts with the next consumer.
   */
  assign(queue: Q, n: number): Array<{ consumer: C; count: number }> {
    const list = this.byQueue.get(queue);
    if (!list || list.length === 0 || n <= 0) return [];
    const counts = new Array<number>(list.length).fill(0);
    let start = (this.cursor.get(queue) ?? 0) % list.length;
    let left = n;
    let progress = true;
    while (left > 0 && progress) {
      progress = false;
      for (let k = 0; k < list.length && left > 0; k++) {
        const i = (start + k) % list.length;
        const c = list[i]!;
        if (ConsumerRegistry.free(c) - counts[i]! > 0) {
          counts[i]!++;
          left--;
          progress = true;
        }
      }
    }
    start = (start + 1) % list.length;
    this.cursor.set(queue, start);
    const out: Array<{ consumer: C; count: number }> = [];
    for (let i = 0; i < list.length; i++)
      if (counts[i]! > 0) out.push({ consumer: list[i]!, count: counts[i]! });
    return out;
  }

  /** Records a sent delivery (an extended lease's new tag) to a consumer. */
  static delivered<Q>(c: ConsumerSlotHolder<Q>, tagKey: string, leaseEndMs: number): void {
    c.inFlight.set(tagKey, leaseEndMs);
    if (leaseEndMs < c.lapseFloorMs) c.lapseFloorMs = leaseEndMs;
  }

  /** Records a delivery written to the consumer's stream and not yet sent (its write has not completed). */
  static writing<Q>(c: ConsumerSlotHolder<Q>, tagKey: string, leaseEndMs: number): void {
    c.inFlight.set(tagKey, leaseEndMs);
    c.unsent.add(tagKey);
  }

  /** Ack or nack: frees the slot. Extend: moves the tag (old out, new in). */
  static settled<Q>(c: ConsumerSlotHolder<Q>, tagKey: string): boolean {
    c.unsent.delete(tagKey);
    const had = c.inFlight.delete(tagKey);
    if (c.inFlight.size === 0) c.lapseFloorMs = Number.POSITIVE_INFINITY;
    return had;
  }

  /** The consumer's stream ended: every slot frees. */
  static clear<Q>(c: ConsumerSlotHolder<Q>): void {
    c.inFlight.clear();
    c.unsent.clear();
    c.lapseFloorMs = Number.POSITIVE_INFINITY;
  }

  /** The writes of these deliveries completed: their slots may lapse from now on. Returns whether one is overdue. */
  static sent<Q>(c: ConsumerSlotHolder<Q>, tagKeys: readonly string[], nowMs: number): boolean {
    let overdue = false;
    for (const k of tagKeys) {
      if (!c.unsent.delete(k)) continue;
      const end = c.inFlight.get(k);
      if (end === undefined) continue;
      if (end <= nowMs) overdue = true;
      if (end < c.lapseFloorMs) c.lapseFloorMs = end;
    }
    if (c.stalled) c.stalled = ConsumerRegistry.hasOverdueUnsent(c, nowMs);
    return overdue;
  }

  private static hasOverdueUnsent<Q>(c: ConsumerSlotHolder<Q>, nowMs: number): boolean {
    for (const k of c.unsent) {
      const end = c.inFlight.get(k);
      if (end !== undefined && end <= nowMs) return true;
    }
    return false;
  }

  /**
   * Frees the slots whose lease ended by `nowMs` and whose delivery was sent
   * (telling `onLapse` each tag); returns how many.
   */
  static lapse<Q>(c: ConsumerSlotHolder<Q>, nowMs: number, onLapse?: (tagKey: string) => void): number {
    if (c.lapseFloorMs > nowMs) {
      // No sent delivery's lease has ended: only the unsent ones can make the consumer stalled.
      c.stalled = c.unsent.size > 0 && ConsumerRegistry.hasOverdueUnsent(c, nowMs);
      return 0;
    }
    let n = 0;
    let stalled = false;
    let floor = Number.POSITIVE_INFINITY;
    for (const [tag, end] of c.inFlight) {
      if (c.unsent.has(tag)) {
        if (end <= nowMs) stalled = true;
        continue;
      }
      if (end > nowMs) {
        if (end < floor) floor = end;
        continue;
      }
      c.inFlight.delete(tag);
      onLapse?.(tag);
      n++;
    }
    c.stalled = stalled;
    c.lapseFloorMs = floor;
    return n;
  }

  /**
   * When a sent delivery's lease may lapse next (for the lapse timer): no later
   * than the earliest one's end; earlier once some of those ended in an ack,
   * until the next `lapse` that looks at every slot.
   */
  static nextLapse<Q>(c: ConsumerSlotHolder<Q>): number | undefined {
    return c.lapseFloorMs === Number.POSITIVE_INFINITY ? undefined : c.lapseFloorMs;
  }
}
