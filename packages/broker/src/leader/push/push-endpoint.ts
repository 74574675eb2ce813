/**
 * One push group on the leader: a consumer of the dispatcher whose sink
 * POSTs each delivery to the group's endpoint instead of writing it to a
 * stream. Its window is the group's concurrency and it takes no lease ahead,
 * so it holds at most `concurrency` leases, each one a request in flight.
 * An answer settles the lease (ack or nack) through the same path a stream
 * consumer's settle takes. An endpoint that cannot be reached is marked down:
 * the consumer is blocked (it is offered nothing, so it holds no lease it
 * cannot use) and tried again after the group's backoff.
 */
import type { Clock, TimerHandle } from '@fermata/base';
import { type pb, toBigInt, toSafeNumber } from '@fermata/protocol';
import { Agent } from 'undici';
import type { PushSettings } from '../../state/model/group-settings.js';
import { type Consumer, type DeliverySink, heldAheadSchedule } from '../dispatcher/consumer.js';
import { emptySlots } from '../dispatcher/consumer-registry.js';
import type { Dispatcher } from '../dispatcher/dispatcher.js';
import type { EndpointPolicy } from './endpoint-policy.js';
import type { PushFilesPolicy } from './files-policy.js';
import type { PushMetrics } from './push-metrics.js';
import { backoffMs, pushHeaders, sendPush, signOrNot, verdictOf } from './push-request.js';
import type { SecretFiles } from './signature.js';

/** How the pusher settles a lease: the leader's ack and nack (server/settle.ts). */
export interface PushSettler {
  ack(tag: Uint8Array): Promise<unknown>;
  nack(tag: Uint8Array, delayMs: number, error: string): Promise<unknown>;
}

export interface PushEndpointParts {
  readonly dispatcher: Dispatcher;
  readonly settle: PushSettler;
  readonly policy: EndpointPolicy;
  readonly secrets: SecretFiles;
  /** What secret and CA files may be read (push.filesDir). */
  readonly files: PushFilesPolicy;
  readonly metrics: PushMetrics;
  /** The leader's clock (stamps, signatures, the probe of an endpoint that is down). */
  readonly clock: Clock;
  readonly log: { warn(fields: object, message: string): void };
  /**
   * The cluster's limits now (they change by a replicated command): no retry
   * is asked for later than `maxDelayMs`, and a lease is within
   * `minLeaseMs`..`maxLeaseMs`, as every lease command's must be.
   */
  readonly limits: () => {
    readonly maxDelayMs: number;
    readonly minLeaseMs: number;
    readonly maxLeaseMs: number;
  };
}

/** Most UTF-8 bytes of a nack's error (MAX_NACK_ERROR_BYTES is 1024). */
const MAX_ERROR_BYTES = 1000;

function cut(s: string): string {
  const b = Buffer.from(s, 'utf8');
  return b.length <= MAX_ERROR_BYTES ? s : b.subarray(0, MAX_ERROR_BYTES).toString('utf8');
}

/** Time a lease leaves after its request's timeout for the answer's ack or nack to be committed. */
const SETTLE_MARGIN_MS = 10_000;

/**
 * A push group's lease and request timeout: the lease outlives the request
 * (its timeout, then SETTLE_MARGIN_MS), within the cluster's lease limits,
 * since one lease outside them would fail the lease command every group's
 * runs share; a lease cut short by `maxLeaseMs` cuts the request's timeout
 * with it, so a request never outlives its lease.
 */
export function pushLease(
  push: PushSettings,
  limits: { readonly minLeaseMs: number; readonly maxLeaseMs: number },
): { leaseMs: number; timeoutMs: number } {
  const leaseMs = Math.min(limits.maxLeaseMs, Math.max(limits.minLeaseMs, push.timeoutMs + SETTLE_MARGIN_MS));
  const margin = Math.min(SETTLE_MARGIN_MS, Math.floor(leaseMs / 2));
  return { leaseMs, timeoutMs: Math.max(1, Math.min(push.timeoutMs, leaseMs - margin)) };
}

export class PushEndpoint {
  readonly consumer: Consumer;
  /** The group's settings, its request timeout within its lease (`pushLease`). */
  readonly push: PushSettings;
  private readonly agent: Agent;
  private readonly aborts = new Set<AbortController>();
  private closed = false;
  /** Connection failures in a row: how long the endpoint is left alone when down. */
  private failures = 0;
  private probe: TimerHandle | undefined;
  private requests = 0;

