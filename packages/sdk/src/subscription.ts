// A subscription. Over 400 lines: the handler loop, holding deliveries until their start,
// settling and closing share the state of one consume stream (the stream itself is
// leader-stream.ts, the settlements settlements.ts, the hold hold.ts).
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { type pb, toInt64, toSafeNumber, toUint64 } from '@fermata/protocol';
import type * as grpc from '@grpc/grpc-js';
import { type AutoExtendOptions, startAutoExtend } from './auto-extend.js';
import { type BackoffPolicy, backoffDelayMs, DEFAULT_NACK_BACKOFF, resolveBackoff } from './backoff.js';
import type { Connection } from './connection.js';
import { ClosedError, ConnectError, type FermataError, LeaseExpiredError, toFermataError } from './errors.js';
import { Hold, TransitFloor } from './hold.js';
import { LeaderStream } from './leader-stream.js';
import { Message, type Settler } from './message.js';
import { ignore } from './options.js';
import { Settlements } from './settlements.js';
import { runInMessageContext, traceContextAvailable } from './trace-context.js';

/** What the handler is given; its returned promise decides the outcome in auto mode. */
export type MessageHandler = (message: Message) => unknown;

/** Options of {@link FermataClient.subscribe}. */
export interface SubscribeOptions {
  /** Consumer group (default `default`). Consumers of one group compete; groups each get every message. */
  group?: string;
  /** Most unsettled deliveries the server sends this consumer at once (default 2 × concurrency). */
  prefetch?: number;
  /** Lease of each delivery in ms (default: the topic's `defaultLeaseMs`). */
  leaseMs?: number;
  /** Handlers running at once (default 8). */
  concurrency?: number;
  /**
   * `auto` (default): the handler resolving acks, throwing nacks with `retryBackoff`.
   * `manual`: call `message.ack()` / `nack()` yourself; a throw still nacks.
   */
  mode?: 'auto' | 'manual';
  /**
   * Redelivery delay after a handler throws (or a `nack()` without a delay): a
   * policy by attempt (default 1 s doubling to 5 min), or a function of the
   * attempt number and the error.
   */
  retryBackoff?: Partial<BackoffPolicy> | ((attempt: number, error: unknown) => number);
  /** Extend the lease while a handler runs (default off). */
  autoExtend?: boolean | AutoExtendOptions;
  /** How long `close()` waits for running handlers and their acks, in ms (default 30 000). */
  drainTimeoutMs?: number;
  /**
   * Called when the subscription stops for good on an error (also logged,
   * and `done` rejects), and each time it has reached no node for the
   * client's `connectTimeoutMs` (a ConnectError naming each endpoint and why;
   * also logged; it goes on trying unless no endpoint is a client port).
   */
  onError?: (error: FermataError) => void;
}

/** Upper bound on `prefetch` in the SDK; the server caps it lower (`dispatcher.maxPrefetch`, default 1 000). */
export const MAX_PREFETCH = 100_000;
/** Upper bound on `concurrency`. */
export const MAX_CONCURRENCY = 10_000;
const DEFAULT_CONCURRENCY = 8;
const FALLBACK_LEASE_MS = 30_000;

function checkInt(value: number, min: number, max: number, name: string): void {
  if (!(Number.isSafeInteger(value) && value >= min && value <= max)) {
    throw new RangeError(`${name} must be an integer in ${min}..${max}: ${value}`);
  }
}

/**
 * A running consumer of one topic and group. It keeps one Consume stream open
 * to the leader, reopens it after a failover, runs up to `concurrency`
 * handlers, and settles each delivery. Close it with {@link Subscription.close}.
 */
