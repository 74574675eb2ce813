import { LimitError as RaftLogLimitError } from '@fermata/base';
import { BrokerService, makeClient, type pb } from '@fermata/protocol';
import {
  ConfChangeInProgressError,
  InvalidConfChangeError,
  NodeClosedError,
  NodeTimeoutError,
  NotLeaderError,
  ProposalDroppedError,
} from '@fermata/raft';
import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RefusedByConfigError, UnavailableError } from '../src/server/errors.js';
import {
  classifyError,
  LEADER_ID_METADATA_KEY,
  LEADER_METADATA_KEY,
  toErrorStatus,
  toGrpcStatus,
} from '../src/server/grpc-status.js';
import {
  AlreadyExistsError,
  ConflictError,
  LeaderNotReadyError,
  LimitError,
  NotFoundError,
  ValidationError,
} from '../src/state/model/errors.js';
import { EventRepository } from '../src/state/stores/event-repository.js';

/** An error that is not raft's class but has its name and `leader`: the mapping accepts it too. */
class ForeignNotLeader extends Error {
  override readonly name = 'NotLeaderError';
  constructor(readonly leader: string) {
    super('not the leader');
  }
}

const addresses: Record<string, string> = { n2: '10.0.0.2:7400' };
const internalLog: { err: unknown; ref: string }[] = [];
const options = {
  leaderAddress: (id: string) => addresses[id],
  onInternal: (err: unknown, ref: string) => internalLog.push({ err, ref }),
};

// The error each test provokes, chosen by the topic of the request's first message.
const errors: Record<string, () => unknown> = {
  validation: () => new ValidationError('messages[3].topic', 'topic name is empty'),
  payload: () => new LimitError('maxPayloadBytes', 1_048_576, 2_000_000, 'messages[0].payload'),
  delay: () => new LimitError('maxDelayMs', 63_072_000_000, 10 ** 12, 'messages[0].delay_ms'),
  notFound: () => new NotFoundError('topic', 'orders'),
  exists: () => new AlreadyExistsError('topic', 'orders'),
  conflict: () => new ConflictError('not-empty', 'group "g" still holds messages'),
  notLeader: () => new NotLeaderError('n2'),
  notLeaderUnknownAddress: () => new NotLeaderError('n9'),
  noLeader: () => new NotLeaderError(''),
  bug: () => new TypeError('Cannot read properties of undefined (reading "x") at /srv/secret/path.ts:12'),
  thrownString: () => 'just a string',
};

let server: grpc.Server;
let client: ReturnType<typeof makeClient<'Broker'>>;

beforeAll(async () => {
  server = new grpc.Server();
  server.addService(BrokerService, {
    publish: (
      call: grpc.ServerUnaryCall<pb.PublishRequest, unknown>,
      callback: grpc.sendUnaryData<never>,
    ) => {
      const make = errors[call.request.messages[0]?.topic ?? ''];
      callback(toGrpcStatus(make ? make() : new Error('no such case'), options));
    },
    consume: (call: grpc.ServerDuplexStream<pb.ConsumeRequest, unknown>) => {
      call.once('data', () => call.emit('error', toGrpcStatus(new NotLeaderError('n2'), options)));
    },
  } as unknown as grpc.UntypedServiceImplementation);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (e, p) =>
      e ? reject(e) : resolve(p),
    ),
  );
  client = makeClient('Broker', `127.0.0.1:${port}`);
});

afterAll(async () => {
  client.close();
  await new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
});

function publishError(topic: string): Promise<grpc.ServiceError> {
  return new Promise((resolve, reject) =>
    client.publish({ messages: [{ topic }] }, (err) =>
      err ? resolve(err) : reject(new Error('expected an error')),
    ),
  );
}

