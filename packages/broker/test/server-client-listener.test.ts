import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ReloadingServerCredentials, StaticTlsSource } from '@fermata/raft';
import * as grpc from '@grpc/grpc-js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TestCa } from '../../raft/test/support/certs.js';
import { ClientListener } from '../src/server/client-listener.js';

const echo: grpc.ServiceDefinition = {
  echo: {
    path: '/test.Echo/Echo',
    requestStream: false,
    responseStream: false,
    requestSerialize: (b: Buffer) => b,
    requestDeserialize: (b: Buffer) => b,
    responseSerialize: (b: Buffer) => b,
    responseDeserialize: (b: Buffer) => b,
  },
};
const EchoClient = grpc.makeGenericClientConstructor(echo, 'Echo');

let dir: string;
let ca: TestCa;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'fermata-listener-'));
  ca = new TestCa(join(dir, 'ca'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cleanup: Array<() => unknown> = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

async function start(credentials: grpc.ServerCredentials, maxConnections: number) {
  const server = new grpc.Server();
  server.addService(echo, {
    echo: (call: grpc.ServerUnaryCall<Buffer, Buffer>, cb: grpc.sendUnaryData<Buffer>) =>
      cb(null, call.request),
  });
  const warnings: string[] = [];
  const listener = await ClientListener.listen(server, '127.0.0.1:0', credentials, {
    maxConnections,
    log: { warn: (_f, m) => warnings.push(m) },
  });
  cleanup.push(async () => {
    const closed = listener.close();
    server.forceShutdown();
    listener.destroyAll();
    await closed;
  });
  return { server, listener, warnings, address: `127.0.0.1:${listener.port}` };
}

function call(address: string, creds = grpc.credentials.createInsecure(), options: grpc.ClientOptions = {}) {
  const client = new EchoClient(address, creds, options);
  cleanup.push(() => client.close());
  return new Promise<Buffer>((resolve, reject) =>
    (client as unknown as Record<string, (...a: unknown[]) => void>)['echo']!(
      Buffer.from('ping'),
      { deadline: Date.now() + 5_000 },
      (err: Error | null, res: Buffer) => (err ? reject(err) : resolve(res)),
    ),
  );
}

function openSocket(port: number): Promise<{ socket: Socket; closed: Promise<void> }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () =>
      resolve({ socket, closed: new Promise((r) => socket.once('close', () => r())) }),
    );
    socket.on('error', () => undefined);
    cleanup.push(() => socket.destroy());
  });
}

describe('client listener', () => {
  it('serves calls in plaintext and over TLS as a bound port would', async () => {
    const plain = await start(grpc.ServerCredentials.createInsecure(), 10);
    expect((await call(plain.address)).toString()).toBe('ping');
    const leaf = ca.issue('srv', { dns: ['localhost'], ip: ['127.0.0.1'] });
    const tls = await start(
      new ReloadingServerCredentials(
        new StaticTlsSource({ cert: readFileSync(leaf.cert), key: readFileSync(leaf.key) }),
        false,
      ),
      10,
    );
    const creds = grpc.credentials.createSsl(readFileSync(ca.cert));
    expect(
      (await call(tls.address, creds, { 'grpc.ssl_target_name_override': 'localhost' })).toString(),
    ).toBe('ping');
  });

  it('closes connections beyond maxConnections at once and accepts again when some leave', async () => {
    const { listener, warnings, address } = await start(grpc.ServerCredentials.createInsecure(), 5);
    const held = await Promise.all(Array.from({ length: 5 }, () => openSocket(listener.port)));
    await new Promise((r) => setTimeout(r, 100));
    expect(listener.connections).toBe(5);
    const extra = await Promise.all(Array.from({ length: 3 }, () => openSocket(listener.port)));
    await Promise.all(extra.map((e) => e.closed));
    expect(listener.refused).toBe(3);
    expect(warnings).toEqual(['client connection refused: limits.maxConnections (5) reached']);
    for (const h of held) h.socket.destroy();
    await Promise.all(held.map((h) => h.closed));
    await new Promise((r) => setTimeout(r, 50));
    expect((await call(address)).toString()).toBe('ping');
  });
});
