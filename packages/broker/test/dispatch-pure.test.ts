import { describe, expect, it } from 'vitest';
import {
  ConsumerRegistry,
  type ConsumerSlotHolder,
  emptySlots,
} from '../src/leader/dispatcher/consumer-registry.js';
import { DueHeap } from '../src/leader/dispatcher/due-heap.js';
import { DueQueues } from '../src/leader/dispatcher/due-queues.js';
import { MAX_PUSH_GRANULE_MS, pushAtMs } from '../src/leader/dispatcher/lease-placement.js';
import { packRuns } from '../src/leader/dispatcher/run-packing.js';

function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('DueHeap', () => {
  it('always peeks the earliest due queue, through sets, moves and deletes', () => {
    const r = rng(3);
    const heap = new DueHeap<string>();
    const model = new Map<string, number>();
    for (let step = 0; step < 5000; step++) {
      const q = `q${Math.floor(r() * 50)}`;
      const op = r();
      if (op < 0.6) {
        const due = Math.floor(r() * 10_000);
        heap.set(q, due);
        model.set(q, due);
      } else if (op < 0.8) {
        const due = Math.floor(r() * 10_000);
        heap.lower(q, due);
        if (!model.has(q) || due < model.get(q)!) model.set(q, due);
      } else {
        heap.delete(q);
        model.delete(q);
      }
      expect(heap.size).toBe(model.size);
      const min = Math.min(...model.values());
      expect(heap.peek()?.dueMs ?? Number.POSITIVE_INFINITY).toBe(min);
      const now = Math.floor(r() * 10_000);
      const due = heap.dueBy(now).sort();
      expect(due).toEqual(
        [...model.entries()]
          .filter(([, d]) => d <= now)
          .map(([k]) => k)
          .sort(),
      );
      const later = [...model.values()].filter((d) => d > now);
      expect(heap.firstAfter(now)?.dueMs ?? Number.POSITIVE_INFINITY).toBe(Math.min(...later));
    }
  });
});

describe('DueQueues', () => {
  it('parks a queue met without a consumer, looked at by no round until a consumer of it comes', () => {
    const consumers = new Set<bigint>([1n]);
    const due = new DueQueues((q) => consumers.has(q));
    due.set(1n, 100);
    due.set(2n, 50); // no consumer: parked at once
    due.lower(3n, 70); // no consumer, not known: parked
    expect([due.size, due.parkedSize]).toEqual([1, 2]);
    expect(due.dueBy(1_000)).toEqual([1n]);
    // A consumer of 2 leaves it parked until `unpark` (its subscribe): then it is due again.
    consumers.add(2n);
    expect(due.dueBy(1_000)).toEqual([1n]);
    due.unpark(2n);
    expect(due.dueBy(1_000).sort()).toEqual([1n, 2n]);
    // Its consumer gone, it is parked the first time a round meets it; lowering keeps it parked.
    consumers.delete(2n);
    expect(due.dueBy(1_000)).toEqual([1n]);
    due.lower(2n, 10);
    expect([due.get(2n), due.parkedSize]).toEqual([10, 2]);
    expect(due.firstAfter(60)).toEqual({ queue: 1n, dueMs: 100 });
    due.delete(3n);
    expect(due.get(3n)).toBeUndefined();
  });
});

