import { describe, expect, it } from 'vitest';
import { ManualCluster } from '../src/sim/manual-cluster.js';

const ABC = ['a', 'b', 'c'];

/** 'a' leads; 'c' is down while 'a' commits 10 entries and compacts its log past them. */
function laggingFollower(): ManualCluster {
  const c = new ManualCluster(ABC);
  c.elect('a');
  c.crash('c');
  for (let i = 0; i < 10; i++) c.propose('a', `p${i}`);
  c.stabilize();
  const a = c.node('a');
  const index = a.core.status().applied;
  a.log.compact(a.core.snapshotMetaAt(index));
  c.restart('c');
  return c;
}

describe('snapshots and compaction (§7)', () => {
  it('snapshotMetaAt gives the term and the configuration as of an index', () => {
    const c = new ManualCluster(ABC);
    c.elect('a');
    c.add('d', []);
    const before = c.core('a').status().commit;
    c.core('a').proposeConfChange({ type: 'add-learner', node: 'd' });
    c.heartbeat('a', 2);
    const after = c.core('a').status().commit;
    expect(c.core('a').snapshotMetaAt(before)).toMatchObject({
      index: before,
      conf: { voters: ABC, learners: [] },
    });
    expect(c.core('a').snapshotMetaAt(after)).toMatchObject({
      index: after,
      conf: { voters: ABC, learners: ['d'] },
    });
  });

  it('a follower that needs compacted entries is sent the snapshot (InstallSnapshot), not entries', () => {
    const c = laggingFollower();
    const toC: string[] = [];
    c.dropIf = (m) => {
      if (m.to === 'c' && (m.type === 'snapshot' || m.type === 'append'))
        toC.push(`${m.type}@${m.snapshot?.index ?? m.index}`);
      return m.to === 'c' && m.type === 'snapshot';
    };
    c.heartbeat('a', 2);
    const meta = c.node('a').log.snapshotMeta();
    expect(toC).toContain(`snapshot@${meta.index}`);
    // Only probes before the snapshot point: no entry below it is ever sent.
    expect(c.core('a').status().progress.get('c')?.state).toBe('snapshot');
  });

  it('the follower installs the snapshot: its Ready carries it, commit jumps to it, and it then replicates normally', () => {
    const c = laggingFollower();
    const meta = c.node('a').log.snapshotMeta();
    c.heartbeat('a', 2);
    c.core('a').reportSnapshot('c', true);
    c.heartbeat('a', 3);
    expect(c.node('c').log.snapshotMeta()).toEqual(meta);
    expect(c.core('c').status().commit).toBe(c.core('a').status().commit);
    expect(c.core('a').status().progress.get('c')?.state).toBe('replicate');
    c.propose('a', 'later');
    // One heartbeat round replicates it, the next announces its commit.
    c.heartbeat('a', 2);
    expect(c.appliedTexts('c')).toEqual(['later']);
  });

  it('a failed snapshot (reportSnapshot(to, false)) is retried: the follower is never left stuck', () => {
    const c = laggingFollower();
    c.dropIf = (m) => m.type === 'snapshot';
    c.heartbeat('a', 2);
    expect(c.core('a').status().progress.get('c')?.state).toBe('snapshot');
    c.core('a').reportSnapshot('c', false);
    expect(c.core('a').status().progress.get('c')?.state).toBe('probe');
    c.dropIf = () => false;
    c.heartbeat('a', 2);
    c.core('a').reportSnapshot('c', true);
    c.heartbeat('a', 3);
    expect(c.core('c').status().commit).toBe(c.core('a').status().commit);
  });

  it('a snapshot at or below the commit index is ignored (a stale InstallSnapshot changes nothing)', () => {
    const c = laggingFollower();
    c.heartbeat('a', 2);
    c.core('a').reportSnapshot('c', true);
    c.heartbeat('a', 3);
    const meta = c.node('a').log.snapshotMeta();
    const commit = c.core('c').status().commit;
    c.core('c').step({
      type: 'snapshot',
      from: 'a',
      to: 'c',
      term: c.core('a').status().term,
      logTerm: meta.term,
      index: meta.index,
      entries: [],
      commit: 0,
      reject: false,
      rejectHint: 0,
      hintTerm: 0,
      snapshot: meta,
    });
    const rd = c.core('c').ready();
    expect(rd.snapshot).toBeUndefined();
    expect(rd.persistedMessages.map((m) => m.index)).toEqual([commit]);
  });
});

describe('snapshotMetaAt while a snapshot awaits installation', () => {
  it('still answers for indexes the stable log holds (the driver may be taking its own snapshot meanwhile)', () => {
    const c = laggingFollower();
    const applied = c.core('c').status().applied;
    const meta = c.node('a').log.snapshotMeta();
    c.core('c').step({
      type: 'snapshot',
      from: 'a',
      to: 'c',
      term: c.core('a').status().term,
      logTerm: meta.term,
      index: meta.index,
      entries: [],
      commit: 0,
      reject: false,
      rejectHint: 0,
      hintTerm: 0,
      snapshot: meta,
    });
    // Accepted, not yet handed out in a Ready nor installed.
    expect(c.core('c').status().commit).toBe(meta.index);
    expect(c.core('c').snapshotMetaAt(applied)).toMatchObject({
      index: applied,
      conf: { voters: ABC, learners: [] },
    });
  });
});
