// The replicated commands: their types and their encoding both ways (commands.proto). Over 400
// lines: one conversion per command kind, kept in one file so that a field is added in one place.
import { int64FromSafe, type Long, type pb, toBigInt, toSafeNumber, toUint64, v1 } from '@fermata/protocol';
import { ValidationError } from '../model/errors.js';
import {
  decodePush,
  encodePush,
  type Ordering,
  orderingFromProto,
  orderingToProto,
} from '../model/group-settings.js';
import type { DeadlineAction } from '../model/records.js';
import { type ScheduleOp, scheduleOpFromProto, scheduleOpToProto } from '../schedule/ops.js';
import type { PushSettingsInput } from './validate-push.js';

/**
 * The commands of the broker state machine, as plain data, and their encoding
 * as a Raft entry (protobuf `fermata.v1.Command`, commands.proto). Every command
 * carries the leader's time stamp `nowMs`; publish, lease and expire carry the
 * ids the leader assigned (publish: one per message; lease/expire: a reserved
 * block for dead-letter copies).
 */
export interface PublishInput {
  readonly topic: string;
  readonly payload: Uint8Array;
  readonly headers?: Readonly<Record<string, string>>;
  /** At most one of delayMs / deliverAtMs. Neither = due at once. */
  readonly delayMs?: number;
  readonly deliverAtMs?: number;
  /** 0 or absent = never expires. */
  readonly ttlMs?: number;
  /** Empty or absent = no key. */
  readonly key?: string;
  /** Per-key ordering: empty or absent = none (or the key, per topic setting). */
  readonly orderingKey?: string;
  /** The message's deadline (epoch ms); 0 or absent = the topic's default, if any. At or after the due time. */
  readonly deliverBeforeMs?: number;
}

/** A client request within a publish entry: the next `count` messages, and its idempotency key ('' = none). */
export interface PublishSpan {
  readonly idempotencyKey: string;
  readonly count: number;
}

export type Target = { readonly id: bigint } | { readonly key: string };

export type ExpiryActionName = 'drop' | 'dead-letter';

/** Topic settings as a command names them: absent (or 0 / '') = default on create, unchanged on update. */
export interface TopicSettingsInput {
  readonly maxAttempts?: number;
  readonly defaultLeaseMs?: number;
  readonly deadLetterTopic?: string;
  readonly expiryAction?: ExpiryActionName;
  readonly timeBucketMs?: number;
  readonly dedupWindowMs?: number;
  /** Who sets `deadLetterTopic` (the server fills it from the caller's token; clients cannot). */
  readonly deadLetterAuthorizedBy?: string;
  readonly ordering?: Ordering;
  readonly orderingKeyFromKey?: boolean;
  readonly maxLatenessMs?: number;
  readonly deadlineAction?: DeadlineAction;
  readonly paused?: boolean;
}

/** A group's settings as a command names them: absent = zero on create, unchanged on update. */
export interface GroupSettingsInput {
  readonly maxDeliveriesPerSecond?: number;
  readonly burst?: number;
  readonly maxInFlight?: number;
  /** Absent = the topic's (ORDERING_UNSPECIFIED). */
  readonly ordering?: Ordering;
  readonly paused?: boolean;
  /** Absent: not a push group (create), unchanged (update, unless the mask names `push`). */
  readonly push?: PushSettingsInput;
}

interface Stamped {
  readonly nowMs: number;
  /**
   * A message this command makes with one entry carries its body in it, and
   * one without an index record is listed in a publish record (the leader's
   * `storage.inlineBodies`); absent or false: a body record per message, as
   * versions before it wrote.
   */
  readonly inlineBodies?: boolean;
}

