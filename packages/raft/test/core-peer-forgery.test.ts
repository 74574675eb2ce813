// The core's own rules against forged peer messages (the driver's admission
// rule, peer-admission.ts, refuses most before they get here).
import { describe, expect, it } from 'vitest';
import { MAX_TERM } from '../src/core/raft-core.js';
import { ManualCluster, message } from '../src/sim/manual-cluster.js';

const ABC = ['a', 'b', 'c'];

describe('forged peer messages reaching the core', () => {
  it('a follower ignores an append, heartbeat or snapshot at its term from a node that is not its leader (one leader per term, §5.2)', () => {
    const c = new ManualCluster(ABC);
    c.elect('a');
    const s = c.core('b').status();
    const commit = s.commit;
    for (const type of ['heartbeat', 'append', 'snapshot'] as const) {
      c.core('b').step(
        message({
          type,
          from: 'c',
          to: 'b',
          term: s.term,
          index: s.lastIndex,
          logTerm: s.term,
          commit: s.lastIndex + 5,
          entries:
            type === 'append'
              ? [{ term: s.term, index: s.lastIndex + 1, type: 'normal', data: new Uint8Array([1]) }]
              : [],
          ...(type === 'snapshot'
            ? { snapshot: { index: s.lastIndex + 10, term: s.term, conf: { voters: ['c'], learners: [] } } }
            : {}),
        }),
      );
    }
    c.flush('b');
    expect(c.take((m) => m.from === 'b' && m.to === 'c')).toEqual([]);
    expect(c.core('b').status()).toMatchObject({ term: s.term, leader: 'a', commit, lastIndex: s.lastIndex });
    // Its real leader is still followed.
    c.heartbeat('a', 1);
    expect(c.core('b').status()).toMatchObject({ term: s.term, leader: 'a' });
  });

  it('a message whose term is beyond MAX_TERM is dropped: the term stays incrementable', () => {
    const c = new ManualCluster(ABC);
    c.elect('a');
    const s = c.core('b').status();
    for (const term of [MAX_TERM + 1, Number.MAX_SAFE_INTEGER]) {
      c.core('b').step(message({ type: 'heartbeat', from: 'a', to: 'b', term }));
      c.core('b').step(message({ type: 'append-response', from: 'c', to: 'b', term }));
    }
    c.flush('b');
    expect(c.core('b').status()).toMatchObject({ term: s.term, leader: 'a' });
  });
});
