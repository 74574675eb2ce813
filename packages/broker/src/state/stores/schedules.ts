/**
 * Schedule records: one per (topic, name), with a count per topic and one for
 * the cluster (the limits), all in the schedules namespace. The schedules a
 * batch changed are collected in `touched` (the leader's materialiser re-reads them).
 */
import type { ReadView } from '@fermata/storage';
import { decodeSchedule, encodeSchedule } from '../codec/schedule.js';
import { NS, readU64, splitTopicKey, topicKeySuffix, u64 } from '../model/layout.js';
import type { ScheduleRec } from '../model/schedules.js';
import type { Txn } from './txn.js';

export interface ScheduleName {
  readonly topic: string;
  readonly name: string;
}

const ownerSuffix = (owner: string): Uint8Array => new TextEncoder().encode(owner);
const scheduleKey = (topic: string, name: string): Uint8Array =>
  NS.schedules.key(topicKeySuffix(topic, name));
const topicCountKey = (topic: string): Uint8Array => NS.schedules.key(topicKeySuffix(topic, ''));
const CLUSTER_COUNT_KEY = NS.schedules.key(Uint8Array.of(0));

/** Suffix range of one topic's schedules (its count row, name '', sorts first and is skipped). */
function topicRange(topic: string, afterName = ''): { gte: Uint8Array; lt: Uint8Array } {
  const gte = topicKeySuffix(topic, afterName);
  const start = new Uint8Array(gte.length + 1);
  start.set(gte);
  const end = topicKeySuffix(topic, '');
  end[end.length - 1] = 1;
  return NS.schedules.range(start, end);
}

function isCountRow(key: Uint8Array): boolean {
  const suffix = NS.schedules.strip(key);
  return suffix.length === 0 || suffix[suffix.length - 1] === 0;
}

export class ScheduleStore {
  /** Schedules this batch wrote or deleted, by "topic NUL name". */
  readonly touched = new Map<string, ScheduleName>();

  constructor(private readonly txn: Txn) {}

  async get(topic: string, name: string): Promise<ScheduleRec | undefined> {
    const raw = await this.txn.get(scheduleKey(topic, name));
    return raw ? decodeSchedule(raw) : undefined;
  }

  /** Reads many records in one multi-get, so that the `get`s of each that follow hit this batch. */
  async prefetch(names: readonly ScheduleName[]): Promise<void> {
    if (names.length > 1) await this.txn.prefetch(names.map((n) => scheduleKey(n.topic, n.name)));
  }

  /** Writes the record; `created` raises the counts (its owner's too). */
  async put(rec: ScheduleRec, created: boolean): Promise<void> {
    const { topic, name } = rec.def;
    this.txn.put(scheduleKey(topic, name), encodeSchedule(rec));
    this.touch(topic, name);
    if (created) {
      await this.addCounts(topic, 1);
      if (rec.owner) await this.addOwned(rec.owner, 1);
    }
  }

  async del(rec: ScheduleRec): Promise<void> {
    const { topic, name } = rec.def;
    this.txn.del(scheduleKey(topic, name));
    this.touch(topic, name);
    await this.addCounts(topic, -1);
    if (rec.owner) await this.addOwned(rec.owner, -1);
  }

  /** Schedules the token named `owner` created that exist. */
  async ownedBy(owner: string): Promise<number> {
    const raw = await this.txn.get(NS.owners.key(ownerSuffix(owner)));
    return raw ? Number(readU64(raw)) : 0;
  }

  private async addOwned(owner: string, delta: number): Promise<void> {
    const n = (await this.ownedBy(owner)) + delta;
    const key = NS.owners.key(ownerSuffix(owner));
    if (n <= 0) this.txn.del(key);
    else this.txn.put(key, u64(n));
  }

  async countOf(topic: string): Promise<number> {
    const raw = await this.txn.get(topicCountKey(topic));
    return raw ? Number(readU64(raw)) : 0;
  }

  async countAll(): Promise<number> {
    const raw = await this.txn.get(CLUSTER_COUNT_KEY);
    return raw ? Number(readU64(raw)) : 0;
  }

  /**
   * Deletes up to `limit` schedules of a topic (it is being deleted) after
   * `afterName` (from the first when empty), and the topic's count once none
   * is left. Returns how many, and the last name deleted.
   */
  async purgeTopic(
    topic: string,
    afterName: string,
    limit: number,
  ): Promise<{ count: number; last: string }> {
    const rows = await this.txn.scan(topicRange(topic, afterName), limit);
    let last = afterName;
    for (const row of rows) {
      this.txn.del(row.key);
      last = splitTopicKey(NS.schedules.strip(row.key)).key;
      this.touch(topic, last);
      const { owner } = decodeSchedule(row.value);
      if (owner) await this.addOwned(owner, -1);
    }
    if (rows.length > 0) {
      const all = await this.countAll();
      this.txn.put(CLUSTER_COUNT_KEY, u64(all - rows.length));
    }
    if (rows.length < limit) this.txn.del(topicCountKey(topic));
    return { count: rows.length, last };
  }

  private async addCounts(topic: string, delta: number): Promise<void> {
    const [t, all] = [await this.countOf(topic), await this.countAll()];
    if (t + delta === 0) this.txn.del(topicCountKey(topic));
    else this.txn.put(topicCountKey(topic), u64(t + delta));
    this.txn.put(CLUSTER_COUNT_KEY, u64(all + delta));
  }

  private touch(topic: string, name: string): void {
    this.touched.set(`${topic}\u0000${name}`, { topic, name });
  }
}

/** One schedule, read outside apply (the API's get, the materialiser). */
export async function readSchedule(
  view: ReadView,
  topic: string,
  name: string,
): Promise<ScheduleRec | undefined> {
  const raw = await view.get(scheduleKey(topic, name));
  return raw ? decodeSchedule(raw) : undefined;
}

/** The records of many schedules (one multi-get when the view has it), in the order of `names`. */
export async function readSchedules(
  view: ReadView,
  names: readonly ScheduleName[],
): Promise<Array<ScheduleRec | undefined>> {
  const keys = names.map((n) => scheduleKey(n.topic, n.name));
  const raws = view.getMany ? await view.getMany(keys) : await Promise.all(keys.map((k) => view.get(k)));
  return raws.map((raw) => (raw ? decodeSchedule(raw) : undefined));
}

/** A topic's schedules in name order after `afterName`, at most `limit`. */
export async function listSchedules(
  view: ReadView,
  topic: string,
  afterName: string,
  limit: number,
): Promise<ScheduleRec[]> {
  const out: ScheduleRec[] = [];
  await view.scan({ ...topicRange(topic, afterName), limit }, (_key, value) => {
    out.push(decodeSchedule(value));
  });
  return out;
}

/** Every schedule of the cluster, in key order, `visit` called per record (the materialiser's start). */
export async function scanAllSchedules(view: ReadView, visit: (rec: ScheduleRec) => void): Promise<void> {
  await view.scan(NS.schedules.range(), (key, value) => {
    if (!isCountRow(key)) visit(decodeSchedule(value));
  });
}
