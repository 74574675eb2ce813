/**
 * StoredMessage (records.proto), the message body, written and read by hand
 * (wire.ts): the dispatcher decodes a body per delivery and apply writes one
 * per message (`npm run bench -- apply`, `delivery`). Its DeadLetterInfo goes
 * through protobufjs (rare). The bytes equal protobufjs's
 * (state-record-codec.test.ts).
 */
import { toBigInt, toUint64, v1 } from '@fermata/protocol';
import type { BodyRec, DeadLetterInfo, DeadLetterReason } from '../model/records.js';
import { i64, n64, writer } from './shared.js';
import { lenFieldSize, WIRE_LEN, WIRE_VARINT, WireReader, type WireWriter } from './wire.js';

/**
 * A body carried in a queue entry (`decodeInlineBody`), decoded from the
 * entry's bytes when a field of it is first read: the lease and the ack of
 * an entry, and the due read, never read its body (the leader's push does).
 * It keeps where its bytes lie in the entry, so that a rewrite of the entry
 * (a nack, a move, a lease in place) copies them instead of encoding the
 * payload and headers again. Its fields are getters: a spread of it carries
 * none (nothing spreads a body; a changed copy is built field by field).
 */
class EntryBody implements BodyRec {
  readonly #entry: Uint8Array;
  readonly #start: number;
  readonly #end: number;
  readonly #id: bigint;
  readonly #topic: string;
  readonly #expireAtMs: number;
  readonly #orderingKey: string;
  readonly #deliverBeforeMs: number;
  #fields: BodyRec | undefined;

  constructor(entry: Uint8Array, start: number, end: number, own: EntryOwn) {
    this.#entry = entry;
    this.#start = start;
    this.#end = end;
    this.#id = own.id;
    this.#topic = own.topic;
    this.#expireAtMs = own.expireAtMs;
    this.#orderingKey = own.orderingKey;
    this.#deliverBeforeMs = own.deliverBeforeMs;
    this.#fields = undefined;
  }

