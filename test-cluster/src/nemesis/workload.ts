/**
 * The nemesis's clients, recording into the simulation's History
 * (packages/broker/src/sim/history.ts) so that the simulation's checker reads
 * a run of real processes as it reads a simulated one: producers publish
 * through the SDK with a message key and the SDK's idempotency keys (a failed
 * publish is retried under the same key), consumers speak the Consume stream
 * themselves (to record the leader's send time of each delivery) and ack,
 * nack, extend, ack late, stall or vanish, controllers cancel and reschedule,
 * and two recurring schedules run. Times are this process's clock (true time);
 * the nodes run on the same machine.
 */

import type { DeliveryRecord, History, PublishCall, SettleCall } from '@fermata/broker/sim';
import {
  type BrokerClient,
  int64FromSafe,
  makeClient,
  type pb,
  toBigInt,
  toSafeNumber,
  toUint64,
} from '@fermata/protocol';
import type { Prng } from '@fermata/raft/sim-ports';
import { FermataClient, silentLogger } from '@fermata/sdk';
import * as grpc from '@grpc/grpc-js';
import { isCallError, NodeClients } from '../clients.js';
import { sleep } from '../harness.js';

export const TOPIC = 'chaos';
export const SCHEDULE_TOPIC = 'chaos.schedules';
/** Lease of every delivery; a consumer that stalls past it sees the message go to another. */
export const LEASE_MS = 2_000;
/** A settle with no answer within this is `unknown`. */
const SETTLE_TIMEOUT_MS = 3_000;
const hex = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex');

export interface WorkloadOptions {
  readonly endpoints: () => readonly string[];
  readonly history: History;
  readonly rng: Prng;
  readonly producers: number;
  readonly consumers: number;
  /** Pause between two publishes of one producer (ms, uniform). */
  readonly publishEveryMs: readonly [number, number];
  /** When the schedules end (epoch ms): after it they store nothing, so the cluster can fall quiet. */
  readonly schedulesEndAtMs: number;
}

/** Recurring schedules of the run (as the simulation's: an interval, and a cron in a zone with a 30-minute DST shift). */
export const CHAOS_SCHEDULES = [
  { name: 'every-second', spec: 'every 1s', timeZone: '', jitterMs: 0 },
  { name: 'lord-howe', spec: '*/3 * * * * *', timeZone: 'Australia/Lord_Howe', jitterMs: 400 },
] as const;

export class Workload {
  /** Set at the calm phase: consumers ack everything, controllers stop; producers go on until stopProducing. */
  calm = false;
  private producing = true;
  private stopping = false;
  /** Publish calls not answered yet (the calm phase waits for them). */
  publishing = 0;
  private next = 0;
  private readonly clients: FermataClient[] = [];
  private readonly loops: Promise<void>[] = [];
  readonly consumers: ChaosConsumer[] = [];
  readonly counts = { publishes: 0, publishFailures: 0, cancels: 0, reschedules: 0, consumerReconnects: 0 };

  constructor(readonly o: WorkloadOptions) {}

  client(): FermataClient {
    const c = new FermataClient({
      endpoints: [...this.o.endpoints()],
      deadlineMs: 8_000,
      logger: silentLogger,
      channelOptions: { 'grpc.keepalive_time_ms': 2_000, 'grpc.keepalive_timeout_ms': 2_000 },
    });
    this.clients.push(c);
    return c;
  }

  async start(): Promise<void> {
    const admin = this.client();
    for (const name of [TOPIC, SCHEDULE_TOPIC]) {
      // A short key window: the janitor's purges end soon after the last message does.
      await admin.createTopic(name, { dedupWindowMs: 1_000 }).catch((err: unknown) => {
        if (!String(err).includes('ALREADY_EXISTS')) throw err;
      });
    }
    this.loops.push(this.upsertSchedules(admin));
    for (let p = 0; p < this.o.producers; p++) this.loops.push(this.produce(this.client()));
    this.loops.push(this.control());
    for (let i = 0; i < this.o.consumers; i++) {
      const c = new ChaosConsumer(this, i + 1);
      this.consumers.push(c);
      c.start();
    }
  }

