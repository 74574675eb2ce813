/**
 * Thin promise wrappers over the generated grpc-js clients (`makeClient` from
 * `@fermata/protocol`, not the SDK): what cluster tests and benchmarks need to
 * speak the wire protocol directly.
 */
import {
  type AdminClient,
  type BrokerClient,
  type ClusterClient,
  makeClient,
  type pb,
  type RaftClient,
  RaftService,
  toInt64,
  toUint64,
} from '@fermata/protocol';
import * as grpc from '@grpc/grpc-js';
import type Long from 'long';
import { sleep } from './harness.js';

/** Default deadline of one unary call. */
export const CALL_DEADLINE_MS = 30_000;

/** A failed call: the gRPC status with its metadata flattened to strings. */
export interface CallError extends Error {
  readonly code: grpc.status;
  readonly details: string;
  readonly meta: Readonly<Record<string, string>>;
}

export function isCallError(err: unknown): err is CallError {
  return err instanceof Error && typeof (err as { code?: unknown }).code === 'number' && 'meta' in err;
}

function toCallError(err: grpc.ServiceError): CallError {
  const meta: Record<string, string> = {};
  for (const [k, v] of Object.entries(err.metadata?.getMap() ?? {})) meta[k] = String(v);
  return Object.assign(err, { meta }) as CallError;
}

type Callback<Res> = (err: grpc.ServiceError | null, res?: Res) => void;
type UnaryMethod<Req, Res> = (
  req: Req,
  metadata: grpc.Metadata,
  options: Partial<grpc.CallOptions>,
  cb: Callback<Res>,
) => grpc.ClientUnaryCall;

/** Calls one unary method; rejects with a `CallError`. */
export function unaryCall<Req, Res>(
  client: grpc.Client,
  method: UnaryMethod<Req, Res>,
  req: Req,
  deadlineMs = CALL_DEADLINE_MS,
  metadata: grpc.Metadata = new grpc.Metadata(),
): Promise<Res> {
  return new Promise((resolve, reject) => {
    method.call(client, req, metadata, { deadline: Date.now() + deadlineMs }, (err, res) => {
      if (err) reject(toCallError(err));
      else resolve(res as Res);
    });
  });
}

/** The three client services of one node, with promise methods for the calls tests use most. */
export class NodeClients {
  readonly broker: BrokerClient;
  readonly admin: AdminClient;
  readonly cluster: ClusterClient;

  /**
   * `direct`: every call carries `fermata-direct`, so a follower answers
   * with a redirect (NotLeader naming the leader) instead of forwarding it.
   */
  constructor(
    readonly address: string,
    private readonly options: { direct?: boolean } = {},
  ) {
    this.broker = makeClient('Broker', address);
    this.admin = makeClient('Admin', address);
    this.cluster = makeClient('Cluster', address);
  }

  private md(): grpc.Metadata {
    const m = new grpc.Metadata();
    if (this.options.direct) m.set('fermata-direct', '1');
    return m;
  }