  #decoded(): BodyRec {
    this.#fields ??= decodeBodyOf(this.#entry, this.#start, this.#end, {
      id: this.#id,
      topic: this.#topic,
      expireAtMs: this.#expireAtMs,
      orderingKey: this.#orderingKey,
      deliverBeforeMs: this.#deliverBeforeMs,
    });
    return this.#fields;
  }

  get id(): bigint {
    return this.#decoded().id;
  }
  get topic(): string {
    return this.#decoded().topic;
  }
  get payload(): Uint8Array {
    return this.#decoded().payload;
  }
  get headers(): Readonly<Record<string, string>> {
    return this.#decoded().headers;
  }
  get key(): string {
    return this.#decoded().key;
  }
  get enqueuedAtMs(): number {
    return this.#decoded().enqueuedAtMs;
  }
  get dueAtMs(): number {
    return this.#decoded().dueAtMs;
  }
  get expireAtMs(): number {
    return this.#decoded().expireAtMs;
  }
  get deadLetter(): DeadLetterInfo | undefined {
    return this.#decoded().deadLetter;
  }
  get indexImplied(): boolean | undefined {
    return this.#decoded().indexImplied;
  }
  get orderingKey(): string {
    return this.#orderingKey;
  }
  get deliverBeforeMs(): number {
    return this.#deliverBeforeMs;
  }

  /** The bytes `b` was decoded from, when it is a body carried in an entry. */
  static bytesOf(b: BodyRec): Uint8Array | undefined {
    if (!(#entry in b)) return undefined;
    const body = b as EntryBody;
    return body.#entry.subarray(body.#start, body.#end);
  }
}

/**
 * Writes the body as a queue entry carries it (QueueEntry.body: the
 * StoredMessage without id, topic and expiry, which are the entry's) as
 * field `field` of the record `w` is writing: the bytes it was decoded from
 * when it has them, else encoded in place.
 */
export function writeInlineBody(w: WireWriter, field: number, b: BodyRec, deadLetter?: Uint8Array): void {
  w.tag(field, WIRE_LEN);
  const carried = EntryBody.bytesOf(b);
  if (carried) {
    w.bytes(carried);
    return;
  }
  const at = w.beginLength();
  writeBodyFields(w, b, true, deadLetter);
  w.endLength(at);
}

/**
 * A body's dead-letter information, encoded (protobufjs, rare), for
 * `writeInlineBody`: before the record's encoding starts, as protobufjs
 * does not share the writer but a nested encode would reset it.
 */
export function encodeDeadLetterOf(b: BodyRec): Uint8Array | undefined {
  const d = b.deadLetter;
  if (!d || EntryBody.bytesOf(b)) return undefined;
  return v1.DeadLetterInfo.encode({
    sourceTopic: d.sourceTopic,
    sourceGroup: d.sourceGroup,
    sourceId: toUint64(d.sourceId),
    sourceKey: d.sourceKey,
    reason: d.reason,
    attempts: d.attempts,
    deliveredAtMs: d.deliveredAtMs.map(i64),
    deadLetteredAtMs: i64(d.deadLetteredAtMs),
    lastError: d.lastError,
  }).finish();
}

/** A body record (StoredMessage), whole. */
export function encodeBody(b: BodyRec): Uint8Array {
  const deadLetter = encodeDeadLetterOf(b);
  const w = writer.reset();
  writeBodyFields(w, b, false, deadLetter);
  return w.finish();
}

/** `inline`: as a queue entry carries it (no id, topic, expiry, ordering key, deadline or index_implied). */
function writeBodyFields(
  w: WireWriter,
  b: BodyRec,
  inline: boolean,
  deadLetter: Uint8Array | undefined,
): void {
  if (b.id !== 0n && !inline) w.tag(1, WIRE_VARINT).varint64(b.id);
  if (b.topic !== '' && !inline) w.tag(2, WIRE_LEN).string(b.topic);
  if (b.payload.length > 0) w.tag(3, WIRE_LEN).bytes(b.payload);
  for (const name in b.headers) {
    const value = b.headers[name]!;
    const size =
      lenFieldSize(Buffer.byteLength(name, 'utf8')) + lenFieldSize(Buffer.byteLength(value, 'utf8'));
    w.tag(4, WIRE_LEN).varint(size).tag(1, WIRE_LEN).string(name).tag(2, WIRE_LEN).string(value);
  }
  if (b.key !== '') w.tag(5, WIRE_LEN).string(b.key);
  if (b.enqueuedAtMs !== 0) w.tag(6, WIRE_VARINT).varint(b.enqueuedAtMs);
  if (b.dueAtMs !== 0) w.tag(7, WIRE_VARINT).varint(b.dueAtMs);
  if (b.expireAtMs !== 0 && !inline) w.tag(8, WIRE_VARINT).varint(b.expireAtMs);
  if (deadLetter) w.tag(9, WIRE_LEN).bytes(deadLetter);
  if (b.indexImplied && !inline) w.tag(10, WIRE_VARINT).varint(1);
  if (b.orderingKey !== '' && !inline) w.tag(11, WIRE_LEN).string(b.orderingKey);
  if (b.deliverBeforeMs !== 0 && !inline) w.tag(12, WIRE_VARINT).varint(b.deliverBeforeMs);
}

const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});
const NO_BYTES: Uint8Array = new Uint8Array(0);

/**
 * Reads what `encodeBody` (or protobufjs) wrote, by hand like `decodeEntry`:
 * the dispatcher decodes a body per delivery, and protobufjs made a message
 * object and a Long per time field on the way. The payload is a view into
 * `bytes`. A dead-letter record's history is read by protobufjs (rare).
 */
export function decodeBody(bytes: Uint8Array): BodyRec {
  return decodeBodyOf(bytes, 0, bytes.length, NO_OWN);
}

/** What a body carried in an entry takes from the entry (a body record holds them itself). */
export interface EntryOwn {
  readonly id: bigint;
  readonly topic: string;
  readonly expireAtMs: number;
  readonly orderingKey: string;
  readonly deliverBeforeMs: number;
}

const NO_OWN: EntryOwn = { id: 0n, topic: '', expireAtMs: 0, orderingKey: '', deliverBeforeMs: 0 };

/**
 * The body a queue entry carries (`writeInlineBody`), at `[start, end)` of
 * the entry's bytes, with the entry's id, topic, expiry, ordering key and
 * deadline. Keeps where it is in `entry` for a rewrite of the entry.
 */
