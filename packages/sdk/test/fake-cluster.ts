// A small, controllable stand-in for a Fermata cluster, built from the real
// service definitions and served over real sockets. It stands in for the
// cluster, not for the SDK under test: the SDK's discovery, redirects, retries,
// batching and consumer flow run unchanged against it.

import {
  type AdminHandlers,
  AdminService,
  type BrokerHandlers,
  BrokerService,
  type ClusterHandlers,
  ClusterService,
  type pb,
  toBigInt,
  toInt64,
  toUint64,
  v1,
} from '@fermata/protocol';
import * as grpc from '@grpc/grpc-js';

type Status = { code: number; details: string; metadata?: grpc.Metadata };

export interface StoredMessage {
  id: bigint;
  topic: string;
  key: string;
  payload: Uint8Array;
  headers: Record<string, string>;
  delayMs: bigint | undefined;
  deliverAtMs: bigint | undefined;
}

export interface ConsumerStream {
  node: FakeNode;
  call: grpc.ServerDuplexStream<pb.ConsumeRequest, pb.ConsumeResponse.$Properties>;
  subscribe: pb.Subscribe.$Properties | undefined;
  window: number;
  unsettled: Set<string>;
  requests: pb.ConsumeRequest[];
  ended: boolean;
}

export interface Settled {
  kind: 'ack' | 'nack' | 'extend';
  tag: string;
  via: 'stream' | 'unary';
  node: string;
  delayMs?: number;
  leaseMs?: number;
}

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
export const tagOf = (text: string) => Buffer.from(text, 'utf8');
export const tagText = (hexTag: string) => Buffer.from(hexTag, 'hex').toString('utf8');

export class FakeNode {
  readonly server = new grpc.Server();
  address = '';
  /** Overrides what this node says in GetClusterInfo (e.g. a stale leader); undefined = the truth. */
  claimedLeader: string | undefined;
  /** Calls by method name, as received (before any leader check). */
  readonly calls: string[] = [];
  readonly metadata: grpc.Metadata[] = [];
  /** GetClusterInfo requests, as received. */
  readonly infoRequests: pb.GetClusterInfoRequest[] = [];

  constructor(
    readonly id: string,
    readonly cluster: FakeCluster,
  ) {}
}

export class FakeCluster {
  readonly nodes: FakeNode[] = [];
  leaderId: string | undefined;
  readonly stored: StoredMessage[] = [];
  /** The idempotency key of every publish request received ('' = none), in order. */
  readonly requestKeys: string[] = [];
  private readonly requests = new Map<string, pb.PublishResult.$Properties[]>();
  private nextId = 1n;
  /** Message count of every Publish / PublishStream request the leader accepted. */
  readonly publishSizes: number[] = [];
  readonly streamSizes: number[] = [];
  /** PublishStream batches a follower refused. */
  refusedBatches = 0;
  /** Errors the next Publish calls answer with, after storing (lost responses). */
  failPublishAfterStore: Status[] = [];
  /** When set, the leader holds PublishStream responses until released. */
  holdStreamResponses = false;
  private held: Array<() => void> = [];
  readonly consumers: ConsumerStream[] = [];
  readonly settled: Settled[] = [];
  /** Tags (text) whose settle answers LEASE_EXPIRED. */
  readonly expiredTags = new Set<string>();
  readonly queue: pb.Delivery.$Properties[] = [];
  subscribedLeaseMs = 30_000;
  /** When it returns an error, the leader refuses that PublishStream batch with it (storing nothing). */
  publishStreamError:
    | ((messages: pb.PublishMessage.$Properties[]) => pb.ErrorStatus.$Properties | undefined)
    | undefined;
  /** Handlers that replace the default for one Broker method. */
  brokerOverrides: Partial<BrokerHandlers> = {};
  readonly topics = new Map<string, pb.Topic.$Properties>();
  /** Every UpdateTopic request, as received. */
  readonly topicUpdates: pb.UpdateTopicRequest[] = [];
  readonly groupUpdates: pb.UpdateGroupRequest[] = [];