export type Command = Stamped &
  (
    | {
        readonly kind: 'publish';
        readonly firstId: bigint;
        readonly messages: readonly PublishInput[];
        /** The requests the entry coalesces, in order (their counts sum to messages.length); absent = one without a key. */
        readonly requests?: readonly PublishSpan[];
      }
    | {
        readonly kind: 'lease';
        readonly topic: string;
        readonly group: string;
        readonly tags: readonly Uint8Array[];
        readonly leaseMs: number;
        /** Ids reserved for dead-letter copies: [firstId, firstId + idCount). */
        readonly firstId: bigint;
        readonly idCount: number;
        /** Entries due up to nowMs + aheadMs may be leased; their lease starts at their due time. Default 0. */
        readonly aheadMs?: number;
        /** Lease each entry where it lies (tags: key + attempt); false: move it (the previous versions' lease). */
        readonly inPlace?: boolean;
        /** Dead letters go to `<topic>.dlq`: the token that set the topic's dead-letter topic lost its permission. */
        readonly deadLetterFallback?: boolean;
        /** The consumer the leases are for (`Subscribe.consumer_id`), kept in each entry; absent or 0n = none. */
        readonly consumerId?: bigint;
        /**
         * A lease of a run (absent or 0n: not): the entries are not written, one lease record
         * under this id holds them (an id above the reserved block). `inPlace` is ignored then.
         */
        readonly leaseId?: bigint;
      }
    | {
        /**
         * A lease of several runs, of any queues (LeaseCommand.runs): each run is leased in
         * order as a `lease` with its `leaseId` would be, into a lease record of its own. Its
         * result is one `lease` result, the runs' outcomes in order.
         */
        readonly kind: 'lease-runs';
        readonly runs: readonly LeaseRunSpec[];
        /** Ids reserved for the dead-letter copies of every run, taken in order: [firstId, firstId + idCount). */
        readonly firstId: bigint;
        readonly idCount: number;
        /** As the lease's `aheadMs`, for every run. */
        readonly aheadMs?: number;
      }
    | { readonly kind: 'ack'; readonly tags: readonly Uint8Array[] }
    | {
        readonly kind: 'nack';
        readonly tag: Uint8Array;
        readonly delayMs: number;
        /** The leader hands back a lease no application was given: the attempt is not counted. */
        readonly uncounted?: boolean;
        /** Why the delivery failed (a handler's error), at most MAX_NACK_ERROR_BYTES; kept in the entry. */
        readonly error?: string;
      }
    | { readonly kind: 'extend'; readonly tag: Uint8Array; readonly leaseMs: number }
    | { readonly kind: 'cancel'; readonly topic: string; readonly target: Target }
    | {
        readonly kind: 'reschedule';
        readonly topic: string;
        readonly target: Target;
        readonly delayMs?: number;
        readonly deliverAtMs?: number;
      }
    | {
        readonly kind: 'expire';
        readonly ids: readonly bigint[];
        readonly firstId: bigint;
        readonly idCount: number;
        /** Source topics whose dead letters go to `<topic>.dlq` (see the lease's `deadLetterFallback`). */
        readonly deadLetterFallbackTopics?: readonly string[];
        /**
         * Per id (absent, or as many as ids): the queue key its expiry record names (empty = none),
         * where apply looks for its entry before a lookup by id.
         */
        readonly keys?: readonly Uint8Array[];
        /** Per id (absent, or as many as ids): the time of the expiry record the janitor read. */
        readonly atMs?: readonly number[];
      }
    | {
        /** Publish records (by first id) none of whose messages is at its published key any more. */
        readonly kind: 'forget-publishes';
        readonly firstIds: readonly bigint[];
      }
    | {
        /** Dead letters (messages of the dead-letter topic `topic`) back to their topic and group. */
        readonly kind: 'redrive';
        readonly topic: string;
        /** Only dead letters of this topic move. */
        readonly sourceTopic: string;
        readonly ids: readonly bigint[];
        /** Ids reserved for the new messages: [firstId, firstId + idCount). */
        readonly firstId: bigint;
        readonly idCount: number;
      }
    | {
        readonly kind: 'purge-keys';
        readonly keys: readonly { readonly topic: string; readonly key: string }[];
        /** Publish idempotency keys whose dedup window ended. */
        readonly requests?: readonly string[];
      }
    | { readonly kind: 'create-topic'; readonly name: string; readonly settings?: TopicSettingsInput }
    | {
        readonly kind: 'update-topic';
        readonly name: string;
        readonly settings: TopicSettingsInput;
        /** TopicSettings field names (snake_case, as in admin.proto); empty = every non-zero field. */
        readonly updateMask?: readonly string[];
      }
    | { readonly kind: 'delete-topic'; readonly name: string }
    | {
        readonly kind: 'create-group';
        readonly topic: string;
        readonly group: string;
        readonly settings?: GroupSettingsInput;
      }
    | {
        readonly kind: 'update-group';
        readonly topic: string;
        readonly group: string;
        readonly settings: GroupSettingsInput;
        /** GroupSettings field names (snake_case, as in admin.proto); empty = every non-zero field. */
        readonly updateMask?: readonly string[];
      }
    | { readonly kind: 'delete-group'; readonly topic: string; readonly group: string }
    /** One step of removing a deleted topic (`group` '') or group: at most `maxRecords` records. */
    | { readonly kind: 'purge'; readonly topic: string; readonly group: string; readonly maxRecords: number }
    | { readonly kind: 'schedule'; readonly op: ScheduleOp }
    /** The limits apply uses from the next entry on (apply-limits.ts). */
    | { readonly kind: 'apply-limits'; readonly values: Readonly<Record<string, number>> }
  );

