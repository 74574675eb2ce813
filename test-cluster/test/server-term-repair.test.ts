/**
 * A cluster whose hard states hold a term that can never be incremented (what
 * one forged heartbeat at 2^53 - 1 left behind before terms were bounded):
 * its nodes refuse to start and name the repair; `fermata repair reset-term`
 * on each stopped node brings the term back above the log's and above every
 * term the node voted in, and the cluster elects a leader again with its
 * messages intact. A hard state written before votes were recorded needs the
 * other members (`--endpoints`): the term goes above the highest a majority
 * of them reports.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeRecord, writeFileAtomic } from '../../packages/raft/src/log/atomic-file.js';
import { HARD_STATE_FILE, HardStateFile } from '../../packages/raft/src/log/hard-state.js';
import { type Cluster, fermataArgv, NodeClients, REPO_ROOT, startCluster } from '../src/index.js';
import { counts, msg } from './support.js';

const TOPIC = 'survives-repair';
const HUGE_TERM = Number.MAX_SAFE_INTEGER;

function fermata(args: string[]) {
  return spawnSync(process.execPath, fermataArgv(args), {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    timeout: 60_000,
  });
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
        votedTerm: number;
      };
      expect(out.before.term).toBe(HUGE_TERM);
      // Each node voted in the elections it took part in: the repair goes above those terms.
      expect(out.votedTerm).toBeGreaterThan(0);
      expect(out.after.term).toBe(Math.max(out.lastLogTerm, out.votedTerm) + 1);
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

  it('a hard state written before votes were recorded is repaired above the term a majority of the others reports', async () => {
    const n1 = cluster.node('n1');
    await n1.stop();
    const raftDir = join(n1.dataDir, 'raft');
    const old = HardStateFile.open(raftDir).get();
    // The older format: term, vote and commit only; the votes it cast are bounded by its term alone.
    await writeFileAtomic(
      join(raftDir, HARD_STATE_FILE),
      encodeRecord(Buffer.from(JSON.stringify({ term: HUGE_TERM, vote: '', commit: old.commit }))),
    );
    const alone = fermata(['repair', 'reset-term', '--data', n1.dataDir]);
    expect(alone.status).toBe(5);
    expect(alone.stderr).toMatch(/may have voted in any term up to .*--endpoints/);
    // n1 is stopped: only n2 answers, one of three voters.
    const few = fermata([
      'repair',
      'reset-term',
      '--data',
      n1.dataDir,
      '--endpoints',
      cluster.node('n2').clientAddress,
    ]);
    expect(few.status).toBe(4);
    expect(few.stderr).toMatch(/a majority of the voters \(2 of 3/);
    const others = ['n2', 'n3'].map((id) => cluster.node(id).clientAddress).join(',');
    const r = fermata(['repair', 'reset-term', '--data', n1.dataDir, '--endpoints', others, '--json']);
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { after: { term: number }; clusterTerm: number; lastLogTerm: number };
    expect(out.after.term).toBe(Math.max(out.clusterTerm, out.lastLogTerm) + 1);
    await n1.start();
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