  publish(req: pb.PublishRequest.$Properties, deadlineMs?: number): Promise<pb.PublishResponse> {
    return unaryCall(this.broker, this.broker.publish, req, deadlineMs, this.md());
  }
  ack(req: pb.AckRequest.$Properties): Promise<pb.AckResponse> {
    return unaryCall(this.broker, this.broker.ack, req, undefined, this.md());
  }
  nack(req: pb.NackRequest.$Properties): Promise<pb.NackResponse> {
    return unaryCall(this.broker, this.broker.nack, req, undefined, this.md());
  }
  extend(req: pb.ExtendRequest.$Properties): Promise<pb.ExtendResponse> {
    return unaryCall(this.broker, this.broker.extend, req, undefined, this.md());
  }
  cancel(req: pb.CancelRequest.$Properties): Promise<pb.CancelResponse> {
    return unaryCall(this.broker, this.broker.cancel, req, undefined, this.md());
  }
  reschedule(req: pb.RescheduleRequest.$Properties): Promise<pb.RescheduleResponse> {
    return unaryCall(this.broker, this.broker.reschedule, req, undefined, this.md());
  }
  getMessage(req: pb.GetMessageRequest.$Properties): Promise<pb.GetMessageResponse> {
    return unaryCall(this.broker, this.broker.getMessage, req, undefined, this.md());
  }
  listMessages(req: pb.ListMessagesRequest.$Properties): Promise<pb.ListMessagesResponse> {
    return unaryCall(this.broker, this.broker.listMessages, req, undefined, this.md());
  }
  createTopic(req: pb.CreateTopicRequest.$Properties): Promise<pb.CreateTopicResponse> {
    return unaryCall(this.admin, this.admin.createTopic, req, undefined, this.md());
  }
  createGroup(req: pb.CreateGroupRequest.$Properties): Promise<pb.CreateGroupResponse> {
    return unaryCall(this.admin, this.admin.createGroup, req, undefined, this.md());
  }
  updateTopic(req: pb.UpdateTopicRequest.$Properties): Promise<pb.UpdateTopicResponse> {
    return unaryCall(this.admin, this.admin.updateTopic, req, undefined, this.md());
  }
  deleteTopic(name: string): Promise<pb.DeleteTopicResponse> {
    return unaryCall(this.admin, this.admin.deleteTopic, { name }, undefined, this.md());
  }
  deleteGroup(topic: string, group: string): Promise<pb.DeleteGroupResponse> {
    return unaryCall(this.admin, this.admin.deleteGroup, { topic, group }, undefined, this.md());
  }
  addMember(req: pb.AddMemberRequest.$Properties): Promise<pb.AddMemberResponse> {
    return unaryCall(this.cluster, this.cluster.addMember, req, undefined, this.md());
  }
  removeMember(req: pb.RemoveMemberRequest.$Properties): Promise<pb.RemoveMemberResponse> {
    return unaryCall(this.cluster, this.cluster.removeMember, req, undefined, this.md());
  }
  transferLeadership(toId = ''): Promise<pb.TransferLeadershipResponse> {
    return unaryCall(this.cluster, this.cluster.transferLeadership, { toId }, undefined, this.md());
  }
  topicStats(topic: string): Promise<pb.GetTopicStatsResponse> {
    return unaryCall(this.admin, this.admin.getTopicStats, { topic }, undefined, this.md());
  }
  listTopics(): Promise<pb.ListTopicsResponse> {
    return unaryCall(this.admin, this.admin.listTopics, {}, undefined, this.md());
  }
  clusterInfo(
    req: pb.GetClusterInfoRequest.$Properties = {},
    deadlineMs?: number,
  ): Promise<pb.GetClusterInfoResponse> {
    return unaryCall(this.cluster, this.cluster.getClusterInfo, req, deadlineMs, this.md());
  }

  /**
   * Opens a Consume stream and subscribes (see `ConsumeSession`). Consuming
   * never creates a topic or a group, so first this creates the ones `sub`
   * names, as the application would have once (unless `create: false`):
   * best effort (it exists already, this node does not lead, ...); the
   * subscribe answers for itself.
   */
  async consume(sub: pb.Subscribe.$Properties, options: { create?: boolean } = {}): Promise<ConsumeSession> {
    if (options.create !== false && sub.topic) {
      await this.createTopic({ name: sub.topic }).catch(() => {});
      if (sub.group && sub.group !== 'default')
        await this.createGroup({ topic: sub.topic, group: sub.group }).catch(() => {});
    }
    return ConsumeSession.open(this.broker, sub, undefined, this.md());
  }

  close(): void {
    this.broker.close();
    this.admin.close();
    this.cluster.close();
  }
}

/**
 * Retries `fn` while it fails with UNAVAILABLE (a leader not ready yet, an
 * election) until `timeoutMs`; other errors reject at once.
 */
export async function retryUnavailable<T>(fn: () => Promise<T>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await fn();
    } catch (err) {
      if (!isCallError(err) || err.code !== grpc.status.UNAVAILABLE || Date.now() > deadline) throw err;
      await sleep(100);
    }
  }
}

/**
 * One delivery as a client gets it: `receivedAtMs` is when it is handed over
 * (for one sent ahead: its arrival plus `starts_at_ms - sent_at_ms`, the
 * plain rule of docs/api.md), `arrivedAtMs` when the stream brought it.
 */
export interface Received {
  readonly delivery: pb.Delivery;
  readonly receivedAtMs: number;
  readonly arrivedAtMs: number;
}

/**
 * One Consume stream: collects deliveries (with receive times), tracks how many
 * are unacked, and turns in-stream settle requests into promises. A delivery
 * sent ahead (`starts_at_ms` > 0) is held until its start before it joins
 * `received`, as a client honouring the protocol does; it counts as unacked
 * from its arrival.
 */
