/**
 * The REST forms of publish, cancel and reschedule (docs/api.md, "HTTP API"):
 * what a request's path, headers and body say, as the gRPC request of the
 * same call; and the gRPC answer as the REST answer. Values are read here
 * (durations, times, ids); every rule on them (limits, names, headers) is
 * the gRPC handler's, which the call then runs.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { DurationSyntaxError, parseDurationMs } from '@fermata/base';
import { int64FromSafe, type pb, suggestNames, toBigInt, toUint64, v1 } from '@fermata/protocol';
import { isJsonObject } from '@fermata/protocol/json';
import { ValidationError } from '../state/model/errors.js';

/** A percent-encoded path segment (`a%2Fb` -> `a/b`), read as the path part `field`. */
export function pathSegment(text: string, field: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw new ValidationError(field, 'is not a well-formed percent-encoded path segment');
  }
}

/** The headers a message's fields come from in the one-message form. */
export const MESSAGE_HEADERS = {
  delay: 'Fermata-Delay',
  deliverAt: 'Fermata-Deliver-At',
  ttl: 'Fermata-TTL',
  deliverBefore: 'Fermata-Deliver-Before',
  key: 'Fermata-Key',
  orderingKey: 'Fermata-Ordering-Key',
} as const;

/** Prefix of the headers that become the message's own headers (`Fermata-Header-Trace: x` -> `trace: x`). */
export const HEADER_PREFIX = 'fermata-header-';
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

type SpecField = keyof typeof MESSAGE_HEADERS;

/** One message as a REST form gives it: its values as written, and what each is called there. */
interface MessageSpec {
  readonly values: Partial<Record<SpecField, unknown>>;
  readonly headers: Record<string, string>;
  readonly payload: Uint8Array;
  /** The name of each field in the request (`Fermata-Delay`, `messages[2].delay`). */
  readonly nameOf: (field: SpecField) => string;
}

/** The fields of PublishMessage (as the server names them in errors) and the spec field each comes from. */
const SERVER_FIELD: Record<string, SpecField | 'payload' | 'headers'> = {
  delay_ms: 'delay',
  schedule: 'delay',
  deliver_at_ms: 'deliverAt',
  ttl_ms: 'ttl',
  deliver_before_ms: 'deliverBefore',
  key: 'key',
  ordering_key: 'orderingKey',
  payload: 'payload',
  headers: 'headers',
};

/** A duration: a string (`1500`, `5s`, `2h`) or a whole number of ms. */
function durationOf(v: unknown, name: string): number {
  if (typeof v === 'number') {
    if (Number.isSafeInteger(v) && v >= 0) return v;
    throw new ValidationError(name, `must be a whole number of ms >= 0, got ${v}`);
  }
  if (typeof v !== 'string') throw new ValidationError(name, 'must be a duration (1500, 5s, 2h)');
  try {
    return parseDurationMs(v);
  } catch (err) {
    if (err instanceof DurationSyntaxError) throw new ValidationError(name, err.message);
    throw err;
  }
}

const ISO_WITH_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/i;

/** A point in time: epoch ms (number or digits), or ISO 8601 with its zone (`2026-12-01T09:00:00Z`). */
function timeOf(v: unknown, name: string): number {
  if (typeof v === 'number') {
    if (Number.isSafeInteger(v) && v >= 0) return v;
    throw new ValidationError(name, `must be epoch ms >= 0, got ${v}`);
  }
  if (typeof v === 'string') {
    const t = v.trim();
    if (/^\d+$/.test(t)) {
      const ms = Number(t);
      if (Number.isSafeInteger(ms)) return ms;
      throw new ValidationError(name, `${t} is past the largest time, ${Number.MAX_SAFE_INTEGER} ms`);
    }
    const ms = ISO_WITH_ZONE.test(t) ? Date.parse(t) : Number.NaN;
    if (Number.isSafeInteger(ms) && ms >= 0) return ms;
  }
  throw new ValidationError(
    name,
    `${JSON.stringify(v)} is not a time: use ISO 8601 with a zone (2026-12-01T09:00:00Z, 2026-12-01T10:00:00+01:00) or epoch ms`,
  );
}

