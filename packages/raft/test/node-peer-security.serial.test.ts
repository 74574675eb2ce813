// What an attacker on the peer network can do to real RaftNodes (real files,
// gRPC over loopback) with one forged batch: nothing. Only members speak Raft,
// only over an authenticated connection, and only with bounded terms.
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MAX_TERM } from '../src/core/raft-core.js';
import { writeFileAtomic } from '../src/log/atomic-file.js';
import { encodeHardState, HARD_STATE_FILE } from '../src/log/hard-state.js';
import { RaftNode } from '../src/node/raft-node.js';
import { silentLogger } from '../src/transport/logger.js';
import { PeerTls, StaticTlsSource } from '../src/transport/tls.js';
import { message } from '../src/types.js';
import { encodePut, KvStateMachine } from './fixtures/kv-state-machine.js';
import { NodeGroup, sendRaw, sleep } from './fixtures/node-group.js';
import { type CertFiles, TestCa } from './support/certs.js';

/** Long enough for a forged leader's heartbeat to have moved a node, short against an election timeout. */
const SETTLE_MS = 300;

let group: NodeGroup | undefined;
afterEach(async () => {
  await group?.close();
  group = undefined;
});

async function stableCluster(transport?: Parameters<typeof NodeGroup.start>[1]) {
  group = await NodeGroup.start(['a', 'b', 'c'], transport);
  await group.write(5);
  const leader = await group.leader();
  const follower = [...group.nodes.values()].find((n) => n !== leader);
  if (!follower) throw new Error('no follower');
  return { g: group, leader, follower, before: await group.snapshot() };
}

describe('peer admission: only members speak Raft, with bounded terms', () => {
  it('a heartbeat at term + 1 from an id that is no member forces no election: every term and leader stay', async () => {
    const { g, leader, follower, before } = await stableCluster();
    const term = leader.node.status().term;
    for (const target of [leader, follower]) {
      const to = target.node.id;
      const status = await sendRaw(target.node.peerAddress, {
        from: 'evil',
        messages: [message({ type: 'heartbeat', from: 'evil', to, term: term + 1 })],
      });
      expect(status.code).toBe(grpc.status.PERMISSION_DENIED);
      expect(status.details).toContain('"evil" is not a member');
    }
    await sleep(SETTLE_MS);
    expect(await g.snapshot()).toEqual(before);
    expect(leader.node.status().counters.peerRefused['not-member']).toBe(1);
  }, 60_000);

  it('an append from a non-member that would overwrite the log is refused; the state digest is unchanged', async () => {
    const { g, leader, before } = await stableCluster();
    const s = leader.node.status();
    for (const target of g.nodes.values()) {
      const status = await sendRaw(target.node.peerAddress, {
        from: 'evil',
        messages: [
          message({
            type: 'append',
            from: 'evil',
            to: target.node.id,
            term: s.term + 100,
            index: s.commit,
            logTerm: s.term,
            commit: s.commit + 1,
            entries: [
              {
                term: s.term + 100,
                index: s.commit + 1,
                type: 'normal',
                data: encodePut('k0', Buffer.from('x')),
              },
            ],
          }),
        ],
      });
      expect(status.code).toBe(grpc.status.PERMISSION_DENIED);
    }
    await sleep(SETTLE_MS);
    expect(await g.snapshot()).toEqual(before);
    expect(Buffer.from((await leader.sm.get('k0')) ?? []).toString()).toBe('v0');
  }, 60_000);

  it('a heartbeat at term 2^53 - 1 is refused even under a member id: terms and leader stay, the refusal is counted', async () => {
    const { g, leader, follower, before } = await stableCluster();
    const claimed = [...g.nodes.keys()].find(
      (id) => id !== leader.node.id && id !== follower.node.id,
    ) as string;
    for (const from of [claimed, 'evil']) {
      for (const target of [leader, follower]) {
        const status = await sendRaw(target.node.peerAddress, {
          from,
          messages: [message({ type: 'heartbeat', from, to: target.node.id, term: Number.MAX_SAFE_INTEGER })],
        });
        expect(status.code).toBe(grpc.status.PERMISSION_DENIED);
      }
    }
    await sleep(SETTLE_MS);
    expect(await g.snapshot()).toEqual(before);
    expect(leader.node.status().counters.peerRefused['term-bound']).toBe(1);
    // The cluster still commits.
    await g.write(1, 'after');
  }, 60_000);

  it('a term more than MAX_TERM_AHEAD past the node’s own is refused, even from a member', async () => {
    const { g, leader, follower, before } = await stableCluster();
    const term = leader.node.status().term;
    const from = leader.node.id;
    const status = await sendRaw(follower.node.peerAddress, {
      from,
      messages: [message({ type: 'heartbeat', from, to: follower.node.id, term: term + 2 ** 20 + 1 })],
    });
    expect(status.code).toBe(grpc.status.PERMISSION_DENIED);
    expect(status.details).toContain('MAX_TERM_AHEAD');
    await sleep(SETTLE_MS);
    expect(await g.snapshot()).toEqual(before);
  }, 60_000);

  it('a vote request at a higher term from a member is ignored while the leader is live (leader lease)', async () => {
    const { g, leader, follower, before } = await stableCluster();
    const s = follower.node.status();
    const from = [...g.nodes.keys()].find((id) => id !== leader.node.id && id !== follower.node.id) as string;
    for (const type of ['vote', 'pre-vote'] as const) {
      const status = await sendRaw(follower.node.peerAddress, {
        from,
        messages: [
          message({
            type,
            from,
            to: follower.node.id,
            term: s.term + 1,
            index: s.lastIndex + 10,
            logTerm: s.term,
          }),
        ],
      });
      expect(status.code).toBe(0);
    }
    await sleep(SETTLE_MS);
    expect(await g.snapshot()).toEqual(before);
  }, 60_000);
});

