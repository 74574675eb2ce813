import { describe, expect, it } from 'vitest';
import { defaultLeaseRoundBudget, RoundBudget } from '../src/leader/dispatcher/round-budget.js';

const grantOf = (grants: Array<{ queue: string; grant: number }>, q: string): number =>
  grants.find((g) => g.queue === q)?.grant ?? 0;

describe('RoundBudget (fair lease rounds across queues)', () => {
  it('a queue with a million due messages does not delay another queue due message past one round', () => {
    // 4 commands of 1,000 in flight at most: the burst fills the budget on its own.
    const budget = new RoundBudget<string>(4_000, 1_000);
    let burstLeft = 1_000_000;
    const inFlight: number[] = [];
    for (let round = 0; round < 4; round++) {
      const [g] = budget.plan([{ queue: 'burst', want: 1_000 }]);
      burstLeft -= g!.grant;
      inFlight.push(g!.grant);
    }
    expect(budget.available).toBe(0);
    // The probe comes due while the budget is full: nothing can be granted until a command applies.
    expect(
      budget.plan([
        { queue: 'burst', want: 1_000 },
        { queue: 'probe', want: 5 },
      ]),
    ).toEqual([]);
    // The first burst command applies: the very next round grants the probe all it wants.
    budget.release(inFlight.shift()!);
    const next = budget.plan([
      { queue: 'burst', want: Math.min(1_000, burstLeft) },
      { queue: 'probe', want: 5 },
    ]);
    expect(grantOf(next, 'probe')).toBe(5);
    expect(grantOf(next, 'burst')).toBe(995);
  });

  it('a queue that waited goes first in the next round, even when one entry of room frees', () => {
    const budget = new RoundBudget<string>(3, 3);
    expect(budget.plan([{ queue: 'burst', want: 3 }])).toEqual([{ queue: 'burst', grant: 3 }]);
    budget.release(1);
    // One entry of room, two demanding queues: the one never served takes it.
    expect(
      budget.plan([
        { queue: 'burst', want: 3 },
        { queue: 'probe', want: 1 },
      ]),
    ).toEqual([{ queue: 'probe', grant: 1 }]);
    budget.release(1);
    expect(
      budget.plan([
        { queue: 'burst', want: 3 },
        { queue: 'other', want: 1 },
      ]),
    ).toEqual([{ queue: 'other', grant: 1 }]);
    budget.release(1);
    // Then the burst, served longest ago.
    expect(
      budget.plan([
        { queue: 'probe', want: 1 },
        { queue: 'burst', want: 3 },
      ]),
    ).toEqual([{ queue: 'burst', grant: 1 }]);
  });

  it('budget unused by one queue goes to the others', () => {
    const budget = new RoundBudget<string>(1_000, 1_000);
    const grants = budget.plan([
      { queue: 'a', want: 1_000 },
      { queue: 'small', want: 10 },
      { queue: 'b', want: 1_000 },
    ]);
    expect(grantOf(grants, 'small')).toBe(10);
    expect(grantOf(grants, 'a') + grantOf(grants, 'b')).toBe(990);
    expect(Math.abs(grantOf(grants, 'a') - grantOf(grants, 'b'))).toBeLessThanOrEqual(1);
    expect(budget.available).toBe(0);
  });

  it('busy queues share the budget evenly over rounds', () => {
    const budget = new RoundBudget<string>(100, 100);
    const total = new Map<string, number>();
    const queues = ['a', 'b', 'c'];
    for (let round = 0; round < 300; round++) {
      for (const g of budget.plan(queues.map((queue) => ({ queue, want: 100 })))) {
        total.set(g.queue, (total.get(g.queue) ?? 0) + g.grant);
        budget.release(g.grant);
      }
    }
    const sums = queues.map((q) => total.get(q) ?? 0);
    expect(sums.reduce((a, b) => a + b, 0)).toBe(300 * 100);
    expect(Math.max(...sums) - Math.min(...sums)).toBeLessThanOrEqual(2);
  });

  it('a deficit left when the room ran out is made up in the next round', () => {
    const budget = new RoundBudget<string>(10, 10);
    // 10 of room over 3 queues: quantum 3, one queue gets the remainder.
    const first = budget.plan([
      { queue: 'a', want: 10 },
      { queue: 'b', want: 10 },
      { queue: 'c', want: 10 },
    ]);
    expect(first.reduce((s, g) => s + g.grant, 0)).toBe(10);
    budget.release(10);
    const second = budget.plan([
      { queue: 'a', want: 10 },
      { queue: 'b', want: 10 },
      { queue: 'c', want: 10 },
    ]);
    const both = ['a', 'b', 'c'].map((q) => grantOf(first, q) + grantOf(second, q));
    expect(Math.max(...both) - Math.min(...both)).toBeLessThanOrEqual(1);
  });

  it('a round never grants more than the room the entries in flight leave', () => {
    const budget = new RoundBudget<string>(50, 40);
    budget.plan([{ queue: 'a', want: 30 }]);
    const grants = budget.plan([
      { queue: 'a', want: 40 },
      { queue: 'b', want: 40 },
    ]);
    expect(grants.reduce((s, g) => s + g.grant, 0)).toBe(20);
    expect(budget.inFlight).toBe(50);
    expect(budget.plan([{ queue: 'c', want: 1 }])).toEqual([]);
  });

  it('a queue is never granted more than it wants, nor more than one command', () => {
    const budget = new RoundBudget<string>(10_000, 1_000);
    const grants = budget.plan([
      { queue: 'a', want: 7 },
      { queue: 'b', want: 50_000 },
    ]);
    expect(grants).toEqual([
      { queue: 'a', grant: 7 },
      { queue: 'b', grant: 1_000 },
    ]);
  });

  it('one queue alone gets the whole default budget: what it could have in flight before', () => {
    const budget = new RoundBudget<string>(defaultLeaseRoundBudget(1_000, 4), 1_000);
    let granted = 0;
    for (let round = 0; round < 10; round++)
      granted += grantOf(budget.plan([{ queue: 'a', want: 1_000 }]), 'a');
    expect(granted).toBe(4_000);
  });

  it('releasing more than is in flight is a broken invariant, named with the counts', () => {
    const budget = new RoundBudget<string>(10, 10);
    budget.plan([{ queue: 'a', want: 4 }]);
    expect(() => budget.release(5)).toThrow('released 5 entries with 4 in flight');
  });

  it('reset forgets what was in flight (leadership lost)', () => {
    const budget = new RoundBudget<string>(10, 10);
    budget.plan([{ queue: 'a', want: 10 }]);
    budget.reset();
    expect(budget.available).toBe(10);
  });

  it('a budget or grant below one entry is refused, naming the limit', () => {
    expect(() => new RoundBudget<string>(0, 10)).toThrow('lease round budget must be >= 1, got 0');
    expect(() => new RoundBudget<string>(10, 0)).toThrow('maxGrant must be >= 1, got 0');
  });
});