export class Subscription {
  /** The topic consumed. */
  readonly topic: string;
  /** The consumer group. */
  readonly group: string;
  /** Resolves when the subscription is closed; rejects if it stopped on an error that retrying cannot fix. */
  readonly done: Promise<void>;
  private readonly conn: Connection;
  private readonly handler: MessageHandler;
  private readonly mode: 'auto' | 'manual';
  private readonly concurrency: number;
  private readonly requestedLeaseMs: number;
  private readonly backoff: BackoffPolicy | ((attempt: number, error: unknown) => number);
  private readonly autoExtend: AutoExtendOptions | undefined;
  private readonly drainTimeoutMs: number;
  private readonly onError: ((error: FermataError) => void) | undefined;
  private prefetchN: number;
  private paused = false;
  private state: 'running' | 'closing' | 'closed' = 'running';
  private readonly stream: LeaderStream<pb.ConsumeRequest.$Properties, pb.ConsumeResponse>;
  private subscribed = false;
  private leaseMs: number | undefined;
  /** The prefetch the server granted on the last subscribe (it may cap the one asked for). */
  private grantedPrefetch: number | undefined;
  /**
   * Names this consumer across its streams (`Subscribe.consumer_id`): a new
   * leader hands back to it the deliveries the previous one leased to it.
   */
  private readonly consumerId = randomBytes(8).readBigUInt64BE(0) || 1n;
  private readonly buffered: Message[] = [];
  /**
   * Deliveries sent ahead of their lease start, handed to handlers at that
   * moment; while no stream is subscribed (a failover), parked instead, until
   * a new stream carries their leases over (`Subscribed.released_tags`
   * names those it did not).
   */
  private readonly held = new Hold<pb.Delivery.$Properties>((deliveries) => {
    if (!this.subscribed && this.state === 'running') {
      this.parked.push(...deliveries);
      return;
    }
    for (const d of deliveries) this.accept(d);
    this.dispatch();
  });
  private parked: pb.Delivery.$Properties[] = [];
  private readonly transit = new TransitFloor();
  private readonly running = new Set<Message>();
  /**
   * Deliveries taken in (waiting for a handler, running, or handed over and
   * not yet settled in manual mode) whose settlement has not been answered:
   * a new stream carries their leases over (`heldTags`).
   */
  private readonly live = new Set<Message>();
  private readonly settlements: Settlements;
  private idleWaiters: Array<() => void> = [];
  private closing: Promise<void> | undefined;
  private resolveDone!: () => void;
  private rejectDone!: (e: FermataError) => void;

  /** @internal Use {@link FermataClient.subscribe}. */
  constructor(conn: Connection, topic: string, options: SubscribeOptions, handler: MessageHandler) {
    if (typeof topic !== 'string' || topic === '') throw new RangeError('topic must be a non-empty string');
    if (typeof handler !== 'function') throw new TypeError('handler must be a function');
    this.conn = conn;
    this.settlements = new Settlements(conn);
    this.stream = new LeaderStream(conn, 'consume', {
      open: (address) => conn.stubs(address).broker.consume(conn.metadata(address)),
      opened: (call) => this.subscribe(call),
      data: (res, address) => this.onData(address, res),
      ended: (err, final) => this.streamEnded(err, final),
      wanted: () => this.state === 'running',
    });
    this.topic = topic;
    this.group = options.group || 'default';
    this.handler = handler;
    this.mode = options.mode ?? 'auto';
    if (this.mode !== 'auto' && this.mode !== 'manual')
      throw new RangeError(`mode must be auto or manual: ${this.mode}`);
    this.concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
    checkInt(this.concurrency, 1, MAX_CONCURRENCY, 'concurrency');
    this.prefetchN = options.prefetch ?? Math.min(MAX_PREFETCH, 2 * this.concurrency);
    checkInt(this.prefetchN, 1, MAX_PREFETCH, 'prefetch');
    this.requestedLeaseMs = options.leaseMs ?? 0;
    checkInt(this.requestedLeaseMs, 0, Number.MAX_SAFE_INTEGER, 'leaseMs');
    this.backoff =
      typeof options.retryBackoff === 'function'
        ? options.retryBackoff
        : resolveBackoff(options.retryBackoff, DEFAULT_NACK_BACKOFF);
    this.autoExtend =
      options.autoExtend === true ? {} : options.autoExtend === false ? undefined : options.autoExtend;
    this.drainTimeoutMs = options.drainTimeoutMs ?? 30_000;
    this.onError = options.onError;
    this.done = new Promise<void>((resolve, reject) => {
      this.resolveDone = resolve;
      this.rejectDone = reject;
    });
    // Observed here so that an unobserved `done` does not crash the process.
    this.done.catch(() => {});
    // Looks up @opentelemetry/api here, not at the first handler call: its load can
    // stall the process for 100 ms or more on a busy machine, and would make every
    // delivery held for release in that moment late.
    traceContextAvailable();
  }

  /** Handlers running now. */
  get inFlight(): number {
    return this.running.size;
  }

  /** Deliveries received and waiting for a free handler. */
  get bufferedCount(): number {
    return this.buffered.length;
  }

  /**
   * Deliveries received ahead of their due time (the server sends them up to
   * `dispatcher.pushAheadMs` early), held until their lease starts and then
   * handed to a handler, never earlier.
   */
  get heldCount(): number {
    return this.held.size;
  }

