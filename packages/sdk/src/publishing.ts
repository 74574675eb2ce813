import { randomBytes } from 'node:crypto';
import { numberAsInt64, type pb, toBigInt, toSafeNumber } from '@fermata/protocol';
import { InvalidArgumentError } from './errors.js';
import { type Payload, toBytes } from './payload.js';

/** Options of one published message. */
export interface PublishOptions {
  /** Deliver this many ms after the leader accepts the publish (immune to client clock skew). */
  delayMs?: number;
  /** Deliver at this time (a Date or epoch ms), by the client's clock. A time in the past means now. */
  deliverAt?: Date | number;
  /** Remove (or dead-letter, per topic) the message if not acked within this many ms of publishing. 0 = never. */
  ttlMs?: number;
  /**
   * Dedup and cancel handle: while a message with this key lives in the topic
   * (plus the topic's dedup window), a publish with the same key returns the
   * existing id and stores nothing. (Retries are made safe per request instead:
   * see `idempotentPublish`.)
   */
  key?: string;
  /**
   * Per-key ordering: in a group ordered by key, at most one message of this
   * key is delivered at a time, in due order. Omitted: none (or the key, when
   * the topic sets `orderingKeyFromKey`).
   */
  orderingKey?: string;
  /**
   * The message's deadline (a Date or epoch ms, by the client's clock; at or
   * after its due time): never delivered from then on, but dead-lettered
   * (reason `deadline_exceeded`) or dropped, per the topic's `deadlineAction`.
   * Omitted: the topic's `maxLatenessMs` after its due time, if set.
   */
  deliverBefore?: Date | number;
  /** String headers, delivered with the message. */
  headers?: Record<string, string>;
}

/** One message of {@link FermataClient.publishBatch}. */
export interface PublishInput extends PublishOptions {
  topic: string;
  payload: Payload;
}

/** What the cluster answered for one published message. */
export interface PublishResult {
  /** The message id (unique in the cluster, increasing). */
  id: bigint;
  /**
   * True when nothing was stored for this message: a live message with the
   * same key already existed, or an earlier attempt of this same request got
   * through (a retry after a failover; see `idempotentPublish`).
   */
  deduplicated: boolean;
  /** When the message is due, epoch ms by the leader's clock. */
  dueAtMs: number;
}

/** Prefix of SDK-attached request idempotency keys. */
export const SDK_KEY_PREFIX = 'sdk:';

/** A fresh request idempotency key: 128 random bits. */
export function newIdempotencyKey(): string {
  return SDK_KEY_PREFIX + randomBytes(16).toString('base64url');
}

function checkMs(value: number, field: string): void {
  if (!(Number.isSafeInteger(value) && value >= 0)) {
    throw new InvalidArgumentError(`${field}: must be a whole number of ms >= 0, got ${value}`, field);
  }
}

/**
 * Builds the wire message and checks what can be checked locally, so a bad
 * message fails at once instead of taking a whole batch down on the server.
 * The message is one object literal with every field, `undefined` when unset:
 * adding properties one by one gives V8 a slower object shape, whose property
 * reads in the encoder cost several times more. Times and durations go
 * to the encoder as numbers (checked safe integers), not Long objects.
 */
export function wireMessage(
  topic: string,
  payload: Payload,
  options: PublishOptions,
  fieldPrefix = '',
  traceHeaders?: Record<string, string>,
): pb.PublishMessage.$Properties {
  const { delayMs, deliverAt, ttlMs, key, orderingKey, deliverBefore, headers } = options ?? {};
  if (typeof topic !== 'string' || topic === '') {
    throw new InvalidArgumentError(`${fieldPrefix}topic: must be a non-empty string`, `${fieldPrefix}topic`);
  }
  const bytes = toBytes(payload);
  if (delayMs !== undefined && deliverAt !== undefined) {
    throw new InvalidArgumentError(
      `${fieldPrefix}delayMs: give delayMs or deliverAt, not both`,
      `${fieldPrefix}delayMs`,
    );
  }
  if (delayMs !== undefined) checkMs(delayMs, `${fieldPrefix}delayMs`);
  const at = deliverAt instanceof Date ? deliverAt.getTime() : deliverAt;
  if (at !== undefined) checkMs(at, `${fieldPrefix}deliverAt`);
  if (ttlMs !== undefined) checkMs(ttlMs, `${fieldPrefix}ttlMs`);
  const before = deliverBefore instanceof Date ? deliverBefore.getTime() : deliverBefore;
  if (before !== undefined) checkMs(before, `${fieldPrefix}deliverBefore`);
  // Trace headers go under the message's own: a traceparent the caller set wins.
  let copied: Record<string, string> | undefined = traceHeaders;
  if (headers !== undefined) {
    for (const [name, value] of Object.entries(headers)) {
      if (typeof value !== 'string') {
        throw new InvalidArgumentError(
          `${fieldPrefix}headers.${name}: header values must be strings`,
          `${fieldPrefix}headers.${name}`,
        );
      }
    }
    copied = { ...traceHeaders, ...headers };
  }
  return {
    topic,
    payload: bytes,
    headers: copied,
    delayMs: numberAsInt64(delayMs),
    deliverAtMs: numberAsInt64(at),
    ttlMs: numberAsInt64(ttlMs),
    key: key !== undefined && key !== '' ? key : undefined,
    orderingKey: orderingKey !== undefined && orderingKey !== '' ? orderingKey : undefined,
    deliverBeforeMs: numberAsInt64(before),
  };
}

/** Bytes a message occupies in a batch, roughly (for the producer's size limits). */
export function messageBytes(msg: pb.PublishMessage.$Properties): number {
  let n = (msg.payload?.byteLength ?? 0) + (msg.topic?.length ?? 0) + (msg.key?.length ?? 0) + 32;
  if (msg.headers) for (const [k, v] of Object.entries(msg.headers)) n += k.length + v.length + 4;
  return n;
}

export function fromPublishResult(r: pb.PublishResult.$Properties): PublishResult {
  return {
    id: toBigInt(r.id),
    deduplicated: r.deduplicated === true,
    dueAtMs: toSafeNumber(r.dueAtMs, 'due_at_ms'),
  };
}
