import { describe, expect, it } from 'vitest';
import { PushSchedule, type ScheduledPush } from '../src/leader/dispatcher/push-schedule.js';

const item = (tagKey: string, atMs: number, consumer = 'c1'): ScheduledPush<string, string> => ({
  tagKey,
  atMs,
  queue: 1n,
  delivery: `d-${tagKey}`,
  consumer,
});

describe('PushSchedule', () => {
  it('hands out items in due order, only once their time has come', () => {
    const s = new PushSchedule<string, string>();
    for (const [k, at] of [
      ['e', 50],
      ['a', 10],
      ['c', 30],
      ['b', 20],
      ['d', 30],
    ] as const)
      s.add(item(k, at));
    expect(s.nextAtMs()).toBe(10);
    expect(s.takeDue(9)).toEqual([]);
    expect(s.takeDue(30).map((i) => i.atMs)).toEqual([10, 20, 30, 30]);
    expect(s.size).toBe(1);
    expect(s.nextAtMs()).toBe(50);
    expect(s.takeDue(1_000).map((i) => i.tagKey)).toEqual(['e']);
    expect(s.nextAtMs()).toBeUndefined();
  });

  it('a removed item is never handed out; a tag added again counts once', () => {
    const s = new PushSchedule<string, string>();
    s.add(item('a', 10));
    s.add(item('b', 20));
    expect(s.remove('a')?.delivery).toBe('d-a');
    expect(s.remove('a')).toBeUndefined();
    expect(s.has('a')).toBe(false);
    expect(s.nextAtMs()).toBe(20);
    s.add(item('b', 5));
    expect(s.size).toBe(1);
    expect(s.takeDue(100).map((i) => [i.tagKey, i.atMs])).toEqual([['b', 5]]);
    expect(s.size).toBe(0);
  });

  it('heldFor lists the live items of one consumer; clear empties it', () => {
    const s = new PushSchedule<string, string>();
    s.add(item('a', 10, 'x'));
    s.add(item('b', 20, 'y'));
    s.add(item('c', 30, 'x'));
    s.remove('c');
    expect(s.heldFor('x').map((i) => i.tagKey)).toEqual(['a']);
    s.clear();
    expect(s.size).toBe(0);
    expect(s.takeDue(100)).toEqual([]);
  });

  it('keeps heap order over many random inserts and removals', () => {
    const s = new PushSchedule<string, string>();
    let seed = 7;
    const rnd = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    const live = new Map<string, number>();
    for (let i = 0; i < 2_000; i++) {
      const k = `t${i}`;
      const at = Math.floor(rnd() * 10_000);
      s.add(item(k, at));
      live.set(k, at);
      if (rnd() < 0.3) {
        const victim = `t${Math.floor(rnd() * (i + 1))}`;
        if (s.remove(victim)) live.delete(victim);
      }
    }
    const out = s.takeDue(10_000).map((i) => i.atMs);
    expect(out).toEqual([...live.values()].sort((a, b) => a - b));
  });
});
