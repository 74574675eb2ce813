// The core's side of the persistence contract (docs/design.md): what advance()
// treats as durable, and what a restart infers from the log.
import { describe, expect, it } from 'vitest';
import { encodeConfChange } from '../src/core/conf-change.js';
import { NotLeaderError } from '../src/core/errors.js';
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

  // The driver writes the hard state after the log append: a crash between them keeps
  // entries of a term the saved hard state never reached.
  const restart = (
    log: MemoryLog,
    hardState: { term: number; vote: string; commit: number },
    voters: string[],
  ) =>
    new SimRaftCore({
      id: 'a',
      log,
      hardState,
      applied: 0,
      bootstrapVoters: voters,
      electionTicks: 10,
      heartbeatTicks: 1,
      random: () => 0.5,
    });
  const bootstrapEntries = (voters: string[]): Entry[] =>
    voters.flatMap((node, i) => [
      conf(2 * i + 1, 1, { type: 'add-learner', node }),
      conf(2 * i + 2, 1, { type: 'promote', node }),
    ]);
  /** Ticks `core`, writing each Ready's entries to `log` and advancing, until `done()`. */
  const runUntil = (core: SimRaftCore, log: MemoryLog, done: () => boolean) => {
    for (let i = 0; i < 100 && !done(); i++) {
      core.tick();
      while (!done() && core.hasReady()) {
        const rd = core.ready();
        log.append(rd.entries);
        core.advance(rd);
      }
    }
  };

  it('a restart whose saved term is below its log’s last term takes that term, so it never campaigns in it', () => {
    // The bootstrap's entries (term 1) are durable, its hard state (term 1, commit 6) was lost.
    const log = new MemoryLog();
    log.append(bootstrapEntries(['a', 'b', 'c']));
    const core = restart(log, { term: 0, vote: '', commit: 0 }, ['a', 'b', 'c']);
    expect([core.status().term, core.currentVote()]).toEqual([1, '']);
    const saved = core.ready();
    expect(saved.hardState?.term).toBe(1);
    core.advance(saved);
    for (let i = 0; i < 100 && core.status().role === 'follower'; i++) core.tick();
    const campaign = core.ready().messages.filter((m) => m.type === 'pre-vote');
    // Term 1 is the bootstrap's: the first election is for term 2 (asked of the voter b, and
    // of c for what it knows committed: the entry promoting c is the last in the log, not
    // known committed, so c is a learner here).
    expect(campaign.map((m) => `${m.to}@${m.term}`)).toEqual(['b@2', 'c@2']);
    expect(core.status().conf).toEqual({ voters: ['a', 'b'], learners: ['c'] });
  });

  it('a restart whose log ends in a term its hard state never reached leads the next term', () => {
    const log = new MemoryLog();
    log.append(bootstrapEntries(['a']));
    // A no-op of term 5 landed, the hard state (term 5, vote a) did not.
    log.append([{ index: 3, term: 5, type: 'normal', data: new Uint8Array(0) }]);
    const core = restart(log, { term: 4, vote: 'a', commit: 2 }, ['a']);
    expect([core.status().term, core.currentVote()]).toEqual([5, '']);
    runUntil(core, log, () => core.status().role === 'leader');
    expect(core.status().term).toBe(6);
    expect(core.termAt(core.lastIndex())).toBe(6);
  });

  it('a single voter leads only once its own vote is durable: a crash before leaves no entry of that term', () => {
    const log = new MemoryLog();
    log.append([...bootstrapEntries(['a']), conf(3, 1, { type: 'add-learner', node: 'b' })]);
    const core = restart(log, { term: 1, vote: '', commit: 3 }, ['a']);
    core.advance(core.ready());
    for (let i = 0; i < 100 && core.status().role !== 'candidate'; i++) core.tick();
    const vote = core.ready();
    expect(vote.hardState).toMatchObject({ term: 2, vote: 'a' });
    // Until the vote is written it is a candidate: it appends nothing and sends nothing of
    // term 2 (a crash now restarts it at term 1, to lead term 2 with other entries).
    expect(core.status().role).toBe('candidate');
    expect(vote.entries).toEqual([]);
    expect(vote.messages.filter((m) => m.to === 'b')).toEqual([]);
    expect(() => core.propose(bytes('P1'))).toThrow(NotLeaderError);
    core.advance(vote);
    expect(core.status()).toMatchObject({ role: 'leader', term: 2 });
    expect(core.ready().entries.map((e) => `${e.index}/t${e.term}`)).toEqual(['4/t2']);
  });
});
