import { DEAD_LETTER_HEADERS, type pb, toBigInt, toSafeNumber } from '@fermata/protocol';
import { FermataError, StatusCode } from './errors.js';
import { OPTION_NAMES } from './option-names.js';
import { checkOptions } from './options-check.js';
import { decodeJson, decodeText } from './payload.js';

/** @internal What a message needs from its subscription to settle itself. */
export interface Settler {
  ack(message: Message): Promise<void>;
  nack(message: Message, delayMs: number | undefined, error?: string): Promise<void>;
  extend(
    message: Message,
    leaseMs: number | undefined,
  ): Promise<{ tag: Uint8Array; leaseExpiresAtMs: number }>;
}

/** How a message was settled. */
export type Settlement = 'ack' | 'nack' | 'released';

/**
 * Why a message of a dead-letter topic is there: its `fermata-dead-letter-*`
 * headers, typed.
 */
export interface DeadLetter {
  /**
   * `max_attempts`: its handler failed (or its lease ran out) on every attempt; `expired`: its TTL ran
   * out; `deadline_exceeded`: it was not delivered before its deadline (`deliverBefore`, or the topic's
   * `maxLatenessMs`), and never will be.
   */
  readonly reason: 'max_attempts' | 'expired' | 'deadline_exceeded' | (string & {});
  /** The topic it was dead-lettered from (redrive it there: `client.redrive(sourceTopic, ...)`). */
  readonly sourceTopic: string;
  /** The consumer group whose attempts it used up. */
  readonly sourceGroup: string;
  /** Its id in the source topic. */
  readonly sourceId: bigint;
  /** Deliveries it had there. */
  readonly attempts: number;
  /** The last failure a consumer reported (a handler's error message), '' if none said. */
  readonly lastError: string;
}

/** The headers a dead letter carries, named in {@link DeadLetter}. */
export { DEAD_LETTER_HEADERS };

function deadLetterOf(h: Readonly<Record<string, string>>): DeadLetter | undefined {
  const reason = h[DEAD_LETTER_HEADERS.reason];
  if (reason === undefined) return undefined;
  const id = h[DEAD_LETTER_HEADERS.sourceId] ?? '0';
  return {
    reason,
    sourceTopic: h[DEAD_LETTER_HEADERS.sourceTopic] ?? '',
    sourceGroup: h[DEAD_LETTER_HEADERS.sourceGroup] ?? '',
    sourceId: /^[0-9]+$/.test(id) ? BigInt(id) : 0n,
    attempts: Number(h[DEAD_LETTER_HEADERS.attempts] ?? 0),
    lastError: h[DEAD_LETTER_HEADERS.lastError] ?? '',
  };
}

/** Most UTF-8 bytes of the error text a nack carries (the server's `maxNackErrorBytes`); longer is cut. */
export const MAX_NACK_ERROR_BYTES = 1024;

/** `text` cut to at most MAX_NACK_ERROR_BYTES UTF-8 bytes, whole characters, marked with '…' when cut. */
export function boundedErrorText(text: string): string {
  if (Buffer.byteLength(text, 'utf8') <= MAX_NACK_ERROR_BYTES) return text;
  let out = Buffer.from(text, 'utf8')
    .subarray(0, MAX_NACK_ERROR_BYTES - 3)
    .toString('utf8');
  // A character cut in two decodes to U+FFFD: drop it.
  if (out.endsWith('\uFFFD')) out = out.slice(0, -1);
  return `${out}…`;
}

/**
 * One delivery. Ack it when done (auto mode does so when the handler
 * resolves), nack it to have it redelivered later, extend its lease while
 * working on it. Calls on one message run one after another, so an ack issued
 * while an extend is in flight uses the extended tag.
 */
export class Message {
  /** The message id. */
  readonly id: bigint;
  readonly topic: string;
  /** The consumer group this delivery belongs to. */
  readonly group: string;
  readonly payload: Uint8Array;
  readonly headers: Readonly<Record<string, string>>;
  /** The publish key ('' when none; SDK-attached keys start with `sdk:`). */
  readonly key: string;
  /** When it was due, epoch ms (leader's clock). */
  readonly dueAtMs: number;
  /** When it was published, epoch ms (leader's clock). */
  readonly enqueuedAtMs: number;
  /** 1 on the first delivery, then 2, 3...; a redelivery is attempt + 1. */
  readonly attempt: number;
  /**
   * The topic's maxAttempts when this was delivered (0 if the server did not
   * say): when `attempt` reaches it, a failure dead-letters the message.
   */
  readonly maxAttempts: number;
  /** For a message of a dead-letter topic: why it is there (from its `fermata-dead-letter-*` headers). */
  readonly deadLetter: DeadLetter | undefined;
  /**
   * @internal Local time (Date.now()) the SDK took it in: its arrival, or for
   * a delivery sent ahead of its due time, when the hold released it. For lease bookkeeping.
   */
  readonly receivedAtMs: number;
  private currentTag: Uint8Array;
  private currentLeaseExpiresAtMs: number;
  /** The extend in flight, if any: a settle waits for it (most messages never extend: no promise). */
  private chain: Promise<unknown> | undefined;
  private settlement: { kind: Settlement; promise: Promise<void> } | undefined;
  private readonly settler: Settler;

