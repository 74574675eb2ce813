import { describe, expect, it } from 'vitest';
import { decodeConfChange, encodeConfChange } from '../src/core/conf-change.js';
import { ConfChangeInProgressError, InvalidConfChangeError } from '../src/core/errors.js';
import { ManualCluster, message } from '../src/sim/manual-cluster.js';

const ABC = ['a', 'b', 'c'];

/** A cluster a, b, c with 'a' leading and its first entry committed. */
function ready(): ManualCluster {
  const c = new ManualCluster(ABC);
  c.elect('a');
  return c;
}

describe('membership changes, one server at a time (§6, thesis §4)', () => {
  it('bootstrap writes the initial voters into the log as committed conf-change entries, the same on every node', () => {
    const c = new ManualCluster(['c', 'a', 'b']);
    const logs = ABC.map((id) => {
      const n = c.node(id);
      return n.log
        .entries(1, n.log.lastIndex() + 1, 1 << 20)
        .map((e) => [e.index, e.term, decodeConfChange(e.data)]);
    });
    expect(logs[0]).toEqual(logs[1]);
    expect(logs[0]).toEqual(logs[2]);
    expect(logs[0]!.length).toBe(6);
    expect(c.core('a').status()).toMatchObject({ commit: 6, conf: { voters: ABC, learners: [] } });
  });

  it('an added learner receives the log but has no vote: it never campaigns and does not count towards a quorum', () => {
    const c = ready();
    c.add('d', []);
    c.core('a').proposeConfChange({ type: 'add-learner', node: 'd' });
    c.heartbeat('a', 3);
    expect(c.core('a').status().conf).toEqual({ voters: ABC, learners: ['d'] });
    expect(c.core('d').status().role).toBe('learner');
    expect(c.core('d').status().commit).toBe(c.core('a').status().commit);
    // Only d acknowledges: nothing commits.
    c.dropIf = (m) => m.to === 'b' || m.to === 'c';
    const at = c.propose('a', 'x');
    c.stabilize();
    expect(c.core('a').status().commit).toBe(at.index - 1);
    c.tick('d', 100);
    expect(c.outbox.filter((m) => m.from === 'd' && (m.type === 'vote' || m.type === 'pre-vote'))).toEqual(
      [],
    );
  });

  it('a node added later learns the initial members from the log (it was started with no bootstrap voters)', () => {
    const c = ready();
    c.add('d', []);
    c.core('a').proposeConfChange({ type: 'add-learner', node: 'd' });
    c.heartbeat('a', 3);
    expect(c.core('d').status().conf).toEqual({ voters: ABC, learners: ['d'] });
  });

  it('promoting a learner makes it a voter once the change is committed', () => {
    const c = ready();
    c.add('d', []);
    c.core('a').proposeConfChange({ type: 'add-learner', node: 'd' });
    c.heartbeat('a', 3);
    c.core('a').proposeConfChange({ type: 'promote', node: 'd' });
    c.heartbeat('a', 3);
    for (const id of ['a', 'b', 'c', 'd']) {
      expect(c.core(id).status().conf).toEqual({ voters: ['a', 'b', 'c', 'd'], learners: [] });
    }
    // 4 voters: a quorum is 3.
    c.dropIf = (m) => m.to === 'c' || m.to === 'd';
    const at = c.propose('a', 'x');
    c.stabilize();
    expect(c.core('a').status().commit).toBe(at.index - 1);
  });

  it('a change takes effect when committed, not when appended', () => {
    const c = ready();
    c.dropIf = (m) => m.from === 'a';
    c.core('a').proposeConfChange({ type: 'remove', node: 'c' });
    c.stabilize();
    expect(c.core('a').status().conf.voters).toEqual(ABC);
    c.dropIf = () => false;
    c.heartbeat('a', 2);
    expect(c.core('a').status().conf.voters).toEqual(['a', 'b']);
  });

  it('no second change while one is uncommitted (ConfChangeInProgressError)', () => {
    const c = ready();
    c.dropIf = () => true;
    c.core('a').proposeConfChange({ type: 'add-learner', node: 'd' });
    expect(() => c.core('a').proposeConfChange({ type: 'add-learner', node: 'e' })).toThrow(
      ConfChangeInProgressError,
    );
  });

  it('a new leader refuses a change until it has committed an entry of its own term', () => {
    const c = new ManualCluster(ABC);
    c.dropIf = (m) => m.type === 'append';
    c.elect('a');
    expect(c.core('a').status().role).toBe('leader');
    expect(() => c.core('a').proposeConfChange({ type: 'add-learner', node: 'd' })).toThrow(
      ConfChangeInProgressError,
    );
    c.dropIf = () => false;
    c.heartbeat('a', 2);
    expect(() => c.core('a').proposeConfChange({ type: 'add-learner', node: 'd' })).not.toThrow();
  });

  it('removing the leader: it keeps leading until the removal commits, then hands leadership to a remaining voter and steps down', () => {
    const c = ready();
    c.core('a').proposeConfChange({ type: 'remove', node: 'a' });
    expect(c.core('a').status().role).toBe('leader');
    c.stabilize();
    expect(c.core('a').status()).toMatchObject({ role: 'follower', conf: { voters: ['b', 'c'] } });
    expect(c.core('b').status().conf.voters).toEqual(['b', 'c']);
    c.crash('a');
    const leader = () => ['b', 'c'].find((id) => c.core(id).status().role === 'leader');
    expect(leader()).toBeDefined();
    for (let i = 0; i < 100 && !leader(); i++) {
      c.tick('b');
      c.tick('c');
      c.stabilize();
    }
    const next = leader()!;
    const other = next === 'b' ? 'c' : 'b';
    expect(c.core(next).status().conf.voters).toEqual(['b', 'c']);
    c.propose(next, 'after');
    c.heartbeat(next);
    expect(c.appliedTexts(other)).toEqual(['after']);
  });

  it('a leader removed from the configuration steps down once a majority of the new configuration reports the commit durably, and hands over (thesis §4.2.2, §3.10)', () => {
    const c = ready();
    const removal = c.core('a').proposeConfChange({ type: 'remove', node: 'a' });
    expect(c.core('a').announced(removal.index)).toBe(false);
    c.stabilize();
    expect(c.core('a').announced(removal.index)).toBe(true);
    expect(c.core('a').status()).toMatchObject({ role: 'follower', conf: { voters: ['b', 'c'] } });
    // The most caught-up remaining voter got timeout-now and leads.
    const leaders = ['b', 'c'].filter((id) => c.core(id).status().role === 'leader');
    expect(leaders).toHaveLength(1);
    expect(c.core(leaders[0]!).status().term).toBeGreaterThan(c.core('a').status().term);
  });

  it('a leader removed from the configuration steps down one election timeout after its removal commits when the new configuration never confirms it, though no higher term reaches it', () => {
    const c = ready();
    // No transfer, and no report of the commit reaches a (nor anything once it committed:
    // the remaining voters send nothing to a removed node).
    const removal = c.core('a').status().lastIndex + 1;
    c.dropIf = (m) => m.type === 'timeout-now' || (m.to === 'a' && m.commit >= removal);
    c.core('a').proposeConfChange({ type: 'remove', node: 'a' });
    c.stabilize();
    const removed = c.core('a').status();
    expect(removed).toMatchObject({ role: 'leader', commit: removal, conf: { voters: ['b', 'c'] } });
    c.dropIf = (m) => m.type === 'timeout-now' || m.to === 'a';
    c.tick('a', 9);
    expect(c.core('a').status().role).toBe('leader');
    c.tick('a');
    expect(c.core('a').status()).toMatchObject({ role: 'follower', term: removed.term, leader: '' });
    expect(c.core('a').announced(removal)).toBe(false);
    // A node outside its configuration never campaigns: the term stays put.
    c.tick('a', 100);
    c.stabilize();
    expect(c.core('a').status()).toMatchObject({ role: 'follower', term: removed.term });
  });

  it("a refused vote carries the refuser's commit index: the lone remaining voter that missed its removal's commit learns it from the removed node and elects itself", () => {
    // b leads a, b; it removes itself and appends one more entry, which only b holds.
    const c = new ManualCluster(['a', 'b']);
    c.elect('b');
    const removal = c.core('b').proposeConfChange({ type: 'remove', node: 'b' });
    c.flush('b');
    c.propose('b', 'held by b only');
    // From b, a hears only the append carrying the removal (its commit index is older)
    // and b's vote refusals.
    c.dropIf = (m) =>
      m.from === 'b' &&
      !(m.type === 'append' && m.entries.length === 1 && m.entries[0]!.index === removal.index) &&
      m.type !== 'pre-vote-response' &&
      m.type !== 'vote-response';
    c.stabilize();
    expect(c.core('b').status()).toMatchObject({ role: 'leader', commit: removal.index });
    c.tick('b', 10);
    const b = c.core('b').status();
    const a = c.core('a').status();
    expect(b).toMatchObject({ role: 'follower', conf: { voters: ['a'] } });
    expect(a.conf.voters).toEqual(['a', 'b']);
    expect(a.commit).toBeLessThan(b.commit);
    expect(a.lastIndex).toBeLessThan(b.lastIndex); // so b refuses a's (pre-)votes
    for (let i = 0; i < 50 && c.core('a').status().role !== 'leader'; i++) {
      c.tick('a');
      c.stabilize();
    }
    expect(c.core('a').status()).toMatchObject({ role: 'leader', conf: { voters: ['a'] } });
    c.propose('a', 'after');
    c.stabilize();
    expect(c.appliedTexts('a')).toEqual(['after']);
  });

  it('a member removed with its own acknowledgement and started again empty under its id votes for nobody: a voter that missed the removal cannot lead without what it committed', () => {
    const c = new ManualCluster(ABC);
    c.elect('a');
    // b hears nothing: a commits x and then c's removal with c's acknowledgements alone.
    c.dropIf = (m) => m.to === 'b' || m.from === 'b';
    c.propose('a', 'x');
    const removal = c.core('a').proposeConfChange({ type: 'remove', node: 'c' });
    c.stabilize();
    expect(c.core('a').status()).toMatchObject({ commit: removal.index, conf: { voters: ['a', 'b'] } });
    // c is wiped and started again empty, to join (no bootstrap voters); a goes down.
    c.add('c', []);
    c.crash('a');
    c.dropIf = () => false;
    // b still counts c: {b, c} would be a majority of a, b, c.
    expect(c.core('b').status().conf.voters).toEqual(ABC);
    for (let i = 0; i < 100; i++) {
      c.tick('b');
      c.stabilize();
    }
    expect(c.core('b').status().role).not.toBe('leader');
    expect(c.outbox.concat().filter((m) => m.from === 'c' && !m.reject)).toEqual([]);
    // a returns and leads the configuration it committed; b learns x and the removal.
    c.restart('a');
    c.elect('a');
    c.heartbeat('a', 3);
    expect(c.core('a').status()).toMatchObject({ role: 'leader', conf: { voters: ['a', 'b'] } });
    expect(c.core('b').status().conf.voters).toEqual(['a', 'b']);
    expect(c.appliedTexts('b')).toContain('x');
  });

  it('a vote request carries what its candidate knows committed: a voter that missed the commit of a promotion takes the new configuration from it', () => {
    // Simulator seed 12922: the only node that knew the promotion committed had a disk too slow
    // to make its vote durable in time; the other two, a majority of the new configuration,
    // held the entry but counted the old one and elected no one.
    const c = new ManualCluster(['a', 'b']);
    c.elect('a');
    c.add('c', []);
    c.core('a').proposeConfChange({ type: 'add-learner', node: 'c' });
    c.heartbeat('a', 3);
    const promote = c.core('a').proposeConfChange({ type: 'promote', node: 'c' });
    // b and c take the entry; every message announcing its commit is lost.
    c.dropIf = (m) => m.from === 'a' && m.commit >= promote.index;
    c.heartbeat('a', 3);
    expect(c.core('a').status()).toMatchObject({ commit: promote.index, conf: { voters: ['a', 'b', 'c'] } });
    expect(c.core('b').status().conf.voters).toEqual(['a', 'b']);
    expect(c.core('b').status().lastIndex).toBeGreaterThanOrEqual(promote.index);
    c.crash('a');
    c.restart('a');
    c.dropIf = () => false;
    for (let i = 0; i < 100 && !c.outbox.some((m) => m.type === 'pre-vote'); i++) c.tick('a');
    const [request] = c.take((m) => m.type === 'pre-vote' && m.to === 'b');
    expect(request).toMatchObject({ commit: promote.index });
    c.deliver(request!);
    expect(c.core('b').status()).toMatchObject({ commit: promote.index, conf: { voters: ['a', 'b', 'c'] } });
  });

  /** b holds x but never hears it committed, and pre-campaigns cut off from everyone. */
  function preCandidateBehindOnCommit(): ManualCluster {
    const c = new ManualCluster(ABC);
    c.elect('a');
    c.dropIf = (m) => m.from === 'a' && m.entries.length === 0; // b never hears x committed
    c.propose('a', 'x');
    c.stabilize();
    c.dropIf = () => true;
    c.tick('b', 30); // b pre-campaigns
    return c;
  }

  it('a commit hint is taken only when the candidate holds the hinted entry with the hinted term', () => {
    const c = preCandidateBehindOnCommit();
    const b = c.core('b').status();
    expect(b.role).toBe('pre-candidate');
    expect(b.commit).toBeLessThan(b.lastIndex);
    const refusal = {
      type: 'pre-vote-response',
      from: 'c',
      to: 'b',
      term: b.term + 1,
      reject: true,
    } as const;
    c.core('b').step(message({ ...refusal, commit: b.lastIndex, logTerm: b.term + 7 }));
    c.core('b').step(message({ ...refusal, commit: b.lastIndex + 1, logTerm: b.term }));
    expect(c.core('b').status().commit).toBe(b.commit);
    c.core('b').step(message({ ...refusal, from: 'a', commit: b.lastIndex, logTerm: b.term }));
    expect(c.core('b').status().commit).toBe(b.lastIndex);
  });

  it('a refusal from a voter at a lower term still teaches its commit hint (a removed node takes no terms)', () => {
    // Simulator seed 15714: n4 applied its own removal and, removed, no longer took the terms of
    // n2's vote requests; its refusals carried the commit of the removal at n4's older term,
    // which n2 dropped as stale, so n2 kept counting n4 and never led.
    const c = preCandidateBehindOnCommit();
    const before = c.core('b').status();
    expect(before.role).toBe('pre-candidate');
    c.core('b').step(message({ type: 'pre-vote-response', from: 'c', to: 'b', term: before.term + 1 }));
    const b = c.core('b').status();
    expect(b.role).toBe('candidate');
    expect(b.term).toBe(before.term + 1);
    expect(b.commit).toBeLessThan(b.lastIndex);
    c.core('b').step(
      message({
        type: 'vote-response',
        from: 'c',
        to: 'b',
        term: before.term,
        reject: true,
        commit: b.lastIndex,
        logTerm: before.term,
      }),
    );
    expect(c.core('b').status()).toMatchObject({ commit: b.lastIndex, term: b.term });
  });

  it('invalid changes are refused with InvalidConfChangeError (adding a member twice, promoting a voter, removing a stranger)', () => {
    const c = ready();
    expect(() => c.core('a').proposeConfChange({ type: 'add-learner', node: 'b' })).toThrow(
      InvalidConfChangeError,
    );
    expect(() => c.core('a').proposeConfChange({ type: 'promote', node: 'b' })).toThrow(
      InvalidConfChangeError,
    );
    expect(() => c.core('a').proposeConfChange({ type: 'remove', node: 'z' })).toThrow(
      InvalidConfChangeError,
    );
  });

  it('conf-change entry data round-trips, context included', () => {
    const change = {
      type: 'add-learner' as const,
      node: 'fermata-3',
      context: new TextEncoder().encode('10.0.0.3:7000'),
    };
    expect(decodeConfChange(encodeConfChange(change))).toEqual(change);
    expect(decodeConfChange(encodeConfChange({ type: 'remove', node: 'x' }))).toEqual({
      type: 'remove',
      node: 'x',
    });
    expect(() => decodeConfChange(new Uint8Array([9, 9, 9]))).toThrow(InvalidConfChangeError);
  });
});
