// The batching producer. Over 400 lines: batching, backpressure, the in-flight window and
// the resend after a failover share one queue (the stream itself is leader-stream.ts).
import { type pb, toBigInt, toUint64, v1 } from '@fermata/protocol';
import { status } from '@grpc/grpc-js';
import type { Connection } from './connection.js';
import {
  ClosedError,
  ConnectError,
  DeadlineExceededError,
  errorFromStatus,
  type FermataError,
  InvalidArgumentError,
  isRetryable,
  LimitError,
  UnavailableError,
  withoutBatchPosition,
} from './errors.js';
import { LeaderStream } from './leader-stream.js';
import { OPTION_NAMES } from './option-names.js';
import { ignore } from './options.js';
import { checkOptions } from './options-check.js';
import type { Payload } from './payload.js';
import {
  fromPublishResult,
  messageBytes,
  newIdempotencyKey,
  type PublishOptions,
  type PublishResult,
  wireMessage,
} from './publishing.js';
import { startPublishTrace, traceContextAvailable } from './trace-context.js';

/** How far a publish must have travelled before it is answered. */
export type Durability = 'quorum' | 'leader';

/** Options of {@link FermataClient.producer}. */
export interface ProducerOptions {
  /** How long a message waits for companions before a partial batch is sent, in ms (default 5). */
  lingerMs?: number;
  /** Most messages in one batch (default 500). */
  maxBatchMessages?: number;
  /** Most payload bytes (roughly) in one batch (default 1 MiB). A bigger single message goes alone. */
  maxBatchBytes?: number;
  /** Batches sent and not yet answered (default 4). */
  maxInFlightBatches?: number;
  /** Messages held by the producer, queued and in flight (default 10 000). Beyond it `send` waits. */
  maxBufferedMessages?: number;
  /** Bytes held by the producer, queued and in flight (default 64 MiB). Beyond it `send` waits. */
  maxBufferedBytes?: number;
  /** Sends waiting for room (default 10 000). Beyond it `send` fails with LimitError `producer.maxWaitingSends`. */
  maxWaitingSends?: number;
  /** Default `quorum`. `leader` is faster and may lose acknowledged messages on failover (if the server allows it). */
  durability?: Durability;
}

const DEFAULTS: Required<ProducerOptions> = {
  lingerMs: 5,
  maxBatchMessages: 500,
  maxBatchBytes: 1 << 20,
  maxInFlightBatches: 4,
  maxBufferedMessages: 10_000,
  maxBufferedBytes: 64 << 20,
  maxWaitingSends: 10_000,
  durability: 'quorum',
};

const WATCHDOG_INTERVAL_MS = 1_000;

interface Item {
  msg: pb.PublishMessage.$Properties;
  bytes: number;
  createdAtMs: number;
  resolve: (r: PublishResult) => void;
  reject: (e: FermataError) => void;
  done: Promise<unknown>;
}

interface Batch {
  sequence: bigint;
  /** '' = none (idempotentPublish off). Kept across re-sends. */
  idempotencyKey: string;
  items: Item[];
  bytes: number;
  formedAtMs: number;
}

function checkPositiveInt(value: number, name: string): void {
  if (!(Number.isSafeInteger(value) && value >= 1))
    throw new RangeError(`${name} must be an integer >= 1: ${value}`);
}

/**
 * A high-rate producer: messages are batched by linger time, count and size,
 * sent as pipelined batches over one `PublishStream`, and each `send` resolves
 * with its own result. Memory is bounded: when `maxBufferedMessages` or
 * `maxBufferedBytes` is reached, `send` waits (see {@link Producer.ready}).
 *
 * After a failover the unanswered batches are sent again, in order, to the new
 * leader; each batch's idempotency key makes the cluster store it once.
 */
export class Producer {
  private readonly conn: Connection;
  private readonly opts: Required<ProducerOptions>;
  private readonly autoKey: boolean;
  private readonly durability: pb.Durability;
  private queue: Item[] = [];
  private queuedBytes = 0;
  private readonly inFlight: Batch[] = [];
  private inFlightMessages = 0;
  private inFlightBytes = 0;
  private readonly waiting: Item[] = [];
  private readyWaiters: Array<() => void> = [];
  private nextSequence = 1n;
  private readonly stream: LeaderStream<pb.PublishStreamRequest.$Properties, pb.PublishStreamResponse>;
  private lingerTimer: NodeJS.Timeout | undefined;
  private lingerExpired = false;
  private flushDepth = 0;
  private watchdog: NodeJS.Timeout | undefined;
  private closing: Promise<void> | undefined;

