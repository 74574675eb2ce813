import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Long, type RaftClient, RaftService } from '@fermata/protocol';
import * as grpc from '@grpc/grpc-js';
import { afterEach, describe, expect, it } from 'vitest';
import { messageToWire } from '../src/transport/codec.js';
import { silentLogger } from '../src/transport/logger.js';
import { PeerTransport, type TransportHandler } from '../src/transport/peer-transport.js';
import type { Message, NodeId } from '../src/types.js';
import { admitVoters } from './support/admit.js';

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

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
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
    maxQueuedMessagesPerPeer: 64,
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
});
