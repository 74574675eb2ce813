import { type pb, toBigInt, toInt64, toSafeNumber, toUint64, v1 } from '@fermata/protocol';
import { InvalidArgumentError } from './errors.js';
import { checkOptions } from './options-check.js';

/**
 * Names one message: its id (a bigint, or its decimal string as stored in
 * JSON or a database), or the key it was published with.
 */
export type MessageRef = bigint | string | { id: bigint | string } | { key: string };

const MAX_ID = (1n << 64n) - 1n;

/** A message id given as a bigint or its decimal string, checked (`field` names it in the error). */
export function parseId(id: unknown, field = 'id'): bigint {
  if (typeof id === 'bigint') {
    if (id < 0n || id > MAX_ID)
      throw new InvalidArgumentError(`${field}: must be an unsigned 64-bit id, got ${id}`, field);
    return id;
  }
  if (typeof id === 'string' && /^[0-9]{1,20}$/.test(id)) {
    const v = BigInt(id);
    if (v <= MAX_ID) return v;
  }
  if (typeof id === 'number' && Number.isSafeInteger(id) && id >= 0) {
    throw new InvalidArgumentError(
      `${field}: ids are bigints (${id}n) or decimal strings ("${id}"): a number loses precision past 2^53`,
      field,
    );
  }
  throw new InvalidArgumentError(
    `${field}: must be a message id, a bigint or its decimal string, got ${typeof id === 'string' ? JSON.stringify(id) : typeof id}${typeof id === 'string' ? `; a message key goes as { key: ${JSON.stringify(id)} }` : ''}`,
    field,
  );
}

/** What became of one dead letter in {@link FermataClient.redrive}. */
export interface RedriveResult {
  /** The dead letter's id (a message of the dead-letter topic). */
  id: bigint;
  /**
   * `redriven`: back in the topic as message `newId`, due now, attempt 0, to
   * the group it was dead-lettered from; `not-found`: no such dead letter
   * (consumed or redriven already); `not-a-dead-letter`: not one of this
   * topic's; `in-flight`: a consumer of the dead-letter topic holds it;
   * `group-gone`: its group was deleted.
   */
  status: 'redriven' | 'not-found' | 'not-a-dead-letter' | 'in-flight' | 'group-gone' | 'unspecified';
  /** Redriven: its id in the topic. */
  newId: bigint | undefined;
}

const REDRIVE_STATUS: Record<number, RedriveResult['status']> = {
  [v1.RedriveStatus.REDRIVE_STATUS_REDRIVEN]: 'redriven',
  [v1.RedriveStatus.REDRIVE_STATUS_NOT_FOUND]: 'not-found',
  [v1.RedriveStatus.REDRIVE_STATUS_NOT_A_DEAD_LETTER]: 'not-a-dead-letter',
  [v1.RedriveStatus.REDRIVE_STATUS_IN_FLIGHT]: 'in-flight',
  [v1.RedriveStatus.REDRIVE_STATUS_GROUP_GONE]: 'group-gone',
};

export function redriveFromWire(r: pb.RedriveResult.$Properties): RedriveResult {
  const status = REDRIVE_STATUS[r.status ?? 0] ?? 'unspecified';
  return {
    id: toBigInt(r.id ?? 0),
    status,
    newId: status === 'redriven' ? toBigInt(r.newId ?? 0) : undefined,
  };
}

/** {@link FermataClient.cancel}'s answer. */
export interface CancelResult {
  status: 'cancelled' | 'not-found' | 'in-flight' | 'already-done';
  /** The message's id, when the server found one. */
  id: bigint;
}

/** {@link FermataClient.reschedule}'s answer. */
export interface RescheduleResult {
  status: 'rescheduled' | 'not-found' | 'in-flight' | 'already-done';
  /** The new due time (epoch ms) when rescheduled. */
  dueAtMs: number;
  id: bigint;
}

/** New due time for {@link FermataClient.reschedule}: relative to now at the leader, or absolute. */
export type Schedule = { delayMs: number } | { deliverAt: Date | number };