  private async upsertSchedules(client: FermataClient): Promise<void> {
    for (const s of CHAOS_SCHEDULES) {
      for (;;) {
        try {
          await client.upsertSchedule(SCHEDULE_TOPIC, s.name, {
            spec: s.spec,
            ...(s.timeZone ? { timeZone: s.timeZone } : {}),
            jitterMs: s.jitterMs,
            catchUp: 'all',
            dstPolicy: 'both',
            endAt: this.o.schedulesEndAtMs,
            payload: 'tick',
          });
          this.o.history.note(Date.now(), `schedule ${s.name} upserted`);
          break;
        } catch {
          if (this.stopping) return;
          await sleep(300);
        }
      }
    }
  }

  private async produce(client: FermataClient): Promise<void> {
    const { rng, history } = this.o;
    while (this.producing) {
      const n = ++this.next;
      const key = `k${n}`;
      const delayMs = rng.chance(0.3) ? 0 : rng.int(1, 5_000);
      const ttlMs = rng.chance(0.1) ? rng.int(500, 4_000) : 0;
      this.publishing++;
      try {
        for (let attempt = 0; attempt < 4; attempt++) {
          const call: PublishCall = { key, invokedAtMs: Date.now(), ttlMs, delayMs };
          history.publishes.push(call);
          try {
            const r = await client.publishDetailed(TOPIC, key, {
              key,
              delayMs,
              ...(ttlMs > 0 ? { ttlMs } : {}),
            });
            call.answeredAtMs = Date.now();
            call.answer = { id: r.id, dueAtMs: r.dueAtMs, deduplicated: r.deduplicated };
            history.note(
              call.answeredAtMs,
              `publish ${key} -> #${r.id} due ${r.dueAtMs}${r.deduplicated ? ' dedup' : ''}`,
            );
            this.counts.publishes++;
            break;
          } catch (err) {
            this.counts.publishFailures++;
            history.note(Date.now(), `publish ${key} failed: ${String(err).slice(0, 120)}`);
            if (this.stopping) break;
            await sleep(rng.int(20, 200));
          }
        }
      } finally {
        this.publishing--;
      }
      await sleep(rng.int(this.o.publishEveryMs[0], this.o.publishEveryMs[1]));
    }
  }

  /**
   * Cancels or reschedules an acknowledged message, mostly one not due yet, by
   * id or by key: one attempt per call, straight to the node believed to lead
   * (as the simulation's controllers), so an answer is the answer to that very
   * call. A retry inside a client could answer ALREADY_DONE for what its own
   * first attempt cancelled; a call without an answer is `unknown`.
   */
  private async control(): Promise<void> {
    const { rng, history } = this.o;
    const STATUS = ['unknown', 'cancelled', 'not-found', 'in-flight', 'already-done'];
    const RESCHEDULED = ['unknown', 'rescheduled', 'not-found', 'in-flight', 'already-done'];
    let hint: string | undefined;
    while (!this.calm && !this.stopping) {
      await sleep(rng.int(300, 1_500));
      const now = Date.now();
      const all = [...history.acknowledged()];
      const future = all.filter(([, c]) => (c.answer?.dueAtMs ?? 0) > now + 100);
      const pool = future.length > 0 && rng.chance(0.8) ? future : all;
      if (pool.length === 0) continue;
      const [id, pub] = rng.pick(pool);
      const kind = rng.chance(0.5) ? 'cancel' : 'reschedule';
      const byKey = rng.chance(0.5);
      const target = byKey ? { key: pub.key } : { id: toUint64(id) };
      const address = hint ?? rng.pick([...this.o.endpoints()]);
      const node = new NodeClients(address);
      const call = {
        kind,
        id,
        byKey,
        invokedAtMs: Date.now(),
        status: 'unknown',
      } as (typeof history.controls)[number];
      history.controls.push(call);
      try {
        if (kind === 'cancel') {
          const r = await node.cancel({ topic: TOPIC, ...target });
          call.status = STATUS[r.status] ?? 'unknown';
          this.counts.cancels++;
        } else {
          const r = await node.reschedule({
            topic: TOPIC,
            ...target,
            delayMs: int64FromSafe(rng.int(0, 2_000)),
          });
          call.status = RESCHEDULED[r.status] ?? 'unknown';
          if (call.status === 'rescheduled') call.dueAtMs = toSafeNumber(r.dueAtMs, 'due_at_ms');
          this.counts.reschedules++;
        }
        call.answeredAtMs = Date.now();
        history.note(
          call.answeredAtMs,
          `${kind} #${id}${byKey ? ` by key ${pub.key}` : ''} -> ${call.status} ${call.dueAtMs ?? ''}`,
        );
      } catch (err) {
        if (isCallError(err) && err.code === grpc.status.FAILED_PRECONDITION) {
          // Refused before anything was proposed (not the leader): next time, the one it named.
          call.status = 'refused';
          hint = err.meta['fermata-leader'] || undefined;
        } else hint = undefined;
      } finally {
        node.close();
      }
    }
  }