  static async start(
    n: number,
    leader = 0,
    credentials: grpc.ServerCredentials = grpc.ServerCredentials.createInsecure(),
  ): Promise<FakeCluster> {
    const c = new FakeCluster();
    for (let i = 0; i < n; i++) {
      const node = new FakeNode(`n${i + 1}`, c);
      node.server.addService(BrokerService, c.brokerHandlers(node) as grpc.UntypedServiceImplementation);
      node.server.addService(ClusterService, c.clusterHandlers(node) as grpc.UntypedServiceImplementation);
      node.server.addService(AdminService, c.adminHandlers(node) as grpc.UntypedServiceImplementation);
      const port = await new Promise<number>((ok, fail) =>
        node.server.bindAsync('127.0.0.1:0', credentials, (err, p) => (err ? fail(err) : ok(p))),
      );
      node.address = `127.0.0.1:${port}`;
      c.nodes.push(node);
    }
    c.leaderId = leader >= 0 ? c.nodes[leader]!.id : undefined;
    return c;
  }

  node(id: string): FakeNode {
    const n = this.nodes.find((x) => x.id === id);
    if (!n) throw new Error(`no node ${id}`);
    return n;
  }

  get leader(): FakeNode | undefined {
    return this.leaderId === undefined ? undefined : this.node(this.leaderId);
  }

  get endpoints(): string[] {
    return this.nodes.map((n) => n.address);
  }

  /** Moves leadership; streams on the old leader end with UNAVAILABLE naming the new one. */
  failover(to: string | undefined): void {
    const old = this.leaderId;
    this.leaderId = to;
    for (const s of this.consumers) {
      if (!s.ended && s.node.id === old) {
        s.ended = true;
        s.call.emit('error', this.notLeader(grpc.status.UNAVAILABLE));
      }
    }
    for (const end of this.publishStreamEnders.splice(0)) end();
  }

  private publishStreamEnders: Array<() => void> = [];

  releaseHeld(): void {
    for (const r of this.held.splice(0)) r();
  }

  get heldCount(): number {
    return this.held.length;
  }

  /** Queues a delivery for the consumers of `topic`. */
  enqueue(topic: string, text: string, opts: { attempt?: number; tag?: string } = {}): string {
    const id = this.nextId++;
    const tag = opts.tag ?? `tag-${id}`;
    this.queue.push({
      tag: tagOf(tag),
      id: toUint64(id),
      topic,
      group: 'default',
      payload: Buffer.from(text),
      headers: { h: 'v' },
      key: `k${id}`,
      dueAtMs: toInt64(1000n),
      enqueuedAtMs: toInt64(900n),
      attempt: opts.attempt ?? 1,
      leaseExpiresAtMs: toInt64(BigInt(Date.now() + this.subscribedLeaseMs)),
    });
    this.pump();
    return tag;
  }

  /** Sends queued deliveries to subscribed streams on the leader, within each window. */
  pump(): void {
    for (const s of this.consumers) {
      if (s.ended || s.subscribe === undefined || s.node.id !== this.leaderId) continue;
      const batch: pb.Delivery.$Properties[] = [];
      while (s.unsettled.size + batch.length < s.window) {
        const i = this.queue.findIndex((d) => d.topic === s.subscribe!.topic);
        if (i < 0) break;
        batch.push(this.queue.splice(i, 1)[0]!);
      }
      for (const d of batch) s.unsettled.add(hex(d.tag!));
      if (batch.length > 0) s.call.write({ deliveries: { deliveries: batch } });
    }
  }

  liveConsumers(): ConsumerStream[] {
    return this.consumers.filter((s) => !s.ended);
  }