/** Where a message stands in a group. */
export type MessageState = 'unspecified' | 'pending' | 'in-flight' | 'done' | 'dead-lettered';

/** A stored message (as inspected, not delivered). */
export interface MessageInfo {
  /** The message id. */
  id: bigint;
  topic: string;
  payload: Uint8Array;
  headers: Record<string, string>;
  /** The publish key ('' when none). */
  key: string;
  /** When it was published, epoch ms. */
  enqueuedAtMs: number;
  /** When it was (first) due, epoch ms. */
  dueAtMs: number;
  /** 0 when it never expires. */
  expireAtMs: number;
  /** Its ordering key ('' when none). */
  orderingKey: string;
  /** Its deadline, epoch ms (0 = none): its own deliverBefore, or its due time plus the topic's maxLatenessMs. */
  deliverBeforeMs: number;
}

/** A message's state in one group. */
export interface GroupMessageState {
  group: string;
  state: MessageState;
  /** When it is next due in this group (for an in-flight message: when its lease ends), epoch ms. */
  dueAtMs: number;
  /** Deliveries so far in this group. */
  attempt: number;
}

/** {@link FermataClient.getMessage}'s answer. */
export interface MessageDetails {
  /** The stored message. */
  message: MessageInfo;
  /** Its state in each group of the topic. */
  groups: GroupMessageState[];
}

/** One entry of {@link FermataClient.listMessages}. */
export interface ListedMessage {
  /** The stored message. */
  message: MessageInfo;
  /** Its state in the listed group. */
  state: MessageState;
  /** When its entry is due in the listed group, epoch ms. */
  dueAtMs: number;
  /** Deliveries so far in the listed group. */
  attempt: number;
  /** The entry's current key; for an in-flight entry, its delivery tag. */
  tag: Uint8Array;
}

/** Filter and paging of {@link FermataClient.listMessages}. */
export interface ListMessagesOptions {
  /** Default `default`. */
  group?: string;
  /** Inclusive lower bound on the due time (epoch ms). */
  fromDueMs?: number;
  /** Exclusive upper bound on the due time (epoch ms). */
  toDueMs?: number;
  /** Page size (server default and cap apply). */
  limit?: number;
  /** From the previous page's `nextPageToken`. */
  pageToken?: Uint8Array;
}

/** One page of {@link FermataClient.listMessages}. */
export interface MessagePage {
  /** The entries of this page, by due time. */
  messages: ListedMessage[];
  /** Pass as `pageToken` for the next page; undefined on the last page. */
  nextPageToken: Uint8Array | undefined;
}

export function refToWire(ref: MessageRef): { id?: ReturnType<typeof toUint64>; key?: string } {
  if (typeof ref !== 'object' || ref === null) return { id: toUint64(parseId(ref)) };
  checkOptions('message reference', ref, ['id', 'key']);
  if ('id' in ref) return { id: toUint64(parseId(ref.id)) };
  if (typeof ref.key !== 'string' || ref.key === '') {
    throw new InvalidArgumentError('key: must be a non-empty string', 'key');
  }
  return { key: ref.key };
}

export function scheduleToWire(s: Schedule): {
  delayMs?: ReturnType<typeof toInt64>;
  deliverAtMs?: ReturnType<typeof toInt64>;
} {
  checkOptions('reschedule schedule', s, ['delayMs', 'deliverAt']);
  if ('delayMs' in s) {
    if (!(Number.isSafeInteger(s.delayMs) && s.delayMs >= 0)) {
      throw new InvalidArgumentError(
        `delayMs: must be a whole number of ms >= 0, got ${s.delayMs}`,
        'delayMs',
      );
    }
    return { delayMs: toInt64(BigInt(s.delayMs)) };
  }
  const at = s.deliverAt instanceof Date ? s.deliverAt.getTime() : s.deliverAt;
  if (!(Number.isSafeInteger(at) && at >= 0)) {
    throw new InvalidArgumentError(`deliverAt: must be epoch ms >= 0, got ${at}`, 'deliverAt');
  }
  return { deliverAtMs: toInt64(BigInt(at)) };
}