function textOf(v: unknown, name: string): string {
  if (typeof v !== 'string') throw new ValidationError(name, 'must be a string');
  return v;
}

/** The PublishMessage of `spec` in `topic`. */
function publishMessage(topic: string, spec: MessageSpec): pb.PublishMessage.$Properties {
  const { values: v, nameOf } = spec;
  if (v.delay !== undefined && v.deliverAt !== undefined) {
    throw new ValidationError(
      nameOf('deliverAt'),
      `set ${nameOf('delay')} or ${nameOf('deliverAt')}, not both`,
    );
  }
  const i64 = (ms: number) => int64FromSafe(ms);
  return {
    topic,
    payload: spec.payload,
    headers: spec.headers,
    ...(v.delay !== undefined ? { delayMs: i64(durationOf(v.delay, nameOf('delay'))) } : {}),
    ...(v.deliverAt !== undefined ? { deliverAtMs: i64(timeOf(v.deliverAt, nameOf('deliverAt'))) } : {}),
    ...(v.ttl !== undefined ? { ttlMs: i64(durationOf(v.ttl, nameOf('ttl'))) } : {}),
    ...(v.deliverBefore !== undefined
      ? { deliverBeforeMs: i64(timeOf(v.deliverBefore, nameOf('deliverBefore'))) }
      : {}),
    ...(v.key !== undefined ? { key: textOf(v.key, nameOf('key')) } : {}),
    ...(v.orderingKey !== undefined ? { orderingKey: textOf(v.orderingKey, nameOf('orderingKey')) } : {}),
  };
}

/**
 * The request's headers, each given once, by lower-case name; a `Fermata-*`
 * header the call does not read is refused (a misspelt `Fermata-Dealy` would
 * otherwise publish at once).
 */
function readHeaders(
  distinct: NodeJS.Dict<string[]>,
  known: readonly string[],
  allowPrefix?: string,
): Map<string, string> {
  const lower = new Map(known.map((k) => [k.toLowerCase(), k]));
  const out = new Map<string, string>();
  for (const [name, values] of Object.entries(distinct)) {
    if (values === undefined) continue;
    const canonical = lower.get(name);
    const ours = name.startsWith('fermata-') && !(allowPrefix && name.startsWith(allowPrefix));
    if (canonical === undefined && ours) {
      throw new ValidationError(
        name,
        `is not a header this call reads${suggestNames(name, known, 'it reads')}`,
      );
    }
    if ((canonical !== undefined || (allowPrefix && name.startsWith(allowPrefix))) && values.length > 1) {
      throw new ValidationError(canonical ?? name, `given ${values.length} times; give it once`);
    }
    // Header bytes are taken as UTF-8 (Node reads them as Latin-1).
    out.set(name, Buffer.from(values[0] ?? '', 'latin1').toString('utf8'));
  }
  return out;
}

/** How a request's form names the fields the server names (`messages[0].delay_ms` -> `Fermata-Delay`). */
export type FieldRenamer = (field: string) => string;

/**
 * The one-message form: the body is the payload, the headers say the rest.
 * The headers are read first, so a bad one is refused before the body is
 * read; `request` takes the body once it is.
 */