  /** The current prefetch window. */
  get prefetch(): number {
    return this.prefetchN;
  }

  /** True while a Consume stream is subscribed. */
  get connected(): boolean {
    return this.subscribed;
  }

  /** @internal Opens the stream. */
  start(): this {
    this.stream.open();
    return this;
  }

  /** Changes the window (sends `credit{n}`); kept across reconnects. */
  setPrefetch(n: number): void {
    checkInt(n, 1, MAX_PREFETCH, 'prefetch');
    this.prefetchN = n;
    if (!this.paused) this.sendCredit(n);
  }

  /** Stops new deliveries (window 0); running handlers go on. */
  pause(): void {
    this.paused = true;
    this.sendCredit(0);
  }

  /** Restores the window after {@link Subscription.pause}. */
  resume(): void {
    this.paused = false;
    this.sendCredit(this.prefetchN);
  }

  /**
   * Stops taking deliveries, hands back the ones not yet started, waits for
   * running handlers and their acks (up to `drainTimeoutMs`), then ends the stream.
   */
  close(): Promise<void> {
    this.closing ??= this.drain();
    return this.closing;
  }

  // ---- settling (used by Message) ----

  /** How this subscription's messages settle themselves (kept off the public surface). */
  private readonly settler: Settler = {
    ack: (m) => this.settleAck(m),
    nack: (m, delayMs, error) => this.settleNack(m, delayMs, error),
    extend: (m, leaseMs) => this.settleExtend(m, leaseMs),
  };

  private settleAck(message: Message): Promise<void> {
    return this.settled(message, this.settlements.request('ack', message.tag, 0, 0));
  }

  private settleNack(message: Message, delayMs: number | undefined, error?: string): Promise<void> {
    const delay = delayMs ?? this.backoffFor(message.attempt, undefined);
    checkInt(delay, 0, Number.MAX_SAFE_INTEGER, 'delayMs');
    return this.settled(message, this.settlements.request('nack', message.tag, delay, 0, error));
  }

  /** The message leaves `live` once its settlement is answered (until then a new stream carries it over). */
  private settled(message: Message, answer: Promise<unknown>): Promise<void> {
    const forget = () => this.live.delete(message);
    answer.then(forget, forget);
    return answer.then(ignore);
  }

  private async settleExtend(
    message: Message,
    leaseMs: number | undefined,
  ): Promise<{ tag: Uint8Array; leaseExpiresAtMs: number }> {
    const lease = leaseMs ?? this.currentLeaseMs();
    checkInt(lease, 1, Number.MAX_SAFE_INTEGER, 'leaseMs');
    const o = await this.settlements.request('extend', message.tag, 0, lease);
    const tag = o.newTag && o.newTag.byteLength > 0 ? o.newTag : message.tag;
    return { tag, leaseExpiresAtMs: toSafeNumber(o.dueAtMs, 'due_at_ms') };
  }

  // ---- stream ----

  private currentLeaseMs(): number {
    return this.leaseMs ?? (this.requestedLeaseMs || FALLBACK_LEASE_MS);
  }

  private backoffFor(attempt: number, error: unknown): number {
    const n = Math.max(1, attempt);
    const ms =
      typeof this.backoff === 'function'
        ? this.backoff(n, error)
        : backoffDelayMs(this.backoff, n, Math.random());
    return Math.max(0, Math.round(ms));
  }

  private subscribe(call: grpc.ClientDuplexStream<pb.ConsumeRequest.$Properties, pb.ConsumeResponse>): void {
    call.write({
      subscribe: {
        topic: this.topic,
        group: this.group,
        prefetch: this.prefetchN,
        leaseMs: toInt64(BigInt(this.requestedLeaseMs)),
        holdsAhead: true,
        consumerId: toUint64(this.consumerId),
        heldTags: this.heldTags(),
      },
    });
  }

  /**
   * The tags of the deliveries this subscription still holds from an earlier
   * stream, for a new one to carry their leases over: running first, then
   * waiting for a handler, then held until their start; at most twice the
   * window (the server's bound). What does not fit is dropped (not handed
   * to a handler): its lease runs out, or the leader sends it again.
   */
  private heldTags(): Uint8Array[] {
    const tags: Uint8Array[] = [];
    this.pruneLive();
    for (const m of this.running) if (this.live.has(m)) tags.push(m.tag);
    for (const m of this.live) if (!this.running.has(m)) tags.push(m.tag);
    const early = [...this.parked, ...this.held.values()];
    for (const d of early) tags.push(d.tag ?? new Uint8Array(0));
    const max = 2 * (this.grantedPrefetch ?? this.prefetchN);
    if (tags.length > max) {
      const kept = new Set(tags.slice(0, max).map(hex));
      this.dropHeld((tag) => !kept.has(tag));
      return tags.slice(0, max);
    }
    return tags;
  }

