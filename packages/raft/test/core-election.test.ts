import { describe, expect, it } from 'vitest';
import { MANUAL_ELECTION_TICKS, ManualCluster, message } from '../src/sim/manual-cluster.js';

const ABC = ['a', 'b', 'c'];

describe('elections (Figure 2 RequestVote, §5.2, §5.4.1)', () => {
  it('a follower that hears from no leader within its election timeout becomes a candidate: term + 1, votes for itself, asks every voter (§5.2)', () => {
    const c = new ManualCluster(ABC, { preVote: false });
    const before = c.core('a').status().term;
    c.tick('a', 20);
    expect(c.core('a').status()).toMatchObject({ role: 'candidate', term: before + 1 });
    expect(c.node('a').hardState).toMatchObject({ term: before + 1, vote: 'a' });
    const asks = c.take((m) => m.type === 'vote');
    expect(asks.map((m) => m.to).sort()).toEqual(['b', 'c']);
  });

  it('randomized election timeouts fall in [electionTicks, 2 * electionTicks) (§5.2)', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const c = new ManualCluster(['a'], { preVote: false }, seed);
      let ticks = 0;
      while (c.core('a').status().role !== 'leader') {
        c.tick('a');
        ticks++;
      }
      expect(ticks).toBeGreaterThanOrEqual(10);
      expect(ticks).toBeLessThan(20);
    }
  });

  it('a candidate that receives votes from a majority becomes leader and asserts itself (§5.2)', () => {
    const c = new ManualCluster(ABC);
    c.elect('a');
    expect(c.core('a').status().role).toBe('leader');
    expect(c.core('b').status()).toMatchObject({ role: 'follower', leader: 'a' });
    expect(c.core('c').status()).toMatchObject({ role: 'follower', leader: 'a' });
  });

  it('a node votes for at most one candidate in a term, first come first served (Figure 2 RequestVote 2)', () => {
    const c = new ManualCluster(ABC);
    const term = c.core('c').status().term + 1;
    c.core('c').step(message({ type: 'vote', from: 'a', to: 'c', term, index: 10, logTerm: 1 }));
    c.core('c').step(message({ type: 'vote', from: 'b', to: 'c', term, index: 10, logTerm: 1 }));
    c.flush('c');
    const answers = c.take((m) => m.type === 'vote-response');
    expect(answers.map((m) => [m.to, m.reject])).toEqual([
      ['a', false],
      ['b', true],
    ]);
    expect(c.node('c').hardState).toMatchObject({ term, vote: 'a' });
  });

  it('a vote is answered only after it is durable: the grant is a persisted message of the Ready that holds the vote', () => {
    const c = new ManualCluster(ABC);
    const term = c.core('c').status().term + 1;
    c.core('c').step(message({ type: 'vote', from: 'a', to: 'c', term, index: 10, logTerm: 1 }));
    const rd = c.core('c').ready();
    expect(rd.messages.filter((m) => m.type === 'vote-response')).toEqual([]);
    expect(rd.persistedMessages.map((m) => [m.type, m.reject])).toEqual([['vote-response', false]]);
    expect(rd.hardState).toMatchObject({ term, vote: 'a' });
  });

  it('a voter rejects a candidate whose last log term is lower (§5.4.1 election restriction)', () => {
    // No leader lease here, so that the vote request is considered at all.
    const c = new ManualCluster(ABC, { checkQuorum: false });
    c.elect('a');
    c.propose('a', 'x');
    c.stabilize();
    const last = c.core('c').status().lastIndex;
    const term = c.core('c').status().term + 1;
    c.core('c').step(message({ type: 'vote', from: 'b', to: 'c', term, index: last + 5, logTerm: 1 }));
    c.flush('c');
    expect(c.take((m) => m.type === 'vote-response').map((m) => m.reject)).toEqual([true]);
  });

  it('a voter rejects a candidate with the same last term but a shorter log (§5.4.1 election restriction)', () => {
    // No leader lease here, so that the vote request is considered at all.
    const c = new ManualCluster(ABC, { checkQuorum: false });
    c.elect('a');
    c.propose('a', 'x');
    c.stabilize();
    const st = c.core('c').status();
    c.core('c').step(
      message({
        type: 'vote',
        from: 'b',
        to: 'c',
        term: st.term + 1,
        index: st.lastIndex - 1,
        logTerm: st.term,
      }),
    );
    c.flush('c');
    expect(c.take((m) => m.type === 'vote-response').map((m) => m.reject)).toEqual([true]);
  });

  it('a node that sees a higher term adopts it and becomes a follower (Figure 2, rules for all servers)', () => {
    const c = new ManualCluster(ABC);
    c.elect('a');
    const term = c.core('a').status().term;
    c.core('a').step(message({ type: 'append-response', from: 'b', to: 'a', term: term + 3, index: 0 }));
    expect(c.core('a').status()).toMatchObject({ role: 'follower', term: term + 3, leader: '' });
  });

  it('a follower answers an append from a stale term with its own term, so the stale leader steps down', () => {
    const c = new ManualCluster(ABC);
    c.elect('a');
    const term = c.core('b').status().term;
    c.core('b').step(message({ type: 'append', from: 'c', to: 'b', term: term - 1, index: 0, logTerm: 0 }));
    c.flush('b');
    const answers = c.take((m) => m.to === 'c');
    expect(answers.map((m) => [m.type, m.term])).toEqual([['append-response', term]]);
    expect(c.core('b').status()).toMatchObject({ leader: 'a', term });
  });

  it('§6.2 check-quorum: a leader that hears from no majority within an election timeout steps down', () => {
    const c = new ManualCluster(ABC);
    c.elect('a');
    c.dropIf = (m) => m.from === 'a' || m.to === 'a';
    for (let i = 0; i < 25 && c.core('a').status().role === 'leader'; i++) {
      c.tick('a');
      c.stabilize();
    }
    expect(c.core('a').status().role).toBe('follower');
  });

  it('§6.2 check-quorum: a leader that keeps hearing from a majority stays leader', () => {
    const c = new ManualCluster(ABC);
    c.elect('a');
    c.dropIf = (m) => m.from === 'c' || m.to === 'c';
    c.heartbeat('a', 50);
    expect(c.core('a').status().role).toBe('leader');
  });

  it('a follower counts as reachable until it has been silent for a whole check-quorum round, not only since the last one began', () => {
    const c = new ManualCluster(ABC);
    c.elect('a');
    const reachable = (id: string) => c.core('a').status().progress.get(id)?.reachable;
    c.dropIf = (m) => m.from === 'c' || m.to === 'c';
    // The first round ends with b and c heard from (c answered the election's appends).
    c.heartbeat('a', MANUAL_ELECTION_TICKS);
    expect([reachable('b'), reachable('c')]).toEqual([true, true]);
    // A round with no answer from c: c is unreachable; b, heard from at each heartbeat, is not.
    c.heartbeat('a', MANUAL_ELECTION_TICKS);
    expect([reachable('b'), reachable('c')]).toEqual([true, false]);
    expect(c.core('a').status().role).toBe('leader');
    // Right after a round is reset, before b's next answer, b still counts as reachable.
    c.dropIf = (m) => m.from === 'b' || m.from === 'c' || m.to === 'c';
    c.heartbeat('a', MANUAL_ELECTION_TICKS);
    expect(c.core('a').status().progress.get('b')?.recentActive).toBe(false);
    expect(reachable('b')).toBe(true);
  });
});

