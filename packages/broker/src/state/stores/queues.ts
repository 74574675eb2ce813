import { invariant } from '@fermata/base';
/**
 * Queue records (one per topic and group: its name and exact counters) and
 * queue hashes. Counters are changed in memory and written once per batch
 * (`flush`); every change is undone with the command that made it.
 * `readQueue` and `readQueues` read them from a view.
 */
import type { ReadView } from '@fermata/storage';
import { encodeKeyMs, type QueueHasher, queueName } from '../../keys.js';
import { decodeQueue, encodeQueue } from '../codec/queue.js';
import { ConflictError } from '../model/errors.js';
import { NS, readU64, u64 } from '../model/layout.js';
import type { QueueRec, TopicRec } from '../model/records.js';
import { DueLoadStore } from './due-load.js';
import type { Txn } from './txn.js';

export class QueueStore {
  private readonly recs = new Map<bigint, QueueRec | null>();
  private readonly dirty = new Set<bigint>();
  private readonly hashes = new Map<string, bigint>();
  /** Per queue, the Txn generation whose undo step restores its counters (one step per command, not per change). */
  private readonly countedIn = new Map<bigint, number>();
  /** Per queue loaded or registered, whether it keeps a due-load histogram (kept after a drop). */
  private readonly dueLoads = new Map<bigint, boolean>();

  /** The queues' due-load histograms: counted with the pending counters, written per command. */
  readonly dueLoad: DueLoadStore;

  constructor(
    private readonly txn: Txn,
    private readonly hasher: QueueHasher,
  ) {
    this.dueLoad = new DueLoadStore(txn, (hash) => this.keepsDueLoad(hash));
  }

  hash(topic: string, group: string): bigint {
    const name = queueName(topic, group);
    let h = this.hashes.get(name);
    if (h === undefined) {
      h = this.hasher(name);
      this.hashes.set(name, h);
    }
    return h;
  }

  /** The key of an entry of (topic, group) due at `dueAtMs`: its delivery tag. */
  tagOf(topic: TopicRec, group: string, dueAtMs: number, id: bigint): Uint8Array {
    return encodeKeyMs(this.hash(topic.name, group), dueAtMs, topic.settings.timeBucketMs, id);
  }

  async get(hash: bigint): Promise<QueueRec | undefined> {
    const cached = this.recs.get(hash);
    if (cached !== undefined) return cached ?? undefined;
    const raw = await this.txn.get(NS.queues.key(u64(hash)));
    const rec = raw ? decodeQueue(raw) : undefined;
    if (!this.recs.has(hash)) this.recs.set(hash, rec ?? null);
    if (rec && !this.dueLoads.has(hash)) this.dueLoads.set(hash, rec.dueLoad === true);
    return rec;
  }

  /**
   * Whether the queue keeps a due-load histogram (due-load.ts): its record
   * says so, or said so before the batch dropped it.
   */
  async keepsDueLoad(hash: bigint): Promise<boolean> {
    if (!this.dueLoads.has(hash)) await this.get(hash);
    return this.dueLoads.get(hash) === true;
  }

  /**
   * Registers the queue of (topic, group). Two different queue names with one
   * hash would share keys: that is detected here and refused, never merged.
   */
  async register(topic: string, group: string): Promise<bigint> {
    const hash = this.hash(topic, group);
    const rec = await this.get(hash);
    if (rec) {
      if (rec.topic === topic && rec.group === group) return hash;
      throw new ConflictError(
        'queue-hash-collision',
        `queue "${queueName(topic, group)}" has the hash ${hash.toString(16)} of the existing queue of topic "${rec.topic}" group "${rec.group}"`,
      );
    }
    this.setRec(hash, { topic, group, pending: 0, inFlight: 0, deadLettered: 0, dueLoad: true });
    const known = this.dueLoads.get(hash);
    this.dueLoads.set(hash, true);
    this.txn.onRollback(() => {
      if (known === undefined) this.dueLoads.delete(hash);
      else this.dueLoads.set(hash, known);
    });
    return hash;
  }

  drop(hash: bigint): void {
    this.setRec(hash, null);
  }

  private setRec(hash: bigint, rec: QueueRec | null): void {
    const had = this.recs.has(hash);
    const before = this.recs.get(hash);
    const wasDirty = this.dirty.has(hash);
    this.recs.set(hash, rec);
    this.dirty.add(hash);
    this.txn.onRollback(() => {
      if (had) this.recs.set(hash, before!);
      else this.recs.delete(hash);
      if (!wasDirty) this.dirty.delete(hash);
    });
  }