describe('typed errors become precise gRPC statuses over a real call', () => {
  it('a validation error is INVALID_ARGUMENT naming the field', async () => {
    const err = await publishError('validation');
    expect(err.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(err.details).toBe('messages[3].topic: topic name is empty');
    expect(err.metadata.get('fermata-field')).toEqual(['messages[3].topic']);
  });

  it('a resource limit is RESOURCE_EXHAUSTED naming the limit and the field', async () => {
    const err = await publishError('payload');
    expect(err.code).toBe(grpc.status.RESOURCE_EXHAUSTED);
    expect(err.details).toBe('messages[0].payload: 2000000 exceeds the limit maxPayloadBytes = 1048576');
    expect(err.metadata.get('fermata-limit')).toEqual(['maxPayloadBytes']);
  });

  it('a delay past the maximum is INVALID_ARGUMENT naming the field and the limit', async () => {
    const err = await publishError('delay');
    expect(err.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(err.details).toContain('messages[0].delay_ms');
    expect(err.details).toContain('maxDelayMs');
  });

  it('not found, already exists and conflicts map to NOT_FOUND, ALREADY_EXISTS and FAILED_PRECONDITION', async () => {
    expect(await publishError('notFound')).toMatchObject({
      code: grpc.status.NOT_FOUND,
      details: 'topic "orders" not found',
    });
    expect((await publishError('exists')).code).toBe(grpc.status.ALREADY_EXISTS);
    expect(await publishError('conflict')).toMatchObject({
      code: grpc.status.FAILED_PRECONDITION,
      details: 'group "g" still holds messages',
    });
  });

  it('not leader is FAILED_PRECONDITION naming the leader, with its client address in trailing metadata', async () => {
    const err = await publishError('notLeader');
    expect(err.code).toBe(grpc.status.FAILED_PRECONDITION);
    expect(err.details).toBe('not leader; leader is n2 at 10.0.0.2:7400');
    expect(err.metadata.get(LEADER_METADATA_KEY)).toEqual(['10.0.0.2:7400']);
    expect(err.metadata.get(LEADER_ID_METADATA_KEY)).toEqual(['n2']);
  });

  it('not leader with a leader whose address is unknown names the leader and sends no address', async () => {
    const err = await publishError('notLeaderUnknownAddress');
    expect(err.code).toBe(grpc.status.FAILED_PRECONDITION);
    expect(err.details).toBe('not leader; leader is n9 (address unknown)');
    expect(err.metadata.get(LEADER_METADATA_KEY)).toEqual([]);
  });

  it('no known leader is UNAVAILABLE', async () => {
    const err = await publishError('noLeader');
    expect(err.code).toBe(grpc.status.UNAVAILABLE);
    expect(err.details).toBe('not leader; no leader is known (election in progress), retry');
  });

  it('anything else is INTERNAL with a reference, never the message or stack of the cause', async () => {
    internalLog.length = 0;
    const err = await publishError('bug');
    expect(err.code).toBe(grpc.status.INTERNAL);
    expect(err.details).toMatch(/^internal error \(ref [0-9a-f]{8}\)$/);
    expect(err.details).not.toContain('secret');
    expect(err.metadata.getMap()).not.toHaveProperty('grpc-status-details-bin');
    expect(internalLog).toHaveLength(1);
    expect(err.details).toContain(internalLog[0]!.ref);
    expect((internalLog[0]!.err as Error).message).toContain('/srv/secret/path.ts');
    expect((await publishError('thrownString')).code).toBe(grpc.status.INTERNAL);
  });

  it('a stream ended with a not-leader status carries the leader metadata to the client', async () => {
    const call = client.consume();
    const status = await new Promise<grpc.StatusObject>((resolve) => {
      call.on('status', resolve);
      call.on('error', () => {});
      call.on('data', () => {});
      call.write({ subscribe: { topic: 't', group: 'default', prefetch: 1 } });
    });
    expect(status.code).toBe(grpc.status.FAILED_PRECONDITION);
    expect(status.details).toBe('not leader; leader is n2 at 10.0.0.2:7400');
    expect(status.metadata.get(LEADER_METADATA_KEY)).toEqual(['10.0.0.2:7400']);
  });
});

describe('the same mapping in other shapes', () => {
  it('an error carrying its own leaderAddress does not need the resolver', () => {
    const err = Object.assign(new ForeignNotLeader('n3'), { leaderAddress: 'h3:7400' });
    expect(classifyError(err)).toEqual({
      code: grpc.status.FAILED_PRECONDITION,
      message: 'not leader; leader is n3 at h3:7400',
      leaderId: 'n3',
      leaderAddress: 'h3:7400',
    });
  });

  it('toErrorStatus fills fermata.v1.ErrorStatus: field (or limit) and leader address', () => {
    expect(toErrorStatus(errors['validation']!())).toEqual({
      code: grpc.status.INVALID_ARGUMENT,
      message: 'messages[3].topic: topic name is empty',
      field: 'messages[3].topic',
      leaderAddress: '',
    });
    expect(toErrorStatus(new NotLeaderError('n2'), options)).toMatchObject({
      code: grpc.status.FAILED_PRECONDITION,
      leaderAddress: '10.0.0.2:7400',
    });
  });

  it("raft's limit and membership errors keep their meaning", () => {
    const limit = new RaftLogLimitError('maxUncommittedBytes', 1_000, 2_000);
    expect(classifyError(limit)).toMatchObject({
      code: grpc.status.RESOURCE_EXHAUSTED,
      limit: 'maxUncommittedBytes',
    });
    const entry = new RaftLogLimitError('maxEntryBytes', 100, 200);
    expect(classifyError(entry)).toMatchObject({
      code: grpc.status.RESOURCE_EXHAUSTED,
      limit: 'maxEntryBytes',
    });
    const conf = new ConfChangeInProgressError('a change is in progress');
    expect(classifyError(conf).code).toBe(grpc.status.FAILED_PRECONDITION);
  });

  it("raft's NotLeaderError class and look-alikes are both recognised", () => {
    expect(classifyError(new NotLeaderError('n2'), options).message).toBe(
      'not leader; leader is n2 at 10.0.0.2:7400',
    );
    expect(classifyError(new ForeignNotLeader('')).code).toBe(grpc.status.UNAVAILABLE);
  });

  it('a leader that has not applied an entry of its term yet is UNAVAILABLE (retry), not INTERNAL', () => {
    expect(classifyError(new LeaderNotReadyError())).toEqual({
      code: grpc.status.UNAVAILABLE,
      message: 'leader is not ready yet; retry',
    });
  });

  it('ids asked of a leader before its first entry: the same error, UNAVAILABLE', () => {
    const ids = new EventRepository(0n);
    ids.beginLeadership(3);
    let thrown: unknown;
    try {
      ids.nextIds(1);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(LeaderNotReadyError);
    expect(classifyError(thrown)).toEqual({
      code: grpc.status.UNAVAILABLE,
      message: 'leader of term 3 has not applied an entry of its term yet',
    });
  });

  it("the server's and raft's typed refusals each have their status; none is INTERNAL", () => {
    const internal = { onInternal: () => {} };
    expect(classifyError(new ProposalDroppedError('overwritten', true, 5, 2, 'x'), internal)).toEqual({
      code: grpc.status.UNAVAILABLE,
      message: 'not applied (overwritten); retry',
    });
    expect(classifyError(new ProposalDroppedError('leadership-lost', false, 5, 2, 'x'), internal)).toEqual({
      code: grpc.status.UNAVAILABLE,
      message:
        'outcome unknown (leadership-lost): it may have been applied; retry (a message key deduplicates a retried publish)',
    });
    expect(classifyError(new NodeClosedError('closed'), internal)).toEqual({
      code: grpc.status.UNAVAILABLE,
      message: 'node is shutting down; retry on another node',
    });
    const shutting = new UnavailableError('server is shutting down; reconnect to another node');
    expect(classifyError(shutting, internal)).toEqual({
      code: grpc.status.UNAVAILABLE,
      message: 'server is shutting down; reconnect to another node',
    });
    expect(classifyError(new RefusedByConfigError('durability: refused'), internal).code).toBe(
      grpc.status.FAILED_PRECONDITION,
    );
    expect(classifyError(new NodeTimeoutError('timed out waiting for x'), internal).code).toBe(
      grpc.status.DEADLINE_EXCEEDED,
    );
    expect(classifyError(new InvalidConfChangeError('not a voter'), internal).code).toBe(
      grpc.status.FAILED_PRECONDITION,
    );
    const gone = new NotFoundError(
      'message',
      't',
      undefined,
      'message not found in topic "t" (unknown, or it has ended)',
    );
    expect(classifyError(gone, internal)).toEqual({
      code: grpc.status.NOT_FOUND,
      message: 'message not found in topic "t" (unknown, or it has ended)',
    });
  });

  it('a status from elsewhere (another node, grpc-js) passes through', () => {
    expect(classifyError({ code: grpc.status.DEADLINE_EXCEEDED, details: 'too slow' })).toEqual({
      code: grpc.status.DEADLINE_EXCEEDED,
      message: 'too slow',
    });
    // Node system errors have string codes: they are not statuses.
    const sys = Object.assign(new Error('EIO'), { code: 'EIO', details: 'x' });
    expect(classifyError(sys, { onInternal: () => {} }).code).toBe(grpc.status.INTERNAL);
  });
});