describe('pre-vote (§9.6)', () => {
  it('a pre-candidate asks for pre-votes at term + 1 without changing its own term or vote', () => {
    const c = new ManualCluster(ABC);
    const before = c.node('a').hardState;
    c.tick('a', 20);
    expect(c.core('a').status()).toMatchObject({ role: 'pre-candidate', term: before.term });
    expect(c.node('a').hardState).toEqual(before);
    const asks = c.take((m) => m.type === 'pre-vote');
    expect(asks.map((m) => m.term)).toEqual([before.term + 1, before.term + 1]);
  });

  it('granting a pre-vote changes neither the voter term nor its vote', () => {
    const c = new ManualCluster(ABC);
    const before = c.node('c').hardState;
    c.core('c').step(
      message({ type: 'pre-vote', from: 'a', to: 'c', term: before.term + 1, index: 100, logTerm: 5 }),
    );
    c.flush('c');
    expect(c.take((m) => m.type === 'pre-vote-response').map((m) => m.reject)).toEqual([false]);
    expect(c.node('c').hardState).toEqual(before);
  });

  it('a partitioned node that rejoins does not disrupt a healthy leader: its pre-vote fails and terms stay put', () => {
    const c = new ManualCluster(ABC);
    c.elect('a');
    const term = c.core('a').status().term;
    c.dropIf = (m) => m.from === 'c' || m.to === 'c';
    for (let i = 0; i < 60; i++) {
      c.tick('c');
      c.tick('a');
      c.tick('b');
      c.stabilize();
    }
    c.dropIf = () => false;
    c.tick('c', 30);
    c.stabilize();
    c.heartbeat('a', 3);
    expect(c.core('a').status()).toMatchObject({ role: 'leader', term });
    expect(c.core('c').status()).toMatchObject({ role: 'follower', leader: 'a', term });
  });

  it('a node that heard from its leader within the election timeout ignores vote requests (leader lease)', () => {
    const c = new ManualCluster(ABC);
    c.elect('a');
    const term = c.core('b').status().term;
    c.core('b').step(
      message({ type: 'vote', from: 'c', to: 'b', term: term + 1, index: 1000, logTerm: term }),
    );
    c.flush('b');
    expect(c.take((m) => m.type === 'vote-response')).toEqual([]);
    expect(c.core('b').status()).toMatchObject({ term, leader: 'a' });
  });
});