export function publishFromHeaders(
  topic: string,
  headers: IncomingHttpHeaders,
  distinct: NodeJS.Dict<string[]>,
): { request: (body: Uint8Array) => pb.PublishRequest.$Properties; rename: FieldRenamer } {
  const read = readHeaders(distinct, [...Object.values(MESSAGE_HEADERS), IDEMPOTENCY_HEADER], HEADER_PREFIX);
  const values: Partial<Record<SpecField, unknown>> = {};
  for (const [field, header] of Object.entries(MESSAGE_HEADERS) as [SpecField, string][]) {
    const v = read.get(header.toLowerCase());
    if (v !== undefined) values[field] = v;
  }
  const own: Record<string, string> = {};
  for (const [name, v] of read) if (name.startsWith(HEADER_PREFIX)) own[name.slice(HEADER_PREFIX.length)] = v;
  // The payload's type goes with it (a push delivery sends it as Content-Type).
  const contentType = headers['content-type'];
  if (contentType !== undefined) own['content-type'] = contentType;
  const message = publishMessage(topic, {
    values,
    headers: own,
    payload: new Uint8Array(0),
    nameOf: (f) => MESSAGE_HEADERS[f],
  });
  const idempotencyKey = read.get(IDEMPOTENCY_HEADER.toLowerCase());
  return {
    request: (body) => ({
      messages: [{ ...message, payload: body }],
      ...(idempotencyKey !== undefined ? { idempotencyKey } : {}),
    }),
    rename: (field) => {
      if (field === 'idempotency_key') return IDEMPOTENCY_HEADER;
      const m = /^messages\[0\]\.([a-z_]+)$/.exec(field);
      const spec = m ? SERVER_FIELD[m[1] as string] : undefined;
      if (spec === 'payload') return 'body';
      if (spec === 'headers') return 'Fermata-Header-*';
      return spec ? MESSAGE_HEADERS[spec] : field;
    },
  };
}

/** The fields a message of the batch form may have. */
const BATCH_MESSAGE_FIELDS = [
  'payload',
  'payloadBase64',
  'json',
  'contentType',
  'headers',
  ...Object.keys(MESSAGE_HEADERS),
] as const;

function checkFields(obj: Record<string, unknown>, allowed: readonly string[], at: string): void {
  for (const k of Object.keys(obj)) {
    if (allowed.includes(k)) continue;
    throw new ValidationError(`${at}${k}`, `is not a field here${suggestNames(k, allowed, 'fields')}`);
  }
}

/** A batch message's payload: `payload` (UTF-8 text), `payloadBase64`, or `json` (any JSON value, as its text). */
function batchPayload(m: Record<string, unknown>, at: string): { payload: Uint8Array; json: boolean } {
  const given = (['payload', 'payloadBase64', 'json'] as const).filter((k) => m[k] !== undefined);
  if (given.length > 1)
    throw new ValidationError(`${at}${given[1]}`, `set with ${given[0]}: give one payload`);
  if (m['payload'] !== undefined)
    return { payload: Buffer.from(textOf(m['payload'], `${at}payload`)), json: false };
  if (m['payloadBase64'] !== undefined) {
    const text = textOf(m['payloadBase64'], `${at}payloadBase64`);
    if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(text))
      throw new ValidationError(`${at}payloadBase64`, 'is not base64');
    return { payload: Buffer.from(text, 'base64'), json: false };
  }
  if (m['json'] !== undefined) {
    checkExactNumbers(m['json'], `${at}json`);
    return { payload: Buffer.from(JSON.stringify(m['json'])), json: true };
  }
  return { payload: new Uint8Array(0), json: false };
}

/** How deep a batch message's `json` may nest (deeper, storing its text would overflow the stack). */
export const MAX_JSON_DEPTH = 512;

/**
 * Refuses a number in `json` that JSON.parse did not keep as written: an
 * integer past 2^53 (rounded) or one too large for a double (`null` in the
 * stored text). The payload is stored as the JSON text of the parsed value.
 */
