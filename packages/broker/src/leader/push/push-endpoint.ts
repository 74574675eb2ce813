/**
 * One push group on the leader: a consumer of the dispatcher whose sink
 * POSTs each delivery to the group's endpoint instead of writing it to a
 * stream. Its window is the group's concurrency and it takes no lease ahead,
 * so it holds at most `concurrency` leases, each one a request in flight.
 * An answer settles the lease (ack or nack) through the same path a stream
 * consumer's settle takes. A request that gets no answer (a timeout, a
 * connection error) marks the endpoint down: it refuses deliveries (it is
 * offered nothing, and what waits for it goes back uncounted), and after the
 * group's backoff it is sent one request, the probe, until one is answered.
 * A secret file or CA bundle that cannot be read blocks it the same way
 * until the file can be read again: at its start (it still takes back the
 * previous leader's leases, handing them back uncounted), or later for its
 * secret file. A delivery never sent goes back uncounted.
 */
import type { Clock, TimerHandle } from '@fermata/base';
import { type pb, toBigInt, toSafeNumber } from '@fermata/protocol';
import { Agent } from 'undici';
import { ConflictError } from '../../state/model/errors.js';
import type { PushSettings } from '../../state/model/group-settings.js';
import { type Consumer, type DeliverySink, heldAheadSchedule } from '../dispatcher/consumer.js';
import { emptySlots } from '../dispatcher/consumer-registry.js';
import type { Dispatcher, TakeBackPlan } from '../dispatcher/dispatcher.js';
import type { EndpointPolicy } from './endpoint-policy.js';
import type { PushFilesPolicy } from './files-policy.js';
import type { PushMetrics } from './push-metrics.js';
import { backoffMs, type PushResult, pushHeaders, sendPush, signOrNot, verdictOf } from './push-request.js';
import type { SecretFiles } from './signature.js';

/** How the pusher settles a lease: the leader's ack and nack (server/settle.ts). */
export interface PushSettler {
  ack(tag: Uint8Array): Promise<unknown>;
  nack(tag: Uint8Array, delayMs: number, error: string): Promise<unknown>;
  /** A delivery whose request was never sent: back to the queue, its attempt not counted. */
  handBack(tag: Uint8Array): Promise<unknown>;
}

export interface PushEndpointParts {
  readonly dispatcher: Dispatcher;
  readonly settle: PushSettler;
  readonly policy: EndpointPolicy;
  readonly secrets: SecretFiles;
  /** What secret and CA files may be read (push.filesDir). */
  readonly files: PushFilesPolicy;
  readonly metrics: PushMetrics;
  /** The leader's clock (latency, the probe of an endpoint that is down). */
  readonly clock: Clock;
  /** The leader's time as its commands stamp it (Proposer.nowMs): what lease ends are in. */
  readonly leaderNowMs: () => number;
  /**
   * The system's wall clock (Date.now), for the signature's `t` alone: a
   * receiver compares `t` with its own wall clock, from which the leader's
   * steady clock drifts when the system clock is stepped.
   */
  readonly wallMs: () => number;
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

/**
 * The consumer id a push group's leases carry: its queue's hash, the same on
 * every leader, so that a new leader's endpoint takes back the leases the
 * previous one took for the group (Dispatcher.planTakeBack).
 */
function pushConsumerId(queue: bigint): bigint {
  return queue === 0n ? 1n : queue;
}

/** The group's CA bundle ('' = the system's CAs), read within push.filesDir; throws naming the field and path. */
export async function caOf(parts: Pick<PushEndpointParts, 'files'>, push: PushSettings): Promise<string> {
  if (push.caFile === '') return '';
  return (await parts.files.read(push.caFile, 'settings.push.ca_file')).toString('utf8');
}

/**
 * Why a stream may not consume a push group (`field`: the request's field
 * naming it, '' for a stream ended because its group became one).
 */
export function pushGroupConflict(topic: string, group: string, field = ''): ConflictError {
  return new ConflictError(
    'push-group',
    `${field === '' ? 'group' : `${field}:`} "${topic}/${group}" is a push group: the leader pushes its messages to its endpoint; subscribe to another group`,
  );
}

/** How often a blocked endpoint reads its files again (the secret's recheck time, signature.ts). */
const BLOCKED_RECHECK_MS = 2_000;

/** What became of one delivery: not sent (why, and whether a file blocks the endpoint), or the request's result. */
type Sending =
  | { readonly sent: false; readonly why: string; readonly fileBlocks: boolean }
  | { readonly sent: true; readonly result: PushResult; readonly startedMs: number };

export class PushEndpoint {
  readonly consumer: Consumer;
  /** The group's settings, its request timeout within its lease (`pushLease`). */
  readonly push: PushSettings;
  /**
   * What a request leaves of its lease for the answer's settle: half of what
   * the lease has beyond the timeout (5 s of 10 s), so a delivery may wait
   * as long to be sent and still have its whole timeout.
   */
  private readonly settleReserveMs: number;
  /** Made over its CA bundle once that is read (at its start, or when a blocked one reads it again). */
  private agent: Agent | undefined;
  private readonly aborts = new Set<AbortController>();
  private closed = false;
  /** Requests without an answer in a row (timeouts, connection errors): how long it is left alone when down. */
  private failures = 0;
  /** When a request of it was last answered (the clock's ms): a failure of one started before that is its own. */
  private answeredAtMs = Number.NEGATIVE_INFINITY;
  /** Down: the backoff before its probe is offered, running. */
  private probe: TimerHandle | undefined;
  /** Why it sends nothing: a file it needs cannot be read ('' = none). */
  private blockedBy = '';
  private recheck: TimerHandle | undefined;
  private requests = 0;