  notLeader(code = grpc.status.FAILED_PRECONDITION): Status {
    const leader = this.leader;
    const metadata = new grpc.Metadata();
    if (leader === undefined) {
      return { code: grpc.status.UNAVAILABLE, details: 'not leader; no leader known', metadata };
    }
    metadata.set('fermata-leader', leader.address);
    return { code, details: `not leader; leader is ${leader.id} at ${leader.address}`, metadata };
  }

  /** Like the broker's request dedup: a request key seen before answers the first results, deduplicated. */
  private store(
    messages: pb.PublishMessage.$Properties[],
    idempotencyKey: string | null | undefined,
  ): pb.PublishResult.$Properties[] {
    this.requestKeys.push(idempotencyKey ?? '');
    const earlier = idempotencyKey ? this.requests.get(idempotencyKey) : undefined;
    if (earlier) return earlier.map((r) => ({ ...r, deduplicated: true }));
    const results = this.storeMessages(messages);
    if (idempotencyKey) this.requests.set(idempotencyKey, results);
    return results;
  }

  private storeMessages(messages: pb.PublishMessage.$Properties[]): pb.PublishResult.$Properties[] {
    return messages.map((m) => {
      const existing = m.key ? this.stored.find((s) => s.topic === m.topic && s.key === m.key) : undefined;
      if (existing) return { id: toUint64(existing.id), deduplicated: true, dueAtMs: toInt64(0n) };
      const id = this.nextId++;
      this.stored.push({
        id,
        topic: m.topic ?? '',
        key: m.key ?? '',
        payload: m.payload ?? new Uint8Array(0),
        headers: { ...(m.headers ?? {}) },
        delayMs: m.delayMs == null ? undefined : toBigInt(m.delayMs),
        deliverAtMs: m.deliverAtMs == null ? undefined : toBigInt(m.deliverAtMs),
      });
      return { id: toUint64(id), deduplicated: false, dueAtMs: toInt64(12_345n) };
    });
  }

  private settle(
    node: FakeNode,
    via: 'stream' | 'unary',
    kind: Settled['kind'],
    tag: Uint8Array,
    extra: { delayMs?: number; leaseMs?: number } = {},
  ): pb.SettleOutcome.$Properties {
    const h = hex(tag);
    this.settled.push({ kind, tag: tagText(h), via, node: node.id, ...extra });
    if (this.expiredTags.has(tagText(h))) {
      return { tag, status: v1.SettleStatus.SETTLE_STATUS_LEASE_EXPIRED };
    }
    for (const s of this.consumers) {
      if (!s.unsettled.delete(h)) continue;
      if (kind === 'extend') s.unsettled.add(hex(tagOf(`${tagText(h)}+`)));
    }
    if (kind === 'extend') {
      return {
        tag,
        status: v1.SettleStatus.SETTLE_STATUS_OK,
        newTag: tagOf(`${tagText(h)}+`),
        dueAtMs: toInt64(BigInt(Date.now() + (extra.leaseMs ?? 0))),
      };
    }
    return { tag, status: v1.SettleStatus.SETTLE_STATUS_OK };
  }

  private clusterHandlers(node: FakeNode): Partial<ClusterHandlers> {
    return {
      getClusterInfo: (call, cb) => {
        node.calls.push('getClusterInfo');
        node.metadata.push(call.metadata);
        node.infoRequests.push(call.request);
        const leaderAddress = node.claimedLeader ?? this.leader?.address ?? '';
        cb(null, {
          clusterId: 'fake',
          nodeId: node.id,
          leaderId: this.leaderId ?? '',
          leaderAddress,
          term: toUint64(7n),
          commitIndex: toUint64(100n),
          appliedIndex: toUint64(99n),
          members: this.nodes.map((n) => ({
            id: n.id,
            address: n.address,
            peerAddress: `${n.address}-peer`,
            role:
              n.id === this.leaderId ? v1.MemberRole.MEMBER_ROLE_LEADER : v1.MemberRole.MEMBER_ROLE_FOLLOWER,
            voter: true,
            matchIndex: toUint64(99n),
            lag: toUint64(n.id === this.leaderId ? 0n : 1n),
          })),
        });
      },
      transferLeadership: (call, cb) => {
        if (node.id !== this.leaderId) return cb(this.notLeader());
        const to = call.request.toId || this.nodes.find((n) => n.id !== node.id)!.id;
        this.leaderId = to;
        cb(null, { leaderId: to });
      },
    };
  }