  private readonly onClosed: () => void;

  /** @internal Use {@link FermataClient.producer}. */
  constructor(conn: Connection, options: ProducerOptions, autoKey: boolean, onClosed: () => void = () => {}) {
    this.onClosed = onClosed;
    this.conn = conn;
    this.opts = { ...DEFAULTS, ...options };
    for (const name of [
      'maxBatchMessages',
      'maxBatchBytes',
      'maxInFlightBatches',
      'maxBufferedMessages',
      'maxBufferedBytes',
      'maxWaitingSends',
    ] as const) {
      checkPositiveInt(this.opts[name], name);
    }
    if (!(Number.isFinite(this.opts.lingerMs) && this.opts.lingerMs >= 0)) {
      throw new RangeError(`lingerMs must be >= 0: ${this.opts.lingerMs}`);
    }
    this.autoKey = autoKey;
    this.durability =
      this.opts.durability === 'leader' ? v1.Durability.DURABILITY_LEADER : v1.Durability.DURABILITY_QUORUM;
    this.stream = new LeaderStream(conn, 'publish', {
      open: (address) => conn.stubs(address).broker.publishStream(conn.metadata(address)),
      opened: () => {
        for (const batch of this.inFlight) this.write(batch);
      },
      data: (res, address) => this.onResponse(address, res),
      ended: (err, final) => this.streamEnded(err, final),
      wanted: () => this.inFlight.length > 0 || this.queue.length > 0,
    });
    // Looks up @opentelemetry/api here, not in the first send: its load can take 100 ms or more.
    traceContextAvailable();
  }

  /** Messages held: waiting for room, queued, and sent but not yet answered. */
  get bufferedMessages(): number {
    return this.waiting.length + this.queue.length + this.inFlightMessages;
  }

  /** Batches sent and not yet answered. */
  get inFlightBatches(): number {
    return this.inFlight.length;
  }

  /**
   * Queues one message; resolves with its result once the batch holding it is
   * stored (per the durability), or rejects with a typed error. Waits for room
   * when the producer is full; fails with LimitError `producer.maxWaitingSends`
   * when too many sends are already waiting.
   */
  send(topic: string, payload: Payload, options: PublishOptions = {}): Promise<PublishResult> {
    if (this.closing !== undefined) return Promise.reject(new ClosedError('the producer is closed'));
    let msg: pb.PublishMessage.$Properties;
    const trace = startPublishTrace([topic]);
    try {
      checkOptions('send options', options, OPTION_NAMES.send);
      msg = wireMessage(topic, payload, options, '', trace?.headers(0));
    } catch (e) {
      trace?.end(e);
      return Promise.reject(e);
    }
    if (this.waiting.length >= this.opts.maxWaitingSends) {
      const e = new LimitError(
        `too many sends are waiting for room (producer.maxWaitingSends = ${this.opts.maxWaitingSends}); await producer.ready() before sending`,
        'producer.maxWaitingSends',
      );
      trace?.end(e);
      return Promise.reject(e);
    }
    let resolve!: (r: PublishResult) => void;
    let reject!: (e: FermataError) => void;
    const promise = new Promise<PublishResult>((ok, fail) => {
      resolve = ok;
      reject = fail;
    });
    if (trace !== undefined)
      promise.then(
        () => trace.end(),
        (e: unknown) => trace.end(e),
      );
    const item: Item = {
      msg,
      bytes: messageBytes(msg),
      createdAtMs: Date.now(),
      resolve,
      reject,
      done: promise.then(ignore, ignore),
    };
    if (this.waiting.length === 0 && this.hasRoom(item.bytes)) this.enqueue(item);
    else this.waiting.push(item);
    return promise;
  }

  /** Resolves when the producer has room again (nothing waiting, below the buffer limits). */
  ready(): Promise<void> {
    if (this.waiting.length === 0 && this.hasRoom(0)) return Promise.resolve();
    return new Promise((resolve) => this.readyWaiters.push(resolve));
  }