export function decodeInlineBody(entry: Uint8Array, start: number, end: number, own: EntryOwn): BodyRec {
  return new EntryBody(entry, start, end, own);
}

function decodeBodyOf(bytes: Uint8Array, start: number, end: number, own: EntryOwn): BodyRec {
  const r = new WireReader(bytes, end);
  r.pos = start;
  let id = own.id;
  let topic = own.topic;
  let payload = NO_BYTES;
  let headers: Record<string, string> | undefined;
  let key = '';
  let enqueuedAtMs = 0;
  let dueAtMs = 0;
  let expireAtMs = own.expireAtMs;
  let deadLetter: DeadLetterInfo | undefined;
  let indexImplied = false;
  let orderingKey = own.orderingKey;
  let deliverBeforeMs = own.deliverBeforeMs;
  while (!r.done) {
    const tag = r.varint();
    const wt = tag & 7;
    switch (tag >>> 3) {
      case 1:
        if (wt !== WIRE_VARINT) break;
        id = r.varint64();
        continue;
      case 2:
        if (wt !== WIRE_LEN) break;
        topic = r.string();
        continue;
      case 3:
        if (wt !== WIRE_LEN) break;
        payload = r.bytes();
        continue;
      case 4: {
        if (wt !== WIRE_LEN) break;
        const e = r.sub();
        let name = '';
        let value = '';
        while (!e.done) {
          const t = e.varint();
          if (t === ((1 << 3) | WIRE_LEN)) name = e.string();
          else if (t === ((2 << 3) | WIRE_LEN)) value = e.string();
          else e.skip(t & 7);
        }
        headers ??= {};
        // As protobufjs does: `__proto__` is an own property, not the prototype's setter.
        if (name === '__proto__') {
          Object.defineProperty(headers, name, {
            value,
            enumerable: true,
            writable: true,
            configurable: true,
          });
        } else {
          headers[name] = value;
        }
        continue;
      }
      case 5:
        if (wt !== WIRE_LEN) break;
        key = r.string();
        continue;
      case 6:
        if (wt !== WIRE_VARINT) break;
        enqueuedAtMs = r.varint();
        continue;
      case 7:
        if (wt !== WIRE_VARINT) break;
        dueAtMs = r.varint();
        continue;
      case 8:
        if (wt !== WIRE_VARINT) break;
        expireAtMs = r.varint();
        continue;
      case 9:
        if (wt !== WIRE_LEN) break;
        deadLetter = decodeDeadLetter(r.bytes());
        continue;
      case 10:
        if (wt !== WIRE_VARINT) break;
        indexImplied = r.varint() !== 0;
        continue;
      case 11:
        if (wt !== WIRE_LEN) break;
        orderingKey = r.string();
        continue;
      case 12:
        if (wt !== WIRE_VARINT) break;
        deliverBeforeMs = r.varint();
        continue;
    }
    r.skip(wt);
  }
  // Every field present (undefined when unset), one shape: conditional spreads make slow objects.
  return {
    id,
    topic,
    payload,
    headers: headers ?? NO_HEADERS,
    key,
    enqueuedAtMs,
    dueAtMs,
    expireAtMs,
    deadLetter,
    indexImplied: indexImplied ? true : undefined,
    orderingKey,
    deliverBeforeMs,
  };
}

function deadLetterReason(reason: string | null | undefined): DeadLetterReason {
  return reason === 'expired' || reason === 'deadline_exceeded' ? reason : 'max_attempts';
}

function decodeDeadLetter(bytes: Uint8Array): DeadLetterInfo {
  const d = v1.DeadLetterInfo.decode(bytes);
  return {
    sourceTopic: d.sourceTopic ?? '',
    sourceGroup: d.sourceGroup ?? '',
    sourceId: toBigInt(d.sourceId),
    sourceKey: d.sourceKey ?? '',
    reason: deadLetterReason(d.reason),
    attempts: d.attempts ?? 0,
    deliveredAtMs: (d.deliveredAtMs ?? []).map(n64),
    deadLetteredAtMs: n64(d.deadLetteredAtMs),
    lastError: d.lastError ?? '',
  };
}
