import * as grpc from '@grpc/grpc-js';
import { afterEach, describe, expect, it } from 'vitest';
import { errorFromStatus, toFermataError } from '../src/errors.js';
import {
  AlreadyExistsError,
  DeadlineExceededError,
  FermataClient,
  FermataError,
  InvalidArgumentError,
  LimitError,
  NotFoundError,
  NotLeaderError,
  PermissionDeniedError,
  StatusCode,
  UnauthenticatedError,
  UnavailableError,
} from '../src/index.js';
import { FakeCluster } from './fake-cluster.js';

describe('error mapping', () => {
  it('maps each gRPC code to its typed error', () => {
    const cases: [number, new (...a: never[]) => FermataError][] = [
      [grpc.status.UNAVAILABLE, UnavailableError],
      [grpc.status.NOT_FOUND, NotFoundError],
      [grpc.status.PERMISSION_DENIED, PermissionDeniedError],
      [grpc.status.UNAUTHENTICATED, UnauthenticatedError],
      [grpc.status.DEADLINE_EXCEEDED, DeadlineExceededError],
      [grpc.status.RESOURCE_EXHAUSTED, LimitError],
      [grpc.status.INVALID_ARGUMENT, InvalidArgumentError],
      [grpc.status.ALREADY_EXISTS, AlreadyExistsError],
    ];
    for (const [code, cls] of cases) {
      const e = errorFromStatus({ code, details: 'x' });
      expect(e).toBeInstanceOf(cls);
      expect(e).toBeInstanceOf(FermataError);
      expect(e.code).toBe(code);
    }
    const plain = errorFromStatus({
      code: grpc.status.FAILED_PRECONDITION,
      details: 'topic is being deleted',
    });
    expect(plain.constructor).toBe(FermataError);
  });

  it('reads the leader from fermata-leader, the ErrorStatus field, or the message text', () => {
    const md = new grpc.Metadata();
    md.set('fermata-leader', '10.0.0.2:7001');
    const a = errorFromStatus({ code: grpc.status.FAILED_PRECONDITION, details: 'not leader', metadata: md });
    expect(a).toBeInstanceOf(NotLeaderError);
    expect((a as NotLeaderError).leaderAddress).toBe('10.0.0.2:7001');
    const b = errorFromStatus({
      code: grpc.status.FAILED_PRECONDITION,
      details: 'nope',
      leaderAddress: 'h:1',
    });
    expect((b as NotLeaderError).leaderAddress).toBe('h:1');
    const c = errorFromStatus({
      code: grpc.status.FAILED_PRECONDITION,
      details: 'not leader; leader is n2 at h2:7002',
    });
    expect((c as NotLeaderError).leaderAddress).toBe('h2:7002');
    const d = errorFromStatus({ code: grpc.status.UNAVAILABLE, details: 'not leader; no leader known' });
    expect(d).toBeInstanceOf(NotLeaderError);
    expect((d as NotLeaderError).leaderAddress).toBeUndefined();
  });

  it('names the limit of a RESOURCE_EXHAUSTED and the field of an INVALID_ARGUMENT', () => {
    const l = errorFromStatus({
      code: grpc.status.RESOURCE_EXHAUSTED,
      details: 'payload is 2000000 bytes; limits.maxPayloadBytes is 1048576',
    });
    expect((l as LimitError).limit).toBe('limits.maxPayloadBytes');
    const f = errorFromStatus({
      code: grpc.status.INVALID_ARGUMENT,
      details: 'messages[3].topic: must not be empty',
    });
    expect((f as InvalidArgumentError).field).toBe('messages[3].topic');
    const g = errorFromStatus({ code: grpc.status.INVALID_ARGUMENT, details: 'bad', field: 'lease_ms' });
    expect((g as InvalidArgumentError).field).toBe('lease_ms');
    const md = new grpc.Metadata();
    md.set('fermata-limit', 'maxPayloadBytes');
    md.set('fermata-field', 'messages[0].payload');
    const m = errorFromStatus({
      code: grpc.status.RESOURCE_EXHAUSTED,
      details: 'payload too large',
      metadata: md,
    });
    expect([(m as LimitError).limit, (m as LimitError).field]).toEqual([
      'maxPayloadBytes',
      'messages[0].payload',
    ]);
    // The broker's own wording, inside a stream (one `field` slot, no metadata).
    const inStream = errorFromStatus({
      code: grpc.status.RESOURCE_EXHAUSTED,
      details: 'messages[2].payload: 2000000 exceeds the limit maxPayloadBytes = 1048576',
      field: 'messages[2].payload',
    });
    expect([(inStream as LimitError).limit, (inStream as LimitError).field]).toEqual([
      'maxPayloadBytes',
      'messages[2].payload',
    ]);
    const consumers = errorFromStatus({
      code: grpc.status.RESOURCE_EXHAUSTED,
      details: 'too many',
      field: 'maxConsumersPerGroup',
    });
    expect([(consumers as LimitError).limit, (consumers as LimitError).field]).toEqual([
      'maxConsumersPerGroup',
      undefined,
    ]);
    const delay = errorFromStatus({
      code: grpc.status.INVALID_ARGUMENT,
      details: 'messages[0].delay_ms: 9e12 exceeds the limit maxDelayMs = 63072000000',
    });
    expect([(delay as InvalidArgumentError).field, (delay as InvalidArgumentError).limit]).toEqual([
      'messages[0].delay_ms',
      'maxDelayMs',
    ]);
    const bound = new grpc.Metadata();
    bound.set('fermata-limit', 'maxDelayMs');
    const d = errorFromStatus({
      code: grpc.status.INVALID_ARGUMENT,
      details: 'delay too long',
      metadata: bound,
    });
    expect((d as InvalidArgumentError).limit).toBe('maxDelayMs');
  });

  it('wraps non-gRPC throwables as UNKNOWN and passes FermataErrors through', () => {
    const e = toFermataError(new Error('boom'));
    expect(e.code).toBe(StatusCode.UNKNOWN);
    expect(toFermataError(e)).toBe(e);
  });
});

