/**
 * A cluster whose hard states hold a term that can never be incremented (what
 * one forged heartbeat at 2^53 - 1 left behind before terms were bounded):
 * its nodes refuse to start and name the repair; `fermata repair reset-term`
 * on each stopped node brings the term back above the log's, and the cluster
 * elects a leader again with its messages intact.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HardStateFile } from '../../packages/raft/src/log/hard-state.js';
import { type Cluster, NodeClients, REPO_ROOT, startCluster } from '../src/index.js';
import { counts, msg } from './support.js';

const TOPIC = 'survives-repair';
const HUGE_TERM = Number.MAX_SAFE_INTEGER;

function fermata(args: string[]) {
  return spawnSync(
    process.execPath,
    ['--conditions=fermata-source', '--import', 'tsx', join(REPO_ROOT, 'packages/cli/src/main.ts'), ...args],
    { cwd: REPO_ROOT, encoding: 'utf8', timeout: 60_000 },
  );
}

describe('fermata repair reset-term', () => {
  let cluster: Cluster;

  beforeAll(async () => {
    cluster = await startCluster({ nodes: 3 });
    const c = new NodeClients((await cluster.leader()).clientAddress);
    try {
      await c.createTopic({ name: TOPIC });
      await c.publish({ messages: [msg(TOPIC, 'kept', { delayMs: 3_600_000 })] });
    } finally {
      c.close();
    }
  });

  afterAll(async () => {
    await cluster?.stop();
  });

  it('nodes holding term 2^53 - 1 refuse to start naming the repair; after it they elect a leader and keep their messages', async () => {
    for (const n of cluster.nodes) await n.stop();
    for (const n of cluster.nodes) {
      const hs = HardStateFile.open(join(n.dataDir, 'raft'));
      await hs.save({ ...hs.get(), term: HUGE_TERM, vote: '' });
    }
    const n1 = cluster.node('n1');
    await expect(n1.start()).rejects.toThrow(/fermata repair reset-term/);

    for (const n of cluster.nodes) {
      const r = fermata(['repair', 'reset-term', '--data', n.dataDir, '--json']);
      expect(r.status, r.stderr).toBe(0);
      const out = JSON.parse(r.stdout) as {
        before: { term: number };
        after: { term: number };
        lastLogTerm: number;
      };
      expect(out.before.term).toBe(HUGE_TERM);
      expect(out.after.term).toBe(out.lastLogTerm + 1);
      // A second run finds nothing to repair and changes nothing.
      const again = fermata(['repair', 'reset-term', '--data', n.dataDir]);
      expect(again.status).toBe(5);
      expect(again.stderr).toMatch(/within bounds.*nothing to repair/);
    }

    for (const n of cluster.nodes) await n.start();
    const c = new NodeClients((await cluster.leader()).clientAddress);
    try {
      expect((await counts(c, TOPIC))?.['default']?.pending).toBe(1);
    } finally {
      c.close();
    }
  });

  it('refuses to touch the data directory of a running node', () => {
    const n = cluster.nodes[0];
    if (!n) throw new Error('no node');
    const r = fermata(['repair', 'reset-term', '--data', n.dataDir, '--force']);
    expect(r.status).toBe(5);
    expect(r.stderr).toMatch(/a node is running on .*stop it first/);
  });
});
