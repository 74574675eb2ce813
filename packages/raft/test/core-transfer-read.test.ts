import { describe, expect, it } from 'vitest';
import { NotLeaderError } from '../src/core/errors.js';
import { ManualCluster } from '../src/sim/manual-cluster.js';

const ABC = ['a', 'b', 'c'];
const bytes = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array) => new TextDecoder().decode(b);

describe('leadership transfer (thesis §3.10)', () => {
  it('the leader catches the target up, then sends timeout-now; the target wins at once', () => {
    const c = new ManualCluster(ABC);
    c.elect('a');
    c.dropIf = (m) => m.to === 'c';
    for (let i = 0; i < 5; i++) c.propose('a', `p${i}`);
    c.stabilize();
    c.dropIf = () => false;
    const term = c.core('a').status().term;
    c.core('a').transferLeadership('c');
    c.flush('a');
    // c lags, so the first thing it gets is entries, not timeout-now.
    expect(c.outbox.filter((m) => m.type === 'timeout-now')).toEqual([]);
    c.stabilize();
    expect(c.core('c').status()).toMatchObject({ role: 'leader', term: term + 1 });
    expect(c.core('a').status().role).toBe('follower');
  });

  it('proposals are refused while a transfer is in progress', () => {
    const c = new ManualCluster(ABC);
    c.elect('a');
    c.dropIf = (m) => m.to === 'c';
    c.core('a').transferLeadership('c');
    expect(() => c.core('a').propose(bytes('x'))).toThrow(NotLeaderError);
  });

  it('a transfer that does not finish within an election timeout is abandoned', () => {
    const c = new ManualCluster(ABC);
    c.elect('a');
    c.dropIf = (m) => m.to === 'c' || m.from === 'c';
    c.core('a').transferLeadership('c');
    c.heartbeat('a', 11);
    expect(c.core('a').status().role).toBe('leader');
    expect(() => c.core('a').propose(bytes('x'))).not.toThrow();
  });

  it('timeout-now makes the target campaign past the voters leader lease', () => {
    const c = new ManualCluster(ABC);
    c.elect('a');
    c.core('a').transferLeadership('b');
    c.stabilize();
    expect(c.core('b').status().role).toBe('leader');
  });
});

describe('ReadIndex (§6.4)', () => {
  it('the leader answers a read only after a heartbeat round with a quorum, at the commit index of the request', () => {
    const c = new ManualCluster(ABC);
    c.elect('a');
    const commit = c.core('a').status().commit;
    c.core('a').readIndex(bytes('r1'));
    c.flush('a');
    expect(c.node('a').readStates).toEqual([]);
    c.stabilize();
    expect(c.node('a').readStates.map((r) => [r.index, text(r.context)])).toEqual([[commit, 'r1']]);
  });

  it('a leader that cannot reach a quorum never answers a read', () => {
    const c = new ManualCluster(ABC);
    c.elect('a');
    c.dropIf = (m) => m.from === 'a' || m.to === 'a';
    c.core('a').readIndex(bytes('r1'));
    c.heartbeat('a', 5);
    expect(c.node('a').readStates).toEqual([]);
  });

  it('a new leader holds reads until it has committed an entry of its term', () => {
    const c = new ManualCluster(ABC);
    c.dropIf = (m) => m.type === 'append';
    c.elect('a');
    expect(c.core('a').status().role).toBe('leader');
    c.core('a').readIndex(bytes('r1'));
    c.heartbeat('a', 3);
    expect(c.node('a').readStates).toEqual([]);
    c.dropIf = () => false;
    c.heartbeat('a', 2);
    const commit = c.core('a').status().commit;
    expect(c.node('a').readStates.map((r) => [r.index, text(r.context)])).toEqual([[commit, 'r1']]);
  });

  it('a follower forwards read-index to the leader and receives the read state', () => {
    const c = new ManualCluster(ABC);
    c.elect('a');
    c.propose('a', 'x');
    c.stabilize();
    c.core('b').readIndex(bytes('rb'));
    c.flush('b');
    expect(c.outbox.map((m) => [m.type, m.to])).toContainEqual(['read-index', 'a']);
    c.stabilize();
    expect(c.node('b').readStates.map((r) => [r.index, text(r.context)])).toEqual([
      [c.core('a').status().commit, 'rb'],
    ]);
  });

  it('a follower that knows no leader refuses a read with NotLeaderError', () => {
    const c = new ManualCluster(ABC);
    expect(() => c.core('b').readIndex(bytes('r'))).toThrow(NotLeaderError);
  });
});
