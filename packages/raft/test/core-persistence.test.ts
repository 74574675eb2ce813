// The core's side of the persistence contract (docs/design.md): what advance()
// treats as durable, and what a restart infers from the log.
import { describe, expect, it } from 'vitest';
import { encodeConfChange } from '../src/core/conf-change.js';
import { MemoryLog } from '../src/core/memory-log.js';
import { ManualCluster, message } from '../src/sim/manual-cluster.js';
import { SimRaftCore } from '../src/sim/sim-core.js';
import type { ConfChange, Entry } from '../src/types.js';

const bytes = (s: string) => new TextEncoder().encode(s);

describe('what the core hands out to be written', () => {
  it('entries a Ready persisted are not handed out again when a conflicting append replaced only a later suffix', () => {
    const c = new ManualCluster(['a', 'b', 'c']);
    c.elect('a');
    c.outbox = [];
    for (const x of ['x1', 'x2', 'x3']) c.core('a').propose(bytes(x));
    c.flush('a');
    const [append] = c.take((m) => m.type === 'append' && m.to === 'b' && m.entries.length === 3);
    const b = c.core('b');
    b.step(append!);
    const rd = b.ready();
    const [k, k1, k2] = rd.entries;
    expect(rd.entries.length).toBe(3);
    // While that write is in flight, a leader of a later term replaces the last entry only.
    b.step(
      message({
        type: 'append',
        from: 'c',
        to: 'b',
        term: k2!.term + 1,
        index: k1!.index,
        logTerm: k1!.term,
        entries: [{ index: k2!.index, term: k2!.term + 1, type: 'normal', data: bytes('y') }],
      }),
    );
    c.node('b').log.append(rd.entries);
    b.advance(rd);
    const next = b.ready();
    // Only the replaced entry is written again: k and k+1 are durable with their terms.
    expect(next.entries.map((e) => `${e.index}/t${e.term}`)).toEqual([`${k2!.index}/t${k2!.term + 1}`]);
    expect(k!.index).toBe(k2!.index - 2);
  });
});

describe('restart', () => {
  const conf = (index: number, term: number, change: ConfChange): Entry => ({
    index,
    term,
    type: 'conf-change',
    data: encodeConfChange(change),
  });

  it('every conf change followed by another in the log is committed, even when the saved commit index lags', () => {
    const log = new MemoryLog();
    const entries: Entry[] = [];
    for (const node of ['a', 'b', 'c', 'd']) {
      entries.push(conf(entries.length + 1, 1, { type: 'add-learner', node }));
      entries.push(conf(entries.length + 1, 1, { type: 'promote', node }));
    }
    entries.push({ index: 9, term: 2, type: 'normal', data: new Uint8Array(0) });
    entries.push(conf(10, 2, { type: 'remove', node: 'd' }));
    entries.push(conf(11, 2, { type: 'remove', node: 'c' }));
    log.append(entries);
    // The node remembers commit 8 (the bootstrap): it forgot that 10 committed.
    const core = new SimRaftCore({
      id: 'c',
      log,
      hardState: { term: 2, vote: '', commit: 8 },
      applied: 8,
      bootstrapVoters: [],
      electionTicks: 10,
      heartbeatTicks: 1,
      random: () => 0.5,
    });
    const s = core.status();
    // Remove d (10) was committed before remove c (11) was proposed: the configuration is one change behind at most.
    expect(s.commit).toBe(10);
    expect(s.conf.voters).toEqual(['a', 'b', 'c']);
    expect(core.confIndex()).toBe(10);
  });
});