export type CommandKind = Command['kind'];

/** One run of a `lease-runs` command: entries of one queue leased for one consumer (LeaseRun). */
export interface LeaseRunSpec {
  readonly topic: string;
  readonly group: string;
  /** The queue keys of the entries to lease. */
  readonly tags: readonly Uint8Array[];
  readonly leaseMs: number;
  /** The run's lease record: above the command's dead-letter ids and every earlier run's. */
  readonly leaseId: bigint;
  /** As the lease's `consumerId`; absent or 0n = none. */
  readonly consumerId?: bigint;
  /** As the lease's `deadLetterFallback`, for this run's topic. */
  readonly deadLetterFallback?: boolean;
}

/**
 * The kinds of command that can make messages (publish; dead letters of a
 * lease or an expire; a redrive; a schedule's occurrences): the ones whose
 * `inlineBodies` matters.
 */
export function makesMessages(kind: CommandKind): boolean {
  return (
    kind === 'publish' ||
    kind === 'lease' ||
    kind === 'lease-runs' ||
    kind === 'expire' ||
    kind === 'redrive' ||
    kind === 'schedule'
  );
}

const i64 = int64FromSafe;
const num = (v: Long | number | null | undefined, field: string): number => toSafeNumber(v, field);

export function settingsToProto(s: TopicSettingsInput | undefined): pb.TopicSettings {
  return v1.TopicSettings.create({
    maxAttempts: s?.maxAttempts ?? 0,
    defaultLeaseMs: i64(s?.defaultLeaseMs ?? 0),
    deadLetterTopic: s?.deadLetterTopic ?? '',
    expiryAction:
      s?.expiryAction === 'drop'
        ? v1.ExpiryAction.EXPIRY_ACTION_DROP
        : s?.expiryAction === 'dead-letter'
          ? v1.ExpiryAction.EXPIRY_ACTION_DEAD_LETTER
          : v1.ExpiryAction.EXPIRY_ACTION_UNSPECIFIED,
    timeBucketMs: i64(s?.timeBucketMs ?? 0),
    dedupWindowMs: i64(s?.dedupWindowMs ?? 0),
    deadLetterAuthorizedBy: s?.deadLetterAuthorizedBy ?? '',
    ordering: orderingToProto(s?.ordering),
    orderingKeyFromKey: s?.orderingKeyFromKey === true,
    maxLatenessMs: i64(s?.maxLatenessMs ?? 0),
    deadlineAction:
      s?.deadlineAction === 'drop'
        ? v1.DeadlineAction.DEADLINE_ACTION_DROP
        : s?.deadlineAction === 'dead-letter'
          ? v1.DeadlineAction.DEADLINE_ACTION_DEAD_LETTER
          : v1.DeadlineAction.DEADLINE_ACTION_UNSPECIFIED,
    paused: s?.paused === true,
  });
}

