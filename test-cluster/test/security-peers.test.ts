/**
 * Peers of real `fermata serve` processes: over mutual TLS the members whose
 * certificates name them form the cluster and replicate; a member whose
 * certificate names another node is refused (and logged) and never joins; a
 * node configured with another cluster id, or another cluster secret, cannot
 * join either.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Long, v1 } from '@fermata/protocol';
import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestCa } from '../../packages/raft/test/support/certs.js';
import { type Cluster, NodeClients, sendRaftBatch, sleep, startCluster } from '../src/index.js';

/** How long a refused node is watched for (it must stay out the whole time). */
const OBSERVE_MS = 3_000;

async function rejectedLines(cluster: Cluster, pattern: RegExp, timeoutMs = 20_000, skip = ['n3']) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const lines = cluster.nodes
      .filter((n) => !skip.includes(n.id))
      .flatMap((n) => n.logLines('raft batch rejected'))
      .filter((l) => pattern.test(String(l['details'])));
    if (lines.length > 0 || Date.now() > deadline) return lines;
    await sleep(100);
  }
}

describe('peers over mutual TLS', () => {
  let dir: string;
  let cluster: Cluster;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fermata-sec-peers-'));
    const ca = new TestCa(join(dir, 'ca'));
    const files = (id: string, names: string[]) => {
      const c = ca.issue(id, { dns: names, uri: [`fermata-peer:${id}`] });
      return {
        FERMATA_PEER__TLS__CERT_FILE: c.cert,
        FERMATA_PEER__TLS__KEY_FILE: c.key,
        FERMATA_PEER__TLS__CA_FILE: ca.cert,
      };
    };
    cluster = await startCluster({
      nodes: 3,
      // n3's certificate names somebody else.
      nodeEnv: { n1: files('n1', ['n1']), n2: files('n2', ['n2']), n3: files('n3-wrong', ['n9']) },
    });
  });

  afterAll(async () => {
    await cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('members whose certificates name them elect a leader and replicate; a certificate naming another node is refused', async () => {
    const leader = await cluster.leader();
    expect(['n1', 'n2']).toContain(leader.id);
    const c = new NodeClients(leader.clientAddress);
    try {
      await c.publish({ messages: [{ topic: 'peers-tls', payload: Buffer.from('replicated') }] });
      const deadline = Date.now() + 20_000;
      let follower: { matchIndex?: unknown } | undefined;
      for (;;) {
        const info = await c.clusterInfo();
        const commit = Number(info.commitIndex);
        follower = info.members.find((m) => m.id !== leader.id && m.id !== 'n3');
        if (Number(follower?.matchIndex) >= commit || Date.now() > deadline) break;
        await sleep(100);
      }
      const info = await c.clusterInfo();
      expect(Number(follower?.matchIndex)).toBeGreaterThanOrEqual(Number(info.commitIndex));
      expect(Number(info.members.find((m) => m.id === 'n3')?.matchIndex ?? 0)).toBe(0);
    } finally {
      c.close();
    }
    const lines = await rejectedLines(
      cluster,
      /certificate \(DNS:n9, URI:fermata-peer:n3-wrong\) does not name peer "n3"/,
    );
    expect(lines.length, cluster.logs()).toBeGreaterThan(0);
    await sleep(OBSERVE_MS);
    const n3 = await cluster.node('n3').status();
    expect(n3?.ready).toBe(false);
    expect(n3?.leaderId ?? '').toBe('');
  });
});