  /** Loads the queue records of the topic's groups, unless they are (a promise only when some is not). */
  loadOf(topic: TopicRec): Promise<unknown> | undefined {
    let loading: Promise<unknown>[] | undefined;
    for (const group of topic.groups) {
      const hash = this.hash(topic.name, group);
      if (!this.recs.get(hash)) (loading ??= []).push(this.get(hash));
    }
    return loading && Promise.all(loading);
  }

  /**
   * Adjusts a queue's exact counters (written once at the end of the batch).
   * Synchronous once the queue's record is loaded (the usual case): callers
   * await only a returned promise.
   */
  count(hash: bigint, pending: number, inFlight: number, deadLettered: number): Promise<void> | undefined {
    const rec = this.recs.get(hash);
    if (!rec) {
      return this.get(hash).then((loaded) => {
        invariant(loaded, () => `counters of unregistered queue ${hash.toString(16)}`);
        this.countLoaded(hash, loaded, pending, inFlight, deadLettered);
      });
    }
    this.countLoaded(hash, rec, pending, inFlight, deadLettered);
    return undefined;
  }

  /** `count` for a queue whose record must already be loaded (`loadOf`). */
  countNow(hash: bigint, pending: number, inFlight: number, deadLettered: number): void {
    const rec = this.recs.get(hash);
    invariant(rec, () => `entry of queue ${hash.toString(16)} counted before its record was loaded`);
    this.countLoaded(hash, rec, pending, inFlight, deadLettered);
  }

  private countLoaded(
    hash: bigint,
    rec: QueueRec,
    pending: number,
    inFlight: number,
    deadLettered: number,
  ): void {
    if (this.countedIn.get(hash) !== this.txn.generation) {
      const before = { pending: rec.pending, inFlight: rec.inFlight, deadLettered: rec.deadLettered };
      const wasDirty = this.dirty.has(hash);
      const counted = this.countedIn.get(hash);
      this.countedIn.set(hash, this.txn.generation);
      this.txn.onRollback(() => {
        rec.pending = before.pending;
        rec.inFlight = before.inFlight;
        rec.deadLettered = before.deadLettered;
        if (!wasDirty) this.dirty.delete(hash);
        if (counted === undefined) this.countedIn.delete(hash);
        else this.countedIn.set(hash, counted);
      });
    }
    rec.pending += pending;
    rec.inFlight += inFlight;
    rec.deadLettered += deadLettered;
    invariant(
      rec.pending >= 0 && rec.inFlight >= 0,
      () => `negative counter in queue ${hash.toString(16)}`,
      () => ({ ...rec }),
    );
    this.dirty.add(hash);
  }

  /**
   * A queue of an earlier version (no due-load histogram) that is empty once
   * a command ended starts keeping one: an empty queue's histogram is empty,
   * so from the next command on it counts exactly. Called when a command
   * ends, after its histogram changes were written (or, for such a queue,
   * left out); looks only at the queues whose counters the batch changed.
   */
  completeEmpty(): void {
    for (const hash of this.dirty) {
      const rec = this.recs.get(hash);
      if (!rec || rec.dueLoad || rec.pending !== 0 || rec.inFlight !== 0) continue;
      this.setRec(hash, { ...rec, dueLoad: true });
      this.dueLoads.set(hash, true);
      this.txn.onRollback(() => this.dueLoads.set(hash, false));
    }
  }

  /** Writes the queue records changed by the batch (call once, before the batch is written). */
  flush(): void {
    for (const hash of this.dirty) {
      const rec = this.recs.get(hash);
      const key = NS.queues.key(u64(hash));
      if (rec) this.txn.put(key, encodeQueue(rec));
      else this.txn.del(key);
    }
    this.dirty.clear();
  }
}

/** The queue's record (names and counters) in a read view. */
export async function readQueue(view: ReadView, queueHash: bigint): Promise<QueueRec | undefined> {
  const raw = await view.get(NS.queues.key(u64(queueHash)));
  return raw ? decodeQueue(raw) : undefined;
}

/** Every queue's record in a read view, with its hash, in hash order. */
export async function readQueues(view: ReadView): Promise<(QueueRec & { readonly queueHash: bigint })[]> {
  const out: (QueueRec & { readonly queueHash: bigint })[] = [];
  await view.scan(NS.queues.range(), (k, v) => {
    out.push({ queueHash: readU64(NS.queues.strip(k)), ...decodeQueue(v) });
  });
  return out;
}