  /** @internal Messages are created by a Subscription. */
  constructor(d: pb.Delivery.$Properties, defaultGroup: string, settler: Settler) {
    this.id = toBigInt(d.id);
    this.topic = d.topic ?? '';
    this.group = d.group || defaultGroup;
    this.payload = d.payload ?? new Uint8Array(0);
    this.headers = { ...(d.headers ?? {}) };
    this.key = d.key ?? '';
    this.dueAtMs = toSafeNumber(d.dueAtMs, 'due_at_ms');
    this.enqueuedAtMs = toSafeNumber(d.enqueuedAtMs, 'enqueued_at_ms');
    this.attempt = d.attempt ?? 0;
    this.maxAttempts = d.maxAttempts ?? 0;
    this.deadLetter = deadLetterOf(this.headers);
    this.currentTag = d.tag ?? new Uint8Array(0);
    this.currentLeaseExpiresAtMs = toSafeNumber(d.leaseExpiresAtMs, 'lease_expires_at_ms');
    this.receivedAtMs = Date.now();
    this.settler = settler;
  }

  /**
   * The id as a decimal string: what to store in JSON (`JSON.stringify`
   * refuses a bigint) or a text column; every call that takes an id takes it.
   */
  get idString(): string {
    return this.id.toString();
  }

  /** The delivery tag (opaque bytes). It changes when the lease is extended. */
  get tag(): Uint8Array {
    return this.currentTag;
  }

  /** When the current lease runs out, epoch ms by the leader's clock. */
  get leaseExpiresAtMs(): number {
    return this.currentLeaseExpiresAtMs;
  }

  /** How this message was settled, if it was. */
  get settled(): Settlement | undefined {
    return this.settlement?.kind;
  }

  /** The payload as UTF-8 text. */
  text(): string {
    return decodeText(this.payload);
  }

  /** The payload parsed as UTF-8 JSON. */
  json<T = unknown>(): T {
    return decodeJson<T>(this.payload);
  }

  /**
   * Acknowledges: the message is done and will not be delivered again.
   * Rejects with LeaseExpiredError when the lease had already run out (the
   * message is then delivered again). Calling it twice returns the first result.
   */
  ack(): Promise<void> {
    return this.settle('ack', () => this.settler.ack(this));
  }

  /**
   * Gives the message back, to be delivered again after `delayMs` (default:
   * the subscription's retry backoff for this attempt). `error` says why
   * (cut to MAX_NACK_ERROR_BYTES): it is kept with the message and handed on
   * with it if it is dead-lettered (`deadLetter.lastError`).
   */
  nack(options: { delayMs?: number; error?: string } = {}): Promise<void> {
    try {
      checkOptions('nack options', options, OPTION_NAMES.nack);
    } catch (e) {
      return Promise.reject(e);
    }
    const error = options.error === undefined ? undefined : boundedErrorText(String(options.error));
    return this.settle('nack', () => this.settler.nack(this, options.delayMs, error));
  }

  /** Extends the lease to `leaseMs` from now (default: the subscription's lease). The tag changes. */
  extend(leaseMs?: number): Promise<void> {
    if (this.settlement !== undefined) {
      return Promise.reject(
        new FermataError(
          StatusCode.FAILED_PRECONDITION,
          `message ${this.id} is already settled (${this.settlement.kind})`,
        ),
      );
    }
    const p = (this.chain ?? Promise.resolve()).then(async () => {
      const r = await this.settler.extend(this, leaseMs);
      this.currentTag = r.tag;
      this.currentLeaseExpiresAtMs = r.leaseExpiresAtMs;
    });
    this.chain = p.catch(() => {});
    return p;
  }

  /** @internal Hands an unprocessed message back for immediate redelivery (used when closing). */
  release(): Promise<void> {
    return this.settle('released', () => this.settler.nack(this, 0));
  }

  /** @internal Marks the message settled without telling the server (its lease is left to run out). */
  markSettled(kind: Settlement, promise: Promise<void> = Promise.resolve()): void {
    this.settlement ??= { kind, promise };
  }

  private settle(kind: Settlement, op: () => Promise<void>): Promise<void> {
    if (this.settlement !== undefined) return this.settlement.promise;
    // Nothing runs on the chain after a settle (a second settle returns this one, extend refuses).
    const promise = this.chain ? this.chain.then(op) : settleNow(op);
    this.settlement = { kind, promise };
    return promise;
  }
}

/** `op()`, a synchronous throw turned into a rejection. */
function settleNow(op: () => Promise<void>): Promise<void> {
  try {
    return op();
  } catch (e) {
    return Promise.reject(e);
  }
}
