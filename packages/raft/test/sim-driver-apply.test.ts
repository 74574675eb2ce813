// How the shipped driver hands committed entries to a follower's state machine: real
// RaftNodes on simulated disks, network and virtual time (DriverCluster).
import { describe, expect, it } from 'vitest';
import { APPLY_DEFER_MAX_ENTRIES, APPLY_DEFER_MAX_MS } from '../src/node/raft-node.js';
import { DriverCluster } from '../src/sim/driver-cluster.js';
import type { Entry } from '../src/types.js';

const bytes = (s: string) => new TextEncoder().encode(s);

/** A cluster led by n1, with the sizes of the batches n2's state machine is handed, from now on. */
async function streaming(): Promise<{ c: DriverCluster; batches: number[] }> {
  const c = new DriverCluster(['n1', 'n2', 'n3']);
  await c.elect('n1');
  const sm = c.sim('n2').sm;
  if (!sm) throw new Error('n2 has no state machine');
  const batches: number[] = [];
  const apply = sm.apply.bind(sm);
  sm.apply = (entries: readonly Entry[]) => {
    batches.push(entries.length);
    return apply(entries);
  };
  return { c, batches };
}

/** Proposes `count` entries on n1 one after the other (one in flight), each resolved before the next. */
async function proposeInTurn(c: DriverCluster, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    let done = false;
    void c
      .node('n1')
      .propose(bytes(`p${i}`))
      .then(() => {
        done = true;
      });
    await c.until(`p${i} to apply on n1`, () => done);
  }
}

describe('a follower applies the rounds of a streaming leader in few batches', () => {
  it('one state machine batch serves many rounds while its leader streams entries, and all are applied once it goes idle', async () => {
    const { c, batches } = await streaming();
    const n = 4 * APPLY_DEFER_MAX_ENTRIES;
    const last = c.core('n1').lastIndex() + n;
    // Only appends reach n2 (a heartbeat carrying a commit is an idle round, applied at once).
    c.drop = (m) => m.type === 'heartbeat' && m.to === 'n2';
    await proposeInTurn(c, n);
    // A round here takes about 4 virtual ms, so the time bound (APPLY_DEFER_MAX_MS) ends
    // each batch after a few rounds: far fewer batches than rounds, none over the entry bound.
    expect(batches.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(n);
    expect(batches.length).toBeLessThan(n / 3);
    expect(Math.max(...batches)).toBeLessThanOrEqual(APPLY_DEFER_MAX_ENTRIES);
    // The leader goes idle: its next heartbeat carries the last commit, and n2 applies everything.
    c.drop = () => false;
    await c.run(2 * APPLY_DEFER_MAX_MS + 100);
    expect(c.node('n2').status().applied).toBe(last);
    expect(c.applied('n2', last)).toBe(`${c.core('n1').status().term}/normal/p${n - 1}`);
  });

  it('a read on the follower does not wait for the bound: it applies at once', async () => {
    const { c } = await streaming();
    await proposeInTurn(c, 5);
    const index = c.core('n1').status().commit;
    let read: number | undefined;
    void c
      .node('n2')
      .readIndex()
      .then((i) => {
        read = i;
      });
    await c.until('the read on n2', () => read !== undefined, APPLY_DEFER_MAX_MS);
    expect(read).toBeGreaterThanOrEqual(index);
    expect(c.node('n2').status().applied).toBeGreaterThanOrEqual(read as number);
  });

  it('leadership moved to a follower that holds entries for a later apply: it applies them as it takes over', async () => {
    const { c } = await streaming();
    c.drop = (m) => m.type === 'heartbeat' && m.to === 'n2';
    await proposeInTurn(c, 10);
    const before = c.node('n2').status();
    // The case: n2 knows entries committed that its state machine does not have yet.
    expect(before.applied).toBeLessThan(before.commit);
    c.drop = () => false;
    let moved: string | undefined;
    void c
      .node('n1')
      .transferLeadership('n2')
      .then((id) => {
        moved = id;
      });
    await c.until('n2 to lead', () => moved === 'n2');
    let done = false;
    void c
      .node('n2')
      .propose(bytes('after'))
      .then(() => {
        done = true;
      });
    // Its first proposal applies on it, after every entry before it.
    await c.until('a proposal on n2 to apply', () => done, APPLY_DEFER_MAX_MS);
    const after = c.node('n2').status();
    expect(after.applied).toBe(after.commit);
    expect(c.applied('n2', after.applied)).toBe(`${after.term}/normal/after`);
    // Among them the last round of the old leader, whose commit n2 had not heard of.
    expect(c.applied('n2', before.commit + 1)).toBe(`${before.term}/normal/p9`);
  });
});