  /** Stops producers and controllers; resolves once every publish has its answer or gave up. */
  async stopProducing(): Promise<void> {
    this.calm = true;
    this.producing = false;
    await Promise.allSettled(this.loops);
  }

  async close(): Promise<void> {
    this.calm = true;
    this.producing = false;
    this.stopping = true;
    await Promise.allSettled(this.loops);
    await Promise.allSettled(this.consumers.map((c) => c.stop()));
    await Promise.allSettled(this.clients.map((c) => c.close()));
  }
}

/**
 * One consumer on the Consume stream of whichever node leads: it follows the
 * leader a refusal names, reconnects when its stream ends, and settles each
 * delivery in-stream, recording every call and answer.
 */
export class ChaosConsumer {
  private call: grpc.ClientDuplexStream<pb.ConsumeRequest.$Properties, pb.ConsumeResponse> | undefined;
  private client: BrokerClient | undefined;
  private node = '';
  private hint: string | undefined;
  private stopped = false;
  private nextRequestId = 1;
  private readonly pending = new Map<number, (r: pb.SettleResult | undefined) => void>();

  constructor(
    private readonly w: Workload,
    readonly no: number,
  ) {}

  start(): void {
    this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.drop();
  }

  private drop(): void {
    const call = this.call;
    this.call = undefined;
    call?.cancel();
    this.client?.close();
    this.client = undefined;
    for (const done of this.pending.values()) done(undefined);
    this.pending.clear();
  }

  private reconnect(afterMs: number): void {
    this.drop();
    if (this.stopped) return;
    this.w.counts.consumerReconnects++;
    setTimeout(() => this.connect(), afterMs);
  }

  private connect(): void {
    if (this.stopped || this.call) return;
    const endpoints = this.w.o.endpoints();
    const address = this.hint ?? this.w.o.rng.pick([...endpoints]);
    this.hint = undefined;
    const client = makeClient('Broker', address, grpc.credentials.createInsecure(), {
      'grpc.keepalive_time_ms': 2_000,
      'grpc.keepalive_timeout_ms': 2_000,
    });
    const call = client.consume();
    this.client = client;
    this.call = call;
    this.node = address;
    let ended = false;
    const end = (hint?: string) => {
      if (ended || this.call !== call) return;
      ended = true;
      if (hint && hint !== address) this.hint = hint;
      this.reconnect(this.w.o.rng.int(100, 400));
    };
    call.on('data', (res: pb.ConsumeResponse) => {
      if (this.call === call) this.onData(res);
    });
    call.on('error', (err: grpc.ServiceError) => {
      const leader = err.metadata?.get('fermata-leader')[0];
      end(typeof leader === 'string' && leader !== '' ? leader : undefined);
    });
    call.on('end', () => end());
    call.write({
      subscribe: { topic: TOPIC, group: 'default', prefetch: 8, leaseMs: int64FromSafe(LEASE_MS) },
    });
  }