  constructor(
    readonly topic: string,
    readonly group: string,
    queue: bigint,
    settings: PushSettings,
    private readonly parts: PushEndpointParts,
  ) {
    const { leaseMs, timeoutMs } = pushLease(settings, parts.limits());
    const push = timeoutMs === settings.timeoutMs ? settings : { ...settings, timeoutMs };
    this.push = push;
    this.settleReserveMs = Math.floor((leaseMs - timeoutMs) / 2);
    const sink: DeliverySink = {
      deliver: (deliveries, sent) => {
        for (const d of deliveries) {
          this.send(d).catch((err: unknown) => {
            // A delivery that could not even be made into a request: its lease runs out and it comes back.
            this.notSettled(d.tag as Uint8Array, err, 'push request not built');
          });
        }
        // A request is "sent" once started: its lease may lapse from now on.
        sent();
        return !this.closed;
      },
      close: () => this.close(),
    };
    this.consumer = {
      id: parts.dispatcher.newConsumerId(),
      consumerId: pushConsumerId(queue),
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

  /**
   * Starts taking leases, first taking back those the previous leader took
   * for this group and did not settle (a failover): each is sent again with
   * its tag and attempt, so a failover costs no attempt. A file it needs
   * that cannot be read blocks it from the start: it takes nothing, and the
   * leases it takes back go back uncounted.
   */
  async start(): Promise<void> {
    const { dispatcher } = this.parts;
    const [plan, why] = await Promise.all([this.planTakeBack(), this.readFiles()]);
    if (this.closed) return;
    if (why !== '') {
      // Not one lease round may count it as a consumer with room.
      this.consumer.refusing = true;
      this.consumer.blocked = true;
    }
    dispatcher.addConsumer(this.consumer, plan);
    if (why !== '') this.block(why);
  }

  /** The previous leader's leases for this group; undefined when they could not be read. */
  private async planTakeBack(): Promise<TakeBackPlan | undefined> {
    try {
      return await this.parts.dispatcher.planTakeBack(this.consumer, []);
    } catch (err) {
      // Not read (leadership lost meanwhile, a storage error): its leases run out and come back.
      this.parts.log.warn(
        { topic: this.topic, group: this.group, err: (err as Error).message },
        'push group: the leases of the previous leader could not be read',
      );
      return undefined;
    }
  }

  /**
   * Reads the files it needs: its CA bundle until it is read once (its agent
   * is made over it), and its secret file (SecretFiles reads that again
   * every few seconds). Returns why it cannot send, '' when it can.
   */
  private async readFiles(): Promise<string> {
    const { parts, push } = this;
    try {
      if (this.agent === undefined) {
        const ca = await caOf(parts, push);
        if (this.closed) return '';
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
      }
      if (push.secretFile !== '') await parts.secrets.read(push.secretFile, parts.clock.monotonicMs());
      return '';
    } catch (err) {
      return (err as Error).message;
    }
  }

  /**
   * Stops taking leases and aborts the requests in flight. Still leading (its
   * settings changed), their deliveries go back uncounted for the endpoint
   * made anew; leadership lost, the next leader takes their leases back.
   */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.probe) this.parts.clock.clearTimer(this.probe);
    if (this.recheck) this.parts.clock.clearTimer(this.recheck);
    if (this.blockedBy !== '') this.parts.metrics.blocked.set(this.labels, '');
    this.parts.dispatcher.removeConsumer(this.consumer);
    for (const a of this.aborts) a.abort();
    void this.agent?.close().catch(() => {});
  }

