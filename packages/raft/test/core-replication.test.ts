import { InvariantError } from '@fermata/base';
import { describe, expect, it } from 'vitest';
import { NotLeaderError } from '../src/core/errors.js';
import { MemoryLog } from '../src/core/memory-log.js';
import { RaftCore } from '../src/core/raft-core.js';
import { RaftLog } from '../src/core/raft-log.js';
import { ManualCluster, message } from '../src/sim/manual-cluster.js';
import type { Entry, Message } from '../src/types.js';

const ABC = ['a', 'b', 'c'];
const CONF = { voters: ABC, learners: [] };
const bytes = (s: string) => new TextEncoder().encode(s);
const entry = (index: number, term: number, text = `e${index}`): Entry => ({
  index,
  term,
  type: 'normal',
  data: bytes(text),
});

/** A follower whose log holds entries with the given terms at indexes 1.., with `commit`. */
function follower(
  terms: number[],
  commit = 0,
  term = Math.max(0, ...terms),
): { core: RaftCore; log: MemoryLog } {
  const log = new MemoryLog({ index: 0, term: 0, conf: CONF });
  log.append(terms.map((t, i) => entry(i + 1, t)));
  const core = new RaftCore({
    id: 'b',
    log,
    hardState: { term, vote: '', commit },
    applied: 0,
    bootstrapVoters: [],
    electionTicks: 10,
    heartbeatTicks: 1,
    random: () => 0.5,
  });
  return { core, log };
}

function drain(core: RaftCore): { sent: Message[]; entries: Entry[] } {
  const sent: Message[] = [];
  const entries: Entry[] = [];
  while (core.hasReady()) {
    const rd = core.ready();
    sent.push(...rd.messages, ...rd.persistedMessages);
    entries.push(...rd.entries);
    core.advance(rd);
  }
  return { sent, entries };
}

const append = (fields: Partial<Message>): Message =>
  message({ type: 'append', from: 'a', to: 'b', ...fields });

describe('AppendEntries receiver (Figure 2)', () => {
  it('rejects an append whose prevLogIndex entry has a different term (consistency check, rule 2)', () => {
    const { core } = follower([1, 1, 2]);
    core.step(append({ term: 3, index: 3, logTerm: 3, entries: [entry(4, 3)] }));
    const { sent } = drain(core);
    expect(sent.map((m) => [m.type, m.reject, m.index])).toEqual([['append-response', true, 3]]);
    expect(core.status().lastIndex).toBe(3);
  });

  it('rejects an append whose prevLogIndex is beyond its log (consistency check, rule 2)', () => {
    const { core } = follower([1, 1]);
    core.step(append({ term: 2, index: 5, logTerm: 2, entries: [entry(6, 2)] }));
    const { sent } = drain(core);
    expect(sent.map((m) => [m.reject, m.rejectHint])).toEqual([[true, 2]]);
  });

  it('deletes a conflicting entry and all that follow it, then appends (rule 3 and 4)', () => {
    const { core, log } = follower([1, 1, 1, 1]);
    core.step(append({ term: 2, index: 2, logTerm: 1, entries: [entry(3, 2, 'new')] }));
    const { sent, entries } = drain(core);
    // The Ready rewrites the log from index 3 (the driver drops 4 with it).
    expect(entries.map((e) => [e.index, e.term])).toEqual([[3, 2]]);
    log.append(entries);
    expect(core.status().lastIndex).toBe(3);
    expect(log.lastIndex()).toBe(3);
    expect(log.term(3)).toBe(2);
    expect(sent.map((m) => [m.reject, m.index])).toEqual([[false, 3]]);
  });

  it('a stale, duplicated or reordered append that matches the log truncates nothing (truncate only from the first real conflict)', () => {
    const { core, log } = follower([1, 1, 1, 1, 1], 0, 1);
    core.step(append({ term: 1, index: 1, logTerm: 1, entries: [entry(2, 1)] }));
    const { sent, entries } = drain(core);
    expect(entries).toEqual([]);
    expect(core.status().lastIndex).toBe(5);
    expect(log.lastIndex()).toBe(5);
    // It acknowledges only what this append proved, not its whole log.
    expect(sent.map((m) => [m.reject, m.index])).toEqual([[false, 2]]);
  });

  it('sets its commit index to min(leaderCommit, index of last new entry) (rule 5)', () => {
    const { core } = follower([1, 1], 0, 1);
    core.step(append({ term: 1, index: 2, logTerm: 1, entries: [entry(3, 1)], commit: 10 }));
    expect(core.status().commit).toBe(3);
    const { core: other } = follower([1, 1, 1, 1], 0, 1);
    other.step(append({ term: 1, index: 1, logTerm: 1, entries: [], commit: 10 }));
    expect(other.status().commit).toBe(1);
  });

  it('on rejection hints the last index whose term is <= the leader prevLogTerm, so the leader skips a term at once (fast backtracking)', () => {
    const { core } = follower([1, 1, 4, 4, 4, 4], 0, 4);
    core.step(append({ term: 5, index: 6, logTerm: 5, entries: [] }));
    const { sent } = drain(core);
    expect(sent.map((m) => [m.reject, m.index, m.rejectHint, m.hintTerm])).toEqual([[true, 6, 6, 4]]);
    core.step(append({ term: 5, index: 6, logTerm: 3, entries: [] }));
    const again = drain(core).sent;
    expect(again.map((m) => [m.rejectHint, m.hintTerm])).toEqual([[2, 1]]);
  });

  it('never truncates at or below its commit index: the assertion throws with the values', () => {
    const log = new MemoryLog({ index: 0, term: 0, conf: CONF });
    log.append([entry(1, 1), entry(2, 1), entry(3, 1)]);
    const raftLog = new RaftLog(log, 3, 0);
    expect(() => raftLog.append([entry(3, 2)])).toThrow(
      /no truncation at or below the commit index.*"firstAppended":3,"committed":3/,
    );
    expect(() => raftLog.append([entry(4, 2)])).not.toThrow();
  });

  it('applied never passes the commit index: the assertion throws with the values', () => {
    const log = new MemoryLog({ index: 0, term: 0, conf: CONF });
    log.append([entry(1, 1), entry(2, 1)]);
    const raftLog = new RaftLog(log, 1, 0);
    expect(() => raftLog.appliedTo(2)).toThrow(InvariantError);
    expect(() => raftLog.appliedTo(2)).toThrow(/"applied":0,"newApplied":2,"committed":1/);
  });

  it('commit never decreases: a lower commit index from a leader is ignored', () => {
    const { core } = follower([1, 1, 1], 3, 1);
    core.step(append({ term: 1, index: 3, logTerm: 1, entries: [], commit: 1 }));
    expect(core.status().commit).toBe(3);
  });
});