  /** Sends everything queued now, without waiting for the linger time, and waits until it is all answered. */
  async flush(): Promise<void> {
    const items = [...this.waiting, ...this.queue, ...this.inFlight.flatMap((b) => b.items)];
    this.flushDepth++;
    try {
      this.pump();
      await Promise.all(items.map((i) => i.done));
    } finally {
      this.flushDepth--;
    }
  }

  /** Flushes, then ends the stream. Later sends fail with ClosedError. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.flushDepth++;
      this.pump();
      while (this.bufferedMessages > 0) {
        await Promise.all(
          [...this.waiting, ...this.queue, ...this.inFlight.flatMap((b) => b.items)].map((i) => i.done),
        );
      }
      this.stream.stop();
      clearTimeout(this.lingerTimer);
      clearInterval(this.watchdog);
      for (const wake of this.readyWaiters.splice(0)) wake();
      this.onClosed();
    })();
    return this.closing;
  }

  private hasRoom(bytes: number): boolean {
    const messages = this.queue.length + this.inFlightMessages;
    if (messages === 0) return true;
    return (
      messages < this.opts.maxBufferedMessages &&
      this.queuedBytes + this.inFlightBytes + bytes <= this.opts.maxBufferedBytes
    );
  }

  private enqueue(item: Item): void {
    this.queue.push(item);
    this.queuedBytes += item.bytes;
    if (this.queue.length === 1 && this.lingerTimer === undefined) {
      this.lingerTimer = setTimeout(() => {
        this.lingerTimer = undefined;
        this.lingerExpired = true;
        this.pump();
      }, this.opts.lingerMs);
    }
    this.pump();
  }

  private admitWaiting(): void {
    while (this.waiting.length > 0 && this.hasRoom(this.waiting[0]!.bytes))
      this.enqueue(this.waiting.shift()!);
    if (this.waiting.length === 0 && this.hasRoom(0)) for (const wake of this.readyWaiters.splice(0)) wake();
  }

  private pump(): void {
    while (this.queue.length > 0 && this.inFlight.length < this.opts.maxInFlightBatches) {
      const full =
        this.queue.length >= this.opts.maxBatchMessages || this.queuedBytes >= this.opts.maxBatchBytes;
      if (!full && !this.lingerExpired && this.flushDepth === 0) break;
      this.formBatch();
    }
    if (this.queue.length === 0) {
      this.lingerExpired = false;
      clearTimeout(this.lingerTimer);
      this.lingerTimer = undefined;
    }
  }

  private formBatch(): void {
    let count = 0;
    let bytes = 0;
    while (count < this.queue.length && count < this.opts.maxBatchMessages) {
      const next = this.queue[count]!.bytes;
      if (count > 0 && bytes + next > this.opts.maxBatchBytes) break;
      bytes += next;
      count++;
    }
    const items = this.queue.splice(0, count);
    this.queuedBytes -= bytes;
    const batch: Batch = {
      sequence: this.nextSequence++,
      idempotencyKey: this.autoKey ? newIdempotencyKey() : '',
      items,
      bytes,
      formedAtMs: Date.now(),
    };
    this.inFlight.push(batch);
    this.inFlightMessages += items.length;
    this.inFlightBytes += bytes;
    this.watchdog ??= setInterval(() => this.checkDeadlines(), WATCHDOG_INTERVAL_MS).unref();
    if (this.stream.call !== undefined) this.write(batch);
    else this.stream.open();
  }

  private write(batch: Batch): void {
    this.stream.call!.write({
      sequence: toUint64(batch.sequence),
      messages: batch.items.map((i) => i.msg),
      durability: this.durability,
      ...(batch.idempotencyKey !== '' ? { idempotencyKey: batch.idempotencyKey } : {}),
    });
  }

  private onResponse(address: string, res: pb.PublishStreamResponse): void {
    const sequence = toBigInt(res.sequence);
    const batch = this.inFlight[0];
    if (batch === undefined || batch.sequence !== sequence) {
      this.stream.fail(
        address,
        new UnavailableError(
          `publish stream answered sequence ${sequence}, expected ${batch?.sequence ?? 'none'}`,
        ),
      );
      return;
    }
    if (res.error) {
      const err = errorFromStatus({
        code: res.error.code ?? status.UNKNOWN,
        details: res.error.message ?? '',
        field: res.error.field ?? undefined,
        leaderAddress: res.error.leaderAddress ?? undefined,
      });
      if (isRetryable(err)) {
        this.stream.fail(address, err);
        return;
      }
      this.completeHead();
      this.rejectBatch(batch, err);
    } else {
      if (res.results.length !== batch.items.length) {
        this.stream.fail(
          address,
          new UnavailableError(
            `batch ${sequence}: ${res.results.length} results for ${batch.items.length} messages`,
          ),
        );
        return;
      }
      const results = res.results.map(fromPublishResult);
      this.completeHead();
      for (const [i, item] of batch.items.entries()) item.resolve(results[i]!);
    }
    this.stream.healthy();
    this.admitWaiting();
    this.pump();
  }

  private completeHead(): void {
    const batch = this.inFlight.shift()!;
    this.inFlightMessages -= batch.items.length;
    this.inFlightBytes -= batch.bytes;
    if (this.inFlight.length === 0) {
      clearInterval(this.watchdog);
      this.watchdog = undefined;
    }
  }

  /** A batch is atomic; when the server names one bad message, only it fails and the rest are sent again. */
  private rejectBatch(batch: Batch, err: FermataError): void {
    const field = err instanceof InvalidArgumentError || err instanceof LimitError ? err.field : undefined;
    const index = /^messages\[(\d+)\]/.exec(field ?? '')?.[1];
    const culprit = index === undefined ? undefined : batch.items[Number(index)];
    if (culprit === undefined || batch.items.length === 1) {
      for (const item of batch.items) item.reject(err);
      return;
    }
    // The position inside a batch the caller never saw means nothing to them: name the field alone.
    culprit.reject(withoutBatchPosition(err));
    const rest = batch.items.filter((i) => i !== culprit);
    this.queue.unshift(...rest);
    this.queuedBytes += rest.reduce((n, i) => n + i.bytes, 0);
    this.lingerExpired = true;
  }

