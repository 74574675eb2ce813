// The due-load forecast (docs/design.md, "Due-load forecast") counts every pending message of a
// queue at its due time, whatever changed it: after every step of a seeded random run of
// publishes, leases, acks, nacks, lapses, cancels, reschedules, expiries, deadlines and ordered
// keys, the forecast at every level equals a count of the queue's entries, message by message.
import { describe, expect, it } from 'vitest';
import { encodeQueue } from '../src/state/codec/queue.js';
import { BrokerStateMachine } from '../src/state/index.js';
import { DUE_LOAD_LEVEL_MS } from '../src/state/model/due-load.js';
import { NS, u64 } from '../src/state/model/layout.js';
import { Harness, rng, T0, text } from './state-harness.js';

/** The harness's state machine opened again on its store (a restart), leading a new term. */
async function reopen(h: Harness): Promise<void> {
  h.sm = await BrokerStateMachine.open({ store: h.store, hasher: h.hasher });
  h.index = h.sm.appliedIndex();
  await h.lead(2);
}

const DAY = 86_400_000;
const QUEUES = [
  { topic: 't', group: 'default' },
  { topic: 't', group: 'g' },
  { topic: 't.dlq', group: 'default' },
] as const;

/** Pending entries (not held by a lease) of a queue by due time: read message by message. */
async function bruteForce(h: Harness, topic: string, group: string): Promise<number[]> {
  const dues: number[] = [];
  let pageToken: Uint8Array | undefined;
  do {
    const page = await h.sm.reader.listMessages(topic, { group, limit: 1000, pageToken }, h.now);
    for (const it of page.items) if (!it.entry.inFlight) dues.push(it.entry.dueAtMs);
    pageToken = page.nextPageToken;
  } while (pageToken);
  return dues;
}

/** The forecast's counts compared with the brute-force count, at every level's width. */
async function checkForecast(h: Harness, step: string): Promise<void> {
  for (const { topic, group } of QUEUES) {
    const dues = await bruteForce(h, topic, group);
    const from = Math.floor((h.now - DAY) / DAY) * DAY;
    for (const bucketMs of [...DUE_LOAD_LEVEL_MS, 45_000, 7_200_000, 2 * DAY]) {
      // Wide enough at the day levels for every due time of the run; 1,440 buckets at the others.
      const to = from + Math.min(1_440 * bucketMs, 20 * DAY);
      const f = await h.sm.reader.forecast({ topic, group, fromMs: from, toMs: to, bucketMs });
      expect(f.complete).toBe(true);
      // Buckets start at a multiple of their width and cover the range.
      const start0 = Math.floor(from / bucketMs) * bucketMs;
      const end = f.buckets[f.buckets.length - 1]!.endMs;
      expect(f.buckets[0]!.startMs).toBe(start0);
      expect(end).toBeGreaterThanOrEqual(to);
      const want = new Map<number, number>();
      for (const due of dues) {
        if (due < start0 || due >= end) continue;
        const start = start0 + Math.floor((due - start0) / bucketMs) * bucketMs;
        want.set(start, (want.get(start) ?? 0) + 1);
      }
      const got = new Map<number, number>();
      for (const b of f.buckets) if (b.count > 0) got.set(b.startMs, b.count);
      expect(got, `${step}: ${topic}/${group} in buckets of ${bucketMs} ms`).toEqual(want);
      expect(f.pending, `${step}: ${topic}/${group} pending`).toBe(dues.length);
    }
  }
}

interface Held {
  readonly tag: Uint8Array;
  readonly endMs: number;
}

/** What the runs did, by kind of change: every kind must have happened (a run that never nacks proves nothing of nacks). */
const seen = new Map<string, number>();
function saw(kind: string, n = 1): void {
  if (n > 0) seen.set(kind, (seen.get(kind) ?? 0) + n);
}

