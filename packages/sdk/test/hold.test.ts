import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { Hold, TransitFloor } from '../src/hold.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const emptied = async (hold: { readonly size: number }) => {
  for (const deadline = performance.now() + 10_000; hold.size > 0 && performance.now() < deadline; )
    await sleep(5);
};

describe('Hold (deliveries sent ahead of their lease start)', () => {
  it('releases each value at or after its time, in time order, whatever the order of arrival', async () => {
    const released: { value: number; atMs: number }[] = [];
    const hold = new Hold<number>((values) => {
      const now = performance.now();
      for (const value of values) released.push({ value, atMs: now });
    });
    const base = performance.now() + 30;
    const times = [40, 10, 30, 10, 0, 60, 20];
    for (const [i, t] of times.entries()) hold.add(i, base + t);
    expect(hold.size).toBe(times.length);
    await emptied(hold);
    expect(hold.size).toBe(0);
    expect(released.map((r) => times[r.value])).toEqual([...times].sort((a, b) => a - b));
    for (const r of released) expect(r.atMs).toBeGreaterThanOrEqual(base + times[r.value]!);
  });

  it('a value whose time has passed is released on the next turn; takeAll empties it and cancels the timer', async () => {
    const released: string[] = [];
    const hold = new Hold<string>((values) => released.push(...values));
    hold.add('late', performance.now() - 5);
    hold.add('later', performance.now() + 60_000);
    await sleep(5);
    expect(released).toEqual(['late']);
    expect(hold.takeAll()).toEqual(['later']);
    await sleep(20);
    expect(released).toEqual(['late']);
    expect(hold.size).toBe(0);
  });

  it('keeps order across many values added nearly in order', async () => {
    const released: number[] = [];
    const hold = new Hold<number>((values) => released.push(...values));
    const base = performance.now() + 20;
    for (let i = 0; i < 3_000; i++) hold.add(i, base + Math.floor(i / 100) + (i % 7 === 0 ? 1 : 0));
    await emptied(hold);
    expect(released).toHaveLength(3_000);
    const at = (i: number) => Math.floor(i / 100) + (i % 7 === 0 ? 1 : 0);
    for (let k = 1; k < released.length; k++)
      expect(at(released[k]!)).toBeGreaterThanOrEqual(at(released[k - 1]!));
  });
});

describe('TransitFloor (the leader clock on the monotonic clock)', () => {
  it('is the smallest arrival - sent_at seen: a slow batch does not move it, a faster one lowers it', () => {
    const floor = new TransitFloor(2_000);
    const offset = 5_000; // monotonic = leader + offset
    expect(floor.observe(1_000, 1_000 + offset + 3)).toBe(offset + 3);
    expect(floor.observe(1_100, 1_100 + offset + 40)).toBe(offset + 3); // delayed on the way
    expect(floor.observe(1_200, 1_200 + offset + 1)).toBe(offset + 1);
  });

  it('forgets samples older than two windows, and everything on reset', () => {
    const floor = new TransitFloor(2_000);
    expect(floor.observe(0, 1)).toBe(1);
    expect(floor.observe(2_500, 2_505)).toBe(1); // previous bucket still counts
    expect(floor.observe(4_600, 4_607)).toBe(5); // the first bucket is gone
    expect(floor.observe(20_000, 20_009)).toBe(9); // a gap longer than two windows forgets both
    floor.reset();
    expect(floor.observe(30_000, 30_020)).toBe(20);
  });
});
