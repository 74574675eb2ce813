import { invariant } from '@fermata/base';
import { deadLetterTopicOf, validateTopicName } from '../commands/validation.js';
/**
 * Dead letters: a group's entry moved to its topic's dead-letter topic as a
 * new message, with an id from the block the command reserved. Dead letters
 * never cascade: a message that is already a dead letter, or one with no id
 * reserved or no valid dead-letter topic, is dropped instead.
 */
import { ConflictError, LimitError, ValidationError } from '../model/errors.js';
import type { Limits } from '../model/limits.js';
import type { DeadLetterReason, QueueEntryRec, TopicRec } from '../model/records.js';
import type { EntryStore } from './entries.js';
import type { MessageStore } from './messages.js';
import type { CommandTime } from './time.js';
import type { TopicStore } from './topics.js';
import type { Txn } from './txn.js';

export class DeadLetterStore {
  private reserved = { next: 0n, end: 0n };

  constructor(
    private readonly txn: Txn,
    private readonly limits: Limits,
    private readonly topics: TopicStore,
    private readonly entries: EntryStore,
    private readonly messages: MessageStore,
    private readonly time: CommandTime,
  ) {}

  /** Source topics whose dead letters go to their own `<topic>.dlq` in this command. */
  private fallback: ReadonlySet<string> = new Set();

  /**
   * Ids reserved by the command for dead-letter copies, and the source topics
   * whose configured dead-letter topic the leader found no longer authorized.
   */
  reserveIds(firstId: bigint, count: number, fallback: readonly string[] = []): void {
    this.reserved = { next: firstId, end: firstId + BigInt(count) };
    this.fallback = new Set(fallback);
  }

  private takeReservedId(): bigint | undefined {
    if (this.reserved.next >= this.reserved.end) return undefined;
    const id = this.reserved.next;
    const before = this.reserved;
    this.reserved = { next: id + 1n, end: before.end };
    this.txn.onRollback(() => {
      this.reserved = before;
    });
    return id;
  }

  /**
   * Moves a group's entry to the topic's dead-letter topic as a new message
   * that carries DeadLetterInfo, or drops it (see above). Either way the
   * source queue counts it as dead-lettered. Returns the new message's id.
   * `entry` is the entry as it stands (its held view, with `runTag`, when a
   * run lease holds it: its history counts that lease).
   */
  async deadLetter(
    topic: TopicRec,
    tag: Uint8Array,
    entry: QueueEntryRec,
    reason: DeadLetterReason,
    runTag?: Uint8Array,
  ): Promise<bigint | undefined> {
    const now = this.time.nowMs;
    const body = await this.messages.bodyOf(entry);
    invariant(body, () => `queue entry of message ${entry.id} has no body`);
    const dlqName = deadLetterTopicOf(topic.name, topic.settings, this.fallback.has(topic.name));
    let dlqId: bigint | undefined;
    if (!body.deadLetter && dlqName !== topic.name && this.isValidTopicName(dlqName)) {
      const mark = this.txn.mark();
      try {
        const dlq = await this.topics.ensure(dlqName);
        dlqId = this.takeReservedId();
        if (dlqId !== undefined) {
          const adding = this.entries.addMessage(dlq, {
            id: dlqId,
            topic: dlq.name,
            payload: body.payload,
            headers: body.headers,
            key: '',
            enqueuedAtMs: now,
            dueAtMs: now,
            expireAtMs: 0,
            deadLetter: {
              sourceTopic: topic.name,
              sourceGroup: entry.group,
              sourceId: entry.id,
              sourceKey: body.key,
              reason,
              attempts: entry.attempt,
              deliveredAtMs: entry.deliveredAtMs,
              deadLetteredAtMs: now,
              lastError: entry.lastError,
            },
            indexImplied: undefined,
            // Its ordering key goes with it (a dead-letter topic may order by it); no deadline.
            orderingKey: body.orderingKey,
            deliverBeforeMs: 0,
          });
          if (adding) await adding;
        }
      } catch (err) {
        // A collision of the dead-letter topic's queue hash: drop instead (deterministic).
        if (!(err instanceof ConflictError)) throw err;
        this.txn.rollback(mark);
        dlqId = undefined;
      }
    }
    await this.entries.remove(topic, tag, entry, 'dead-lettered', runTag);
    return dlqId;
  }

  private isValidTopicName(name: string): boolean {
    try {
      validateTopicName(name, this.limits);
      return true;
    } catch (err) {
      if (err instanceof ValidationError || err instanceof LimitError) return false;
      throw err;
    }
  }
}