async function randomRun(seed: number, steps: number): Promise<Harness> {
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const h = await Harness.create();
  h.leaseRuns = true;
  await h.ok({ kind: 'create-topic', name: 't.dlq' });
  await h.ok({ kind: 'create-topic', name: 't', settings: { ordering: 'key', maxAttempts: 2 } });
  await h.ok({ kind: 'create-group', topic: 't', group: 'g' });
  const ids: bigint[] = [];
  let held: Held[] = [];
  let n = 0;
  for (let step = 0; step < steps; step++) {
    const what = r();
    let did: string;
    if (what < 0.3) {
      const messages = Array.from({ length: 1 + Math.floor(r() * 4) }, () => {
        n++;
        const delayMs = Math.floor(r() * r() * 3 * 3_600_000);
        return {
          topic: 't',
          payload: text(`m${n}`),
          delayMs,
          ...(r() < 0.3 ? { orderingKey: pick(['a', 'b', 'c']) } : {}),
          ...(r() < 0.2 ? { key: `k${n}` } : {}),
          ...(r() < 0.2 ? { ttlMs: Math.floor(r() * 7_200_000) + 1 } : {}),
          ...(r() < 0.2 ? { deliverBeforeMs: h.now + delayMs + Math.floor(r() * 3_600_000) } : {}),
        };
      });
      for (const res of await h.publish(...messages)) ids.push(res.id);
      saw('ordered publish', messages.filter((m) => m.orderingKey !== undefined).length);
      did = `publish ${messages.length}`;
    } else if (what < 0.45) {
      h.now += Math.floor(r() * r() * 1_800_000);
      const leaseMs = 1_000 + Math.floor(r() * 60_000);
      // Now and then the lease of earlier versions, which rewrites each entry in place (a rollout).
      const inPlace = r() < 0.25;
      const outcomes = [];
      if (inPlace) {
        h.leaseRuns = false;
        for (const q of QUEUES) outcomes.push(...(await h.leaseAll(q.topic, q.group, leaseMs)));
        h.leaseRuns = true;
        saw('lease in place', outcomes.length);
      } else {
        outcomes.push(...(await h.leaseQueues(QUEUES, leaseMs)));
      }
      for (const o of outcomes) {
        if (o.status === 'leased') held.push({ tag: o.newTag!, endMs: o.leaseExpiresAtMs! });
        saw(o.deadlineExceeded ? `lease ${o.status} at its deadline` : `lease ${o.status}`);
        // Taken again after a lapse (its earlier lease was neither acked nor nacked).
        if (o.status === 'leased' && o.attempt! > 1) saw('lease again');
      }
      did = `lease ${outcomes.length} at +${h.now - T0}`;
    } else if (what < 0.58 && held.length > 0) {
      const some = held.filter(() => r() < 0.5);
      const acked = await h.ok({ kind: 'ack', tags: some.map((x) => x.tag) });
      saw('ack ok', acked.outcomes.filter((o) => o.status === 'ok').length);
      held = held.filter((x) => !some.includes(x));
      did = `ack ${some.length}`;
    } else if (what < 0.66 && held.length > 0) {
      const one = pick(held);
      // Or handed back by a leader whose consumer never took it (not counted as an attempt).
      const uncounted = r() < 0.3;
      const nacked = await h.run({
        kind: 'nack',
        tag: one.tag,
        delayMs: uncounted ? 0 : Math.floor(r() * 600_000),
        ...(uncounted ? { uncounted } : {}),
      });
      if (nacked.kind === 'nack') saw(`${uncounted ? 'hand back' : 'nack'} ${nacked.outcome.status}`);
      held = held.filter((x) => x !== one);
      did = 'nack';
    } else if (what < 0.72 && ids.length > 0) {
      const c = await h.run({ kind: 'cancel', topic: 't', target: { id: pick(ids) } });
      if (c.kind === 'cancel') saw(`cancel ${c.result.status}`);
      did = 'cancel';
    } else if (what < 0.8 && ids.length > 0) {
      const to = r() < 0.5 ? { delayMs: Math.floor(r() * 3_600_000) } : { deliverAtMs: h.now - 60_000 };
      const re = await h.run({ kind: 'reschedule', topic: 't', target: { id: pick(ids) }, ...to });
      if (re.kind === 'reschedule') saw(`reschedule ${re.result.status}`);
      did = 'reschedule';
    } else if (what < 0.9) {
      // Time passes (leases lapse, ttls and deadlines pass); the janitor ends what expired.
      h.now += Math.floor(r() * 900_000);
      const expired = await h.sm.reader.dueExpiries(h.now, 100);
      if (expired.length > 0) {
        const x = await h.ok({
          kind: 'expire',
          ids: expired.map((e) => e.id),
          keys: expired.map((e) => e.key),
          atMs: expired.map((e) => e.expireAtMs),
        });
        for (const o of x.outcomes) saw(`expire ${o.status}`);
      }
      did = `expire ${expired.length} at +${h.now - T0}`;
    } else {
      h.now += Math.floor(r() * 120_000);
      did = `wait to +${h.now - T0}`;
    }
    await checkForecast(h, `seed ${seed} step ${step} (${did})`);
  }
  return h;
}