describe('peer authentication: the cluster secret', () => {
  const secret = 'cluster-secret-0123456789';

  it('members with the secret elect and replicate; a stream without it or with another is refused before Raft sees it', async () => {
    const { g, leader, before } = await stableCluster(() => ({ secret }));
    const term = leader.node.status().term;
    const from = [...g.nodes.keys()].find((id) => id !== leader.node.id) as string;
    const heartbeat = [message({ type: 'heartbeat', from, to: leader.node.id, term: term + 1 })];
    for (const options of [{}, { secret: 'another-secret-0123456789' }]) {
      const status = await sendRaw(leader.node.peerAddress, { from, messages: heartbeat }, options);
      expect(status.code).toBe(grpc.status.UNAUTHENTICATED);
    }
    await sleep(SETTLE_MS);
    expect(await g.snapshot()).toEqual(before);
    expect(leader.node.status().counters.peerRefused.unauthenticated).toBe(2);
  }, 60_000);
});

describe('peer authentication: mutual TLS', () => {
  let dir: string;
  let ca: TestCa;
  const certs: Record<string, CertFiles> = {};

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'fermata-peer-security-tls-'));
    ca = new TestCa(join(dir, 'ca'));
    for (const id of ['a', 'b', 'c']) certs[id] = ca.issue(id, { dns: [id], uri: [`fermata-peer:${id}`] });
    // Client certificates of the same CA: one names an application, one happens to name member b.
    certs['app1'] = ca.issue('app1', { dns: ['app1'] });
    certs['client-b'] = ca.issue('client-b', { dns: ['b'] });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const tlsOf = (files: CertFiles) =>
    new PeerTls(
      new StaticTlsSource({
        cert: readFileSync(files.cert),
        key: readFileSync(files.key),
        ca: readFileSync(ca.cert),
      }),
    );

  it('a client certificate of the cluster CA cannot speak as a member or as itself: no fermata-peer URI SAN', async () => {
    const { leader, before, g } = await stableCluster((id) => ({ tls: tlsOf(certs[id] as CertFiles) }));
    const term = leader.node.status().term;
    const to = leader.node.id;
    for (const [cert, from] of [
      ['app1', 'app1'],
      ['client-b', 'b'],
    ] as const) {
      const files = certs[cert] as CertFiles;
      // The attacker does not check who the server is; only the server's check matters here.
      const credentials = grpc.credentials.createSsl(
        readFileSync(ca.cert),
        readFileSync(files.key),
        readFileSync(files.cert),
        { checkServerIdentity: () => undefined },
      );
      const status = await sendRaw(
        leader.node.peerAddress,
        { from, messages: [message({ type: 'heartbeat', from, to, term: term + 500 })] },
        { credentials },
      );
      expect(status.code).toBe(grpc.status.PERMISSION_DENIED);
      expect(status.details).toContain('not a peer certificate');
    }
    await sleep(SETTLE_MS);
    expect(await g.snapshot()).toEqual(before);
  }, 60_000);
});

describe('stored terms', () => {
  it('a node whose hard state holds a term it cannot increment refuses to start and names the repair command', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fermata-max-term-'));
    try {
      const raftDir = join(dir, 'raft');
      mkdirSync(raftDir, { recursive: true });
      await writeFileAtomic(
        join(raftDir, HARD_STATE_FILE),
        encodeHardState({ term: MAX_TERM, vote: '', commit: 0 }, 0),
      );
      const sm = await KvStateMachine.open(join(dir, 'kv'));
      try {
        await expect(
          RaftNode.open({
            id: 'a',
            clusterId: 'c',
            dataDir: raftDir,
            listenPeerAddress: '127.0.0.1:0',
            initialMembers: { a: { peerAddress: '127.0.0.1:1', clientAddress: '127.0.0.1:2' } },
            stateMachine: sm,
            log: silentLogger,
          }),
        ).rejects.toThrow(/fermata repair reset-term/);
      } finally {
        await sm.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