  private adminHandlers(node: FakeNode): Partial<AdminHandlers> {
    const guard = (name: string): Status | null => {
      node.calls.push(name);
      return node.id === this.leaderId ? null : this.notLeader();
    };
    const missing = (name: string): Status => ({
      code: grpc.status.NOT_FOUND,
      details: `topic ${name} not found`,
    });
    return {
      createTopic: (call, cb) => {
        const refused = guard('createTopic');
        if (refused) return cb(refused);
        const { name, settings } = call.request;
        if (this.topics.has(name))
          return cb({ code: grpc.status.ALREADY_EXISTS, details: `topic ${name} exists` });
        const topic = { name, settings, groups: ['default'], createdAtMs: toInt64(5n) };
        this.topics.set(name, topic);
        cb(null, { topic });
      },
      updateTopic: (call, cb) => {
        const refused = guard('updateTopic');
        if (refused) return cb(refused);
        this.topicUpdates.push(call.request);
        const topic = this.topics.get(call.request.name);
        if (!topic) return cb(missing(call.request.name));
        cb(null, { topic });
      },
      deleteTopic: (call, cb) => {
        const refused = guard('deleteTopic');
        if (refused) return cb(refused);
        if (!this.topics.delete(call.request.name)) return cb(missing(call.request.name));
        cb(null, { removedMessages: toUint64(3n) });
      },
      listTopics: (_call, cb) => {
        const refused = guard('listTopics');
        if (refused) return cb(refused);
        cb(null, { topics: [...this.topics.values()] });
      },
      getTopicStats: (call, cb) => {
        const refused = guard('getTopicStats');
        if (refused) return cb(refused);
        cb(null, {
          topic: call.request.topic,
          groups: [
            {
              group: 'default',
              pending: toUint64(4n),
              inFlight: toUint64(2n),
              deadLettered: toUint64(1n),
              nextDueMs: toInt64(77n),
              settings: { maxDeliveriesPerSecond: 100, burst: 100, ordering: 2, paused: true },
              paused: true,
              throttled: toUint64(6n),
            },
            {
              group: 'audit',
              pending: toUint64(0n),
              inFlight: toUint64(0n),
              deadLettered: toUint64(0n),
              nextDueMs: toInt64(0n),
            },
          ],
          deletions: [
            {
              group: 'audit',
              startedAtMs: toInt64(50n),
              entriesAtStart: toUint64(9n),
              removedEntries: toUint64(3n),
              removedRecords: toUint64(1n),
            },
          ],
        });
      },
      createGroup: (call, cb) => {
        const refused = guard('createGroup');
        if (refused) return cb(refused);
        const topic = this.topics.get(call.request.topic);
        if (!topic) return cb(missing(call.request.topic));
        topic.groups = [...(topic.groups ?? []), call.request.group];
        topic.groupSettings = { ...topic.groupSettings, [call.request.group]: call.request.settings ?? {} };
        cb(null, { topic });
      },
      updateGroup: (call, cb) => {
        const refused = guard('updateGroup');
        if (refused) return cb(refused);
        this.groupUpdates.push(call.request);
        const topic = this.topics.get(call.request.topic);
        if (!topic) return cb(missing(call.request.topic));
        topic.groupSettings = { ...topic.groupSettings, [call.request.group]: call.request.settings ?? {} };
        cb(null, { topic });
      },
      deleteGroup: (_call, cb) => {
        const refused = guard('deleteGroup');
        if (refused) return cb(refused);
        cb(null, { removedMessages: toUint64(0n) });
      },
    };
  }