  /** Forgets the deliveries not yet given to a handler whose tags `drop` picks (hex). */
  private dropHeld(drop: (tagHex: string) => boolean): void {
    const dropD = (d: pb.Delivery.$Properties) => drop(hex(d.tag ?? new Uint8Array(0)));
    this.held.removeWhere(dropD);
    this.parked = this.parked.filter((d) => !dropD(d));
    for (let i = this.buffered.length - 1; i >= 0; i--) {
      const m = this.buffered[i]!;
      if (!drop(hex(m.tag))) continue;
      this.buffered.splice(i, 1);
      m.markSettled('released');
      this.live.delete(m);
    }
  }

  private onData(address: string, res: pb.ConsumeResponse): void {
    if (res.subscribed) {
      this.subscribed = true;
      if (this.stream.call !== undefined) this.settlements.useStream(this.stream.call);
      this.stream.healthy();
      const lease = toSafeNumber(res.subscribed.leaseMs, 'lease_ms');
      if (lease > 0) this.leaseMs = lease;
      if (res.subscribed.prefetch) this.grantedPrefetch = res.subscribed.prefetch;
      const released = new Set((res.subscribed.releasedTags ?? []).map(hex));
      if (released.size > 0) {
        this.dropHeld((tag) => released.has(tag));
        this.conn.config.logger.debug('deliveries not carried over to the new stream', {
          released: released.size,
        });
      }
      this.conn.config.logger.debug('subscribed', { topic: this.topic, group: this.group, leader: address });
      if (this.paused || this.state !== 'running') this.sendCredit(0);
      // Deliveries whose start came while no stream was subscribed: their leases are carried over.
      const parked = this.parked;
      this.parked = [];
      for (const d of parked) this.accept(d);
      this.dispatch();
    } else if (res.deliveries) {
      const arrival = performance.now();
      const sentAt = toSafeNumber(res.deliveries.sentAtMs, 'sent_at_ms');
      // Without the send time (not sent by this server), the local clock stands in for the leader's.
      const floor = sentAt > 0 ? this.transit.observe(sentAt, arrival) : arrival - Date.now();
      for (const d of res.deliveries.deliveries ?? []) {
        const startsAt = toSafeNumber(d.startsAtMs, 'starts_at_ms');
        const releaseAt = startsAt + floor;
        if (releaseAt > arrival && this.state === 'running') this.held.add(d, releaseAt);
        else this.accept(d);
      }
      this.dispatch();
    } else if (res.result) {
      this.settlements.onResult(res.result);
    }
  }

  /** A delivery whose lease has started: to a handler, or back to the server when closing. */
  private accept(d: pb.Delivery.$Properties): void {
    const message = new Message(d, this.group, this.settler);
    if (this.state === 'running') {
      this.buffered.push(message);
      this.live.add(message);
      if (this.live.size > 4 * this.prefetchN) this.pruneLive();
    } else this.settlements.track(message.release()).catch((e) => this.settleFailed(message, e));
  }

  /** Forgets live messages whose lease ran out by the local clock (manual mode, never settled). */
  private pruneLive(): void {
    const now = Date.now();
    for (const m of this.live) {
      if (m.settled === 'released' || (m.settled === undefined && m.leaseExpiresAtMs <= now))
        this.live.delete(m);
    }
  }

  /**
   * The consume stream ended (`final`: it will not reopen). Deliveries held
   * until their start stay held (parked once it comes) for the next stream
   * to carry over; running and waiting ones go on, settled by unary calls
   * until then.
   */
  private streamEnded(err: FermataError, final: boolean): void {
    this.subscribed = false;
    this.transit.reset();
    this.settlements.dropStream();
    if (this.state === 'running' && final) this.fail(err);
    else if (this.state === 'running' && err instanceof ConnectError) {
      this.conn.config.logger.error('cannot reach the cluster; still trying', {
        topic: this.topic,
        group: this.group,
        error: err.message,
      });
      this.onError?.(err);
    }
  }