describe('the due-load forecast equals a count of the pending messages', () => {
  for (const seed of [1, 2, 3]) {
    it(`after every step of a random run of every kind of change (seed ${seed})`, async () => {
      const h = await randomRun(seed, 120);
      // The histogram is replicated state: a follower restored from a snapshot and the node
      // reopened over its store answer the same, and go on counting exactly.
      const snap = await h.sm.snapshot();
      const follower = await Harness.create();
      await follower.sm.restore(snap.chunks);
      follower.index = follower.sm.appliedIndex();
      follower.now = h.now;
      await checkForecast(follower, `seed ${seed}: a follower restored from a snapshot`);
      await reopen(h);
      await checkForecast(h, `seed ${seed}: reopened`);
      await h.publish({ topic: 't', payload: text('after'), delayMs: 61_000, orderingKey: 'a' });
      await checkForecast(h, `seed ${seed}: a publish after the reopen`);
      // Every message ended: not one bucket is left.
      await h.deleteGroup('t', 'g');
      await h.deleteTopic('t');
      await h.deleteTopic('t.dlq');
      let left = 0;
      await h.sm.reader.view.scan(NS.dueLoad.range(), () => {
        left++;
      });
      expect(left).toBe(0);
    }, 120_000);
  }

  it('the runs above made every kind of change', () => {
    for (const kind of [
      'ordered publish',
      'lease leased',
      'lease again',
      'lease dead-lettered',
      'lease dead-lettered at its deadline',
      'ack ok',
      'nack ok',
      'hand back ok',
      'lease in place',
      'cancel cancelled',
      'reschedule rescheduled',
    ]) {
      expect(seen.get(kind) ?? 0, kind).toBeGreaterThan(0);
    }
    expect(seen.get('expire expired') ?? 0, 'expire expired').toBeGreaterThan(0);
  });
});

