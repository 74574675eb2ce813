import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import {
  createServer as createHttp2Server,
  connect as http2Connect,
  type ServerHttp2Stream,
} from 'node:http2';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  FLOW_CONTROL_WINDOW_BYTES,
  Long,
  type pb,
  type RaftClient,
  RaftService,
  v1,
} from '@fermata/protocol';
import * as grpc from '@grpc/grpc-js';
import { afterEach, describe, expect, it } from 'vitest';
import { messageFromWire, messageToWire } from '../src/transport/codec.js';
import { silentLogger } from '../src/transport/logger.js';
import { peerProxyFor } from '../src/transport/peer-dial.js';
import { PeerTransport, type TransportHandler } from '../src/transport/peer-transport.js';
import type { Message, NodeId } from '../src/types.js';
import { admitVoters } from './support/admit.js';
import { startTestProxy } from './support/connect-proxy.js';
import { grpcFrame, RawGrpcConnection } from './support/raw-grpc.js';

interface Recorder extends TransportHandler {
  received: Message[];
  snapshots: Array<{ message: Message; data: Buffer }>;
  unreachable: NodeId[];
  snapshotReports: Array<{ id: NodeId; ok: boolean }>;
  members: Set<NodeId>;
}

function recorder(members: NodeId[]): Recorder {
  const r: Recorder = {
    received: [],
    snapshots: [],
    unreachable: [],
    snapshotReports: [],
    members: new Set(members),
    receive: (messages) => r.received.push(...messages),
    receiveSnapshot: async (message, file) => {
      r.snapshots.push({ message, data: readFileSync(file) });
      rmSync(file);
    },
    admit: admitVoters(() => r.members),
    reportUnreachable: (id) => r.unreachable.push(id),
    reportSnapshot: (id, ok) => r.snapshotReports.push({ id, ok }),
  };
  return r;
}

