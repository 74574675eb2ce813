/**
 * The bound on one command's apply (docs/design.md, "Every apply is
 * bounded"): no command's work grows with what the store holds. Work is
 * counted as the records a command touches (every key read, scanned, written
 * or deleted, counted each time) and the bytes it writes (keys and values),
 * and both are bounded by functions of the replicated limits alone. Apply
 * asserts the bound after every command (state-machine.ts): a command past it
 * is a bug, and the node stops with the values rather than write it.
 *
 * The unit is an item: one message written (published, fired, dead-lettered
 * into a topic), removed (acked, expired, purged with its topic or group) or
 * moved, with everything it carries: its entry in each group, index, key,
 * expiry, request and topic records. A command handles at most
 * `itemsPerCommand` items; commands whose items copy payloads they did not
 * bring (a dead letter, a schedule's occurrence) stop early when the next
 * one would not fit (`ApplyContext.fits`) and leave the rest for a later
 * command.
 */
import { invariant } from '@fermata/base';
import { DUE_LOAD_LEVEL_MS } from '../model/due-load.js';
import { MAX_KEY_HEAD_BYTES } from '../model/key-head-size.js';
import type { Limits } from '../model/limits.js';
import { ORDERED_INLINE_PAYLOAD_BYTES } from '../model/records.js';

/**
 * What the due-load histogram adds to one entry's change (due-load.ts): its
 * pending state left one due time and reached another, each a bucket at
 * every level read and rewritten (key 18 bytes, count 8).
 */
export const DUE_LOAD_WORK: ApplyWork = {
  records: 2 * DUE_LOAD_LEVEL_MS.length * 2,
  bytes: 2 * DUE_LOAD_LEVEL_MS.length * 26,
};

export interface ApplyWork {
  /** Records read, scanned, written or deleted (each access counted). */
  readonly records: number;
  /** Bytes written: keys and values of puts, keys of deletes. */
  readonly bytes: number;
}

/**
 * The most one item takes besides its payload: records (its entry in every
 * group written and read back, queue records, index, body, key, key window,
 * expiry, request records, topic records) and bytes (headers, key, names,
 * the attempt history an entry and a dead letter carry), and the due-load
 * histogram's buckets of its entry in every group.
 */
export function itemWork(limits: Limits): ApplyWork {
  const g = limits.maxGroupsPerTopic;
  const perGroup = entryNameBytes(limits);
  const ordering = orderingWork(limits);
  return {
    records: 4 * g + 40 + g * ordering.records + g * DUE_LOAD_WORK.records,
    bytes:
      limits.maxHeadersBytes +
      8 * limits.maxHeaderCount +
      4 * limits.maxKeyBytes +
      6 * limits.maxTopicNameBytes +
      2 * g * perGroup +
      // delivered_at_ms of an entry and of a dead letter's info: an int64 each attempt.
      24 * limits.maxMaxAttempts +
      2048 +
      g * ordering.bytes +
      orderedBodyBytes(limits) +
      g * DUE_LOAD_WORK.bytes,
  };
}

/**
 * The body an ordered entry moved for an item may carry (only the entry of a
 * message of one group does, its payload at most ORDERED_INLINE_PAYLOAD_BYTES):
 * its payload, headers, key and a dead letter's history. A dead letter at a
 * lease may move two (its source key's next message up, and a front of the
 * dead-letter topic it swaps with): the item's other allowances, sized for
 * every group of the largest topic, cover the second many times over.
 */
function orderedBodyBytes(limits: Limits): number {
  return (
    ORDERED_INLINE_PAYLOAD_BYTES +
    limits.maxHeadersBytes +
    8 * limits.maxHeaderCount +
    limits.maxKeyBytes +
    24 * limits.maxMaxAttempts +
    2048
  );
}

/**
 * What per-key ordering adds to an item in each group that orders it
 * (docs/design.md, "Per-key ordering"): the key's head record read up to
 * five times and written up to three (a front rescheduled past the first
 * waiting message: read for the front, the seek, each wait written and
 * deleted, and the promotion; a waiting message rescheduled ahead of its
 * front writes it three times), a wait record written and one deleted, one seek of the key's
 * wait records (counted as one record: KeyHeadStore.firstWait), and one
 * other message's entry moved, with its index record written (a publish
 * swapping places with an undelivered front; an end moving the next message
 * up; its due time stays, so its due-load buckets do too). The body such an
 * entry may carry is counted once per item (`orderedBodyBytes`).
 */
export function orderingWork(limits: Limits): ApplyWork {
  const g = limits.maxGroupsPerTopic;
  return {
    records: 17,
    bytes:
      7 * limits.maxKeyBytes +
      entryNameBytes(limits) +
      limits.maxTopicNameBytes +
      // The moved message's index record: a tag and a group name per group.
      g * (limits.maxGroupNameBytes + 40) +
      // The head written up to three times, at its largest; the fixed parts of the keys.
      3 * MAX_KEY_HEAD_BYTES +
      500,
  };
}

/** The names and fixed fields one group's entry of an item carries besides its key. */
function entryNameBytes(limits: Limits): number {
  return limits.maxTopicNameBytes + 2 * limits.maxGroupNameBytes + 64;
}

/**
 * Items one command may handle: the largest batch any command names
 * (messages, tags, ids or keys, occurrences), plus one expired message's
 * groups (an expire dead-letters up to maxGroupsPerTopic copies of its last id).
 */
export function itemsPerCommand(limits: Limits): number {
  return (
    Math.max(
      limits.maxBatchMessages,
      limits.maxTagsPerCommand,
      limits.maxIdsPerCommand,
      limits.maxScheduleFiresPerCommand,
    ) +
    limits.maxGroupsPerTopic +
    1
  );
}

/**
 * Payload bytes one command may write: a publish batch's, or one expired
 * message of maxPayloadBytes dead-lettered once per group.
 */
export function payloadPerCommand(limits: Limits): number {
  return limits.maxBatchPayloadBytes + limits.maxGroupsPerTopic * limits.maxPayloadBytes;
}

/** The bound on one command's work: what `itemsPerCommand` items and `payloadPerCommand` take. */
export function applyBound(limits: Limits): ApplyWork {
  const item = itemWork(limits);
  const n = itemsPerCommand(limits);
  return { records: n * item.records, bytes: payloadPerCommand(limits) + n * item.bytes };
}

/**
 * Asserts the bound for one applied command (`index`: its entry). A command
 * past it is a bug: the InvariantError names the command and the values.
 */
export function assertApplyWork(kind: string, index: number, work: ApplyWork, limits: Limits): void {
  const bound = applyBound(limits);
  invariant(
    work.records <= bound.records && work.bytes <= bound.bytes,
    () => `the ${kind} command of entry ${index} did more than one command's bound of work`,
    () => ({ kind, index, records: work.records, bytes: work.bytes, bound }),
  );
}