  private get labels(): { topic: string; group: string } {
    return { topic: this.topic, group: this.group };
  }

  private async send(d: pb.Delivery.$Properties): Promise<void> {
    const { parts, push, labels } = this;
    const tag = d.tag as Uint8Array;
    const attempt = d.attempt ?? 1;
    this.requests++;
    const abort = new AbortController();
    this.aborts.add(abort);
    let sending: Sending;
    try {
      sending = await this.request(d, attempt, abort.signal);
    } finally {
      this.aborts.delete(abort);
      this.requests--;
    }
    if (!sending.sent) {
      // Nothing went out: the delivery goes back uncounted (a blocked endpoint first refuses the rest).
      if (sending.fileBlocks) this.block(sending.why);
      this.handBack(tag, sending.why);
      return;
    }
    const { result } = sending;
    const verdict = verdictOf(result, push, attempt);
    parts.metrics.requests.inc({ ...labels, class: verdict.statusClass });
    parts.metrics.latencyMs.observe(labels, parts.clock.nowMs() - sending.startedMs);
    if (this.closed) {
      // Aborted by close (not the endpoint's failure), or answered as it closed.
      if (result.kind === 'failed') {
        this.handBack(tag, 'its push group closed');
        return;
      }
      if (!parts.dispatcher.isActive) return; // leadership lost: the next leader takes the lease back
    } else if (result.kind === 'failed') {
      // No answer (a timeout, a connection error, a refused address): it is down, unless another
      // request was answered since this one started (then only this message failed: it backs off).
      if (this.answeredAtMs < sending.startedMs) this.down();
    } else this.up();
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
      this.notSettled(tag, err, 'push answered but not settled');
    }
  }