export function groupSettingsToProto(s: GroupSettingsInput | undefined): pb.GroupSettings {
  return v1.GroupSettings.create({
    maxDeliveriesPerSecond: s?.maxDeliveriesPerSecond ?? 0,
    burst: s?.burst ?? 0,
    maxInFlight: s?.maxInFlight ?? 0,
    ordering: orderingToProto(s?.ordering),
    paused: s?.paused === true,
    ...(s?.push ? { push: v1.PushSettings.create(encodePush(s.push)) } : {}),
  });
}

/** Zero fields stay present as 0 so an update mask can name them; an unspecified ordering is absent. */
export function groupSettingsFromProto(
  s: pb.GroupSettings.$Properties | null | undefined,
): GroupSettingsInput {
  const ordering = orderingFromProto(s?.ordering);
  return {
    maxDeliveriesPerSecond: s?.maxDeliveriesPerSecond ?? 0,
    burst: s?.burst ?? 0,
    maxInFlight: s?.maxInFlight ?? 0,
    ...(ordering ? { ordering } : {}),
    paused: s?.paused === true,
    // Every field present (zero included), so a mask can name it.
    ...(s?.push ? { push: decodePush(s.push) } : {}),
  };
}

/** Zero fields stay present as 0 so an update mask can name them. */
export function settingsFromProto(s: pb.TopicSettings.$Properties | null | undefined): TopicSettingsInput {
  const action = s?.expiryAction ?? 0;
  const deadline = s?.deadlineAction ?? 0;
  const ordering = orderingFromProto(s?.ordering);
  return {
    maxAttempts: s?.maxAttempts ?? 0,
    defaultLeaseMs: num(s?.defaultLeaseMs, 'settings.default_lease_ms'),
    deadLetterTopic: s?.deadLetterTopic ?? '',
    ...(action === v1.ExpiryAction.EXPIRY_ACTION_DROP
      ? { expiryAction: 'drop' as const }
      : action === v1.ExpiryAction.EXPIRY_ACTION_DEAD_LETTER
        ? { expiryAction: 'dead-letter' as const }
        : {}),
    timeBucketMs: num(s?.timeBucketMs, 'settings.time_bucket_ms'),
    dedupWindowMs: num(s?.dedupWindowMs, 'settings.dedup_window_ms'),
    ...(s?.deadLetterAuthorizedBy ? { deadLetterAuthorizedBy: s.deadLetterAuthorizedBy } : {}),
    ...(ordering ? { ordering } : {}),
    orderingKeyFromKey: s?.orderingKeyFromKey === true,
    maxLatenessMs: num(s?.maxLatenessMs, 'settings.max_lateness_ms'),
    ...(deadline === v1.DeadlineAction.DEADLINE_ACTION_DROP
      ? { deadlineAction: 'drop' as const }
      : deadline === v1.DeadlineAction.DEADLINE_ACTION_DEAD_LETTER
        ? { deadlineAction: 'dead-letter' as const }
        : {}),
    paused: s?.paused === true,
  };
}

/**
 * A client's `PublishMessage` as the state machine's input (the server calls
 * this per message). Every field is present, `undefined` when not set, in one
 * order: objects of one shape keep the per-message code that reads them fast
 * (built by spreading a base object, V8 gave them a shape whose property
 * reads made `messageValid` ~30 times slower).
 */
export function publishInputFromProto(m: pb.PublishMessage.$Properties): PublishInput {
  const delay = m.schedule === 'delayMs' || (m.schedule === undefined && m.delayMs != null);
  const at = !delay && (m.schedule === 'deliverAtMs' || (m.schedule === undefined && m.deliverAtMs != null));
  return {
    topic: m.topic ?? '',
    payload: m.payload ?? new Uint8Array(0),
    headers: { ...(m.headers ?? {}) },
    delayMs: delay ? num(m.delayMs, 'delay_ms') : undefined,
    deliverAtMs: at ? num(m.deliverAtMs, 'deliver_at_ms') : undefined,
    ttlMs: num(m.ttlMs, 'ttl_ms'),
    key: m.key ?? '',
    orderingKey: m.orderingKey ?? '',
    deliverBeforeMs: num(m.deliverBeforeMs, 'deliver_before_ms'),
  };
}