export class ConsumeSession {
  readonly received: Received[] = [];
  subscribed: pb.Subscribed | undefined;
  /** The status the stream ended with (undefined while it runs; `{code: 0}` on a clean end). */
  ended: { code: number; details: string; meta: Record<string, string> } | undefined;
  /** Deliveries not yet acked/nacked by this session (tag hex -> lease end). */
  readonly unacked = new Map<string, number>();
  /** The most unacked deliveries seen at once. */
  maxUnacked = 0;
  private nextRequestId = 1;
  private readonly pending = new Map<string, (r: pb.SettleResult) => void>();
  private readonly waiters = new Set<() => void>();
  private readonly call: grpc.ClientDuplexStream<pb.ConsumeRequest.$Properties, pb.ConsumeResponse>;

  private constructor(client: BrokerClient, metadata: grpc.Metadata) {
    this.call = client.consume(metadata);
    this.call.on('data', (res: pb.ConsumeResponse) => this.onData(res));
    this.call.on('error', (err: grpc.ServiceError) => {
      const e = toCallError(err);
      this.ended ??= { code: e.code, details: e.details, meta: { ...e.meta } };
      this.notify();
    });
    this.call.on('status', (s: grpc.StatusObject) => {
      if (s.code === grpc.status.OK) this.ended ??= { code: 0, details: s.details, meta: {} };
      this.notify();
    });
    this.call.on('end', () => {
      this.ended ??= { code: 0, details: 'ended', meta: {} };
      this.notify();
    });
  }

  static async open(
    client: BrokerClient,
    sub: pb.Subscribe.$Properties,
    timeoutMs = 30_000,
    metadata: grpc.Metadata = new grpc.Metadata(),
  ): Promise<ConsumeSession> {
    const s = new ConsumeSession(client, metadata);
    s.call.write({ subscribe: sub });
    await s.waitFor(() => s.subscribed !== undefined || s.ended !== undefined, timeoutMs, 'subscribed');
    if (!s.subscribed) {
      const e = s.ended!;
      throw Object.assign(new Error(`subscribe failed: ${e.code} ${e.details}`), e);
    }
    return s;
  }

  private onData(res: pb.ConsumeResponse): void {
    const now = Date.now();
    if (res.subscribed) this.subscribed = res.subscribed as pb.Subscribed;
    if (res.deliveries) {
      const batch = res.deliveries as pb.DeliveryBatch;
      for (const raw of batch.deliveries) {
        const d = raw as pb.Delivery;
        this.unacked.set(hex(d.tag), Number(d.leaseExpiresAtMs));
        const hold = Number(d.startsAtMs) - Number(batch.sentAtMs);
        if (Number(d.startsAtMs) > 0 && hold > 0) this.handOverAt(d, now, now + hold);
        else this.received.push({ delivery: d, receivedAtMs: now, arrivedAtMs: now });
      }
      this.maxUnacked = Math.max(this.maxUnacked, this.unacked.size);
    }
    if (res.result) {
      const key = String(res.result.requestId);
      const done = this.pending.get(key);
      this.pending.delete(key);
      done?.(res.result as pb.SettleResult);
    }
    this.notify();
  }

  /** Holds a delivery sent ahead until `atMs` (re-armed: a timer can fire a little early). */
  private handOverAt(d: pb.Delivery, arrivedAtMs: number, atMs: number): void {
    const left = atMs - Date.now();
    if (left > 0) {
      setTimeout(() => this.handOverAt(d, arrivedAtMs, atMs), left);
      return;
    }
    if (this.ended) return;
    this.received.push({ delivery: d, receivedAtMs: Date.now(), arrivedAtMs });
    this.notify();
  }

  private notify(): void {
    for (const w of [...this.waiters]) w();
  }