  private onData(res: pb.ConsumeResponse): void {
    if (res.deliveries) {
      const batch = res.deliveries as pb.DeliveryBatch;
      const sentMs = toSafeNumber(batch.sentAtMs, 'sent_at_ms');
      for (const raw of batch.deliveries) {
        const d = raw as pb.Delivery;
        const tag = d.tag as Uint8Array;
        const rec: DeliveryRecord = {
          atMs: Date.now(),
          id: toBigInt(d.id),
          tag: hex(tag),
          attempt: d.attempt,
          dueAtMs: toSafeNumber(d.dueAtMs, 'due_at_ms'),
          sentLeaderMs: sentMs,
          // Not subscribed with holds_ahead: a delivery comes once its lease started.
          handoverLeaderMs: Math.max(sentMs, toSafeNumber(d.startsAtMs, 'starts_at_ms')),
          node: this.node,
          consumer: this.no,
        };
        this.w.o.history.deliveries.push(rec);
        this.w.o.history.note(
          rec.atMs,
          `deliver #${rec.id} attempt ${rec.attempt} due ${rec.dueAtMs} at leader ${rec.handoverLeaderMs} from ${this.node} to c${this.no}`,
        );
        this.handle(rec.id, tag);
      }
    }
    if (res.result) {
      const r = res.result as pb.SettleResult;
      const id = toSafeNumber(r.requestId, 'request_id');
      const done = this.pending.get(id);
      this.pending.delete(id);
      done?.(r);
    }
  }

  /** What this consumer does with a delivery (the simulation's mix; everything is acked in the calm). */
  private handle(id: bigint, tag: Uint8Array): void {
    const { rng } = this.w.o;
    const roll = this.w.calm ? 0 : rng.next();
    const later = rng.int(5, 300);
    const act = (ms: number, kind: SettleCall['kind']) =>
      setTimeout(() => void this.settle(kind, id, tag), ms);
    if (roll < 0.65) act(later, 'ack');
    else if (roll < 0.73) act(later, 'nack');
    else if (roll < 0.81) act(later, 'extend');
    else if (roll < 0.95) act(LEASE_MS + rng.int(50, 500), 'ack');
    else if (roll < 0.97)
      return; // stalls for good
    else this.reconnect(rng.int(500, 2_000)); // goes away without a word
  }

  private async settle(kind: SettleCall['kind'], id: bigint, tag: Uint8Array): Promise<void> {
    const call = this.call;
    const history = this.w.o.history;
    const rec: SettleCall = { kind, id, tag: hex(tag), invokedAtMs: Date.now(), outcome: 'unknown' };
    history.settles.push(rec);
    if (!call) {
      rec.outcome = 'error';
      history.note(Date.now(), `${kind} #${id} not sent: no stream`);
      return;
    }
    const requestId = this.nextRequestId++;
    const answer = new Promise<pb.SettleResult | undefined>((resolve) => {
      this.pending.set(requestId, resolve);
      setTimeout(() => {
        this.pending.delete(requestId);
        resolve(undefined);
      }, SETTLE_TIMEOUT_MS);
    });
    const rid = toUint64(BigInt(requestId));
    if (kind === 'ack') call.write({ ack: { tags: [tag], requestId: rid } });
    else if (kind === 'nack')
      call.write({ nack: { tag, delayMs: int64FromSafe(this.w.o.rng.int(0, 1_000)), requestId: rid } });
    else call.write({ extend: { tag, leaseMs: int64FromSafe(LEASE_MS), requestId: rid } });
    const r = await answer;
    if (!r) return; // no answer: unknown
    if (r.error) {
      // Refused before anything was proposed (not leader, a bad tag, a queue limit), or unknown.
      const refused = [
        grpc.status.FAILED_PRECONDITION,
        grpc.status.INVALID_ARGUMENT,
        grpc.status.RESOURCE_EXHAUSTED,
      ];
      if (refused.includes(r.error.code ?? 0)) rec.outcome = 'error';
      history.note(Date.now(), `${kind} #${id} -> ${rec.outcome}: ${r.error.code} ${r.error.message}`);
      return;
    }
    const o = r.outcomes[0];
    rec.answeredAtMs = Date.now();
    rec.outcome = o?.status === 1 ? 'ok' : 'lease-expired';
    history.note(rec.answeredAtMs, `${kind} #${id} tag ..${rec.tag.slice(-20, -8)} -> ${rec.outcome}`);
    const newTag = o?.newTag as Uint8Array | undefined;
    if (kind === 'extend' && rec.outcome === 'ok' && newTag && newTag.length > 0) {
      setTimeout(() => void this.settle('ack', id, newTag), this.w.o.rng.int(5, 300));
    }
  }
}