function publishInputToProto(m: PublishInput): pb.PublishMessage.$Properties {
  return {
    topic: m.topic,
    payload: m.payload,
    headers: m.headers ? { ...m.headers } : {},
    ttlMs: i64(m.ttlMs ?? 0),
    key: m.key ?? '',
    ...(m.orderingKey ? { orderingKey: m.orderingKey } : {}),
    ...(m.deliverBeforeMs ? { deliverBeforeMs: i64(m.deliverBeforeMs) } : {}),
    ...(m.delayMs !== undefined ? { delayMs: i64(m.delayMs) } : {}),
    ...(m.deliverAtMs !== undefined ? { deliverAtMs: i64(m.deliverAtMs) } : {}),
  };
}

function targetToProto(t: Target): { id?: Long; key?: string } {
  return 'id' in t ? { id: toUint64(t.id) } : { key: t.key };
}

function targetFromProto(
  m: { target?: 'id' | 'key'; id?: Long | null; key?: string | null },
  field: string,
): Target {
  if (m.target === 'id') return { id: toBigInt(m.id) };
  if (m.target === 'key') return { key: m.key ?? '' };
  throw new ValidationError(field, 'names neither an id nor a key');
}

export function encodeCommand(cmd: Command): Uint8Array {
  const base = cmd.inlineBodies ? { nowMs: i64(cmd.nowMs), inlineBodies: true } : { nowMs: i64(cmd.nowMs) };
  let props: pb.Command.$Properties;
  switch (cmd.kind) {
    case 'publish':
      props = {
        ...base,
        publish: {
          firstId: toUint64(cmd.firstId),
          messages: cmd.messages.map(publishInputToProto),
          requests: (cmd.requests ?? []).map((r) => ({ idempotencyKey: r.idempotencyKey, count: r.count })),
        },
      };
      break;
    case 'lease':
      props = {
        ...base,
        lease: {
          topic: cmd.topic,
          group: cmd.group,
          tags: [...cmd.tags],
          leaseMs: i64(cmd.leaseMs),
          firstId: toUint64(cmd.firstId),
          idCount: cmd.idCount,
          ...(cmd.aheadMs ? { aheadMs: i64(cmd.aheadMs) } : {}),
          ...(cmd.inPlace ? { inPlace: true } : {}),
          ...(cmd.deadLetterFallback ? { deadLetterFallback: true } : {}),
          ...(cmd.consumerId ? { consumerId: toUint64(cmd.consumerId) } : {}),
          ...(cmd.leaseId ? { leaseId: toUint64(cmd.leaseId) } : {}),
        },
      };
      break;
    case 'lease-runs':
      props = {
        ...base,
        lease: {
          runs: cmd.runs.map((r) => ({
            topic: r.topic,
            group: r.group,
            tags: [...r.tags],
            leaseMs: i64(r.leaseMs),
            leaseId: toUint64(r.leaseId),
            ...(r.consumerId ? { consumerId: toUint64(r.consumerId) } : {}),
            ...(r.deadLetterFallback ? { deadLetterFallback: true } : {}),
          })),
          firstId: toUint64(cmd.firstId),
          idCount: cmd.idCount,
          ...(cmd.aheadMs ? { aheadMs: i64(cmd.aheadMs) } : {}),
        },
      };
      break;
    case 'ack':
      props = { ...base, ack: { tags: [...cmd.tags] } };
      break;
    case 'nack':
      props = {
        ...base,
        nack: {
          tag: cmd.tag,
          delayMs: i64(cmd.delayMs),
          ...(cmd.uncounted ? { uncounted: true } : {}),
          ...(cmd.error ? { error: cmd.error } : {}),
        },
      };
      break;
    case 'extend':
      props = { ...base, extend: { tag: cmd.tag, leaseMs: i64(cmd.leaseMs) } };
      break;
    case 'cancel':
      props = { ...base, cancel: { topic: cmd.topic, ...targetToProto(cmd.target) } };
      break;
    case 'reschedule':
      props = {
        ...base,
        reschedule: {
          topic: cmd.topic,
          ...targetToProto(cmd.target),
          ...(cmd.delayMs !== undefined ? { delayMs: i64(cmd.delayMs) } : {}),
          ...(cmd.deliverAtMs !== undefined ? { deliverAtMs: i64(cmd.deliverAtMs) } : {}),
        },
      };
      break;
    case 'expire':
      props = {
        ...base,
        expire: {
          ids: cmd.ids.map(toUint64),
          firstId: toUint64(cmd.firstId),
          idCount: cmd.idCount,
          deadLetterFallbackTopics: [...(cmd.deadLetterFallbackTopics ?? [])],
          keys: [...(cmd.keys ?? [])],
          atMs: (cmd.atMs ?? []).map(i64),
        },
      };
      break;
    case 'forget-publishes':
      props = { ...base, forgetPublishes: { firstIds: cmd.firstIds.map(toUint64) } };
      break;
    case 'redrive':
      props = {
        ...base,
        redrive: {
          topic: cmd.topic,
          sourceTopic: cmd.sourceTopic,
          ids: cmd.ids.map(toUint64),
          firstId: toUint64(cmd.firstId),
          idCount: cmd.idCount,
        },
      };
      break;
    case 'purge-keys':
      props = {
        ...base,
        purgeKeys: {
          keys: cmd.keys.map((k) => ({ topic: k.topic, key: k.key })),
          requests: [...(cmd.requests ?? [])],
        },
      };
      break;
    case 'create-topic':
      props = { ...base, createTopic: { name: cmd.name, settings: settingsToProto(cmd.settings) } };
      break;
    case 'update-topic':
      props = {
        ...base,
        updateTopic: {
          name: cmd.name,
          settings: settingsToProto(cmd.settings),
          updateMask: [...(cmd.updateMask ?? [])],
        },
      };
      break;
    case 'delete-topic':
      props = { ...base, deleteTopic: { name: cmd.name } };
      break;
    case 'create-group':
      props = {
        ...base,
        createGroup: {
          topic: cmd.topic,
          group: cmd.group,
          ...(cmd.settings ? { settings: groupSettingsToProto(cmd.settings) } : {}),
        },
      };
      break;
    case 'update-group':
      props = {
        ...base,
        updateGroup: {
          topic: cmd.topic,
          group: cmd.group,
          settings: groupSettingsToProto(cmd.settings),
          updateMask: [...(cmd.updateMask ?? [])],
        },
      };
      break;
    case 'delete-group':
      props = { ...base, deleteGroup: { topic: cmd.topic, group: cmd.group } };
      break;
    case 'purge':
      props = { ...base, purge: { topic: cmd.topic, group: cmd.group, maxRecords: cmd.maxRecords } };
      break;
    case 'schedule':
      props = { ...base, schedule: scheduleOpToProto(cmd.op) };
      break;
    case 'apply-limits':
      props = { ...base, applyLimits: { values: { ...cmd.values } } };
      break;
  }
  return v1.Command.encode(props).finish();
}