describe('a forecast answers what it can count, and says what it cannot', () => {
  it('a queue of an earlier version (no histogram) answers complete: false until it is empty, then counts', async () => {
    const h = await Harness.create();
    h.leaseRuns = true;
    await h.ok({ kind: 'create-topic', name: 'old' });
    const [a, b, c] = await h.publish(
      { topic: 'old', payload: text('a') },
      { topic: 'old', payload: text('b'), delayMs: 5_000 },
      { topic: 'old', payload: text('c'), delayMs: 10_000 },
    );
    // The store as a version without the histogram wrote it: the queue record without
    // due_load, no bucket records.
    const hash = h.sm.reader.queueHash('old');
    const q = (await h.sm.reader.getQueue(hash))!;
    const buckets: Uint8Array[] = [];
    await h.store.scan(NS.dueLoad.range(), (k) => {
      buckets.push(k.slice());
    });
    // Three seconds, and one minute, hour and day.
    expect(buckets).toHaveLength(6);
    await h.store.batch(
      [
        ...buckets.map((key) => ({ type: 'del' as const, key })),
        {
          type: 'put',
          key: NS.queues.key(u64(hash)).slice(),
          value: encodeQueue({
            topic: 'old',
            group: 'default',
            pending: q.pending,
            inFlight: 0,
            deadLettered: 0,
          }),
        },
      ],
      { sync: false },
    );
    await reopen(h);
    const forecast = () =>
      h.sm.reader.forecast({ topic: 'old', group: '', fromMs: T0, toMs: T0 + 60_000, bucketMs: 1_000 });
    const counts = async () =>
      (await forecast()).buckets.filter((x) => x.count > 0).map((x) => [x.startMs - T0, x.count]);
    const bucketRecords = async () => {
      let n = 0;
      await h.store.scan(NS.dueLoad.range(), () => {
        n++;
      });
      return n;
    };
    expect(await forecast()).toMatchObject({ complete: false, pending: 3, inFlight: 0 });
    expect(await counts()).toEqual([]);
    // Its changes write no bucket (they would count below 0).
    h.now += 10;
    const [leased] = await h.leaseAll('old');
    expect(leased!.id).toBe(a!.id);
    await h.ok({ kind: 'ack', tags: [leased!.newTag!] });
    await h.ok({ kind: 'cancel', topic: 'old', target: { id: b!.id } });
    expect(await forecast()).toMatchObject({ complete: false, pending: 1 });
    expect(await bucketRecords()).toBe(0);
    // Empty once a command ended: its histogram is empty, and it keeps one from then on.
    await h.ok({ kind: 'cancel', topic: 'old', target: { id: c!.id } });
    expect(await forecast()).toMatchObject({ complete: true, pending: 0 });
    await h.publish({ topic: 'old', payload: text('d'), delayMs: 3_000 });
    expect(await forecast()).toMatchObject({ complete: true, pending: 1 });
    expect(await counts()).toEqual([[3_000, 1]]);
  });

  it('a bad range or bucket is refused with the field named', async () => {
    const h = await Harness.create();
    await h.ok({ kind: 'create-topic', name: 't' });
    const ask = (fromMs: number, toMs: number, bucketMs: number, topic = 't', group = '') =>
      h.sm.reader.forecast({ topic, group, fromMs, toMs, bucketMs });
    await expect(ask(T0, T0 + 60_000, 0)).rejects.toThrow(/^bucket_ms: must be a positive/);
    await expect(ask(T0, T0 + 60_000, 1_500)).rejects.toThrow(
      /^bucket_ms: 1500 is not a whole number of seconds/,
    );
    await expect(ask(T0, T0 + 60_000, 90_000)).rejects.toThrow(
      /^bucket_ms: 90000 is not a whole number of minutes/,
    );
    await expect(ask(T0, T0 + 60_000, 61 * DAY)).rejects.toThrow(/^bucket_ms: must be at most/);
    await expect(ask(-1, T0, 1_000)).rejects.toThrow(/^from_ms: must be an epoch time/);
    await expect(ask(T0, T0, 1_000)).rejects.toThrow(/^to_ms: must be after from_ms/);
    await expect(ask(T0, T0 + 1_441_000, 1_000)).rejects.toThrow(
      /^to_ms: the range is 1441 buckets of 1000 ms wide/,
    );
    await expect(ask(T0, T0 + 1_440_000, 1_000)).resolves.toMatchObject({ complete: true });
    // A range off the buckets' starts: its buckets start at a multiple of their width, one more.
    const off = await ask(T0 + 500, T0 + 500 + 1_440_000, 1_000);
    expect(off.buckets).toHaveLength(1_441);
    expect(off.buckets[0]).toMatchObject({ startMs: T0, endMs: T0 + 1_000 });
    expect(off.buckets[1_440]).toMatchObject({ startMs: T0 + 1_440_000, endMs: T0 + 1_441_000 });
    await expect(ask(T0, T0 + 1_000, 1_000, 'nope')).rejects.toThrow(/not found/);
    await expect(ask(T0, T0 + 1_000, 1_000, 't', 'nope')).rejects.toThrow(/not found/);
  });
});
