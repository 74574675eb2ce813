import { InvariantError, LimitError } from '@fermata/base';
import { describe, expect, it } from 'vitest';
import { ManualCluster, message } from '../src/sim/manual-cluster.js';

const ABC = ['a', 'b', 'c'];
const bytes = (s: string) => new TextEncoder().encode(s);

describe('the Ready contract', () => {
  it('an append acknowledgement is sent only after the entries it acknowledges are persisted', () => {
    const c = new ManualCluster(ABC);
    c.elect('a');
    c.core('a').propose(bytes('x'));
    c.flush('a');
    const [append] = c.take((m) => m.type === 'append' && m.to === 'b' && m.entries.length > 0);
    c.core('b').step(append!);
    const rd = c.core('b').ready();
    expect(rd.messages.filter((m) => m.type === 'append-response')).toEqual([]);
    expect(rd.persistedMessages.map((m) => [m.type, m.index])).toEqual([
      ['append-response', append!.index + 1],
    ]);
    expect(rd.entries.map((e) => e.index)).toEqual([append!.index + 1]);
  });

  it('one Ready at a time: ready() before advance() throws, and hasReady() is false meanwhile', () => {
    const c = new ManualCluster(['a']);
    c.elect('a');
    c.core('a').propose(bytes('x'));
    const rd = c.core('a').ready();
    expect(c.core('a').hasReady()).toBe(false);
    expect(() => c.core('a').ready()).toThrow(InvariantError);
    c.node('a').log.append(rd.entries);
    c.core('a').advance(rd);
    expect(c.core('a').hasReady()).toBe(true);
  });

  it('messages stepped while a Ready is being persisted are kept for the next Ready', () => {
    const c = new ManualCluster(ABC);
    c.elect('a');
    const leader = c.core('a');
    leader.propose(bytes('x'));
    const rd = leader.ready();
    leader.propose(bytes('y'));
    leader.step(message({ type: 'heartbeat-response', from: 'b', to: 'a', term: leader.status().term }));
    c.node('a').log.append(rd.entries);
    leader.advance(rd);
    const next = leader.ready();
    expect(next.entries.map((e) => new TextDecoder().decode(e.data))).toEqual(['y']);
  });

  it('a leader refuses proposals beyond maxUncommittedBytes with a LimitError naming the limit', () => {
    const c = new ManualCluster(ABC, { maxUncommittedBytes: 10 });
    c.elect('a');
    c.dropIf = () => true;
    c.propose('a', '123456');
    let err: unknown;
    try {
      c.propose('a', '123456');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(LimitError);
    expect((err as LimitError).limit).toBe('maxUncommittedBytes');
    c.dropIf = () => false;
    c.heartbeat('a', 2);
    expect(() => c.propose('a', '123456')).not.toThrow();
  });

  it('entries are handed out for applying once, in order, and again after a restart from the applied index', () => {
    const c = new ManualCluster(ABC);
    c.elect('a');
    for (const t of ['x', 'y', 'z']) c.propose('a', t);
    c.stabilize();
    c.heartbeat('a');
    expect(c.appliedTexts('b')).toEqual(['x', 'y', 'z']);
    const n = c.node('b');
    n.applied = n.applied.slice(0, -2); // the state machine had recorded only up to x
    c.crash('b');
    c.restart('b');
    expect(c.appliedTexts('b')).toEqual(['x', 'y', 'z']);
  });
});