/** Decodes a Raft entry's data. Throws ValidationError('command') when it is not a command. */
export function decodeCommand(data: Uint8Array): Command {
  let m: pb.Command;
  try {
    m = v1.Command.decode(data);
  } catch (err) {
    throw new ValidationError('command', `undecodable command: ${(err as Error).message}`);
  }
  let nowMs: number;
  try {
    nowMs = num(m.nowMs, 'now_ms');
  } catch {
    throw new ValidationError('now_ms', 'out of range');
  }
  if (nowMs < 0) throw new ValidationError('now_ms', `must be >= 0, got ${nowMs}`);
  try {
    const cmd = decodeKind(m, nowMs);
    return m.inlineBodies ? { ...cmd, inlineBodies: true } : cmd;
  } catch (err) {
    if (err instanceof ValidationError) throw err;
    throw new ValidationError('command', (err as Error).message);
  }
}

function decodeKind(m: pb.Command, nowMs: number): Command {
  switch (m.kind) {
    case 'publish': {
      const c = m.publish!;
      return {
        kind: 'publish',
        nowMs,
        firstId: toBigInt(c.firstId),
        messages: (c.messages ?? []).map((x) => publishInputFromProto(x)),
        ...(c.requests?.length
          ? {
              requests: c.requests.map((r) => ({
                idempotencyKey: r.idempotencyKey ?? '',
                count: r.count ?? 0,
              })),
            }
          : {}),
      };
    }
    case 'lease': {
      const c = m.lease!;
      if (c.runs?.length) return leaseRunsFromProto(c, nowMs);
      const consumerId = c.consumerId ? toBigInt(c.consumerId) : 0n;
      const leaseId = c.leaseId ? toBigInt(c.leaseId) : 0n;
      return {
        kind: 'lease',
        nowMs,
        topic: c.topic ?? '',
        group: c.group ?? '',
        tags: c.tags ?? [],
        leaseMs: num(c.leaseMs, 'lease_ms'),
        firstId: toBigInt(c.firstId),
        idCount: c.idCount ?? 0,
        aheadMs: num(c.aheadMs, 'ahead_ms'),
        inPlace: c.inPlace === true,
        ...(c.deadLetterFallback ? { deadLetterFallback: true } : {}),
        ...(consumerId !== 0n ? { consumerId } : {}),
        ...(leaseId !== 0n ? { leaseId } : {}),
      };
    }
    case 'ack':
      return { kind: 'ack', nowMs, tags: m.ack!.tags ?? [] };
    case 'nack':
      return {
        kind: 'nack',
        nowMs,
        tag: m.nack!.tag ?? new Uint8Array(0),
        delayMs: num(m.nack!.delayMs, 'delay_ms'),
        ...(m.nack!.uncounted ? { uncounted: true } : {}),
        ...(m.nack!.error ? { error: m.nack!.error } : {}),
      };
    case 'extend':
      return {
        kind: 'extend',
        nowMs,
        tag: m.extend!.tag ?? new Uint8Array(0),
        leaseMs: num(m.extend!.leaseMs, 'lease_ms'),
      };
    case 'cancel': {
      const c = m.cancel! as pb.CancelCommand;
      return { kind: 'cancel', nowMs, topic: c.topic, target: targetFromProto(c, 'target') };
    }
    case 'reschedule': {
      const c = m.reschedule! as pb.RescheduleCommand;
      return {
        kind: 'reschedule',
        nowMs,
        topic: c.topic,
        target: targetFromProto(c, 'target'),
        ...(c.schedule === 'delayMs' ? { delayMs: num(c.delayMs, 'delay_ms') } : {}),
        ...(c.schedule === 'deliverAtMs' ? { deliverAtMs: num(c.deliverAtMs, 'deliver_at_ms') } : {}),
      };
    }
    case 'expire': {
      const c = m.expire!;
      return {
        kind: 'expire',
        nowMs,
        ids: (c.ids ?? []).map((x) => toBigInt(x)),
        firstId: toBigInt(c.firstId),
        idCount: c.idCount ?? 0,
        ...(c.deadLetterFallbackTopics?.length
          ? { deadLetterFallbackTopics: [...c.deadLetterFallbackTopics] }
          : {}),
        ...(c.keys?.length ? { keys: c.keys } : {}),
        ...(c.atMs?.length ? { atMs: c.atMs.map((t, i) => num(t, `at_ms[${i}]`)) } : {}),
      };
    }
    case 'forgetPublishes':
      return {
        kind: 'forget-publishes',
        nowMs,
        firstIds: (m.forgetPublishes!.firstIds ?? []).map((x) => toBigInt(x)),
      };
    case 'redrive': {
      const c = m.redrive!;
      return {
        kind: 'redrive',
        nowMs,
        topic: c.topic ?? '',
        sourceTopic: c.sourceTopic ?? '',
        ids: (c.ids ?? []).map((x) => toBigInt(x)),
        firstId: toBigInt(c.firstId),
        idCount: c.idCount ?? 0,
      };
    }
    case 'purgeKeys':
      return {
        kind: 'purge-keys',
        nowMs,
        keys: (m.purgeKeys!.keys ?? []).map((k) => ({ topic: k.topic ?? '', key: k.key ?? '' })),
        ...(m.purgeKeys!.requests?.length ? { requests: [...m.purgeKeys!.requests] } : {}),
      };
    case 'createTopic':
      return {
        kind: 'create-topic',
        nowMs,
        name: m.createTopic!.name ?? '',
        settings: settingsFromProto(m.createTopic!.settings),
      };
    case 'updateTopic':
      return {
        kind: 'update-topic',
        nowMs,
        name: m.updateTopic!.name ?? '',
        settings: settingsFromProto(m.updateTopic!.settings),
        updateMask: m.updateTopic!.updateMask ?? [],
      };
    case 'deleteTopic':
      return { kind: 'delete-topic', nowMs, name: m.deleteTopic!.name ?? '' };
    case 'createGroup':
      return {
        kind: 'create-group',
        nowMs,
        topic: m.createGroup!.topic ?? '',
        group: m.createGroup!.group ?? '',
        ...(m.createGroup!.settings ? { settings: groupSettingsFromProto(m.createGroup!.settings) } : {}),
      };
    case 'updateGroup':
      return {
        kind: 'update-group',
        nowMs,
        topic: m.updateGroup!.topic ?? '',
        group: m.updateGroup!.group ?? '',
        settings: groupSettingsFromProto(m.updateGroup!.settings),
        updateMask: m.updateGroup!.updateMask ?? [],
      };
    case 'deleteGroup':
      return {
        kind: 'delete-group',
        nowMs,
        topic: m.deleteGroup!.topic ?? '',
        group: m.deleteGroup!.group ?? '',
      };
    case 'purge':
      return {
        kind: 'purge',
        nowMs,
        topic: m.purge!.topic ?? '',
        group: m.purge!.group ?? '',
        maxRecords: m.purge!.maxRecords ?? 0,
      };
    case 'schedule':
      return { kind: 'schedule', nowMs, op: scheduleOpFromProto(m.schedule!) };
    case 'applyLimits':
      return { kind: 'apply-limits', nowMs, values: { ...(m.applyLimits!.values ?? {}) } };
    default:
      throw new ValidationError('command', 'names no command kind');
  }
}

