// Membership rules of the shipped driver, as scenarios: real RaftNodes (peer
// admission included) on simulated disks, network and virtual time (DriverCluster).
import { describe, expect, it } from 'vitest';
import { DriverCluster } from '../src/sim/driver-cluster.js';
import type { Message } from '../src/types.js';

const THREE = ['n1', 'n2', 'n3'];
const ignore = () => undefined;

describe('a leader removed from the configuration', () => {
  it('steps down one election timeout after its removal commits, though the remaining voters never send to it (broker seed 11452)', async () => {
    const c = new DriverCluster(THREE);
    await c.elect('n1');
    // No leadership transfer: the removed leader must step down by itself.
    c.drop = (m) => m.type === 'timeout-now';
    let becameLeader = 0;
    c.node('n1').on('became-leader', () => becameLeader++);
    c.node('n1').removeMember('n1').catch(ignore);
    const removedEverywhere = () => THREE.every((id) => c.core(id).status().conf.voters.join() === 'n2,n3');
    await c.until('every node to apply the removal', removedEverywhere);
    await c.run(3_000);
    const n1 = c.core('n1').status();
    expect(n1.role).toBe('follower');
    const leaders = ['n2', 'n3'].filter((id) => c.core(id).status().role === 'leader');
    expect(leaders).toHaveLength(1);
    expect(c.core(leaders[0]!).status().term).toBeGreaterThan(n1.term);
    expect(becameLeader).toBe(0);
    // The removed node never campaigns: its term stays where its leadership ended.
    await c.run(3_000);
    expect(c.core('n1').status()).toMatchObject({ role: 'follower', term: n1.term });
  });

  it('that won an election without knowing of its removal leads only to hand over: it never reports became-leader', async () => {
    const c = new DriverCluster(THREE);
    await c.elect('n1');
    // n1 commits the removal of n3 with n3's acknowledgement; n3 never hears the commit
    // and n2 hears nothing.
    c.drop = (m) => m.to === 'n2' || (m.from === 'n1' && m.to === 'n3' && m.entries.length === 0);
    const removal = c.core('n1').lastIndex() + 1;
    c.node('n1').removeMember('n3').catch(ignore);
    await c.until('the removal to commit', () => c.core('n1').status().commit >= removal);
    c.crashNode('n1');
    c.drop = () => false;
    let becameLeader = 0;
    c.node('n3').on('became-leader', () => becameLeader++);
    // n2 still counts n3 and its log is shorter: n3 wins, and committing its first entry
    // commits its own removal.
    await c.until('n3 to lead', () => c.core('n3').status().role === 'leader');
    await c.until('n3 to apply its removal', () => c.core('n3').status().conf.voters.join() === 'n1,n2');
    await c.run(3_000);
    expect(becameLeader).toBe(0);
    expect(c.core('n3').status().role).toBe('follower');
  });
});

describe('a member added again under its id on an empty disk', () => {
  it('never campaigns on the configurations its catch-up passes through, where the removed member of its id was a voter (simulator seed 123)', async () => {
    // n1 is removed, its volume lost, and added back under its id (docs/operations.md,
    // "Replacing a lost node"). Catching up, it takes entries 1-2 (the bootstrap's add and
    // promote of n1: a configuration whose only voter is n1) with a commit index past them,
    // then hears nothing more from the leader.
    const c = new DriverCluster(THREE);
    await c.elect('n2');
    let removed = false;
    c.node('n2')
      .removeMember('n1')
      .then(() => (removed = true), ignore);
    await c.until('n1 to be removed', () => removed);
    c.crashNode('n1');
    const firstAppend: Message[] = [];
    c.drop = (m) => {
      if (m.to !== 'n1' || m.type !== 'append' || m.entries.length === 0)
        return m.to === 'n1' && firstAppend.length > 0;
      if (firstAppend.length === 0) firstAppend.push(m);
      return true;
    };
    c.join('n1');
    c.node('n2').addMember('n1', 'n1', 'n1', { learnerOnly: true }).catch(ignore);
    await c.until('the leader to send n1 the log', () => firstAppend.length > 0);
    const append = firstAppend[0]!;
    expect(append.index).toBe(0);
    c.deliver({ ...append, entries: append.entries.slice(0, 2) });
    await c.run(50);
    expect(c.core('n1').status()).toMatchObject({ commit: 2, conf: { voters: ['n1'] } });
    // Cut off from the leader for many election timeouts: it must not lead.
    await c.run(3_000);
    expect(c.core('n1').status().role).not.toBe('leader');
    expect(c.core('n1').status().role).not.toBe('candidate');
  });
});