  /**
   * Sends one delivery, or says why not: its secret file cannot be read, or
   * too little of its lease is left. The request ends `settleReserveMs`
   * before its lease does: a delivery that waited longer than that to be
   * sent (a lease taken back after a failover) has its timeout cut, so no
   * push runs on after its lease ended and the message was leased again.
   */
  private async request(d: pb.Delivery.$Properties, attempt: number, signal: AbortSignal): Promise<Sending> {
    const { parts, push, agent } = this;
    // Without its CA bundle it is blocked and offered nothing: a delivery that came anyway goes back.
    if (agent === undefined) return { sent: false, why: this.blockedBy, fileBlocks: true };
    let secret: Uint8Array | undefined;
    if (push.secretFile !== '') {
      try {
        secret = await parts.secrets.read(push.secretFile, parts.clock.monotonicMs());
      } catch (err) {
        return { sent: false, why: (err as Error).message, fileBlocks: true };
      }
    }
    const leaseEndMs = toSafeNumber(d.leaseExpiresAtMs ?? 0, 'lease_expires_at_ms');
    const timeoutMs = Math.min(push.timeoutMs, leaseEndMs - this.settleReserveMs - parts.leaderNowMs());
    // Less than half its timeout left: leased again with a whole lease rather than sent to time out early.
    if (timeoutMs < push.timeoutMs / 2 || this.closed)
      return {
        sent: false,
        why: `${timeoutMs} ms of its ${push.timeoutMs} ms timeout left in its lease`,
        fileBlocks: false,
      };
    const body = d.payload ?? new Uint8Array(0);
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
      signOrNot(secret, parts.wallMs(), body),
    );
    const startedMs = parts.clock.nowMs();
    // Retry-After may be an HTTP date: read against the system clock, as the receiver wrote it.
    const result = await sendPush(agent, parts.policy, push, headers, body, parts.wallMs, {
      signal,
      timeoutMs,
    });
    return { sent: true, result, startedMs };
  }

  /**
   * Hands a delivery back uncounted (never sent, or aborted by `close`); if
   * that fails its lease runs out. Leadership lost, the next leader takes
   * the lease back instead.
   */
  private handBack(tag: Uint8Array, why: string): void {
    if (!this.parts.dispatcher.isActive) return;
    this.parts.settle
      .handBack(tag)
      .catch((err: unknown) => this.notSettled(tag, err, `push not sent (${why})`));
  }

  private notSettled(tag: Uint8Array, err: unknown, message: string): void {
    this.parts.log.warn(
      {
        topic: this.topic,
        group: this.group,
        tag: Buffer.from(tag).toString('hex'),
        err: (err as Error).message,
      },
      message,
    );
  }

  /** It answered: back to its full concurrency, and a backoff it was in ends. */
  private up(): void {
    this.answeredAtMs = this.parts.clock.nowMs();
    this.failures = 0;
    if (this.probe !== undefined) {
      this.parts.clock.clearTimer(this.probe);
      this.probe = undefined;
      this.offer();
    }
    if (this.consumer.window !== this.push.concurrency)
      this.parts.dispatcher.setWindow(this.consumer, this.push.concurrency);
  }

  /**
   * A request got no answer: offer it nothing until the group's backoff
   * (for this many failures in a row) has passed, then one request at a
   * time until one is answered.
   */
  private down(): void {
    // The requests in flight when it went down fail too: one failure of the streak.
    if (this.probe !== undefined || this.closed) return;
    this.failures++;
    this.consumer.window = 1;
    this.refuse();
    this.probe = this.parts.clock.setTimer(
      () => {
        this.probe = undefined;
        this.offer();
      },
      backoffMs(this.push, this.failures),
    );
  }

  /**
   * A file it needs cannot be read (`why` names the field and the path,
   * never the content): it sends nothing, and reads its files again every
   * BLOCKED_RECHECK_MS until it can.
   */
  private block(why: string): void {
    if (this.closed) return;
    if (this.blockedBy !== why) {
      this.parts.log.warn(
        { topic: this.topic, group: this.group, err: why },
        'push group blocked: its messages wait, their attempts unspent, until the file can be read',
      );
      this.parts.metrics.blocked.set(this.labels, why);
    }
    this.blockedBy = why;
    this.refuse();
    this.recheck ??= this.parts.clock.setTimer(() => void this.recheckFiles(), BLOCKED_RECHECK_MS);
  }

  private async recheckFiles(): Promise<void> {
    const { parts } = this;
    const why = await this.readFiles();
    this.recheck = undefined;
    if (why !== '') {
      this.block(why);
      return;
    }
    if (this.closed) return;
    parts.log.warn(
      { topic: this.topic, group: this.group },
      'push group unblocked: the files it needs can be read',
    );
    parts.metrics.blocked.set(this.labels, '');
    this.blockedBy = '';
    this.offer();
  }

  /** It takes nothing (`Consumer.refusing`): deliveries waiting for it go back. */
  private refuse(): void {
    this.consumer.refusing = true;
    this.consumer.blocked = true;
    this.parts.dispatcher.handBackWaiting(this.consumer);
  }

  /** It takes deliveries again, unless it is still down or blocked. */
  private offer(): void {
    if (this.closed || this.probe !== undefined || this.blockedBy !== '') return;
    this.consumer.refusing = false;
    this.parts.dispatcher.drained(this.consumer);
  }
}
