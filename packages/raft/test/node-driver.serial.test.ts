// The node driver's promises, membership changes, transfers and reads, with
// several RaftNodes in this process talking gRPC over loopback, on real files.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { NotLeaderError } from '../src/core/errors.js';
import { LogStore } from '../src/log/log-store.js';
import { SnapshotFiles } from '../src/log/snapshot-store.js';
import { NodeClosedError, ProposalDroppedError } from '../src/node/errors.js';
import type { MemberAddresses } from '../src/node/members.js';
import { RaftNode } from '../src/node/raft-node.js';
import { withHeader } from '../src/node/snapshot-data.js';
import { silentLogger } from '../src/transport/logger.js';
import { message } from '../src/types.js';
import { encodePut, KvStateMachine } from './fixtures/kv-state-machine.js';

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(what: string, f: () => T | undefined | false, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = f();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

interface Running {
  node: RaftNode;
  sm: KvStateMachine;
}

class LocalCluster {
  readonly nodes = new Map<string, Running>();
  readonly members: Record<string, MemberAddresses> = {};
  readonly dir = mkdtempSync(join(tmpdir(), 'fermata-driver-'));

  async add(id: string, options: { join?: boolean } = {}): Promise<Running> {
    this.members[id] ??= {
      peerAddress: `127.0.0.1:${await freePort()}`,
      clientAddress: `client-of-${id}:7000`,
    };
    const sm = await KvStateMachine.open(join(this.dir, id, 'kv'));
    const node = await RaftNode.open({
      id,
      clusterId: 'driver-test',
      dataDir: join(this.dir, id, 'raft'),
      listenPeerAddress: this.members[id].peerAddress,
      initialMembers: options.join ? { ...this.members } : this.bootstrap,
      stateMachine: sm,
      log: silentLogger,
      ...(options.join ? { join: true } : {}),
    });
    const running = { node, sm };
    this.nodes.set(id, running);
    return running;
  }

  bootstrap: Record<string, MemberAddresses> = {};

  async start(ids: string[]): Promise<void> {
    for (const id of ids) {
      this.members[id] = {
        peerAddress: `127.0.0.1:${await freePort()}`,
        clientAddress: `client-of-${id}:7000`,
      };
    }
    this.bootstrap = { ...this.members };
    await Promise.all(ids.map((id) => this.add(id)));
  }

  leader(): Promise<Running> {
    return until('a leader', () => [...this.nodes.values()].find((r) => r.node.status().role === 'leader'));
  }

  async stop(id: string): Promise<void> {
    const r = this.nodes.get(id);
    if (!r) return;
    this.nodes.delete(id);
    await r.node.close();
    await r.sm.close();
  }

  async close(): Promise<void> {
    await Promise.all([...this.nodes.keys()].map((id) => this.stop(id)));
    rmSync(this.dir, { recursive: true, force: true });
  }
}

let cluster: LocalCluster | undefined;
afterEach(async () => {
  await cluster?.close();
  cluster = undefined;
});

describe('RaftNode', () => {
  it('resolves a proposal with the apply result on the leader and refuses it on a follower, naming the leader and its address', async () => {
    cluster = new LocalCluster();
    await cluster.start(['a', 'b', 'c']);
    const leader = await cluster.leader();
    const index = await leader.node.propose(encodePut('x', Buffer.from('1')));
    expect(typeof index).toBe('number');
    // Durability 'leader' answers once the leader's log has the entry; it still commits and applies.
    expect(
      await leader.node.propose(encodePut('fast', Buffer.from('1')), { durability: 'leader' }),
    ).toBeUndefined();
    // It is not committed yet when that answer comes (a read index may precede it); a
    // quorum proposal after it resolves once it is applied, and entries apply in order.
    await leader.node.propose(encodePut('after-fast', Buffer.from('1')));
    expect(Buffer.from((await leader.sm.get('fast')) ?? []).toString()).toBe('1');
    const follower = [...cluster.nodes.values()].find((r) => r !== leader) as Running;
    const error = await follower.node.propose(encodePut('y', Buffer.from('2'))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotLeaderError);
    expect(error).toBeInstanceOf(NotLeaderError);
    expect((error as NotLeaderError).leader).toBe(leader.node.id);
    expect((error as NotLeaderError).leaderAddress).toBe(`client-of-${leader.node.id}:7000`);
    const status = follower.node.status();
    expect(status.leader).toBe(leader.node.id);
    expect(status.leaderAddress).toBe(`client-of-${leader.node.id}:7000`);
  });

  it('a read index resolves only once this node has applied it, on the leader and on a follower', async () => {
    cluster = new LocalCluster();
    await cluster.start(['a', 'b', 'c']);
    const leader = await cluster.leader();
    const written = (await leader.node.propose(encodePut('r', Buffer.from('v')))) as number;
    for (const r of cluster.nodes.values()) {
      const index = await r.node.readIndex();
      expect(index).toBeGreaterThanOrEqual(written);
      expect(r.node.status().applied).toBeGreaterThanOrEqual(index);
      expect(Buffer.from((await r.sm.get('r')) ?? []).toString()).toBe('v');
    }
  });

  it('leaves no proposal hanging when the leader loses its quorum: they are rejected as dropped', async () => {
    cluster = new LocalCluster();
    await cluster.start(['a', 'b', 'c']);
    const leader = await cluster.leader();
    await leader.node.propose(encodePut('warm', Buffer.from('up')));
    const lost = new Promise((resolve) => leader.node.once('lost-leadership', resolve));
    for (const id of [...cluster.nodes.keys()]) if (id !== leader.node.id) await cluster.stop(id);
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        leader.node.propose(encodePut(`p${i}`, Buffer.from('x'))).then(
          () => 'applied',
          (e: unknown) => e,
        ),
      ),
    );
    await lost;
    for (const outcome of outcomes) {
      expect(outcome).toBeInstanceOf(ProposalDroppedError);
      expect((outcome as ProposalDroppedError).definite).toBe(false);
    }
    // And closing rejects whatever is still pending or new.
    await cluster.stop(leader.node.id);
    await expect(leader.node.propose(encodePut('late', Buffer.from('x')))).rejects.toBeInstanceOf(
      NodeClosedError,
    );
  }, 30_000);

  it('adds a member as a learner, promotes it once caught up, and removes it again', async () => {
    cluster = new LocalCluster();
    await cluster.start(['a', 'b', 'c']);
    const leader = await cluster.leader();
    for (let i = 0; i < 50; i++) await leader.node.propose(encodePut(`m${i}`, Buffer.from('v')));
    const d = await cluster.add('d', { join: true });
    const address = cluster.members['d'] as MemberAddresses;
    const members = await leader.node.addMember('d', address.peerAddress, address.clientAddress);
    expect(members.find((m) => m.id === 'd')).toMatchObject({
      voter: true,
      clientAddress: address.clientAddress,
    });
    await until('d to apply the promotion', () => d.node.status().members.find((m) => m.id === 'd')?.voter);
    expect(Buffer.from((await d.sm.get('m49')) ?? []).toString()).toBe('v');
    // The new member learned everyone's addresses from the log.
    expect(
      d.node
        .status()
        .members.map((m) => m.id)
        .sort(),
    ).toEqual(['a', 'b', 'c', 'd']);

    const after = await leader.node.removeMember('d');
    expect(after.map((m) => m.id).sort()).toEqual(['a', 'b', 'c']);
    // Its peer batches of the removal's term (or older) are refused from now on, even ones a
    // leader would send and vote requests; a later term may be a member added again under
    // its id, which the core judges.
    const term = leader.node.status().term;
    const heartbeat = message({ type: 'heartbeat', from: 'd', to: leader.node.id, term });
    expect(leader.node.admit('d', [heartbeat]).admitted).toBe(false);
    expect(leader.node.admit('d', [{ ...heartbeat, type: 'pre-vote', term: term - 1 }]).admitted).toBe(false);
    expect(leader.node.admit('d', [{ ...heartbeat, term: term + 1 }]).admitted).toBe(true);
    expect(leader.node.admit('b', [{ ...heartbeat, from: 'b' }]).admitted).toBe(true);
    // A stranger's leader messages are refused (plaintext), its vote requests go to the core.
    expect(leader.node.admit('zz', [{ ...heartbeat, from: 'zz' }]).admitted).toBe(false);
    expect(leader.node.admit('zz', [{ ...heartbeat, type: 'vote', from: 'zz' }]).admitted).toBe(true);
  }, 60_000);

  it('transfers leadership to the chosen voter and reports it through events', async () => {
    cluster = new LocalCluster();
    await cluster.start(['a', 'b', 'c']);
    const leader = await cluster.leader();
    await leader.node.propose(encodePut('t', Buffer.from('1')));
    const target = [...cluster.nodes.values()].find((r) => r !== leader) as Running;
    const became = new Promise<{ term: number }>((resolve) => target.node.once('became-leader', resolve));
    const lost = new Promise((resolve) => leader.node.once('lost-leadership', resolve));
    expect(await leader.node.transferLeadership(target.node.id)).toBe(target.node.id);
    const { term } = await became;
    await lost;
    expect(term).toBeGreaterThan(0);
    expect(target.node.isLeader()).toBe(true);
    await expect(target.node.propose(encodePut('t2', Buffer.from('2')))).resolves.toBeTypeOf('number');
  });

  it('an idle node takes the snapshot its last apply made due (no later Ready is needed)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fermata-driver-idle-'));
    const peerAddress = `127.0.0.1:${await freePort()}`;
    const sm = await KvStateMachine.open(join(dir, 'kv'));
    const node = await RaftNode.open({
      id: 'solo',
      clusterId: 'idle',
      dataDir: join(dir, 'raft'),
      listenPeerAddress: peerAddress,
      initialMembers: { solo: { peerAddress, clientAddress: 'solo:1' } },
      stateMachine: sm,
      log: silentLogger,
      snapshotEveryEntries: 100,
    });
    try {
      await until('leadership', () => node.isLeader());
      // The leader's no-op and these 99 reach the policy only with the last apply, which ends
      // after its Ready was handled; a single node then has no further Ready.
      await Promise.all(
        Array.from({ length: 99 }, (_, i) => node.propose(encodePut(`i${i}`, Buffer.from('v')))),
      );
      await until('a snapshot', () => node.status().counters.snapshotsTaken > 0, 5_000);
      expect(node.status().snapshotIndex).toBeGreaterThanOrEqual(100);
    } finally {
      await node.close();
      await sm.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('takes snapshots every N entries, compacts behind them, and rebuilds a lost state machine from the snapshot plus the log; finishes an interrupted snapshot record at start-up', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fermata-driver-single-'));
    const peerAddress = `127.0.0.1:${await freePort()}`;
    const open = async () => {
      const sm = await KvStateMachine.open(join(dir, 'kv'));
      const node = await RaftNode.open({
        id: 'solo',
        clusterId: 'single',
        dataDir: join(dir, 'raft'),
        listenPeerAddress: peerAddress,
        initialMembers: { solo: { peerAddress, clientAddress: 'solo:1' } },
        stateMachine: sm,
        log: silentLogger,
        snapshotEveryEntries: 500,
        snapshotKeepEntries: 100,
        logSegmentBytes: 16 * 1024,
      });
      return { node, sm };
    };
    try {
      let { node, sm } = await open();
      await until('leadership', () => node.isLeader());
      for (let i = 0; i < 2_000; i += 100) {
        await Promise.all(
          Array.from({ length: 100 }, (_, j) =>
            node.propose(encodePut(`s${i + j}`, Buffer.from(`v${i + j}`))),
          ),
        );
      }
      await until('a snapshot and compaction', () => {
        const s = node.status();
        return s.counters.snapshotsTaken > 0 && s.firstIndex > 1 && s.snapshotIndex >= 1_500;
      });
      const before = await sm.digest();
      const status = node.status();
      expect(status.firstIndex).toBeLessThanOrEqual(status.snapshotIndex - 100 + 1);
      await node.close();
      await sm.close();

      // The state machine's store is gone: the node restores it from the snapshot file, then replays the log.
      rmSync(join(dir, 'kv'), { recursive: true, force: true });
      ({ node, sm } = await open());
      await until('replay', () => node.status().applied >= before.applied);
      // Same data (the new term's no-op moves the applied index by one).
      expect(await sm.digest()).toMatchObject({ digest: before.digest, count: 2_000 });
      await until('leadership again', () => node.isLeader());
      await node.propose(encodePut('mid', Buffer.from('x')));
      await node.close();

      // A crash between writing a snapshot file and recording it in the log:
      // start-up finds the file ahead of the log's snapshot meta and records it.
      const logStore = LogStore.open({ dir: join(dir, 'raft'), segmentBytes: 16 * 1024 });
      const taken = await sm.snapshot();
      const meta = {
        index: taken.index,
        term: logStore.term(taken.index) as number,
        conf: { voters: ['solo'], learners: [] },
      };
      expect(meta.index).toBeGreaterThan(logStore.snapshotMeta().index);
      await new SnapshotFiles(join(dir, 'raft', 'snapshot')).write(
        meta,
        withHeader({ members: { solo: { peerAddress, clientAddress: 'solo:1' } } }, taken.chunks),
      );
      await logStore.close();
      await sm.close();
      ({ node, sm } = await open());
      expect(node.status().snapshotIndex).toBe(meta.index);
      await until('leadership again', () => node.isLeader());
      await node.propose(encodePut('after', Buffer.from('restart')));
      expect((await sm.digest()).count).toBe(2_002);
      await node.close();
      await sm.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