  private brokerHandlers(node: FakeNode): Partial<BrokerHandlers> {
    const guard = (name: string, md: grpc.Metadata): Status | null => {
      node.calls.push(name);
      node.metadata.push(md);
      return node.id === this.leaderId ? null : this.notLeader();
    };
    return {
      publish: (call, cb) => {
        const refused = guard('publish', call.metadata);
        if (refused) return cb(refused);
        const override = this.brokerOverrides.publish;
        if (override) return override(call, cb);
        this.publishSizes.push(call.request.messages.length);
        const results = this.store(call.request.messages, call.request.idempotencyKey);
        const fail = this.failPublishAfterStore.shift();
        if (fail) return cb(fail);
        cb(null, { results });
      },
      publishStream: (call) => {
        const refused = guard('publishStream', call.metadata);
        if (refused) {
          // Like the broker: a follower refuses each batch in the stream, naming the leader.
          call.on('data', (req: pb.PublishStreamRequest) => {
            this.refusedBatches++;
            const leader = this.leader;
            call.write({
              sequence: req.sequence,
              error: { code: refused.code, message: refused.details, leaderAddress: leader?.address ?? '' },
            });
          });
          call.on('end', () => call.end());
          return;
        }
        if (this.brokerOverrides.publishStream) return this.brokerOverrides.publishStream(call);
        let ended = false;
        this.publishStreamEnders.push(() => {
          if (ended) return;
          ended = true;
          call.emit('error', this.notLeader(grpc.status.UNAVAILABLE));
        });
        call.on('data', (req: pb.PublishStreamRequest) => {
          if (ended) return;
          this.streamSizes.push(req.messages.length);
          const error = this.publishStreamError?.(req.messages);
          if (error) {
            call.write({ sequence: req.sequence, error });
            return;
          }
          const results = this.store(req.messages, req.idempotencyKey);
          const answer = () => {
            if (!ended) call.write({ sequence: req.sequence, results });
          };
          if (this.holdStreamResponses) this.held.push(answer);
          else answer();
        });
        call.on('end', () => {
          if (!ended) {
            ended = true;
            call.end();
          }
        });
      },
      consume: (call) => {
        const refused = guard('consume', call.metadata);
        if (refused) {
          call.emit('error', refused);
          return;
        }
        if (this.brokerOverrides.consume) return this.brokerOverrides.consume(call);
        const s: ConsumerStream = {
          node,
          call,
          subscribe: undefined,
          window: 0,
          unsettled: new Set(),
          requests: [],
          ended: false,
        };
        this.consumers.push(s);
        call.on('data', (req: pb.ConsumeRequest) => {
          if (s.ended) return;
          s.requests.push(req);
          if (req.subscribe) {
            s.subscribe = req.subscribe;
            s.window = req.subscribe.prefetch || 10;
            call.write({
              subscribed: {
                topic: req.subscribe.topic,
                group: req.subscribe.group || 'default',
                prefetch: s.window,
                leaseMs: toInt64(BigInt(this.subscribedLeaseMs)),
              },
            });
          } else if (req.credit) {
            s.window = req.credit.n ?? 0;
          } else if (req.ack) {
            const outcomes = (req.ack.tags ?? []).map((t) => this.settle(node, 'stream', 'ack', t));
            call.write({ result: { requestId: req.ack.requestId, outcomes } });
          } else if (req.nack) {
            const o = this.settle(node, 'stream', 'nack', req.nack.tag!, {
              delayMs: Number(toBigInt(req.nack.delayMs)),
            });
            call.write({ result: { requestId: req.nack.requestId, outcomes: [o] } });
          } else if (req.extend) {
            const o = this.settle(node, 'stream', 'extend', req.extend.tag!, {
              leaseMs: Number(toBigInt(req.extend.leaseMs)),
            });
            call.write({ result: { requestId: req.extend.requestId, outcomes: [o] } });
          }
          this.pump();
        });
        call.on('end', () => {
          if (!s.ended) {
            s.ended = true;
            call.end();
          }
        });
        call.on('cancelled', () => {
          s.ended = true;
        });
      },
      ack: (call, cb) => {
        const refused = guard('ack', call.metadata);
        if (refused) return cb(refused);
        cb(null, { outcomes: call.request.tags.map((t) => this.settle(node, 'unary', 'ack', t)) });
        this.pump();
      },
      nack: (call, cb) => {
        const refused = guard('nack', call.metadata);
        if (refused) return cb(refused);
        cb(null, {
          outcome: this.settle(node, 'unary', 'nack', call.request.tag, {
            delayMs: Number(toBigInt(call.request.delayMs)),
          }),
        });
      },
      extend: (call, cb) => {
        const refused = guard('extend', call.metadata);
        if (refused) return cb(refused);
        cb(null, {
          outcome: this.settle(node, 'unary', 'extend', call.request.tag, {
            leaseMs: Number(toBigInt(call.request.leaseMs)),
          }),
        });
      },
      cancel: (call, cb) => {
        const refused = guard('cancel', call.metadata);
        if (refused) return cb(refused);
        const r = call.request;
        const found = this.stored.find(
          (m) => m.topic === r.topic && (r.key ? m.key === r.key : r.id != null && m.id === toBigInt(r.id)),
        );
        cb(null, {
          status: found ? v1.CancelStatus.CANCEL_STATUS_CANCELLED : v1.CancelStatus.CANCEL_STATUS_NOT_FOUND,
          id: toUint64(found?.id ?? 0n),
        });
      },
      getMessage: (call, cb) => {
        const refused = guard('getMessage', call.metadata);
        if (refused) return cb(refused);
        const r = call.request;
        const m = this.stored.find((x) => x.topic === r.topic && r.id != null && x.id === toBigInt(r.id));
        if (!m) return cb({ code: grpc.status.NOT_FOUND, details: `message ${toBigInt(r.id)} not found` });
        cb(null, {
          message: { id: toUint64(m.id), topic: m.topic, payload: m.payload, headers: m.headers, key: m.key },
          groups: [{ group: 'default', state: v1.MessageState.MESSAGE_STATE_PENDING, attempt: 0 }],
        });
      },
      listMessages: (call, cb) => {
        const refused = guard('listMessages', call.metadata);
        if (refused) return cb(refused);
        const all = this.stored.filter((m) => m.topic === call.request.topic);
        const start = call.request.pageToken.byteLength
          ? Number(Buffer.from(call.request.pageToken).toString())
          : 0;
        const limit = call.request.limit || 2;
        const page = all.slice(start, start + limit);
        const next = start + limit < all.length ? Buffer.from(String(start + limit)) : Buffer.alloc(0);
        cb(null, {
          messages: page.map((m) => ({
            message: { id: toUint64(m.id), topic: m.topic, payload: m.payload, key: m.key },
            state: v1.MessageState.MESSAGE_STATE_PENDING,
            attempt: 0,
          })),
          nextPageToken: next,
        });
      },
    };
  }

  async stop(): Promise<void> {
    for (const s of this.consumers) s.ended = true;
    for (const n of this.nodes) n.server.forceShutdown();
  }
}

/** Polls `cond` every 5 ms until it holds (liveness only; the test's timeout bounds it). */
export async function until(cond: () => boolean, what = 'condition'): Promise<void> {
  const started = Date.now();
  while (!cond()) {
    if (Date.now() - started > 10_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

export function deferred<T = void>(): {
  promise: Promise<T>;
  resolve: (v: T) => void;
  reject: (e: unknown) => void;
} {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((a, b) => {
    resolve = a;
    reject = b;
  });
  return { promise, resolve, reject };
}