describe('peers over mutual TLS: client certificates', () => {
  let dir: string;
  let cluster: Cluster;
  let ca: TestCa;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fermata-sec-peers-client-'));
    ca = new TestCa(join(dir, 'ca'));
    const env = (id: string) => {
      const c = ca.issue(id, { dns: [id], uri: [`fermata-peer:${id}`] });
      return {
        FERMATA_PEER__TLS__CERT_FILE: c.cert,
        FERMATA_PEER__TLS__KEY_FILE: c.key,
        FERMATA_PEER__TLS__CA_FILE: ca.cert,
      };
    };
    cluster = await startCluster({ nodes: 3, nodeEnv: { n1: env('n1'), n2: env('n2'), n3: env('n3') } });
  });

  afterAll(async () => {
    await cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('an application’s client certificate of the same CA speaks Raft neither as itself nor as the member it names', async () => {
    const leader = await cluster.leader();
    const before = await leader.status();
    if (!before) throw new Error('no status');
    // SAN app1 as in an application's certificate, and one that happens to name a member.
    const follower = cluster.others(leader)[0]?.id as string;
    for (const [name, from] of [
      ['app1', 'app1'],
      [`client-${follower}`, follower],
    ] as const) {
      const cert = ca.issue(name, { dns: [from] });
      const credentials = grpc.credentials.createSsl(
        readFileSync(ca.cert),
        readFileSync(cert.key),
        readFileSync(cert.cert),
        { checkServerIdentity: () => undefined },
      );
      const heartbeat = {
        type: v1.RaftMessageType.RAFT_MESSAGE_TYPE_HEARTBEAT,
        from,
        to: leader.id,
        term: Long.fromNumber(before.term + 500, true),
      };
      const code = await sendRaftBatch(
        leader.peerAddress,
        { clusterId: 'fermata-test', from, messages: [heartbeat] },
        { credentials },
      );
      expect(code, name).toBe(grpc.status.PERMISSION_DENIED);
    }
    const lines = await rejectedLines(cluster, /not a peer certificate/, 5_000, []);
    expect(lines.length, cluster.logs()).toBe(2);
    await sleep(1_000);
    const after = await leader.status();
    expect({ role: after?.role, term: after?.term }).toEqual({ role: 'leader', term: before.term });
  });
});

describe('peers of another cluster', () => {
  let cluster: Cluster;

  beforeAll(async () => {
    cluster = await startCluster({ nodes: 3, nodeEnv: { n3: { FERMATA_CLUSTER_ID: 'someone-else' } } });
  });

  afterAll(async () => {
    await cluster?.stop();
  });

  it('a node with another cluster id is refused, logged, and never joins', async () => {
    const leader = await cluster.leader();
    expect(['n1', 'n2']).toContain(leader.id);
    const lines = await rejectedLines(cluster, /cluster id "someone-else" is not this cluster/);
    expect(lines.length, cluster.logs()).toBeGreaterThan(0);
    await sleep(OBSERVE_MS);
    const n3 = await cluster.node('n3').status();
    expect(n3?.ready).toBe(false);
    expect(n3?.leaderId ?? '').toBe('');
    const c = new NodeClients(leader.clientAddress);
    try {
      const info = await c.clusterInfo();
      expect(Number(info.members.find((m) => m.id === 'n3')?.matchIndex ?? 0)).toBe(0);
    } finally {
      c.close();
    }
  });
});

describe('peers with a cluster secret', () => {
  let dir: string;
  let cluster: Cluster;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fermata-sec-secret-'));
    const secret = (name: string, value: string) => {
      const file = join(dir, name);
      writeFileSync(file, `${value}\n`);
      return { FERMATA_PEER__SECRET_FILE: file };
    };
    const shared = secret('shared', 'the-cluster-secret-0123456789');
    cluster = await startCluster({
      nodes: 3,
      nodeEnv: { n1: shared, n2: shared, n3: secret('other', 'another-secret-0123456789') },
    });
  });

  afterAll(async () => {
    await cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('members with the secret form the cluster; a node with another secret is refused, logged, and never joins', async () => {
    const leader = await cluster.leader();
    expect(['n1', 'n2']).toContain(leader.id);
    const c = new NodeClients(leader.clientAddress);
    try {
      await c.publish({ messages: [{ topic: 'peers-secret', payload: Buffer.from('replicated') }] });
    } finally {
      c.close();
    }
    const deadline = Date.now() + 20_000;
    let refused: unknown[] = [];
    while (refused.length === 0 && Date.now() < deadline) {
      refused = cluster.nodes
        .filter((n) => n.id !== 'n3')
        .flatMap((n) => n.logLines('raft peer stream refused'))
        .filter((l) => /wrong cluster secret/.test(String(l['details'])));
      await sleep(100);
    }
    expect(refused.length, cluster.logs()).toBeGreaterThan(0);
    await sleep(OBSERVE_MS);
    const n3 = await cluster.node('n3').status();
    expect(n3?.ready).toBe(false);
    expect(n3?.leaderId ?? '').toBe('');
    // The refused node says so too (a warning, not a silent retry).
    const ended = cluster.node('n3').logLines('raft peer stream ended');
    expect(
      ended.some((l) => l['code'] === 16),
      cluster.logs(),
    ).toBe(true);
  });
});