  /** Waits until `cond()` holds (checked on every stream event and every 50 ms). */
  waitFor(cond: () => boolean, timeoutMs: number, what: string): Promise<void> {
    if (cond()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const check = () => {
        if (!cond()) return;
        cleanup();
        resolve();
      };
      const poll = setInterval(check, 50);
      const timer = setTimeout(() => {
        cleanup();
        reject(
          new Error(
            `timed out after ${timeoutMs} ms waiting for ${what} (received ${this.received.length}, ended ${JSON.stringify(this.ended)})`,
          ),
        );
      }, timeoutMs);
      const cleanup = () => {
        clearInterval(poll);
        clearTimeout(timer);
        this.waiters.delete(check);
      };
      this.waiters.add(check);
    });
  }

  /** Waits until at least `n` deliveries arrived in total; returns them all. */
  async waitForCount(n: number, timeoutMs = 30_000): Promise<Received[]> {
    await this.waitFor(() => this.received.length >= n, timeoutMs, `${n} deliveries`);
    return this.received;
  }

  /** Waits for the stream to end; returns its status. */
  async waitEnded(timeoutMs = 30_000): Promise<NonNullable<ConsumeSession['ended']>> {
    await this.waitFor(() => this.ended !== undefined, timeoutMs, 'the stream to end');
    return this.ended!;
  }

  private settle(
    req: pb.ConsumeRequest.$Properties,
    requestId: number,
    timeoutMs: number,
  ): Promise<pb.SettleResult> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(String(requestId));
        reject(new Error(`no settle result for request ${requestId} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(String(requestId), (r) => {
        clearTimeout(timer);
        resolve(r);
      });
      this.call.write(req);
    });
  }

  /** Acks in-stream; resolves with the SettleResult. */
  ack(tags: readonly Uint8Array[], timeoutMs = 30_000): Promise<pb.SettleResult> {
    for (const t of tags) this.unacked.delete(hex(t));
    const requestId = this.nextRequestId++;
    return this.settle({ ack: { tags: [...tags], requestId: u64(requestId) } }, requestId, timeoutMs);
  }

  nack(tag: Uint8Array, delayMs: number, timeoutMs = 30_000): Promise<pb.SettleResult> {
    this.unacked.delete(hex(tag));
    const requestId = this.nextRequestId++;
    return this.settle(
      { nack: { tag, delayMs: i64(delayMs), requestId: u64(requestId) } },
      requestId,
      timeoutMs,
    );
  }

  async extend(tag: Uint8Array, leaseMs: number, timeoutMs = 30_000): Promise<pb.SettleResult> {
    const requestId = this.nextRequestId++;
    const r = await this.settle(
      { extend: { tag, leaseMs: i64(leaseMs), requestId: u64(requestId) } },
      requestId,
      timeoutMs,
    );
    const o = r.outcomes[0];
    if (o && o.status === 1 && o.newTag && o.newTag.length > 0) {
      this.unacked.delete(hex(tag));
      this.unacked.set(hex(o.newTag), Number(o.dueAtMs));
    }
    return r;
  }

  /** Forgets unacked deliveries whose lease ended by `nowMs` (the server frees their slots too). */
  forgetLapsed(nowMs = Date.now()): void {
    for (const [t, end] of this.unacked) if (end <= nowMs) this.unacked.delete(t);
  }

  credit(n: number): void {
    this.call.write({ credit: { n } });
  }

  /** Half-closes the stream (the server ends it). */
  end(): void {
    this.call.end();
  }

  cancel(): void {
    this.call.cancel();
  }
}

/** A JavaScript number as a wire int64 / uint64. */
export const i64 = (n: number): Long => toInt64(BigInt(n));
export const u64 = (n: number | bigint): Long => toUint64(BigInt(n));

export const hex = (b: Uint8Array): string =>
  Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('hex');

const RaftCtor = grpc.makeGenericClientConstructor(RaftService as unknown as grpc.ServiceDefinition, 'Raft');

/**
 * One batch on a fresh `fermata.v1.Raft/SendMessages` stream, as an attacker
 * on the peer network would send it; resolves with the status code the node
 * answered (0 = accepted).
 */
export function sendRaftBatch(
  address: string,
  batch: pb.RaftBatch.$Properties,
  options: { metadata?: grpc.Metadata; credentials?: grpc.ChannelCredentials } = {},
): Promise<grpc.status> {
  const credentials = options.credentials ?? grpc.credentials.createInsecure();
  const client = new RaftCtor(address, credentials) as unknown as RaftClient;
  const metadata = options.metadata ?? new grpc.Metadata();
  return new Promise<grpc.status>((resolve) => {
    const call = client.sendMessages(metadata, {}, (error) => resolve(error ? error.code : 0));
    call.on('error', () => undefined);
    call.write(batch);
    call.end();
  }).finally(() => client.close());
}

/** A client interceptor that sends `authorization: Bearer <token>` on every call. */
export function bearer(token: string): grpc.Interceptor {
  return (options, nextCall) =>
    new grpc.InterceptingCall(nextCall(options), {
      start(metadata, listener, next) {
        metadata.set('authorization', `Bearer ${token}`);
        next(metadata, listener);
      },
    });
}

/** A plaintext client of one service that presents `token` on every call. */
export function tokenClient<S extends Parameters<typeof makeClient>[0]>(
  service: S,
  address: string,
  token: string,
): ReturnType<typeof makeClient<S>> {
  return makeClient(service, address, grpc.credentials.createInsecure(), {
    interceptors: [bearer(token)],
  } as grpc.ChannelOptions);
}
