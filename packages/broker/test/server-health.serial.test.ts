import * as grpc from '@grpc/grpc-js';
import protobuf from 'protobufjs';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type HealthCheckResponse,
  type HealthClient,
  HealthReporter,
  HealthService,
  makeHealthClient,
  ServingStatus,
} from '../src/server/health.js';
import type { Readiness } from '../src/server/readiness.js';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function startHealth(readiness: () => Readiness, pollIntervalMs = 60_000) {
  const reporter = new HealthReporter({ readiness, pollIntervalMs });
  const server = new grpc.Server();
  server.addService(HealthService, reporter.handlers);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, p) =>
      err ? reject(err) : resolve(p),
    ),
  );
  const client = makeHealthClient(`127.0.0.1:${port}`);
  cleanups.push(
    () => new Promise<void>((resolve) => server.tryShutdown(() => resolve())),
    () => reporter.close(),
    () => client.close(),
  );
  return { reporter, client, server };
}

function check(client: HealthClient, service: string): Promise<HealthCheckResponse> {
  return new Promise((resolve, reject) =>
    client.check({ service }, { deadline: Date.now() + 10_000 }, (err, res) =>
      err ? reject(err) : resolve(res!),
    ),
  );
}

/** Collects watch messages; `next()` resolves with the next one to arrive. */
function watch(client: HealthClient, service: string) {
  const call = client.watch({ service });
  const seen: number[] = [];
  const waiters: ((s: number) => void)[] = [];
  let ended: Promise<grpc.StatusObject> = new Promise((resolve) => call.on('status', resolve));
  call.on('data', (m: HealthCheckResponse) => {
    const w = waiters.shift();
    if (w) w(m.status);
    else seen.push(m.status);
  });
  call.on('error', () => {});
  cleanups.push(() => call.cancel());
  return {
    next: () =>
      new Promise<number>((resolve) => {
        const s = seen.shift();
        if (s !== undefined) resolve(s);
        else waiters.push(resolve);
      }),
    ended: () => ended,
    cancel: () => {
      ended = Promise.resolve({ code: grpc.status.CANCELLED, details: '', metadata: new grpc.Metadata() });
      call.cancel();
    },
  };
}

const HEALTH_PROTO = `
syntax = "proto3";
package grpc.health.v1;
message HealthCheckRequest { string service = 1; }
message HealthCheckResponse {
  enum ServingStatus { UNKNOWN = 0; SERVING = 1; NOT_SERVING = 2; SERVICE_UNKNOWN = 3; }
  ServingStatus status = 1;
}`;

describe('health messages', () => {
  it('encode and decode exactly as the standard grpc/health/v1/health.proto', () => {
    const root = protobuf.parse(HEALTH_PROTO).root;
    const Req = root.lookupType('grpc.health.v1.HealthCheckRequest');
    const Res = root.lookupType('grpc.health.v1.HealthCheckResponse');
    for (const service of ['', 'fermata.v1.Broker', 'ünïcode.Service']) {
      const ours = HealthService.check.requestSerialize({ service });
      expect(Buffer.from(Req.encode({ service }).finish()).equals(ours), service).toBe(true);
      expect(HealthService.check.requestDeserialize(ours)).toEqual({ service });
    }
    for (const status of [0, 1, 2, 3] as const) {
      const ours = HealthService.check.responseSerialize({ status });
      expect(Buffer.from(Res.encode({ status }).finish()).equals(ours)).toBe(true);
      expect(HealthService.watch.responseDeserialize(ours)).toEqual({ status });
    }
    // Unknown fields from a newer peer are skipped.
    const extra = Buffer.concat([
      Buffer.from([0x12, 0x01, 0x41]),
      HealthService.check.responseSerialize({ status: 2 }),
    ]);
    expect(HealthService.check.responseDeserialize(extra)).toEqual({ status: 2 });
  });
});