function checkExactNumbers(v: unknown, at: string, depth = 0): void {
  if (typeof v === 'number') {
    if (Number.isFinite(v) && (!Number.isInteger(v) || Number.isSafeInteger(v))) return;
    throw new ValidationError(
      at,
      'a number past 2^53 is not kept exactly in json: send it as a string, or the payload as its text in payload or payloadBase64',
    );
  }
  if (typeof v !== 'object' || v === null) return;
  if (depth >= MAX_JSON_DEPTH)
    throw new ValidationError(at, `nests deeper than ${MAX_JSON_DEPTH} levels: send it in payload`);
  const entries = Array.isArray(v)
    ? v.map((x, i) => [`[${i}]`, x] as const)
    : Object.entries(v).map(([k, x]) => [`.${k}`, x] as const);
  for (const [step, x] of entries) checkExactNumbers(x, `${at}${step}`, depth + 1);
}

function stringMap(v: unknown, name: string): Record<string, string> {
  if (v === undefined) return {};
  if (!isJsonObject(v)) throw new ValidationError(name, 'must be an object of header names to strings');
  for (const [k, x] of Object.entries(v)) textOf(x, `${name}.${k}`);
  return { ...(v as Record<string, string>) };
}

/**
 * The batch form: `{"messages": [...], "idempotencyKey": "..."}` (docs/api.md),
 * one atomic publish; `Idempotency-Key` may be a header instead.
 */
export function publishFromBatch(
  topic: string,
  body: unknown,
  distinct: NodeJS.Dict<string[]>,
): { request: pb.PublishRequest.$Properties; rename: FieldRenamer } {
  const read = readHeaders(distinct, [IDEMPOTENCY_HEADER]);
  if (!isJsonObject(body)) throw new ValidationError('body', 'must be a JSON object with "messages"');
  checkFields(body, ['messages', 'idempotencyKey'], '');
  const list = body['messages'];
  if (!Array.isArray(list) || list.length === 0)
    throw new ValidationError('messages', 'must be a non-empty array of messages');
  const messages = list.map((m: unknown, i) => {
    const at = `messages[${i}].`;
    if (!isJsonObject(m)) throw new ValidationError(`messages[${i}]`, 'must be an object');
    checkFields(m, BATCH_MESSAGE_FIELDS, at);
    const { payload, json } = batchPayload(m, at);
    const headers = stringMap(m['headers'], `${at}headers`);
    const contentType = m['contentType'] ?? (json ? 'application/json' : undefined);
    if (contentType !== undefined) headers['content-type'] = textOf(contentType, `${at}contentType`);
    const values: Partial<Record<SpecField, unknown>> = {};
    for (const f of Object.keys(MESSAGE_HEADERS) as SpecField[]) if (m[f] !== undefined) values[f] = m[f];
    return publishMessage(topic, { values, headers, payload, nameOf: (f) => `${at}${f}` });
  });
  const fromBody = body['idempotencyKey'];
  const fromHeader = read.get(IDEMPOTENCY_HEADER.toLowerCase());
  if (fromBody !== undefined && fromHeader !== undefined && fromBody !== fromHeader) {
    throw new ValidationError('idempotencyKey', `differs from the ${IDEMPOTENCY_HEADER} header: give one`);
  }
  const idempotencyKey = fromBody === undefined ? fromHeader : textOf(fromBody, 'idempotencyKey');
  return {
    request: { messages, ...(idempotencyKey !== undefined ? { idempotencyKey } : {}) },
    rename: (field) => {
      if (field === 'idempotency_key') return 'idempotencyKey';
      const m = /^(messages\[\d+\]\.)([a-z_]+)$/.exec(field);
      const spec = m ? SERVER_FIELD[m[2] as string] : undefined;
      return m && spec ? `${m[1]}${spec}` : field;
    },
  };
}

/** One result of a publish, as the REST forms answer it. */
export interface PublishedJson {
  /** The message id (uint64, as a decimal string). */
  readonly id: string;
  readonly deduplicated: boolean;
  readonly dueAtMs: number;
  /** `dueAtMs` in ISO 8601 (UTC); '' when 0 (a deduplicated message that already ended). */
  readonly dueAt: string;
}

