/**
 * Inputs of the client-port fuzzers: per method a request that changes
 * nothing however its fields are read, and the seeded ways of breaking it.
 */
import { AdminService, BrokerService, ClusterService, type pb, toInt64, v1 } from '@fermata/protocol';
import { status } from '@grpc/grpc-js';
import { grpcFrame } from '../../packages/raft/test/support/raw-grpc.js';
import type { Rng } from '../../packages/raft/test/support/rng.js';

export const MAX_PAYLOAD_BYTES = 4096;
export const MAX_BATCH_PAYLOAD_BYTES = 16_384;
/** What grpc accepts in one message on a node with these limits. */
export const MAX_RECEIVE_BYTES = MAX_BATCH_PAYLOAD_BYTES + 4 * 1024 * 1024;

/** Calls that change state: they never succeed on the fuzzers' inputs. */
export const MUTATING = [
  BrokerService.publish.path,
  AdminService.createTopic.path,
  AdminService.updateTopic.path,
  AdminService.deleteTopic.path,
  AdminService.createGroup.path,
  AdminService.deleteGroup.path,
];

const ILLEGAL_TOPIC = 'no spaces / or slashes ! ? # % ^ & ( )';

type Codec = { encode(m: unknown): { finish(): Uint8Array } };
const enc = (codec: Codec, m: unknown): Buffer => Buffer.from(codec.encode(m).finish());

/**
 * A request per method that changes nothing however its fields are read: it
 * names an illegal topic, a topic that does not exist, or random delivery tags.
 * Membership changes are left out (a flipped AddMember could add a member).
 */
function baseRequests(rng: Rng): Array<{ path: string; body: Buffer }> {
  const tag = () => rng.bytes(24);
  const bad = { topic: ILLEGAL_TOPIC, payload: rng.bytes(rng.int(64)) };
  return [
    { path: BrokerService.publish.path, body: enc(v1.PublishRequest, { messages: [bad, bad] }) },
    {
      path: BrokerService.publishStream.path,
      body: enc(v1.PublishStreamRequest, { sequence: 1, messages: [bad] }),
    },
    {
      path: BrokerService.consume.path,
      body: enc(v1.ConsumeRequest, { subscribe: { topic: ILLEGAL_TOPIC } }),
    },
    { path: BrokerService.consume.path, body: enc(v1.ConsumeRequest, { ack: { tags: [tag(), tag()] } }) },
    { path: BrokerService.ack.path, body: enc(v1.AckRequest, { tags: [tag()] }) },
    { path: BrokerService.nack.path, body: enc(v1.NackRequest, { tag: tag(), delayMs: toInt64(5n) }) },
    { path: BrokerService.extend.path, body: enc(v1.ExtendRequest, { tag: tag(), leaseMs: toInt64(5000n) }) },
    { path: BrokerService.cancel.path, body: enc(v1.CancelRequest, { topic: 'fuzz-none-x', key: 'k' }) },
    {
      path: BrokerService.reschedule.path,
      body: enc(v1.RescheduleRequest, { topic: 'fuzz-none-x', key: 'k' }),
    },
    {
      path: BrokerService.getMessage.path,
      body: enc(v1.GetMessageRequest, { topic: 'fuzz-none-x', key: 'k' }),
    },
    { path: BrokerService.listMessages.path, body: enc(v1.ListMessagesRequest, { topic: 'fuzz-none-x' }) },
    { path: AdminService.createTopic.path, body: enc(v1.CreateTopicRequest, { name: ILLEGAL_TOPIC }) },
    { path: AdminService.updateTopic.path, body: enc(v1.UpdateTopicRequest, { name: ILLEGAL_TOPIC }) },
    { path: AdminService.deleteTopic.path, body: enc(v1.DeleteTopicRequest, { name: ILLEGAL_TOPIC }) },
    { path: AdminService.listTopics.path, body: Buffer.alloc(0) },
    { path: AdminService.getTopicStats.path, body: enc(v1.GetTopicStatsRequest, { topic: 'fuzz-none-x' }) },
    {
      path: AdminService.createGroup.path,
      body: enc(v1.CreateGroupRequest, { topic: ILLEGAL_TOPIC, group: 'g' }),
    },
    {
      path: AdminService.deleteGroup.path,
      body: enc(v1.DeleteGroupRequest, { topic: ILLEGAL_TOPIC, group: 'g' }),
    },
    { path: ClusterService.getClusterInfo.path, body: Buffer.alloc(0) },
    {
      path: ClusterService.transferLeadership.path,
      body: enc(v1.TransferLeadershipRequest, { toId: 'nobody-here' }),
    },
  ];
}

