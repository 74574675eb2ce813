/**
 * Which groups are push groups (their settings name an endpoint), in
 * memory, as the applied topic records say: the leader refuses a stream
 * subscribing to one, and ends the streams of a group that becomes one, at
 * the apply that makes it one rather than when its endpoint starts. Rebuilt
 * from the topic records at open and after a snapshot restore, and changed
 * after every batch that writes a topic record.
 */
import type { ReadView } from '@fermata/storage';
import { groupSettingsOf, type TopicRec } from '../model/records.js';
import { readTopics } from './topics.js';

export interface PushGroupName {
  readonly topic: string;
  readonly group: string;
}

/** The push groups of one topic record (none for a topic deleted). */
function pushGroupsOf(rec: TopicRec | undefined): ReadonlySet<string> {
  if (rec?.groupSettings === undefined) return new Set();
  return new Set(rec.groups.filter((g) => groupSettingsOf(rec, g).push !== undefined));
}

export class PushGroupSet {
  /** Topic name -> its push groups (topics without one are left out). */
  private readonly byTopic = new Map<string, ReadonlySet<string>>();

  async build(view: ReadView): Promise<void> {
    this.byTopic.clear();
    for (const t of await readTopics(view)) this.set(t.name, t);
  }

  /**
   * The topic records a batch wrote, as it left them (undefined: deleted).
   * Returns the groups that became push groups.
   */
  update(written: Iterable<readonly [string, TopicRec | undefined]>): PushGroupName[] {
    const became: PushGroupName[] = [];
    for (const [topic, rec] of written) {
      const before = this.byTopic.get(topic);
      for (const group of this.set(topic, rec)) if (!before?.has(group)) became.push({ topic, group });
    }
    return became;
  }

  has(topic: string, group: string): boolean {
    return this.byTopic.get(topic)?.has(group) === true;
  }

  private set(topic: string, rec: TopicRec | undefined): ReadonlySet<string> {
    const groups = pushGroupsOf(rec);
    if (groups.size === 0) this.byTopic.delete(topic);
    else this.byTopic.set(topic, groups);
    return groups;
  }
}