describe("packRuns: a round's runs in lease commands", () => {
  it('fills commands in order within maxTags, splitting a run that does not fit between two', () => {
    const split = (r: { q: string; n: number }, n: number) =>
      [
        { q: r.q, n },
        { q: r.q, n: r.n - n },
      ] as const;
    const pack = (sizes: number[], max: number) =>
      packRuns(
        sizes.map((n, i) => ({ q: `q${i}`, n })),
        max,
        (r) => r.n,
        split,
      ).map((c) => c.map((r) => `${r.q}:${r.n}`));
    expect(pack([60, 60, 60], 100)).toEqual([
      ['q0:60', 'q1:40'],
      ['q1:20', 'q2:60'],
    ]);
    expect(pack([1, 1, 1], 100)).toEqual([['q0:1', 'q1:1', 'q2:1']]);
    expect(pack([100, 1], 100)).toEqual([['q0:100'], ['q1:1']]);
    expect(pack([250], 100)).toEqual([['q0:100'], ['q0:100'], ['q0:50']]);
    const r = rng(7);
    for (let trial = 0; trial < 200; trial++) {
      const sizes = Array.from({ length: 1 + Math.floor(r() * 20) }, () => 1 + Math.floor(r() * 120));
      const max = 1 + Math.floor(r() * 150);
      const commands = packRuns(
        sizes.map((n, i) => ({ q: `q${i}`, n })),
        max,
        (x) => x.n,
        split,
      );
      const total = sizes.reduce((a, b) => a + b, 0);
      // As few commands as hold them, none past max, every tag once, in order.
      expect(commands).toHaveLength(Math.ceil(total / max));
      for (const c of commands) expect(c.reduce((a, x) => a + x.n, 0)).toBeLessThanOrEqual(max);
      const flat = commands.flat();
      const perQueue = new Map<string, number>();
      for (const x of flat) perQueue.set(x.q, (perQueue.get(x.q) ?? 0) + x.n);
      expect(sizes.map((_, i) => perQueue.get(`q${i}`))).toEqual(sizes);
      expect(flat.map((x) => x.q)).toEqual(
        [...flat.map((x) => x.q)].sort((a, b) => Number(a.slice(1)) - Number(b.slice(1))),
      );
    }
  });
});

const consumer = (id: number, window: number): ConsumerSlotHolder<string> => ({
  id,
  queue: 'q',
  window,
  ...emptySlots(),
});

describe('ConsumerRegistry', () => {
  it('never assigns a consumer more than its free window', () => {
    const reg = new ConsumerRegistry<string, ConsumerSlotHolder<string>>();
    const a = consumer(1, 2);
    const b = consumer(2, 5);
    reg.add(a);
    reg.add(b);
    ConsumerRegistry.delivered(a, 'x', 100);
    expect(reg.credit('q')).toBe(6);
    const got = reg.assign('q', 100);
    expect(got.map((g) => [g.consumer.id, g.count])).toEqual([
      [1, 1],
      [2, 5],
    ]);
  });

  it('shares deliveries round-robin and rotates who is served first', () => {
    const reg = new ConsumerRegistry<string, ConsumerSlotHolder<string>>();
    const cs = [consumer(1, 10), consumer(2, 10), consumer(3, 10)];
    for (const c of cs) reg.add(c);
    expect(reg.assign('q', 4).map((g) => [g.consumer.id, g.count])).toEqual([
      [1, 2],
      [2, 1],
      [3, 1],
    ]);
    expect(reg.assign('q', 1).map((g) => g.consumer.id)).toEqual([2]);
  });

  it('frees slots on settle and when leases lapse', () => {
    const c = consumer(1, 2);
    ConsumerRegistry.delivered(c, 'a', 100);
    ConsumerRegistry.delivered(c, 'b', 200);
    expect(ConsumerRegistry.free(c)).toBe(0);
    expect(ConsumerRegistry.nextLapse(c)).toBe(100);
    expect(ConsumerRegistry.lapse(c, 150)).toBe(1);
    expect(ConsumerRegistry.settled(c, 'b')).toBe(true);
    expect(ConsumerRegistry.settled(c, 'b')).toBe(false);
    expect(ConsumerRegistry.free(c)).toBe(2);
  });
});

describe('ConsumerRegistry: a delivery the client has not read', () => {
  it('keeps its slot past its lease until its write completes, then lapses', () => {
    const c = consumer(1, 2);
    ConsumerRegistry.writing(c, 'read', 100);
    ConsumerRegistry.writing(c, 'unread', 100);
    expect(ConsumerRegistry.nextLapse(c)).toBeUndefined();
    ConsumerRegistry.sent(c, ['read'], 50);
    expect(ConsumerRegistry.nextLapse(c)).toBe(100);
    expect(ConsumerRegistry.lapse(c, 500)).toBe(1);
    // Its client stopped reading: no slot is free for it, not even the one the read delivery freed.
    expect(c.stalled).toBe(true);
    expect(ConsumerRegistry.free(c)).toBe(0);
    expect(ConsumerRegistry.nextLapse(c)).toBeUndefined();
    expect(ConsumerRegistry.sent(c, ['unread'], 500)).toBe(true);
    expect(c.stalled).toBe(false);
    expect(ConsumerRegistry.nextLapse(c)).toBe(100);
    expect(ConsumerRegistry.lapse(c, 500)).toBe(1);
    expect(ConsumerRegistry.free(c)).toBe(2);
  });
});