describe('gRPC health service', () => {
  it('Check reports SERVING for the server and each fermata service while the node is ready', async () => {
    const { client } = await startHealth(() => ({ ready: true }));
    for (const service of ['', 'fermata.v1.Broker', 'fermata.v1.Admin', 'fermata.v1.Cluster']) {
      expect((await check(client, service)).status, service).toBe(ServingStatus.SERVING);
    }
  });

  it('Check reports NOT_SERVING while the node is not ready', async () => {
    let ready: Readiness = { ready: true };
    const { client } = await startHealth(() => ready);
    expect((await check(client, '')).status).toBe(ServingStatus.SERVING);
    ready = { ready: false, reason: 'no leader known (term 2)' };
    expect((await check(client, '')).status).toBe(ServingStatus.NOT_SERVING);
  });

  it('Check of an unknown service is NOT_FOUND', async () => {
    const { client } = await startHealth(() => ({ ready: true }));
    await expect(check(client, 'no.such.Service')).rejects.toMatchObject({ code: grpc.status.NOT_FOUND });
  });

  it('Check reports NOT_SERVING when the readiness provider throws', async () => {
    const { client } = await startHealth(() => {
      throw new Error('boom');
    });
    expect((await check(client, '')).status).toBe(ServingStatus.NOT_SERVING);
  });

  it('Watch sends the current status at once and each change after update()', async () => {
    let ready: Readiness = { ready: false, reason: 'starting' };
    const { client, reporter } = await startHealth(() => ready);
    const w = watch(client, 'fermata.v1.Broker');
    expect(await w.next()).toBe(ServingStatus.NOT_SERVING);
    ready = { ready: true };
    reporter.update();
    expect(await w.next()).toBe(ServingStatus.SERVING);
    reporter.update(); // no change: nothing is sent
    ready = { ready: false, reason: 'behind' };
    reporter.update();
    expect(await w.next()).toBe(ServingStatus.NOT_SERVING);
  });

  it('Watch notices a change by itself through polling', async () => {
    let ready: Readiness = { ready: false, reason: 'starting' };
    const { client } = await startHealth(() => ready, 20);
    const w = watch(client, '');
    expect(await w.next()).toBe(ServingStatus.NOT_SERVING);
    ready = { ready: true };
    expect(await w.next()).toBe(ServingStatus.SERVING);
  });

  it('Watch of an unknown service reports SERVICE_UNKNOWN without ending the call', async () => {
    const { client, reporter } = await startHealth(() => ({ ready: true }));
    const w = watch(client, 'no.such.Service');
    expect(await w.next()).toBe(ServingStatus.SERVICE_UNKNOWN);
    const known = watch(client, '');
    expect(await known.next()).toBe(ServingStatus.SERVING);
    reporter.close();
    // The unknown-service watch was still open: it ends with the rest on close.
    expect((await w.ended()).code).toBe(grpc.status.OK);
  });

  it('close() turns everything NOT_SERVING, tells watchers, and ends their streams', async () => {
    const { client, reporter } = await startHealth(() => ({ ready: true }));
    const w = watch(client, '');
    expect(await w.next()).toBe(ServingStatus.SERVING);
    reporter.close();
    expect(await w.next()).toBe(ServingStatus.NOT_SERVING);
    expect((await w.ended()).code).toBe(grpc.status.OK);
    expect((await check(client, '')).status).toBe(ServingStatus.NOT_SERVING);
  });

  it('a cancelled watcher is forgotten', async () => {
    let ready: Readiness = { ready: true };
    const { client, reporter } = await startHealth(() => ready);
    const w = watch(client, '');
    expect(await w.next()).toBe(ServingStatus.SERVING);
    expect(reporter.watching).toBe(1);
    w.cancel();
    await expect.poll(() => reporter.watching, { timeout: 10_000 }).toBe(0);
    ready = { ready: false, reason: 'x' };
    expect(() => reporter.update()).not.toThrow();
    expect((await check(client, '')).status).toBe(ServingStatus.NOT_SERVING);
  });
});
