/**
 * Purge records (records.proto PurgeRecord): the deletions under way, one per
 * deleted topic (group '') or deleted group, with how far their removal got.
 * The deletions this batch started are collected in `started` (the leader's
 * purger and dispatcher hear of them after the batch).
 */
import type { ReadView } from '@fermata/storage';
import { decodePurge, encodePurge } from '../codec/purge.js';
import { NS, splitTopicKey, topicKeySuffix } from '../model/layout.js';
import type { PurgeRec } from '../model/records.js';
import type { Txn } from './txn.js';

export interface PurgeName {
  readonly topic: string;
  /** '' = the whole topic. */
  readonly group: string;
}

const purgeKey = (topic: string, group: string): Uint8Array => NS.purges.key(topicKeySuffix(topic, group));

export class PurgeStore {
  /** Deletions this batch started, in order. */
  readonly started: PurgeName[] = [];
  /** Deletions this batch finished (or dropped: a group's, when its whole topic is deleted). */
  readonly finished: PurgeName[] = [];
  /** Both, in the order they happened (a batch may start a deletion and finish it). */
  readonly events: { readonly name: PurgeName; readonly started: boolean }[] = [];

  constructor(private readonly txn: Txn) {}

  async get(topic: string, group: string): Promise<PurgeRec | undefined> {
    const raw = await this.txn.get(purgeKey(topic, group));
    return raw ? decodePurge(raw) : undefined;
  }

  /** Writes the record; `started`: a new deletion, reported after the batch. */
  put(rec: PurgeRec, started = false): void {
    this.txn.put(purgeKey(rec.topic, rec.group), encodePurge(rec));
    if (!started) return;
    const at = this.started.length;
    const events = this.events.length;
    const name = { topic: rec.topic, group: rec.group };
    this.started.push(name);
    this.events.push({ name, started: true });
    this.txn.onRollback(() => {
      this.started.length = at;
      this.events.length = events;
    });
  }

  del(topic: string, group: string): void {
    this.txn.del(purgeKey(topic, group));
    const at = this.finished.length;
    const events = this.events.length;
    const name = { topic, group };
    this.finished.push(name);
    this.events.push({ name, started: false });
    this.txn.onRollback(() => {
      this.finished.length = at;
      this.events.length = events;
    });
  }
}

/** One deletion's record, read outside apply (stats). */
export async function readPurge(view: ReadView, topic: string, group: string): Promise<PurgeRec | undefined> {
  const raw = await view.get(purgeKey(topic, group));
  return raw ? decodePurge(raw) : undefined;
}

/** Every deletion under way (one record per deleted topic or group). */
export async function listPurges(view: ReadView): Promise<PurgeName[]> {
  const out: PurgeName[] = [];
  await view.scan(NS.purges.range(), (key) => {
    const { topic, key: group } = splitTopicKey(NS.purges.strip(key));
    out.push({ topic, group });
  });
  return out;
}

/** The deletions under way of one topic (the whole topic's first, then its groups'). */
export async function purgesOf(view: ReadView, topic: string): Promise<PurgeRec[]> {
  const out: PurgeRec[] = [];
  const gte = topicKeySuffix(topic, '');
  const lt = gte.slice();
  lt[lt.length - 1] = 1;
  await view.scan(NS.purges.range(gte, lt), (_key, value) => {
    out.push(decodePurge(value));
  });
  return out;
}

/**
 * Which topics and groups are being deleted, in memory: the leader refuses a
 * publish to one before it takes a log entry (apply refuses it too). Rebuilt
 * from the purge records at open and after a snapshot restore, and changed
 * after every batch that starts or finishes a deletion.
 */
export class DeletingSet {
  private readonly names = new Set<string>();
  private begun = 0;

  async build(view: ReadView): Promise<void> {
    this.names.clear();
    for (const p of await listPurges(view)) this.add(p);
  }

  add(p: PurgeName): void {
    this.names.add(`${p.topic}\u0000${p.group}`);
    this.begun++;
  }

  /**
   * How many deletions were added since the node started (a rebuild counts
   * each again): a reader that saw the same count before and after a wait
   * knows no deletion began meanwhile, even one that also finished.
   */
  get started(): number {
    return this.begun;
  }

  delete(p: PurgeName): void {
    this.names.delete(`${p.topic}\u0000${p.group}`);
  }

  /** The whole topic is being deleted. */
  topic(topic: string): boolean {
    return this.names.has(`${topic}\u0000`);
  }

  get size(): number {
    return this.names.size;
  }

  /** Every deletion under way, in the order they were learnt. */
  list(): PurgeName[] {
    return [...this.names].map((n) => {
      const nul = n.indexOf('\u0000');
      return { topic: n.slice(0, nul), group: n.slice(nul + 1) };
    });
  }
}
