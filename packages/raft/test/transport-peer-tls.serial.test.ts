/**
 * PeerTransport with mutual TLS: messages and snapshots flow between nodes
 * whose certificates name them; a node presenting a certificate that names
 * another node gets neither its batches nor its snapshots accepted.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type pb, type RaftClient, RaftService } from '@fermata/protocol';
import * as grpc from '@grpc/grpc-js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { messageToWire } from '../src/transport/codec.js';
import { silentLogger } from '../src/transport/logger.js';
import { PeerTransport, type TransportHandler } from '../src/transport/peer-transport.js';
import { PeerTls, StaticTlsSource } from '../src/transport/tls.js';
import { type Message, message, type NodeId } from '../src/types.js';
import { type CertFiles, TestCa } from './support/certs.js';
import { startTestProxy } from './support/connect-proxy.js';

let dir: string;
let ca: TestCa;
const certs: Record<string, CertFiles> = {};
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'fermata-transport-tls-'));
  ca = new TestCa(join(dir, 'ca'));
  certs['a'] = ca.issue('a', { dns: ['a'], uri: ['fermata-peer:a'] });
  certs['b'] = ca.issue('b', { dns: ['b'], uri: ['fermata-peer:b'] });
  certs['impostor'] = ca.issue('impostor', { dns: ['z'], uri: ['fermata-peer:z'] });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

function heartbeat(from: NodeId, to: NodeId, term: number): Message {
  return message({ type: 'heartbeat', from, to, term });
}

function peerTls(files: CertFiles): PeerTls {
  return new PeerTls(
    new StaticTlsSource({
      cert: readFileSync(files.cert),
      key: readFileSync(files.key),
      ca: readFileSync(ca.cert),
    }),
  );
}

async function node(id: NodeId, files: CertFiles) {
  const incoming = mkdtempSync(join(tmpdir(), `fermata-transport-tls-${id}-`));
  const received: Message[] = [];
  const snapshots: Message[] = [];
  const reports: Array<{ id: NodeId; ok: boolean }> = [];
  const handler: TransportHandler = {
    receive: (m) => received.push(...m),
    receiveSnapshot: async (m, file) => {
      snapshots.push(m);
      rmSync(file);
    },
    admit: () => ({ admitted: true }),
    reportUnreachable: () => undefined,
    reportSnapshot: (peer, ok) => reports.push({ id: peer, ok }),
  };
  const tls = peerTls(files);
  const transport = new PeerTransport({
    id,
    clusterId: 'c',
    listenAddress: '127.0.0.1:0',
    incomingSnapshotDir: incoming,
    handler,
    log: silentLogger,
    maxBackoffMs: 200,
    tls,
  });
  const address = await transport.start();
  cleanup.push(async () => {
    await transport.close();
    rmSync(incoming, { recursive: true, force: true });
  });
  return { id, transport, address, received, snapshots, reports };
}

async function until(cond: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function* bytes(n: number): AsyncIterable<Uint8Array> {
  yield Buffer.alloc(n, 7);
}

describe('peer transport over mutual TLS', () => {
  it('nodes whose certificates name them exchange messages and snapshots', async () => {
    const a = await node('a', certs['a']!);
    const b = await node('b', certs['b']!);
    a.transport.setPeer('b', b.address);
    a.transport.send([heartbeat('a', 'b', 3)]);
    await until(() => b.received.length === 1);
    expect(b.received[0]?.term).toBe(3);
    const snap: Message = {
      ...heartbeat('a', 'b', 4),
      type: 'snapshot',
      snapshot: { index: 10, term: 4, conf: { voters: ['a', 'b'], learners: [] } },
    };
    expect(a.transport.sendSnapshot(snap, async () => bytes(5000))).toBe(true);
    await until(() => a.reports.length === 1);
    expect(a.reports).toEqual([{ id: 'b', ok: true }]);
    expect(b.snapshots).toHaveLength(1);
  });

  it('a node whose certificate names another node has its messages and snapshots refused', async () => {
    const a = await node('a', certs['a']!);
    const impostor = await node('b', certs['impostor']!);
    // a dials "b" and finds a server whose certificate does not name b: nothing is sent.
    a.transport.setPeer('b', impostor.address);
    a.transport.send([heartbeat('a', 'b', 3)]);
    // The impostor dials a claiming to be b: a refuses it.
    impostor.transport.setPeer('a', a.address);
    impostor.transport.send([heartbeat('b', 'a', 5)]);
    const snap: Message = {
      ...heartbeat('b', 'a', 6),
      type: 'snapshot',
      snapshot: { index: 10, term: 6, conf: { voters: ['a', 'b'], learners: [] } },
    };
    impostor.transport.sendSnapshot(snap, async () => bytes(1000));
    await until(() => impostor.reports.length === 1);
    expect(impostor.reports).toEqual([{ id: 'a', ok: false }]);
    await until(() => a.transport.stats.batchesRejected >= 2);
    await new Promise((r) => setTimeout(r, 300));
    expect(a.received).toEqual([]);
    expect(a.snapshots).toEqual([]);
    expect(impostor.received).toEqual([]);
  });

  it('over TLS too, this version and one on grpc-js (the previous) take each other’s batches', async () => {
    // b as the previous version served its peer port: grpc-js, headers at once, the caller's certificate checked.
    const oldB = peerTls(certs['b']!);
    const batches: Array<{ from: string; problem: string | undefined }> = [];
    const server = new grpc.Server();
    server.addService(RaftService as unknown as grpc.ServiceDefinition, {
      sendMessages: (call: grpc.ServerReadableStream<pb.RaftBatch, object>) => {
        call.sendMetadata(new grpc.Metadata());
        call.on('data', (batch: pb.RaftBatch) =>
          batches.push({ from: batch.from, problem: oldB.checkCaller(call, { id: batch.from }) }),
        );
      },
      installSnapshot: () => undefined,
    });
    const port = await new Promise<number>((res, rej) =>
      server.bindAsync('127.0.0.1:0', oldB.serverCredentials(), (e, p) => (e ? rej(e) : res(p))),
    );
    cleanup.push(() => {
      server.forceShutdown();
    });
    const a = await node('a', certs['a']!);
    a.transport.setPeer('b', `127.0.0.1:${port}`);
    a.transport.send([heartbeat('a', 'b', 3)]);
    await until(() => batches.length === 1);
    expect(batches).toEqual([{ from: 'a', problem: undefined }]);

    // And b's grpc-js client, as the previous version's, reaches a.
    const Ctor = grpc.makeGenericClientConstructor(RaftService as unknown as grpc.ServiceDefinition, 'x');
    const client = new Ctor(a.address, oldB.channelCredentials({ id: 'a' })) as unknown as RaftClient;
    cleanup.push(() => client.close());
    const call = client.sendMessages(new grpc.Metadata(), {}, () => undefined);
    call.write({ clusterId: 'c', from: 'b', messages: [messageToWire(heartbeat('b', 'a', 4))] });
    await until(() => a.received.length === 1);
    expect(a.received[0]).toMatchObject({ type: 'heartbeat', from: 'b', term: 4 });
    call.end();
  });

  it('through an HTTP CONNECT proxy (grpc_proxy) the peer’s certificate is checked as on a direct connection', async () => {
    const proxy = await startTestProxy();
    const saved = { grpc_proxy: process.env['grpc_proxy'], no_grpc_proxy: process.env['no_grpc_proxy'] };
    process.env['grpc_proxy'] = proxy.url;
    delete process.env['no_grpc_proxy'];
    cleanup.push(async () => {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
      await proxy.close();
    });
    const a = await node('a', certs['a']!);
    const b = await node('b', certs['b']!);
    const impostor = await node('b', certs['impostor']!);
    a.transport.setPeer('b', b.address);
    a.transport.send([heartbeat('a', 'b', 3)]);
    await until(() => b.received.length === 1);
    expect(proxy.tunnels).toContain(b.address);
    // The same dial to a server whose certificate does not name b delivers nothing.
    a.transport.setPeer('b', impostor.address);
    a.transport.send([heartbeat('a', 'b', 4)]);
    await until(() => proxy.tunnels.includes(impostor.address));
    await new Promise((r) => setTimeout(r, 300));
    expect(impostor.received).toEqual([]);
  });

  it('a peer that takes the connection but never answers the handshake is dialled again, not waited on', async () => {
    // A host whose process stopped answering: the kernel accepts, nobody speaks TLS.
    const sockets: Socket[] = [];
    const silent = createServer((socket) => {
      socket.on('error', () => undefined);
      sockets.push(socket);
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    cleanup.push(() => {
      for (const s of sockets) s.destroy();
      silent.close();
    });
    const a = await node('a', certs['a']!);
    a.transport.setPeer('b', `127.0.0.1:${(silent.address() as { port: number }).port}`);
    a.transport.send([heartbeat('a', 'b', 3)]);
    // Given up after PEER_CONNECT_TIMEOUT_MS (5 s) and dialled again.
    await until(() => sockets.length >= 2, 30_000);
    expect(a.transport.stats.peers['b']?.reconnects).toBeGreaterThanOrEqual(1);
  }, 40_000);
});