  constructor(
    readonly topic: string,
    readonly group: string,
    queue: bigint,
    settings: PushSettings,
    /** The CA bundle's PEM ('' = the system's CAs). */
    ca: string,
    private readonly parts: PushEndpointParts,
  ) {
    const { leaseMs, timeoutMs } = pushLease(settings, parts.limits());
    const push = timeoutMs === settings.timeoutMs ? settings : { ...settings, timeoutMs };
    this.push = push;
    this.agent = new Agent({
      connections: push.concurrency,
      pipelining: 1,
      keepAliveTimeout: 30_000,
      connect: {
        timeout: push.timeoutMs,
        rejectUnauthorized: true,
        ...(ca !== '' ? { ca } : {}),
        lookup: parts.policy.lookup(),
      },
    });
    const sink: DeliverySink = {
      deliver: (deliveries, sent) => {
        for (const d of deliveries) void this.send(d);
        // A request is "sent" once started: its lease may lapse from now on.
        sent();
        return !this.closed;
      },
      close: () => this.close(),
    };
    this.consumer = {
      id: parts.dispatcher.newConsumerId(),
      consumerId: 0n,
      queue,
      topic,
      group,
      window: push.concurrency,
      leaseMs,
      holdsAhead: false,
      leasesAhead: false,
      ...emptySlots(),
      ready: [],
      settles: { count: 0, previous: 0, sinceMs: parts.clock.nowMs() },
      early: heldAheadSchedule(),
      sink,
    };
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Requests in flight now (never more than the group's concurrency). */
  get inFlight(): number {
    return this.requests;
  }

  start(): void {
    this.parts.dispatcher.addConsumer(this.consumer);
  }

  /** Stops taking leases and aborts the requests in flight: their leases run out and go to the next leader. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.probe) this.parts.clock.clearTimer(this.probe);
    this.parts.dispatcher.removeConsumer(this.consumer);
    for (const a of this.aborts) a.abort();
    void this.agent.close().catch(() => {});
  }

  private async send(d: pb.Delivery.$Properties): Promise<void> {
    const { parts, push } = this;
    const tag = d.tag as Uint8Array;
    const attempt = d.attempt ?? 1;
    const labels = { topic: this.topic, group: this.group };
    this.requests++;
    const abort = new AbortController();
    this.aborts.add(abort);
    const started = parts.clock.nowMs();
    let verdict: ReturnType<typeof verdictOf>;
    let unreachable = false;
    let answered = false;
    try {
      const body = d.payload ?? new Uint8Array(0);
      const secret =
        push.secretFile !== ''
          ? await parts.secrets.read(push.secretFile, parts.clock.monotonicMs())
          : undefined;
      const headers = pushHeaders(
        {
          id: toBigInt(d.id ?? 0),
          topic: this.topic,
          group: this.group,
          attempt,
          dueAtMs: toSafeNumber(d.dueAtMs ?? 0, 'due_at_ms'),
          key: d.key ?? '',
          headers: d.headers ?? {},
          payload: body,
        },
        push,
        signOrNot(secret, parts.clock.nowMs(), body),
      );
      const result = await sendPush(
        this.agent,
        parts.policy,
        push,
        headers,
        body,
        () => parts.clock.nowMs(),
        abort.signal,
      );
      unreachable = result.kind === 'failed' && !result.timeout;
      answered = result.kind === 'answered';
      verdict = verdictOf(result, push, attempt);
    } catch (err) {
      // The secret file could not be read: nothing was sent.
      verdict = {
        ack: false,
        delayMs: backoffMs(push, attempt),
        error: (err as Error).message,
        statusClass: 'error',
      };
      parts.log.warn({ topic: this.topic, group: this.group, err: (err as Error).message }, 'push not sent');
    } finally {
      this.aborts.delete(abort);
      this.requests--;
    }
    parts.metrics.requests.inc({ ...labels, class: verdict.statusClass });
    parts.metrics.latencyMs.observe(labels, parts.clock.nowMs() - started);
    if (this.closed) return; // leadership lost: the lease runs out and the next leader pushes again
    // Only an answer shows the endpoint up: a timeout or an unread secret leaves it as it was.
    if (unreachable) this.down();
    else if (answered) this.up();
    try {
      if (verdict.ack) {
        await parts.settle.ack(tag);
        return;
      }
      const last = (d.maxAttempts ?? 0) > 0 && attempt >= (d.maxAttempts ?? 0);
      parts.metrics.retries.inc(labels);
      if (last) parts.metrics.deadLetters.inc(labels);
      await parts.settle.nack(tag, Math.min(verdict.delayMs, parts.limits().maxDelayMs), cut(verdict.error));
    } catch (err) {
      // Not settled (leadership lost, a lease already run out): the lease runs out and it comes back.
      parts.log.warn(
        {
          topic: this.topic,
          group: this.group,
          tag: Buffer.from(tag).toString('hex'),
          err: (err as Error).message,
        },
        'push answered but not settled',
      );
    }
  }

  /** It answered: back to its full concurrency. */
  private up(): void {
    this.failures = 0;
    if (this.consumer.window !== this.push.concurrency)
      this.parts.dispatcher.setWindow(this.consumer, this.push.concurrency);
  }

  /**
   * The endpoint could not be reached: offer it nothing until the backoff
   * has passed, then one request at a time until one is answered.
   */
  private down(): void {
    // The requests that were in flight when it went down fail too: one failure of the streak.
    if (this.consumer.blocked || this.closed) return;
    this.failures++;
    this.consumer.blocked = true;
    this.consumer.window = 1;
    const waitMs = backoffMs(this.push, this.failures);
    this.probe = this.parts.clock.setTimer(() => {
      this.probe = undefined;
      if (!this.closed) this.parts.dispatcher.drained(this.consumer);
    }, waitMs);
  }
}
