/**
 * Topic records, cached for the batch; a topic comes into being on first use
 * with default settings. `readTopic` and `readTopics` read them from a view.
 */
import type { ReadView } from '@fermata/storage';
import { DEFAULT_GROUP } from '../../keys.js';
import { decodeTopic, encodeTopic } from '../codec/topic.js';
import { settingsForCreate, validateTopicName } from '../commands/validation.js';
import { NotFoundError, topicDeleting } from '../model/errors.js';
import { NS, topicSuffix } from '../model/layout.js';
import type { Limits } from '../model/limits.js';
import type { TopicRec } from '../model/records.js';
import type { QueueStore } from './queues.js';
import type { CommandTime } from './time.js';
import type { Txn } from './txn.js';

export class TopicStore {
  private readonly cache = new Map<string, TopicRec | null>();
  /** The topics this batch wrote or deleted (commands rolled back left out). */
  private readonly writtenNames = new Set<string>();

  constructor(
    private readonly txn: Txn,
    private readonly limits: Limits,
    private readonly queues: QueueStore,
    private readonly time: CommandTime,
  ) {}

  /** The topic if this batch already read or wrote it (no await on the publish path). */
  cached(name: string): TopicRec | undefined {
    return this.cache.get(name) ?? undefined;
  }

  async get(name: string): Promise<TopicRec | undefined> {
    const cached = this.cache.get(name);
    if (cached !== undefined) return cached ?? undefined;
    const raw = await this.txn.get(NS.topics.key(topicSuffix(name)));
    const rec = raw ? decodeTopic(raw) : undefined;
    if (!this.cache.has(name)) this.cache.set(name, rec ?? null);
    return rec;
  }

  async require(name: string, field = 'topic'): Promise<TopicRec> {
    validateTopicName(name, this.limits, field);
    const rec = await this.get(name);
    if (!rec) throw new NotFoundError('topic', name);
    return rec;
  }

  put(rec: TopicRec): void {
    this.setCache(rec.name, rec);
    this.txn.put(NS.topics.key(topicSuffix(rec.name)), encodeTopic(rec));
  }

  del(name: string): void {
    this.setCache(name, null);
    this.txn.del(NS.topics.key(topicSuffix(name)));
  }

  /** The topic records this batch wrote, as it leaves them (undefined: deleted). */
  *written(): Generator<readonly [string, TopicRec | undefined]> {
    for (const name of this.writtenNames) yield [name, this.cache.get(name) ?? undefined];
  }

  private setCache(name: string, rec: TopicRec | null): void {
    const had = this.cache.has(name);
    const before = this.cache.get(name);
    const wasWritten = this.writtenNames.has(name);
    this.cache.set(name, rec);
    this.writtenNames.add(name);
    this.txn.onRollback(() => {
      if (had) this.cache.set(name, before!);
      else this.cache.delete(name);
      if (!wasWritten) this.writtenNames.delete(name);
    });
  }

  /** The topic, created with default settings when it does not exist (publish and dead-lettering). */
  async ensure(name: string): Promise<TopicRec> {
    const existing = await this.get(name);
    if (existing?.deleting) throw topicDeleting(name);
    if (existing) return existing;
    const rec: TopicRec = {
      name,
      settings: settingsForCreate(undefined, this.limits),
      groups: [DEFAULT_GROUP],
      createdAtMs: this.time.nowMs,
    };
    await this.queues.register(name, DEFAULT_GROUP);
    this.put(rec);
    return rec;
  }
}

/** The topic's record in a read view. */
export async function readTopic(view: ReadView, name: string): Promise<TopicRec | undefined> {
  const raw = await view.get(NS.topics.key(topicSuffix(name)));
  return raw ? decodeTopic(raw) : undefined;
}

/** Every topic in a read view, in name order (the first `limit`). */
export async function readTopics(view: ReadView, limit?: number): Promise<TopicRec[]> {
  const out: TopicRec[] = [];
  const range = NS.topics.range();
  await view.scan(limit === undefined ? range : { ...range, limit }, (_k, v) => {
    out.push(decodeTopic(v));
  });
  return out;
}