describe('ConsumerRegistry: lapses against a walk of every slot', () => {
  it('lapses the same tags, stalls alike and never times a lapse after the earliest', () => {
    for (let seed = 1; seed <= 30; seed++) {
      const r = rng(seed);
      const c = consumer(1, 1_000);
      // The model: every slot looked at on every call.
      const ends = new Map<string, number>();
      const unsent = new Set<string>();
      let now = 0;
      let next = 0;
      const earliestSent = (): number | undefined => {
        let min: number | undefined;
        for (const [t, e] of ends) if (!unsent.has(t) && (min === undefined || e < min)) min = e;
        return min;
      };
      for (let step = 0; step < 400; step++) {
        const op = r();
        const live = [...ends.keys()];
        const pick = (from: readonly string[]) => from[Math.floor(r() * from.length)];
        if (op < 0.3) {
          const tag = `t${next++}`;
          const end = now + 1 + Math.floor(r() * 100);
          ConsumerRegistry.writing(c, tag, end);
          ends.set(tag, end);
          unsent.add(tag);
        } else if (op < 0.5 && unsent.size > 0) {
          const tags = [...unsent].filter(() => r() < 0.5);
          ConsumerRegistry.sent(c, tags, now);
          for (const t of tags) unsent.delete(t);
        } else if (op < 0.65 && live.length > 0) {
          // An ack, or an extend (the old tag settles, a new one is sent at once).
          const tag = pick(live)!;
          expect(ConsumerRegistry.settled(c, tag)).toBe(true);
          ends.delete(tag);
          unsent.delete(tag);
          if (r() < 0.3) {
            const renewed = `t${next++}`;
            const end = now + 1 + Math.floor(r() * 100);
            ConsumerRegistry.delivered(c, renewed, end);
            ends.set(renewed, end);
          }
        } else if (op < 0.8) {
          now += Math.floor(r() * 40);
        } else {
          const at = ConsumerRegistry.nextLapse(c);
          const earliest = earliestSent();
          if (earliest === undefined && ends.size === 0) expect(at).toBeUndefined();
          if (earliest !== undefined) expect(at).toBeLessThanOrEqual(earliest);
          const lapsed: string[] = [];
          ConsumerRegistry.lapse(c, now, (t) => lapsed.push(t));
          const expected = [...ends].filter(([t, e]) => e <= now && !unsent.has(t)).map(([t]) => t);
          expect(lapsed.sort()).toEqual(expected.sort());
          for (const t of expected) ends.delete(t);
          expect(c.stalled).toBe([...unsent].some((t) => ends.get(t)! <= now));
          // After a lapse the timer's time is in the future (no timer at once, again and again),
          // and exact when the lapse had to look at every slot.
          const after = ConsumerRegistry.nextLapse(c);
          if (after !== undefined) expect(after).toBeGreaterThan(now);
          if (at !== undefined && at <= now) expect(after).toBe(earliestSent());
        }
        expect(c.inFlight.size).toBe(ends.size);
      }
    }
  });
});

describe('pushAtMs: deliveries sent ahead share a granule', () => {
  it('sends at start - pushAheadMs rounded down to a quarter of it, at most MAX_PUSH_GRANULE_MS', () => {
    expect(MAX_PUSH_GRANULE_MS).toBe(20);
    // 250 ms ahead: a 20 ms grid.
    expect(pushAtMs(10_250, 250)).toBe(10_000);
    expect(pushAtMs(10_269, 250)).toBe(10_000);
    expect(pushAtMs(10_270, 250)).toBe(10_020);
    // 40 ms ahead: a 10 ms grid, never later than start - pushAheadMs nor earlier than a granule before it.
    for (let start = 1_000; start < 1_100; start++) {
      const at = pushAtMs(start, 40);
      expect(at % 10).toBe(0);
      expect(at).toBeLessThanOrEqual(start - 40);
      expect(at).toBeGreaterThan(start - 40 - 10);
    }
    // Too short to group: exactly pushAheadMs before (0 = at the start).
    expect(pushAtMs(1_003, 7)).toBe(996);
    expect(pushAtMs(1_003, 0)).toBe(1_003);
  });
});