const CANCEL: Record<number, CancelResult['status']> = {
  [v1.CancelStatus.CANCEL_STATUS_CANCELLED]: 'cancelled',
  [v1.CancelStatus.CANCEL_STATUS_NOT_FOUND]: 'not-found',
  [v1.CancelStatus.CANCEL_STATUS_IN_FLIGHT]: 'in-flight',
  [v1.CancelStatus.CANCEL_STATUS_ALREADY_DONE]: 'already-done',
};

const RESCHEDULE: Record<number, RescheduleResult['status']> = {
  [v1.RescheduleStatus.RESCHEDULE_STATUS_RESCHEDULED]: 'rescheduled',
  [v1.RescheduleStatus.RESCHEDULE_STATUS_NOT_FOUND]: 'not-found',
  [v1.RescheduleStatus.RESCHEDULE_STATUS_IN_FLIGHT]: 'in-flight',
  [v1.RescheduleStatus.RESCHEDULE_STATUS_ALREADY_DONE]: 'already-done',
};

const STATES: Record<number, MessageState> = {
  [v1.MessageState.MESSAGE_STATE_PENDING]: 'pending',
  [v1.MessageState.MESSAGE_STATE_IN_FLIGHT]: 'in-flight',
  [v1.MessageState.MESSAGE_STATE_DONE]: 'done',
  [v1.MessageState.MESSAGE_STATE_DEAD_LETTERED]: 'dead-lettered',
};

export function cancelFromWire(r: pb.CancelResponse): CancelResult {
  const status = CANCEL[r.status];
  if (status === undefined) throw new RangeError(`unknown cancel status ${r.status}`);
  return { status, id: toBigInt(r.id) };
}

export function rescheduleFromWire(r: pb.RescheduleResponse): RescheduleResult {
  const status = RESCHEDULE[r.status];
  if (status === undefined) throw new RangeError(`unknown reschedule status ${r.status}`);
  return { status, dueAtMs: toSafeNumber(r.dueAtMs, 'due_at_ms'), id: toBigInt(r.id) };
}

export function messageInfoFromWire(m: pb.MessageInfo.$Properties | null | undefined): MessageInfo {
  return {
    id: toBigInt(m?.id),
    topic: m?.topic ?? '',
    payload: m?.payload ?? new Uint8Array(0),
    headers: { ...(m?.headers ?? {}) },
    key: m?.key ?? '',
    enqueuedAtMs: toSafeNumber(m?.enqueuedAtMs, 'enqueued_at_ms'),
    dueAtMs: toSafeNumber(m?.dueAtMs, 'due_at_ms'),
    expireAtMs: toSafeNumber(m?.expireAtMs, 'expire_at_ms'),
    orderingKey: m?.orderingKey ?? '',
    deliverBeforeMs: toSafeNumber(m?.deliverBeforeMs, 'deliver_before_ms'),
  };
}

export function detailsFromWire(r: pb.GetMessageResponse): MessageDetails {
  return {
    message: messageInfoFromWire(r.message),
    groups: r.groups.map((g) => ({
      group: g.group ?? '',
      state: STATES[g.state ?? 0] ?? 'unspecified',
      dueAtMs: toSafeNumber(g.dueAtMs, 'due_at_ms'),
      attempt: g.attempt ?? 0,
    })),
  };
}

export function pageFromWire(r: pb.ListMessagesResponse): MessagePage {
  return {
    messages: r.messages.map((l) => ({
      message: messageInfoFromWire(l.message),
      state: STATES[l.state ?? 0] ?? 'unspecified',
      dueAtMs: toSafeNumber(l.dueAtMs, 'due_at_ms'),
      attempt: l.attempt ?? 0,
      tag: l.tag ?? new Uint8Array(0),
    })),
    nextPageToken: r.nextPageToken.byteLength > 0 ? r.nextPageToken : undefined,
  };
}