/**
 * A lease command of several runs. Its own per-run fields must be unset: a
 * command that names both is not one a leader makes.
 */
function leaseRunsFromProto(c: pb.LeaseCommand.$Properties, nowMs: number): Command {
  const own =
    c.topic ||
    c.group ||
    c.tags?.length ||
    c.inPlace ||
    c.deadLetterFallback ||
    toBigInt(c.leaseMs) !== 0n ||
    toBigInt(c.leaseId) !== 0n ||
    toBigInt(c.consumerId) !== 0n;
  if (own) throw new ValidationError('runs', 'a lease of runs sets none of the fields its runs carry');
  return {
    kind: 'lease-runs',
    nowMs,
    runs: (c.runs ?? []).map((r, i) => {
      const consumerId = r.consumerId ? toBigInt(r.consumerId) : 0n;
      return {
        topic: r.topic ?? '',
        group: r.group ?? '',
        tags: r.tags ?? [],
        leaseMs: num(r.leaseMs, `runs[${i}].lease_ms`),
        leaseId: toBigInt(r.leaseId),
        ...(consumerId !== 0n ? { consumerId } : {}),
        ...(r.deadLetterFallback ? { deadLetterFallback: true } : {}),
      };
    }),
    firstId: toBigInt(c.firstId),
    idCount: c.idCount ?? 0,
    aheadMs: num(c.aheadMs, 'ahead_ms'),
  };
}
