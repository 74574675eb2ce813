import { describe, expect, it } from 'vitest';
import { Hold } from '../src/hold.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const emptied = async (hold: { readonly size: number }) => {
  for (const deadline = Date.now() + 10_000; hold.size > 0 && Date.now() < deadline; ) await sleep(5);
};

describe('Hold (deliveries sent ahead of their lease start)', () => {
  it('releases each value at or after its time, in time order, whatever the order of arrival', async () => {
    const released: { value: number; atMs: number }[] = [];
    const hold = new Hold<number>((values) => {
      const now = Date.now();
      for (const value of values) released.push({ value, atMs: now });
    });
    const base = Date.now() + 30;
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
    hold.add('late', Date.now() - 5);
    hold.add('later', Date.now() + 60_000);
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
    const base = Date.now() + 20;
    for (let i = 0; i < 3_000; i++) hold.add(i, base + Math.floor(i / 100) + (i % 7 === 0 ? 1 : 0));
    await emptied(hold);
    expect(released).toHaveLength(3_000);
    const at = (i: number) => Math.floor(i / 100) + (i % 7 === 0 ? 1 : 0);
    for (let k = 1; k < released.length; k++)
      expect(at(released[k]!)).toBeGreaterThanOrEqual(at(released[k - 1]!));
  });
});