describe('leader replication (§5.3, §5.4.2)', () => {
  it('a new leader appends a no-op entry of its own term at once', () => {
    const c = new ManualCluster(ABC);
    const before = c.core('a').status().lastIndex;
    c.elect('a');
    const st = c.core('a').status();
    const noop = c.core('a').entryAt(before + 1);
    expect([noop.term, noop.type, noop.data.length]).toEqual([st.term, 'normal', 0]);
    expect(st.commit).toBe(before + 1);
  });

  it('an entry of the current term stored on a majority is committed, and every entry before it (§5.3)', () => {
    const c = new ManualCluster(ABC);
    c.elect('a');
    c.dropIf = (m) => m.to === 'c';
    const at = c.propose('a', 'x');
    c.stabilize();
    expect(c.core('a').status().commit).toBe(at.index);
    expect(c.appliedTexts('a')).toEqual(['x']);
  });

  it('a commit is announced by the next append or heartbeat: no message carries only the commit index', () => {
    const c = new ManualCluster(ABC);
    c.elect('a');
    c.heartbeat('a');
    const sent: Message[] = [];
    c.dropIf = (m) => {
      if (m.from === 'a') sent.push(m);
      return false;
    };
    const x = c.propose('a', 'x');
    c.stabilize();
    expect(c.core('a').status().commit).toBe(x.index);
    // One append per follower, carrying x; the round that committed it sent nothing more.
    expect(sent.map((m) => `${m.type}>${m.to}:${m.entries.length}`)).toEqual(['append>b:1', 'append>c:1']);
    expect(c.core('b').status().commit).toBe(x.index - 1);
    // The next append carries x's commit ...
    const y = c.propose('a', 'y');
    c.stabilize();
    expect(sent.slice(2).map((m) => [m.type, m.entries.length, m.commit])).toEqual([
      ['append', 1, x.index],
      ['append', 1, x.index],
    ]);
    expect(c.appliedTexts('b')).toEqual(['x']);
    // ... and with nothing more to send, the next heartbeat carries y's.
    c.heartbeat('a');
    expect(sent.slice(4).map((m) => [m.type, m.commit])).toEqual([
      ['heartbeat', y.index],
      ['heartbeat', y.index],
    ]);
    expect([c.appliedTexts('b'), c.appliedTexts('c')]).toEqual([
      ['x', 'y'],
      ['x', 'y'],
    ]);
  });

  it('an entry not on a majority is not committed', () => {
    const c = new ManualCluster(ABC);
    c.elect('a');
    c.dropIf = (m) => m.to === 'b' || m.to === 'c';
    const at = c.propose('a', 'x');
    c.stabilize();
    expect(c.core('a').status().commit).toBe(at.index - 1);
  });

  it('a leader never commits an entry of a previous term by counting replicas; it commits it with an entry of its term (§5.4.2, Figure 8)', () => {
    // 'a' holds x (term 2) at index 2 and wins term 3.
    const log = new MemoryLog({ index: 0, term: 0, conf: CONF });
    log.append([entry(1, 1), entry(2, 2, 'x')]);
    const core = new RaftCore({
      ...baseOptions(log),
      id: 'a',
      hardState: { term: 2, vote: '', commit: 1 },
      preVote: false,
    });
    while (core.status().role !== 'candidate') core.tick();
    core.step(message({ type: 'vote-response', from: 'b', to: 'a', term: 3 }));
    expect(core.status().role).toBe('leader');
    persistAll(core, log);
    // 'b' now stores x: a majority (a, b) holds it, but x is from term 2.
    core.step(message({ type: 'append-response', from: 'b', to: 'a', term: 3, index: 2 }));
    persistAll(core, log);
    expect(core.status().commit).toBe(1);
    // The no-op of term 3 (index 3) on a majority commits it and x with it.
    core.step(message({ type: 'append-response', from: 'b', to: 'a', term: 3, index: 3 }));
    expect(core.status().commit).toBe(3);
  });

  it('the leader counts its own log towards a quorum only after advance() made it durable', () => {
    const c = new ManualCluster(['a']);
    c.elect('a');
    const core = c.core('a');
    const at = core.propose(bytes('x'));
    const rd = core.ready();
    expect(rd.entries.map((e) => e.index)).toEqual([at.index]);
    expect(core.status().commit).toBe(at.index - 1);
    c.node('a').log.append(rd.entries);
    core.advance(rd);
    expect(core.status().commit).toBe(at.index);
  });

  it('proposals made between two Readies go out in one append (batching)', () => {
    const c = new ManualCluster(ABC);
    c.elect('a');
    const core = c.core('a');
    for (const t of ['x', 'y', 'z']) core.propose(bytes(t));
    c.flush('a');
    const appends = c.take((m) => m.type === 'append' && m.to === 'b');
    expect(appends.map((m) => m.entries.map((e) => new TextDecoder().decode(e.data)))).toEqual([
      ['x', 'y', 'z'],
    ]);
  });

  it('an append carries at most maxMsgBytes of entry data, but always at least one entry', () => {
    const c = new ManualCluster(ABC, { maxMsgBytes: 10 });
    c.elect('a');
    c.dropIf = (m) => m.to === 'c';
    for (const t of ['aaaa', 'bbbb', 'cccc', 'dddddddddddddddd']) c.core('a').propose(bytes(t));
    c.flush('a');
    const sizes: number[][] = [];
    while (c.outbox.length > 0) {
      for (const m of c.take(() => true)) {
        if (m.type === 'append' && m.to === 'b' && m.entries.length > 0)
          sizes.push(m.entries.map((e) => e.data.length));
        c.deliver(m);
      }
    }
    expect(sizes).toEqual([[4, 4], [4], [16]]);
  });

  it('at most maxInflight appends are in flight to one follower in replicate state (bounded pipeline)', () => {
    const c = new ManualCluster(ABC, { maxInflight: 2, maxMsgBytes: 1 });
    c.elect('a');
    for (let i = 0; i < 6; i++) {
      c.core('a').propose(bytes(`p${i}`));
      c.flush('a');
    }
    const toB = c.take((m) => m.type === 'append' && m.to === 'b' && m.entries.length > 0);
    expect(toB.length).toBe(2);
    expect(c.core('a').status().progress.get('b')?.state).toBe('replicate');
  });

  it('a follower that lags far behind is caught up by probing with the conflict hint', () => {
    const c = new ManualCluster(ABC);
    c.elect('a');
    c.crash('c');
    for (let i = 0; i < 20; i++) c.propose('a', `p${i}`);
    c.stabilize();
    c.restart('c');
    c.heartbeat('a', 5);
    expect(c.core('c').status().commit).toBe(c.core('a').status().commit);
    expect(c.appliedTexts('c')).toEqual(c.appliedTexts('a'));
  });

  it('propose on a follower throws NotLeaderError naming the leader', () => {
    const c = new ManualCluster(ABC);
    c.elect('a');
    expect(() => c.core('b').propose(bytes('x'))).toThrow(NotLeaderError);
    try {
      c.core('b').propose(bytes('x'));
    } catch (e) {
      expect((e as NotLeaderError).leader).toBe('a');
    }
  });

  it('term never decreases: a message from a lower term leaves the term alone', () => {
    const { core } = follower([1, 1], 0, 5);
    core.step(append({ term: 3, index: 0, logTerm: 0 }));
    core.step(message({ type: 'vote', from: 'c', to: 'b', term: 4, index: 9, logTerm: 4 }));
    expect(core.status().term).toBe(5);
  });
});

function persistAll(core: RaftCore, log: MemoryLog): Message[] {
  const sent: Message[] = [];
  while (core.hasReady()) {
    const rd = core.ready();
    log.append(rd.entries);
    sent.push(...rd.messages, ...rd.persistedMessages);
    core.advance(rd);
  }
  return sent;
}

function baseOptions(log: MemoryLog) {
  return {
    id: 'b',
    log,
    hardState: { term: 0, vote: '', commit: 0 },
    applied: 0,
    bootstrapVoters: [],
    electionTicks: 10,
    heartbeatTicks: 1,
    random: () => 0.5,
  };
}