function message(from: NodeId, to: NodeId, extra: Partial<Message> = {}): Message {
  return {
    type: 'append',
    from,
    to,
    term: 3,
    logTerm: 2,
    index: 41,
    entries: [],
    commit: 40,
    reject: false,
    rejectHint: 0,
    hintTerm: 0,
    ...extra,
  };
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

// A liveness wait, not a timing check: generous, because a reconnect behind a
// backoff on a loaded two-core machine has taken over 10 s.
async function until(condition: () => boolean, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

async function node(
  id: NodeId,
  members: NodeId[],
  options: {
    clusterId?: string;
    port?: number;
    secret?: string;
    advertiseAddress?: string;
    wallClock?: { nowMs(): number };
    maxQueuedMessagesPerPeer?: number;
  } = {},
) {
  const dir = mkdtempSync(join(tmpdir(), `fermata-transport-${id}-`));
  const handler = recorder(members);
  const transport = new PeerTransport({
    id,
    clusterId: options.clusterId ?? 'c1',
    listenAddress: `127.0.0.1:${options.port ?? 0}`,
    incomingSnapshotDir: dir,
    handler,
    log: silentLogger,
    maxQueuedMessagesPerPeer: options.maxQueuedMessagesPerPeer ?? 64,
    maxBackoffMs: 200,
    ...(options.secret !== undefined ? { secret: options.secret } : {}),
    ...(options.advertiseAddress !== undefined ? { advertiseAddress: options.advertiseAddress } : {}),
    ...(options.wallClock ? { wallClock: options.wallClock } : {}),
  });
  const address = await transport.start();
  cleanup.push(async () => {
    await transport.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { id, transport, handler, address, dir };
}

describe('peer transport over loopback', () => {
  it('delivers messages with entries, snapshot meta, context and wall time intact, in order', async () => {
    const a = await node('a', ['b']);
    const b = await node('b', ['a']);
    a.transport.setPeer('b', b.address);
    const sent: Message[] = [
      message('a', 'b', {
        entries: [
          { term: 2, index: 42, type: 'normal', data: new Uint8Array([1, 2, 3]) },
          { term: 3, index: 43, type: 'conf-change', data: new Uint8Array([9]) },
          { term: 3, index: 44, type: 'normal', data: new Uint8Array(0) },
        ],
      }),
      message('a', 'b', { type: 'heartbeat', context: new Uint8Array([7, 7]) }),
      message('a', 'b', { type: 'heartbeat', context: new Uint8Array(0) }),
      message('a', 'b', { type: 'append-response', reject: true, rejectHint: 17, hintTerm: 2 }),
      message('a', 'b', {
        type: 'snapshot',
        snapshot: { index: 2 ** 40, term: 5, conf: { voters: ['a', 'b'], learners: ['c'] } },
      }),
      message('a', 'b', { type: 'pre-vote', term: 4, index: 9, logTerm: 3, wallTimeMs: 1_796_489_076_392 }),
      message('a', 'b', { type: 'vote-response', term: 4, reject: true, wallTimeMs: 2 ** 52 }),
    ];
    a.transport.send(sent);
    await until(() => b.handler.received.length === sent.length);
    const normalize = (m: Message) => ({
      ...m,
      entries: m.entries.map((e) => ({ ...e, data: [...e.data] })),
      context: m.context === undefined ? undefined : [...m.context],
    });
    expect(b.handler.received.map(normalize)).toEqual(sent.map(normalize));
    expect(b.handler.received[0]?.context).toBeUndefined();
    expect([...(b.handler.received[2]?.context ?? [1])]).toEqual([]);
    // Not stamped: the field stays absent (0 on the wire), not 0.
    expect(b.handler.received.filter((m) => 'wallTimeMs' in m).map((m) => m.wallTimeMs)).toEqual([
      1_796_489_076_392,
      2 ** 52,
    ]);
  });

  it('speaks gRPC as grpc-js does, both ways (a rolling upgrade from a version on grpc-js)', async () => {
    const secret = 'interop-secret-0123456789';
    // A node of this version sends to a peer port served by grpc-js, as the previous version's was.
    const old: pb.RaftBatch[] = [];
    const seenSecrets: unknown[] = [];
    const server = new grpc.Server();
    server.addService(RaftService as unknown as grpc.ServiceDefinition, {
      sendMessages: (
        call: grpc.ServerReadableStream<pb.RaftBatch, object>,
        callback: grpc.sendUnaryData<object>,
      ) => {
        seenSecrets.push(...call.metadata.get('fermata-peer-secret'));
        // As the previous version's server: headers at once (a sender writes only once it has them).
        call.sendMetadata(new grpc.Metadata());
        call.on('data', (batch: pb.RaftBatch) => old.push(batch));
        call.on('end', () => callback(null, {}));
      },
      installSnapshot: () => undefined,
    });
    const oldPort = await new Promise<number>((res, rej) =>
      server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (e, p) =>
        e ? rej(e) : res(p),
      ),
    );
    cleanup.push(() => {
      server.forceShutdown();
    });
    const a = await node('a', ['b'], { secret });
    a.transport.setPeer('b', `127.0.0.1:${oldPort}`);
    a.transport.send([
      message('a', 'b', { entries: [{ term: 3, index: 42, type: 'normal', data: new Uint8Array([5]) }] }),
    ]);
    await until(() => old.length === 1);
    expect(old[0]).toMatchObject({ clusterId: 'c1', from: 'a' });
    const got = old[0]?.messages.map((m) => messageFromWire(m as pb.RaftMessage)) ?? [];
    expect(got.map((m) => ({ ...m, entries: m.entries.map((e) => ({ ...e, data: [...e.data] })) }))).toEqual([
      message('a', 'b', { entries: [{ term: 3, index: 42, type: 'normal', data: [5] as never }] }),
    ]);
    expect(seenSecrets).toEqual([secret]);

    // And the previous version's client (grpc-js, with the secret as metadata) reaches this one.
    const b = await node('b', ['x'], { secret });
    const Ctor = grpc.makeGenericClientConstructor(RaftService as unknown as grpc.ServiceDefinition, 'x');
    const client = new Ctor(b.address, grpc.credentials.createInsecure()) as unknown as RaftClient;
    cleanup.push(() => client.close());
    const metadata = new grpc.Metadata();
    metadata.set('fermata-peer-secret', secret);
    const status = new Promise<grpc.ServiceError | null>((resolve) => {
      const call = client.sendMessages(metadata, {}, (error) => resolve(error));
      call.write({ clusterId: 'c1', from: 'x', messages: [messageToWire(message('x', 'b'))] });
      call.write({ clusterId: 'c1', from: 'x', messages: [messageToWire(message('x', 'b', { index: 7 }))] });
      void until(() => b.handler.received.length === 2).then(() => call.end());
    });
    expect(await status).toBeNull();
    expect(b.handler.received.map((m) => m.index)).toEqual([41, 7]);
  });

  it('writes every message queued in one turn as one batch', async () => {
    const a = await node('a', ['b']);
    const b = await node('b', ['a']);
    a.transport.setPeer('b', b.address);
    a.transport.send([message('a', 'b')]);
    await until(() => b.handler.received.length === 1);
    const before = b.transport.stats.batchesReceived;
    a.transport.send(Array.from({ length: 50 }, (_, i) => message('a', 'b', { index: i })));
    await until(() => b.handler.received.length === 51);
    expect(b.transport.stats.batchesReceived - before).toBe(1);
    expect(b.handler.received.slice(1).map((m) => m.index)).toEqual(Array.from({ length: 50 }, (_, i) => i));
  });

  it('rejects batches from a node that is not a member, and from another cluster, with PERMISSION_DENIED', async () => {
    const b = await node('b', ['a']);
    const stranger = await node('x', ['b']);
    const otherCluster = await node('a', ['b'], { clusterId: 'c2' });
    stranger.transport.setPeer('b', b.address);
    otherCluster.transport.setPeer('b', b.address);
    stranger.transport.send([message('x', 'b')]);
    otherCluster.transport.send([message('a', 'b')]);
    await until(() => b.transport.stats.batchesRejected >= 2);
    expect(b.handler.received).toEqual([]);
    // The refused sender sees its stream fail and treats the peer as unreachable.
    await until(() => stranger.handler.unreachable.includes('b'));

    // The raw status a refused peer gets.
    const Ctor = grpc.makeGenericClientConstructor(RaftService as unknown as grpc.ServiceDefinition, 'x');
    const client = new Ctor(b.address, grpc.credentials.createInsecure()) as unknown as RaftClient;
    const status = await new Promise<grpc.ServiceError | null>((resolve) => {
      const call = client.sendMessages(new grpc.Metadata(), {}, (error) => resolve(error));
      call.write({ clusterId: 'c1', from: 'x', messages: [messageToWire(message('x', 'b'))] });
    });
    client.close();
    expect(status?.code).toBe(grpc.status.PERMISSION_DENIED);
    expect(status?.details).toContain('"x" is not a member');
  });

  it('an admitted sender this node has no connection to is answered at the address its batch carries; a refused one is not', async () => {
    const aPort = await freePort();
    const a = await node('a', ['b'], { port: aPort, advertiseAddress: `127.0.0.1:${aPort}` });
    const b = await node('b', ['a']);
    const xPort = await freePort();
    const stranger = await node('x', ['b'], { port: xPort, advertiseAddress: `127.0.0.1:${xPort}` });
    a.transport.setPeer('b', b.address);
    stranger.transport.setPeer('b', b.address);
    stranger.transport.send([message('x', 'b')]);
    a.transport.send([message('a', 'b')]);
    await until(() => b.handler.received.length === 1 && b.transport.stats.batchesRejected >= 1);
    expect(Object.keys(b.transport.stats.peers)).toEqual(['a']);
    expect(b.transport.peerAddress('a')).toBe(`127.0.0.1:${aPort}`);
    // b answers a, though nothing but a's batch told b where a is.
    b.transport.send([message('b', 'a', { type: 'append-response' })]);
    await until(() => a.handler.received.length === 1);
    expect(a.handler.received[0]).toMatchObject({ type: 'append-response', from: 'b' });
    expect(b.handler.unreachable).toEqual([]);
  });

  it('a peer that is down does not hold up the others; its queue is bounded and reconnects when it returns', async () => {
    const downPort = await freePort();
    const a = await node('a', ['b', 'c']);
    const c = await node('c', ['a']);
    a.transport.setPeer('b', `127.0.0.1:${downPort}`);
    a.transport.setPeer('c', c.address);
    for (let i = 0; i < 200; i++) {
      a.transport.send([message('a', 'b', { index: i }), message('a', 'c', { index: i })]);
      // Turns of the event loop between sends, as between Ready rounds.
      if (i % 20 === 19) await new Promise((r) => setTimeout(r, 5));
    }
    await until(() => c.handler.received.length === 200);
    // Nothing is written to a peer that is not connected; over the limit the oldest go.
    expect(a.transport.stats.peers['b']?.queued).toBe(64);
    expect(a.transport.stats.peers['b']?.messagesDropped).toBe(136);
    expect(a.handler.unreachable).toContain('b');

    const b = await node('b', ['a'], { port: downPort });
    await until(() => b.handler.received.length === 64);
    // What survived is the newest part of the queue, in order.
    expect(b.handler.received.map((m) => m.index)).toEqual(Array.from({ length: 64 }, (_, i) => 136 + i));
    a.transport.send([message('a', 'b', { index: 1000 })]);
    await until(() => b.handler.received.some((m) => m.index === 1000));
  });

  it('a peer that restarts mid-stream is dialled again and gets what is sent once it is back', async () => {
    const port = await freePort();
    const a = await node('a', ['b']);
    const b1 = await node('b', ['a'], { port });
    a.transport.setPeer('b', `127.0.0.1:${port}`);
    a.transport.send([message('a', 'b', { index: 1 })]);
    await until(() => b1.handler.received.length === 1);
    const reconnects = a.transport.stats.peers['b']?.reconnects ?? 0;
    // The process behind the port goes away with the stream open, and a new one takes the port.
    await b1.transport.close();
    await until(() => a.handler.unreachable.includes('b'));
    const b2 = await node('b', ['a'], { port });
    a.transport.send([message('a', 'b', { index: 2 })]);
    await until(() => b2.handler.received.some((m) => m.index === 2));
    expect(b1.handler.received.map((m) => m.index)).toEqual([1]);
    expect(a.transport.stats.peers['b']?.reconnects).toBeGreaterThan(reconnects);
    expect(a.transport.stats.peers['b']?.connected).toBe(true);
  });

  it('a vote request queued for a peer that was down carries the time it left, not the time it was queued', async () => {
    const downPort = await freePort();
    let wallMs = 1_000_000;
    const a = await node('a', ['b'], { wallClock: { nowMs: () => wallMs } });
    a.transport.setPeer('b', `127.0.0.1:${downPort}`);
    a.transport.send([
      message('a', 'b', { type: 'pre-vote', wallTimeMs: wallMs }),
      message('a', 'b', { type: 'vote-response', reject: true, wallTimeMs: wallMs }),
      message('a', 'b', { type: 'heartbeat' }),
    ]);
    await until(() => a.handler.unreachable.includes('b'));
    // Twenty seconds pass before b is back (a restart): its clock check must not see them.
    wallMs += 20_000;
    const b = await node('b', ['a'], { port: downPort });
    await until(() => b.handler.received.length === 3);
    expect(b.handler.received.map((m) => [m.type, m.wallTimeMs])).toEqual([
      ['pre-vote', 1_020_000],
      ['vote-response', 1_020_000],
      ['heartbeat', undefined],
    ]);
  });

  it('streams a snapshot in chunks and hands it over only once complete and verified', async () => {
    const a = await node('a', ['b']);
    const b = await node('b', ['a']);
    a.transport.setPeer('b', b.address);
    const parts = Array.from({ length: 5 }, (_, i) => Buffer.alloc(100_000 + i, i + 1));
    const snap = message('a', 'b', {
      type: 'snapshot',
      snapshot: { index: 500, term: 4, conf: { voters: ['a', 'b'], learners: [] } },
    });
    a.transport.sendSnapshot(snap, async () =>
      (async function* () {
        yield* parts;
      })(),
    );
    await until(() => a.handler.snapshotReports.length === 1);
    expect(a.handler.snapshotReports).toEqual([{ id: 'b', ok: true }]);
    expect(b.handler.snapshots).toHaveLength(1);
    expect(b.handler.snapshots[0]?.message.snapshot).toEqual(snap.snapshot);
    expect(b.handler.snapshots[0]?.data.equals(Buffer.concat(parts))).toBe(true);
  });

  it('refuses a snapshot whose checksum does not match and leaves no file behind', async () => {
    const b = await node('b', ['a']);
    const Ctor = grpc.makeGenericClientConstructor(RaftService as unknown as grpc.ServiceDefinition, 'x');
    const client = new Ctor(b.address, grpc.credentials.createInsecure()) as unknown as RaftClient;
    const snap = message('a', 'b', {
      type: 'snapshot',
      snapshot: { index: 9, term: 1, conf: { voters: ['a', 'b'], learners: [] } },
    });
    const status = await new Promise<grpc.ServiceError | null>((resolve) => {
      const call = client.installSnapshot(new grpc.Metadata(), {}, (error) => resolve(error));
      call.write({ clusterId: 'c1', from: 'a', message: messageToWire(snap) });
      call.write({ clusterId: 'c1', from: 'a', data: Buffer.from('hello') });
      call.write({
        clusterId: 'c1',
        from: 'a',
        sha256: createHash('sha256').update('hellO').digest(),
        last: true,
      });
      call.end();
    });
    client.close();
    expect(status?.code).toBe(grpc.status.DATA_LOSS);
    expect(b.handler.snapshots).toEqual([]);
    await until(() => readdirSync(b.dir).length === 0);

    // A snapshot that simply stops before its last chunk is refused too.
    const client2 = new Ctor(b.address, grpc.credentials.createInsecure()) as unknown as RaftClient;
    const status2 = await new Promise<grpc.ServiceError | null>((resolve) => {
      const call = client2.installSnapshot(new grpc.Metadata(), {}, (error) => resolve(error));
      call.write({ clusterId: 'c1', from: 'a', message: messageToWire(snap) });
      call.write({ clusterId: 'c1', from: 'a', data: Buffer.from('partial') });
      call.end();
    });
    client2.close();
    expect(status2?.code).toBe(grpc.status.INVALID_ARGUMENT);
    expect(b.handler.snapshots).toEqual([]);
    await until(() => readdirSync(b.dir).length === 0);
    expect(Long.isLong(Long.fromNumber(1))).toBe(true);
  });
  it('with a cluster secret, message and snapshot streams without it or with another are refused UNAUTHENTICATED; with it they pass', async () => {
    const secret = 'transport-secret-0123456789';
    const b = await node('b', ['a'], { secret });
    const good = await node('a', ['b'], { secret });
    const wrong = await node('a', ['b'], { secret: 'another-secret-0123456789' });
    const none = await node('a', ['b']);
    for (const sender of [wrong, none]) sender.transport.setPeer('b', b.address);
    wrong.transport.send([message('a', 'b', { index: 1 })]);
    none.transport.send([message('a', 'b', { index: 2 })]);
    const snap = message('a', 'b', {
      type: 'snapshot',
      snapshot: { index: 500, term: 4, conf: { voters: ['a', 'b'], learners: [] } },
    });
    const data = async () =>
      (async function* () {
        yield Buffer.from('snapshot data');
      })();
    none.transport.sendSnapshot(snap, data);
    await until(() => b.transport.stats.refused.unauthenticated >= 3);
    await until(() => none.handler.snapshotReports.length === 1);
    expect(none.handler.snapshotReports).toEqual([{ id: 'b', ok: false }]);
    expect(b.handler.received).toEqual([]);
    expect(b.handler.snapshots).toEqual([]);

    good.transport.setPeer('b', b.address);
    good.transport.send([message('a', 'b', { index: 3 })]);
    good.transport.sendSnapshot(snap, data);
    await until(() => b.handler.received.length === 1 && b.handler.snapshots.length === 1);
    expect(b.handler.received[0]?.index).toBe(3);
    await until(() => good.handler.snapshotReports.length === 1);
    expect(good.handler.snapshotReports).toEqual([{ id: 'b', ok: true }]);
  });

  it('a caller refused before it is read (no cluster secret) has its stream closed once answered, even if it keeps it open', async () => {
    const b = await node('b', ['a'], { secret: 'transport-secret-0123456789' });
    const conn = new RawGrpcConnection(b.address);
    cleanup.push(() => conn.close());
    for (const path of ['/fermata.v1.Raft/SendMessages', '/fermata.v1.Raft/InstallSnapshot']) {
      const out = await conn.call(path, grpcFrame(Buffer.alloc(10)), { keepOpen: true, timeoutMs: 10_000 });
      expect(out.status, path).toBe(grpc.status.UNAUTHENTICATED);
      expect(out.aborted, path).toBe(false);
    }
  });

  it('a snapshot stream refused while its sender still writes ends: what comes after the answer is read and dropped', async () => {
    const b = await node('b', ['a']);
    const conn = new RawGrpcConnection(b.address);
    cleanup.push(() => conn.close());
    const snap = message('a', 'b', {
      type: 'snapshot',
      snapshot: { index: 9, term: 1, conf: { voters: ['a', 'b'], learners: [] } },
    });
    // The first chunk is another cluster's: refused while the stream is paused for it. The
    // sender has more than a stream window of chunks in flight behind it (a sender that has
    // not read the answer yet): unless the server reads them, its end never gets through.
    const first = grpcFrame(
      v1.SnapshotChunk.encode({ clusterId: 'c2', from: 'a', message: messageToWire(snap) }).finish(),
    );
    const chunk = grpcFrame(
      v1.SnapshotChunk.encode({ clusterId: 'c2', from: 'a', data: Buffer.alloc(256 * 1024, 7) }).finish(),
    );
    const more = Math.ceil((FLOW_CONTROL_WINDOW_BYTES * 1.5) / chunk.length);
    const body = Buffer.concat([first, ...Array.from({ length: more }, () => chunk)]);
    const out = await conn.call('/fermata.v1.Raft/InstallSnapshot', body, { timeoutMs: 20_000 });
    expect(out.status).toBe(grpc.status.PERMISSION_DENIED);
    expect(out.message).toContain('cluster id "c2"');
    expect(b.handler.snapshots).toEqual([]);
    await until(() => readdirSync(b.dir).length === 0);
  });

  it('a connected peer that stops reading holds the sender to its window; the rest waits in the bounded queue', async () => {
    // A peer port that accepts the message stream and then reads nothing (a peer stuck in a long pause).
    const streams: ServerHttp2Stream[] = [];
    const server = createHttp2Server({ settings: { initialWindowSize: FLOW_CONTROL_WINDOW_BYTES } });
    server.on('session', (session) => session.setLocalWindowSize(FLOW_CONTROL_WINDOW_BYTES));
    server.on('stream', (stream) => {
      stream.on('error', () => undefined);
      stream.pause();
      stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
      streams.push(stream);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanup.push(() => {
      for (const s of streams) s.destroy();
      server.close();
    });
    const a = await node('a', ['b'], { maxQueuedMessagesPerPeer: 32 });
    a.transport.setPeer('b', `127.0.0.1:${(server.address() as { port: number }).port}`);
    const entryBytes = 256 * 1024;
    const data = new Uint8Array(entryBytes);
    const total = 400; // 100 MiB, six windows
    for (let i = 0; i < total; i++) {
      a.transport.send([
        message('a', 'b', { index: i, entries: [{ term: 3, index: i, type: 'normal', data }] }),
      ]);
      await new Promise((r) => setImmediate(r));
    }
    await until(() => a.transport.stats.peers['b']?.messagesDropped !== 0);
    const stats = a.transport.stats.peers['b'];
    // What left is what the window (16 MiB) and the stream's own buffer hold, not the 100 MiB.
    expect((stats?.messagesSent ?? 0) * entryBytes).toBeLessThan(FLOW_CONTROL_WINDOW_BYTES + 4 * 1024 * 1024);
    expect(stats?.queued).toBeLessThanOrEqual(32);
    expect((stats?.messagesSent ?? 0) + (stats?.queued ?? 0) + (stats?.messagesDropped ?? 0)).toBe(total);
  });

  it('a batch split anywhere across writes, its length prefix too, arrives whole', async () => {
    const b = await node('b', ['a']);
    const sent = Array.from({ length: 3 }, (_, i) =>
      message('a', 'b', {
        index: i,
        entries: [{ term: 3, index: i, type: 'normal', data: new Uint8Array(40_000 + i).fill(i + 1) }],
      }),
    );
    const frames = sent.map((m) =>
      grpcFrame(v1.RaftBatch.encode({ clusterId: 'c1', from: 'a', messages: [messageToWire(m)] }).finish()),
    );
    const body = Buffer.concat(frames);
    const second = frames[0]?.length ?? 0;
    const third = second + (frames[1]?.length ?? 0);
    const session = http2Connect(`http://${b.address}`);
    cleanup.push(() => session.destroy());
    const call = session.request({
      ':method': 'POST',
      ':path': '/fermata.v1.Raft/SendMessages',
      'content-type': 'application/grpc',
      te: 'trailers',
    });
    call.on('error', () => undefined);
    call.resume();
    const trailers = new Promise<Record<string, unknown>>((resolve) => call.on('trailers', resolve));
    // A byte at a time through the first prefix; the second prefix cut after 2 bytes, the third
    // after 4; a piece that ends one message and starts the next.
    let at = 0;
    for (const end of [1, 2, 3, 4, 5, 6, 7_000, second + 2, second + 9, third + 4, third + 5]) {
      call.write(body.subarray(at, end));
      at = end;
      await new Promise((r) => setImmediate(r));
    }
    call.end(body.subarray(at));
    expect((await trailers)['grpc-status']).toBe('0');
    expect(
      b.handler.received.map((m) => [m.index, m.entries[0]?.data.length, m.entries[0]?.data[0]]),
    ).toEqual([
      [0, 40_000, 1],
      [1, 40_001, 2],
      [2, 40_002, 3],
    ]);
  });
});

describe('reaching a peer through a proxy, as gRPC clients do', () => {
  /** Sets proxy variables for the test (the transport reads them when a peer is set), restored after it. */
  function proxyEnv(values: Record<string, string | undefined>): void {
    const names = ['grpc_proxy', 'https_proxy', 'http_proxy', 'no_grpc_proxy', 'no_proxy'];
    const saved = Object.fromEntries(names.map((n) => [n, process.env[n]]));
    for (const n of names) {
      const v = values[n];
      if (v === undefined) delete process.env[n];
      else process.env[n] = v;
    }
    cleanup.push(() => {
      for (const n of names) {
        const v = saved[n];
        if (v === undefined) delete process.env[n];
        else process.env[n] = v;
      }
    });
  }

  it('the proxy is grpc_proxy, else https_proxy, else http_proxy, unless no_grpc_proxy (else no_proxy) names the host', () => {
    expect(peerProxyFor('10.0.0.5:7000', {})).toBeUndefined();
    expect(peerProxyFor('10.0.0.5:7000', { http_proxy: 'http://p:3128' })).toEqual({ address: 'p:3128' });
    expect(
      peerProxyFor('10.0.0.5:7000', {
        grpc_proxy: 'http://g:1',
        https_proxy: 'http://s:2',
        http_proxy: 'http://h:3',
      }),
    ).toEqual({ address: 'g:1' });
    expect(peerProxyFor('10.0.0.5:7000', { https_proxy: 'http://s:2', http_proxy: 'http://h:3' })).toEqual({
      address: 's:2',
    });
    expect(peerProxyFor('n1.svc:7000', { grpc_proxy: 'http://u:p%40ss@g' })).toEqual({
      address: 'g:80',
      credentials: 'u:p@ss',
    });
    // Only http:// proxies, as grpc-js.
    expect(peerProxyFor('n1.svc:7000', { grpc_proxy: 'https://g:1' })).toBeUndefined();
    expect(peerProxyFor('n1.svc:7000', { grpc_proxy: 'not a url' })).toBeUndefined();
    const env = { grpc_proxy: 'http://g:1', no_grpc_proxy: '.internal,10.1.0.0/16', no_proxy: 'example.com' };
    expect(peerProxyFor('n1.fermata.internal:7000', env)).toBeUndefined();
    expect(peerProxyFor('10.1.200.3:7000', env)).toBeUndefined();
    expect(peerProxyFor('10.2.0.3:7000', env)).toEqual({ address: 'g:1' });
    // no_grpc_proxy, when set, is the list: no_proxy is not read.
    expect(peerProxyFor('a.example.com:7000', env)).toEqual({ address: 'g:1' });
    expect(
      peerProxyFor('a.example.com:7000', { grpc_proxy: 'http://g:1', no_proxy: 'example.com' }),
    ).toBeUndefined();
    expect(peerProxyFor('[::1]:7000', { grpc_proxy: 'http://g:1', no_proxy: '::1' })).toBeUndefined();
  });

  it('messages go through the proxy; while it refuses, the peer is unreachable and nothing arrives; then they flow again', async () => {
    const proxy = await startTestProxy();
    cleanup.push(() => proxy.close());
    proxyEnv({ grpc_proxy: proxy.url });
    const a = await node('a', ['b']);
    const b = await node('b', ['a']);
    a.transport.setPeer('b', b.address);
    a.transport.send([message('a', 'b', { index: 1 })]);
    await until(() => b.handler.received.length === 1);
    expect(proxy.tunnels).toEqual([b.address]);

    // The link is cut: the open tunnel closes and new ones are refused.
    proxy.refuse(true);
    await until(() => a.handler.unreachable.includes('b'));
    for (let i = 2; i <= 5; i++) {
      a.transport.send([message('a', 'b', { index: i })]);
      await new Promise((r) => setTimeout(r, 50));
    }
    await new Promise((r) => setTimeout(r, 300));
    expect(b.handler.received.map((m) => m.index)).toEqual([1]);

    proxy.refuse(false);
    await until(() => b.handler.received.length === 5);
    expect(b.handler.received.map((m) => m.index)).toEqual([1, 2, 3, 4, 5]);
    expect(proxy.tunnels.length).toBeGreaterThanOrEqual(2);
    expect(new Set(proxy.tunnels)).toEqual(new Set([b.address]));
  });

  it('a host named by no_grpc_proxy is reached directly', async () => {
    const proxy = await startTestProxy();
    cleanup.push(() => proxy.close());
    proxyEnv({ grpc_proxy: proxy.url, no_grpc_proxy: '127.0.0.1' });
    const a = await node('a', ['b']);
    const b = await node('b', ['a']);
    a.transport.setPeer('b', b.address);
    a.transport.send([message('a', 'b')]);
    await until(() => b.handler.received.length === 1);
    expect(proxy.tunnels).toEqual([]);
  });
});