describe('errors over the wire', () => {
  let cluster: FakeCluster | undefined;
  let client: FermataClient | undefined;
  afterEach(async () => {
    await client?.close();
    await cluster?.stop();
  });

  it('a server status arrives as the typed error, not retried', async () => {
    cluster = await FakeCluster.start(1, 0);
    let calls = 0;
    const statuses = [
      { code: grpc.status.RESOURCE_EXHAUSTED, details: 'limits.maxBatchMessages is 1000' },
      { code: grpc.status.INVALID_ARGUMENT, details: 'messages[0].topic: must not be empty' },
      { code: grpc.status.PERMISSION_DENIED, details: 'token may not publish' },
    ];
    cluster.brokerOverrides.publish = (_call, cb) => cb(statuses[calls++]!);
    client = new FermataClient({
      endpoints: cluster.endpoints,
      logger: { debug() {}, warn() {}, error() {} },
    });
    const limit = await client.publish('t', 'x').catch((e) => e);
    expect(limit).toBeInstanceOf(LimitError);
    expect(limit.limit).toBe('limits.maxBatchMessages');
    const invalid = await client.publish('t', 'x').catch((e) => e);
    expect(invalid).toBeInstanceOf(InvalidArgumentError);
    expect(invalid.field).toBe('topic');
    await expect(client.publish('t', 'x')).rejects.toBeInstanceOf(PermissionDeniedError);
    expect(calls).toBe(3);
  });

  it('a single publish names the field without the batch position; a batch keeps it', async () => {
    cluster = await FakeCluster.start(1, 0);
    cluster.brokerOverrides.publish = (_call, cb) =>
      cb({
        code: grpc.status.INVALID_ARGUMENT,
        details: 'messages[0].delay_ms: 9 exceeds the limit maxDelayMs = 1',
      });
    client = new FermataClient({
      endpoints: cluster.endpoints,
      logger: { debug() {}, warn() {}, error() {} },
    });
    const single = await client.publish('t', 'x').catch((e) => e);
    expect([single.field, single.limit]).toEqual(['delay_ms', 'maxDelayMs']);
    const batch = await client.publishBatch([{ topic: 't', payload: 'x' }]).catch((e) => e);
    expect(batch.field).toBe('messages[0].delay_ms');
  });
});