  private fail(err: FermataError): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.stream.stop();
    this.held.takeAll();
    this.parked = [];
    this.settlements.close();
    this.conn.config.logger.error('subscription stopped', {
      topic: this.topic,
      group: this.group,
      error: err.message,
    });
    this.onError?.(err);
    this.rejectDone(err);
  }

  private sendCredit(n: number): void {
    if (this.stream.call !== undefined && this.subscribed) this.stream.call.write({ credit: { n } });
  }

  // ---- handlers ----

  private dispatch(): void {
    while (this.state === 'running' && this.running.size < this.concurrency && this.buffered.length > 0) {
      const message = this.buffered.shift()!;
      if (this.leaseMs !== undefined && Date.now() >= message.receivedAtMs + this.leaseMs) {
        // The lease ran out while it waited for a handler; the server delivers it again.
        message.markSettled('released');
        this.live.delete(message);
        this.conn.config.logger.debug('lease ran out before a handler was free', { id: message.id });
        continue;
      }
      this.running.add(message);
      void this.runHandler(message);
    }
  }

  private async runHandler(message: Message): Promise<void> {
    const stopExtending =
      this.autoExtend === undefined
        ? ignore
        : startAutoExtend(message, this.currentLeaseMs(), this.autoExtend, {
            exhausted: (extendedMs) =>
              this.conn.config.logger.warn('stopped extending the lease (autoExtend.maxTotalMs)', {
                id: message.id,
                extendedMs,
              }),
            failed: (e) => this.settleFailed(message, e),
          });
    let failed = false;
    let error: unknown;
    try {
      await (traceContextAvailable()
        ? runInMessageContext(message, () => this.handler(message))
        : this.handler(message));
    } catch (e) {
      failed = true;
      error = e;
    }
    stopExtending();
    if (failed && message.settled === undefined) {
      const delayMs = this.backoffFor(message.attempt, error);
      const text = error instanceof Error ? error.message : String(error);
      const last = message.maxAttempts > 0 && message.attempt >= message.maxAttempts;
      this.conn.config.logger.warn(
        last
          ? "handler failed on the message's last attempt (maxAttempts); it goes to the dead-letter topic"
          : 'handler failed; the message will be redelivered',
        last
          ? { id: message.id, attempt: message.attempt, error: text }
          : { id: message.id, attempt: message.attempt, delayMs, error: text },
      );
      message.nack({ delayMs, error: text }).catch((e) => this.settleFailed(message, e));
    } else if (!failed && this.mode === 'auto' && message.settled === undefined) {
      message.ack().catch((e) => this.settleFailed(message, e));
    }
    this.running.delete(message);
    this.dispatch();
    if (this.running.size === 0) for (const wake of this.idleWaiters.splice(0)) wake();
  }

  private settleFailed(message: Message, e: unknown): void {
    const logger = this.conn.config.logger;
    if (e instanceof LeaseExpiredError) {
      logger.warn('the lease ran out before the message was settled; it will be redelivered', {
        id: message.id,
      });
    } else if (e instanceof ClosedError) {
      logger.debug('not settled: the subscription is closed', { id: message.id });
    } else {
      logger.error('could not settle a message', { id: message.id, error: toFermataError(e).message });
    }
  }

  // ---- closing ----

  private async drain(): Promise<void> {
    if (this.state === 'closed') return;
    this.state = 'closing';
    this.sendCredit(0);
    for (const message of this.buffered.splice(0)) {
      message.release().catch((e) => this.settleFailed(message, e));
    }
    for (const d of [...this.parked.splice(0), ...this.held.takeAll()]) this.accept(d);
    const deadline = Date.now() + this.drainTimeoutMs;
    const idle =
      this.running.size === 0
        ? Promise.resolve()
        : new Promise<void>((resolve) => this.idleWaiters.push(resolve));
    await withTimeout(idle, deadline - Date.now());
    if (this.running.size > 0) {
      this.conn.config.logger.warn('closed with handlers still running (drainTimeoutMs)', {
        running: this.running.size,
      });
    }
    // Let the last acks coalesce and go out, then wait for their answers.
    await withTimeout(this.settlements.idle(), deadline - Date.now());
    this.state = 'closed';
    this.subscribed = false;
    this.stream.stop();
    this.settlements.close();
    this.resolveDone();
  }
}

function hex(tag: Uint8Array): string {
  return Buffer.from(tag.buffer, tag.byteOffset, tag.byteLength).toString('hex');
}

async function withTimeout(p: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([p, new Promise((resolve) => (timer = setTimeout(resolve, Math.max(0, ms))))]);
  clearTimeout(timer);
}