/** A publish with one field certainly out of bounds (and the others random). */
function beyondLimits(rng: Rng): { name: string; body: Buffer } {
  const ok = () => ({ topic: `fuzz-limits-${rng.int(5)}`, payload: rng.bytes(rng.int(32)) });
  const kinds: Array<[string, () => pb.PublishMessage.$Properties]> = [
    ['empty topic', () => ({ ...ok(), topic: '' })],
    ['topic past maxTopicNameBytes', () => ({ ...ok(), topic: 't'.repeat(201 + rng.int(2000)) })],
    ['illegal topic', () => ({ ...ok(), topic: ILLEGAL_TOPIC })],
    [
      'payload past maxPayloadBytes',
      () => ({ ...ok(), payload: rng.bytes(MAX_PAYLOAD_BYTES + 1 + rng.int(100)) }),
    ],
    ['negative delay', () => ({ ...ok(), delayMs: toInt64(BigInt(-1 - rng.int(1e9))) })],
    ['delay past maxDelayMs', () => ({ ...ok(), delayMs: toInt64(10n ** 15n + BigInt(rng.int(1e9))) })],
    ['negative ttl', () => ({ ...ok(), ttlMs: toInt64(BigInt(-1 - rng.int(1e9))) })],
    ['key past maxKeyBytes', () => ({ ...ok(), key: 'k'.repeat(1025 + rng.int(5000)) })],
    [
      'too many headers',
      () => ({
        ...ok(),
        headers: Object.fromEntries(Array.from({ length: 200 + rng.int(300) }, (_, i) => [`h${i}`, 'v'])),
      }),
    ],
    [
      'headers past maxHeadersBytes',
      () => ({ ...ok(), headers: { h: 'v'.repeat(70_000 + rng.int(10_000)) } }),
    ],
  ];
  const [name, make] = rng.pick(kinds);
  // The bad message sits anywhere in a batch of good ones: the whole batch is refused.
  const messages: pb.PublishMessage.$Properties[] = Array.from({ length: 1 + rng.int(4) }, ok);
  messages.splice(rng.int(messages.length + 1), 0, make());
  return { name, body: enc(v1.PublishRequest, { messages }) };
}

function flip(bytes: Buffer, rng: Rng): Buffer {
  const out = Buffer.from(bytes);
  for (let i = 1 + rng.int(4); i > 0 && out.length > 0; i--) {
    const at = rng.int(out.length);
    out[at] = (out[at] as number) ^ (1 << rng.int(8));
  }
  return out;
}

export interface Case {
  readonly name: string;
  readonly path: string;
  readonly body: Buffer;
  readonly headers?: Record<string, string>;
  /** Statuses this case may end with (undefined: any non-OK status or a reset). */
  readonly expect?: readonly number[];
}

export function nextCase(rng: Rng): Case {
  const base = rng.pick(baseRequests(rng));
  const path = base.path;
  switch (rng.int(12)) {
    case 0:
      return { name: 'random bytes', path, body: grpcFrame(rng.bytes(rng.int(3000))) };
    case 1:
      return { name: 'unframed bytes', path, body: rng.bytes(1 + rng.int(4)) };
    case 2:
      return {
        name: 'truncated request',
        path,
        body: grpcFrame(base.body.subarray(0, rng.int(base.body.length + 1))),
      };
    case 3:
      return {
        name: 'length prefix past the bytes sent',
        path,
        body: grpcFrame(base.body, { length: base.body.length + 1 + rng.int(4096) }),
      };
    case 4:
      return {
        name: 'huge length prefix',
        path,
        body: grpcFrame(base.body, { length: 0xffff_ff00 }),
        expect: [status.RESOURCE_EXHAUSTED],
      };
    case 5:
    case 6:
      return { name: 'bit flips', path, body: grpcFrame(flip(base.body, rng)) };
    case 7: {
      const wire = rng.pick([0, 1, 2, 5]);
      const tag = ((1 + rng.int(8)) << 3) | wire;
      return {
        name: 'wrong wire types',
        path,
        body: grpcFrame(Buffer.concat([Buffer.from([tag]), rng.bytes(1 + rng.int(24)), base.body])),
      };
    }
    case 8:
      return {
        name: 'compressed flag without an encoding',
        path,
        body: grpcFrame(base.body, { compressed: true }),
      };
    case 9:
      return {
        name: 'oversized metadata',
        path,
        body: grpcFrame(base.body),
        headers: {
          'x-fuzz': 'y'.repeat(16 * 1024 + rng.int(96 * 1024)),
          authorization: `Bearer ${'z'.repeat(rng.int(9000))}`,
        },
      };
    case 10: {
      const b = beyondLimits(rng);
      return {
        name: `publish: ${b.name}`,
        path: BrokerService.publish.path,
        body: grpcFrame(b.body),
        expect: [status.INVALID_ARGUMENT, status.RESOURCE_EXHAUSTED],
      };
    }
    default:
      return {
        name: 'unknown method',
        path: `/fermata.v1.Broker/Nope${rng.int(9)}`,
        body: grpcFrame(base.body),
        expect: [status.UNIMPLEMENTED],
      };
  }
}