  /** The publish stream ended: fail what waited on it if it will not reopen, else what is past its deadline. */
  private streamEnded(err: FermataError, final: boolean): void {
    if (!final && !(err instanceof ConnectError)) {
      this.failExpired(err);
      return;
    }
    // No node reached for connectTimeoutMs: what waits fails now, as a publish call would.
    if (err instanceof ConnectError) for (const item of this.queue.splice(0)) item.reject(err);
    if (err instanceof ConnectError) this.queuedBytes = 0;
    for (const batch of this.inFlight.splice(0)) for (const item of batch.items) item.reject(err);
    this.inFlightMessages = 0;
    this.inFlightBytes = 0;
    if (err instanceof ClosedError) for (const item of this.queue.splice(0)) item.reject(err);
    this.admitWaiting();
  }

  /** Rejects what has waited longer than the client deadline; the stream is reopened by the caller. */
  private failExpired(err: FermataError): void {
    const cutoff = Date.now() - this.conn.config.deadlineMs;
    while (this.inFlight.length > 0 && this.inFlight[0]!.formedAtMs < cutoff) {
      const batch = this.inFlight[0]!;
      this.completeHead();
      for (const item of batch.items) item.reject(err);
    }
    while (this.queue.length > 0 && this.queue[0]!.createdAtMs < cutoff) {
      const item = this.queue.shift()!;
      this.queuedBytes -= item.bytes;
      item.reject(err);
    }
    this.admitWaiting();
  }

  /** A stream that stays open but never answers is given up after the deadline, like a failed one. */
  private checkDeadlines(): void {
    const head = this.inFlight[0];
    if (head === undefined || this.stream.call === undefined) return;
    if (head.formedAtMs >= Date.now() - this.conn.config.deadlineMs) return;
    this.stream.end();
    this.failExpired(
      new DeadlineExceededError(
        `no answer to publish batch ${head.sequence} within ${this.conn.config.deadlineMs} ms`,
      ),
    );
    this.conn.forgetLeader();
    if (this.inFlight.length > 0 || this.queue.length > 0) this.stream.open();
  }
}