export function publishedJson(res: pb.PublishResponse): PublishedJson[] {
  return res.results.map((r) => {
    const dueAtMs = Number(toBigInt(r.dueAtMs));
    return {
      id: toBigInt(r.id).toString(),
      deduplicated: r.deduplicated === true,
      dueAtMs,
      dueAt: dueAtMs > 0 ? new Date(dueAtMs).toISOString() : '',
    };
  });
}

const U64_MAX = (1n << 64n) - 1n;

/** The message a cancel or reschedule path names: `messages/{id}` or `keys/{key}`. */
export function targetOf(
  kind: 'messages' | 'keys',
  segment: string,
): { id: ReturnType<typeof toUint64> } | { key: string } {
  if (kind === 'keys') {
    const key = pathSegment(segment, 'key');
    if (key === '') throw new ValidationError('key', 'must not be empty');
    return { key };
  }
  if (!/^\d{1,20}$/.test(segment) || BigInt(segment) === 0n || BigInt(segment) > U64_MAX)
    throw new ValidationError(
      'id',
      `must be a message id (a whole number from 1 to 2^64-1), got "${segment}"`,
    );
  return { id: toUint64(BigInt(segment)) };
}

/** A reschedule's new due time from its headers (`Fermata-Delay` or `Fermata-Deliver-At`; neither = now). */
export function rescheduleFromHeaders(
  distinct: NodeJS.Dict<string[]>,
): Pick<pb.RescheduleRequest.$Properties, 'delayMs' | 'deliverAtMs'> {
  const read = readHeaders(distinct, [MESSAGE_HEADERS.delay, MESSAGE_HEADERS.deliverAt]);
  const m = publishMessage('', {
    values: {
      delay: read.get(MESSAGE_HEADERS.delay.toLowerCase()),
      deliverAt: read.get(MESSAGE_HEADERS.deliverAt.toLowerCase()),
    },
    headers: {},
    payload: new Uint8Array(0),
    nameOf: (f) => MESSAGE_HEADERS[f],
  });
  return {
    ...(m.delayMs != null ? { delayMs: m.delayMs } : {}),
    ...(m.deliverAtMs != null ? { deliverAtMs: m.deliverAtMs } : {}),
  };
}

/**
 * The REST answer to a cancel or reschedule of the message `label` names
 * (`message 5`, `the message with key "k"`, from path part `field`): 200 when
 * done, else the status that says why not, with the call's own status name.
 */
export function outcomeJson(
  kind: 'cancel' | 'reschedule',
  res: pb.CancelResponse | pb.RescheduleResponse,
  label: string,
  field: 'id' | 'key',
): { status: number; body: Record<string, unknown> } {
  const names = kind === 'cancel' ? v1.CancelStatus : v1.RescheduleStatus;
  const prefix = kind === 'cancel' ? 'CANCEL_STATUS_' : 'RESCHEDULE_STATUS_';
  const status = (names[res.status] ?? 'UNSPECIFIED').replace(prefix, '');
  const id = toBigInt(res.id).toString();
  const refused = (http: number, code: string, message: string) => ({
    status: http,
    body: { code, field, message: `${label} ${message}`, status, id },
  });
  switch (status) {
    case 'CANCELLED':
      return { status: 200, body: { status, id } };
    case 'RESCHEDULED': {
      const dueAtMs = Number(toBigInt((res as pb.RescheduleResponse).dueAtMs));
      return { status: 200, body: { status, id, dueAtMs, dueAt: new Date(dueAtMs).toISOString() } };
    }
    case 'NOT_FOUND':
      return refused(404, 'NOT_FOUND', 'is not in the topic (never published, or ended)');
    case 'IN_FLIGHT':
      return refused(
        409,
        'FAILED_PRECONDITION',
        'is in flight (a consumer holds its lease): nothing changed',
      );
    default:
      return refused(
        409,
        'FAILED_PRECONDITION',
        'has already ended (delivered, cancelled, expired or dead-lettered)',
      );
  }
}
