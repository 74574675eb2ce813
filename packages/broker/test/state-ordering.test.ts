// Per-key ordering in the state machine (docs/design.md, "Per-key ordering"): of one ordering
// key's messages in a group ordered by key, only the front is in the queue's due order; the
// others wait until it ends; the head records say which is the front after every command.
import type { BatchOp } from '@fermata/storage';
import { describe, expect, it } from 'vitest';
import { RUN_TAG_BYTES } from '../src/keys.js';
import { brokerBugs } from '../src/sim/injected-bugs.js';
import { decodeEntry, encodeEntry } from '../src/state/codec/entry.js';
import { MAX_NAMED_WAITS } from '../src/state/model/key-head-size.js';
import { NS } from '../src/state/model/layout.js';
import { ORDERED_INLINE_PAYLOAD_BYTES } from '../src/state/model/records.js';
import { countKeyRecords, readKeyFront, readKeyHead, readKeyWaits } from '../src/state/stores/key-heads.js';
import { countWrites, integrityProblems } from './state-determinism-support.js';
import { Harness, T0, text } from './state-harness.js';

/** A harness with topic `t` ordered by key (a group `g` too, ordered by the topic's setting). */
async function ordered(options: { group?: boolean; maxAttempts?: number } = {}): Promise<Harness> {
  const h = await Harness.create();
  h.leaseRuns = true;
  const settings = {
    ordering: 'key' as const,
    ...(options.maxAttempts ? { maxAttempts: options.maxAttempts } : {}),
  };
  await h.ok({ kind: 'create-topic', name: 't', settings });
  if (options.group) await h.ok({ kind: 'create-group', topic: 't', group: 'g' });
  return h;
}

/** Publishes one message of ordering key `k` due `delayMs` from now; its id. */
async function put(
  h: Harness,
  k: string,
  delayMs = 0,
  more: { ttlMs?: number; key?: string; deliverBeforeMs?: number } = {},
) {
  const [r] = await h.publish({
    topic: 't',
    payload: text(`${k}+${delayMs}`),
    orderingKey: k,
    delayMs,
    ...more,
  });
  return r!.id;
}

/** The ids due now in the queue (what a lease round would read), in due order. */
async function dueIds(h: Harness, group = 'default'): Promise<bigint[]> {
  return (await h.due('t', group)).map((e) => e.id);
}

/** Leases everything due in the queue (one run); the leased outcomes. */
async function lease(h: Harness, group = 'default', leaseMs = 10_000) {
  return (await h.leaseAll('t', group, leaseMs)).filter((o) => o.status === 'leased');
}

async function ack(h: Harness, tag: Uint8Array): Promise<void> {
  expect((await h.ok({ kind: 'ack', tags: [tag] })).outcomes[0]!.status).toBe('ok');
}

async function front(h: Harness, k: string, group = 'default'): Promise<bigint | undefined> {
  return readKeyFront(h.sm.reader.view, h.sm.reader.queueHash('t', group), k);
}

async function sound(h: Harness): Promise<void> {
  expect(await integrityProblems(h.sm.reader.view, h.hasher)).toEqual([]);
}

describe('per-key ordering: one message of a key is leased at a time, in due order', () => {
  it("only the key's front is due; the next falls due when it is acked", async () => {
    const h = await ordered();
    const [a, b, c] = [await put(h, 'k'), await put(h, 'k', 1), await put(h, 'k', 2)];
    h.now = T0 + 10;
    expect(await dueIds(h)).toEqual([a]);
    expect(await h.stats('t')).toMatchObject({ pending: 3, inFlight: 0 });
    const [la] = await lease(h);
    expect(la!.id).toBe(a);
    expect(await dueIds(h)).toEqual([]);
    await ack(h, la!.newTag!);
    expect(await dueIds(h)).toEqual([b]);
    const [lb] = await lease(h);
    await ack(h, lb!.newTag!);
    expect(await dueIds(h)).toEqual([c]);
    await ack(h, (await lease(h))[0]!.newTag!);
    expect(await front(h, 'k')).toBeUndefined();
    expect(await countKeyRecords(h.sm.reader.view)).toEqual({ heads: 0, waits: 0 });
    await sound(h);
  });

  it('keys never block each other: a held key leaves the others due', async () => {
    const h = await ordered();
    const a1 = await put(h, 'a');
    await put(h, 'a');
    const b1 = await put(h, 'b');
    const n = (await h.publish({ topic: 't', payload: text('no key') }))[0]!.id;
    expect(await dueIds(h)).toEqual([a1, b1, n]);
    const leased = await lease(h);
    expect(leased.map((o) => o.id)).toEqual([a1, b1, n]);
    // a's head is held (not acked): its second message waits; b's ack lets nothing of a through.
    await ack(h, leased[1]!.newTag!);
    const b2 = await put(h, 'b');
    expect(await dueIds(h)).toEqual([b2]);
    await sound(h);
  });

  it('a message due before a front never leased takes its place; after a leased head it waits', async () => {
    const h = await ordered();
    const late = await put(h, 'k', 5_000);
    const early = await put(h, 'k', 3_000);
    const waits = async () =>
      (await readKeyWaits(h.sm.reader.view, h.sm.reader.queueHash('t', 'default'), 'k', 10)).map((w) => w.id);
    expect(await waits()).toEqual([late]);
    h.now = T0 + 3_000;
    expect(await dueIds(h)).toEqual([early]);
    const [head] = await lease(h);
    expect(head!.id).toBe(early);
    // Published after the head was leased, due before the other waiting one: it waits first.
    const mid = await put(h, 'k');
    expect(await waits()).toEqual([mid, late]);
    expect(await dueIds(h)).toEqual([]);
    await ack(h, head!.newTag!);
    expect(await dueIds(h)).toEqual([mid]);
    await sound(h);
  });

  it('a nack keeps the head: the key waits until the head is acked', async () => {
    const h = await ordered();
    const [a, b] = [await put(h, 'k'), await put(h, 'k')];
    const [la] = await lease(h);
    expect((await h.ok({ kind: 'nack', tag: la!.newTag!, delayMs: 5_000 })).outcome.status).toBe('ok');
    h.now = T0 + 1_000;
    expect(await dueIds(h)).toEqual([]);
    h.now = T0 + 6_000;
    expect(await dueIds(h)).toEqual([a]);
    const [again] = await lease(h);
    expect(again).toMatchObject({ id: a, attempt: 2 });
    await ack(h, again!.newTag!);
    expect(await dueIds(h)).toEqual([b]);
    await sound(h);
  });

  for (const runs of [true, false]) {
    it(`the injected bug releasing a head at its nack does so for a ${runs ? 'run' : 'single'} tag`, async () => {
      const h = await ordered();
      h.leaseRuns = runs;
      brokerBugs('ordering-head-released-on-nack').stateMachine!(h.sm);
      const [a, b] = [await put(h, 'k'), await put(h, 'k')];
      const [la] = await lease(h);
      expect(la!.newTag!.length === RUN_TAG_BYTES).toBe(runs);
      await h.ok({ kind: 'nack', tag: la!.newTag!, delayMs: 0 });
      // The bug: b moved up at a's nack, both due (shipped, only a is).
      expect(await dueIds(h)).toEqual([a, b]);
    });
  }

  it('a lapsed lease keeps the head: it is leased again before the next', async () => {
    const h = await ordered();
    const [a] = [await put(h, 'k'), await put(h, 'k')];
    await lease(h, 'default', 1_000);
    h.now = T0 + 2_000;
    expect(await dueIds(h)).toEqual([a]);
    expect((await lease(h))[0]).toMatchObject({ id: a, attempt: 2 });
    expect(await dueIds(h)).toEqual([]);
    await sound(h);
  });

  it('a head dead-lettered at its lease, expired or cancelled moves the next one up', async () => {
    const h = await ordered({ maxAttempts: 1 });
    const [a, b, c, d] = [
      await put(h, 'k', 0, { ttlMs: 50_000 }),
      await put(h, 'k'),
      await put(h, 'k'),
      await put(h, 'k'),
    ];
    // Dead letter: a lapses after its one attempt; the lease that meets it again dead-letters it.
    await lease(h, 'default', 1_000);
    h.now = T0 + 2_000;
    expect((await h.leaseAll('t')).map((o) => [o.id, o.status])).toEqual([[a, 'dead-lettered']]);
    expect(await dueIds(h)).toEqual([b]);
    // Expiry of the head in flight.
    await h.ok({ kind: 'update-topic', name: 't', settings: { maxAttempts: 5 } });
    const [lb] = await lease(h);
    expect(lb!.id).toBe(b);
    const [e] = await h.publish({ topic: 't', payload: text('e'), orderingKey: 'x', ttlMs: 1_000 });
    const [le] = await h.leaseAll('t');
    expect(le!.id).toBe(e!.id);
    await put(h, 'x');
    h.now = T0 + 5_000;
    expect((await h.ok({ kind: 'expire', ids: [e!.id] })).outcomes[0]!.status).toBe('expired');
    expect((await dueIds(h)).length).toBe(1);
    // Cancel of a nacked head (pending: not in flight).
    await h.ok({ kind: 'nack', tag: lb!.newTag!, delayMs: 60_000 });
    expect((await h.ok({ kind: 'cancel', topic: 't', target: { id: b } })).result.status).toBe('cancelled');
    expect(await dueIds(h)).toContain(c);
    expect(await front(h, 'k')).toBe(c);
    void d;
    await sound(h);
  });

  it('a waiting message cancelled or expired leaves its key as it was', async () => {
    const h = await ordered();
    const [a, b, c] = [await put(h, 'k'), await put(h, 'k', 0, { ttlMs: 1_000 }), await put(h, 'k')];
    const [la] = await lease(h);
    expect((await h.ok({ kind: 'cancel', topic: 't', target: { id: c } })).result.status).toBe('cancelled');
    h.now = T0 + 2_000;
    expect((await h.ok({ kind: 'expire', ids: [b] })).outcomes[0]!.status).toBe('expired');
    expect(await front(h, 'k')).toBe(a);
    await ack(h, la!.newTag!);
    expect(await front(h, 'k')).toBeUndefined();
    expect(await countKeyRecords(h.sm.reader.view)).toEqual({ heads: 0, waits: 0 });
    await sound(h);
  });
});

describe("per-key ordering: the head record's count and floor", () => {
  const head = (h: Harness) => readKeyHead(h.sm.reader.view, h.sm.reader.queueHash('t', 'default'), 'k');

  const at = (ms: number, id: bigint) => ({ dueAtMs: T0 + ms, id });

  it('counts the waiting messages and names them; a moved-up one is the floor; one placed at or below it clears it', async () => {
    const h = await ordered();
    const a = await put(h, 'k');
    const b = await put(h, 'k', 1_000);
    const c = await put(h, 'k', 2_000);
    expect(await head(h)).toEqual({
      front: a,
      waits: 2,
      next: [at(1_000, b), at(2_000, c)],
      floor: undefined,
      frontDueAtMs: T0,
    });
    h.now = T0 + 10;
    await ack(h, (await lease(h))[0]!.newTag!);
    // b moved up without a seek (the head named it): the floor is b, the next seek starts after it.
    const bFront = {
      front: b,
      waits: 1,
      next: [at(2_000, c)],
      floor: at(1_000, b),
      frontDueAtMs: T0 + 1_000,
    };
    expect(await head(h)).toEqual(bFront);
    // Due before b, never leased: d takes b's place and b waits again, at the floor: it goes.
    const d = await put(h, 'k', 500);
    expect(await head(h)).toEqual({
      front: d,
      waits: 2,
      next: [at(1_000, b), at(2_000, c)],
      floor: undefined,
      frontDueAtMs: T0 + 510,
    });
    await sound(h);
    h.now = T0 + 600;
    await ack(h, (await lease(h))[0]!.newTag!);
    expect(await head(h)).toEqual(bFront);
    h.now = T0 + 1_000;
    await ack(h, (await lease(h))[0]!.newTag!);
    expect(await head(h)).toEqual({
      front: c,
      waits: 0,
      next: [],
      floor: at(2_000, c),
      frontDueAtMs: T0 + 2_000,
    });
    await sound(h);
  });

  it(`names the first ${MAX_NAMED_WAITS} waiting; a seek names those it saw after the first`, async () => {
    const h = await ordered();
    const ids: bigint[] = [];
    for (let i = 0; i < MAX_NAMED_WAITS + 4; i++) ids.push(await put(h, 'k', i * 10));
    const named = (from: number, to: number) => ids.slice(from, to).map((id, i) => at((from + i) * 10, id));
    // One written after every named one, when they are not all, is not named.
    expect(await head(h)).toEqual({
      front: ids[0],
      waits: MAX_NAMED_WAITS + 3,
      next: named(1, MAX_NAMED_WAITS + 1),
      floor: undefined,
      frontDueAtMs: T0,
    });
    const endFront = async (n: number) => {
      h.now = T0 + n * 10;
      await ack(h, (await lease(h))[0]!.newTag!);
    };
    for (let n = 0; n < MAX_NAMED_WAITS; n++) await endFront(n);
    // The named ones moved up without a seek; the head names none of the three left.
    expect(await head(h)).toEqual({
      front: ids[MAX_NAMED_WAITS],
      waits: 3,
      next: [],
      floor: at(MAX_NAMED_WAITS * 10, ids[MAX_NAMED_WAITS]!),
      frontDueAtMs: T0 + MAX_NAMED_WAITS * 10,
    });
    await sound(h);
    // The seek for the next front sees the two after it: the head names them.
    await endFront(MAX_NAMED_WAITS);
    expect(await head(h)).toEqual({
      front: ids[MAX_NAMED_WAITS + 1],
      waits: 2,
      next: named(MAX_NAMED_WAITS + 2, MAX_NAMED_WAITS + 4),
      floor: at((MAX_NAMED_WAITS + 1) * 10, ids[MAX_NAMED_WAITS + 1]!),
      frontDueAtMs: T0 + (MAX_NAMED_WAITS + 1) * 10,
    });
    await sound(h);
  });
});

describe('per-key ordering: a front handed back unleased', () => {
  /** Front f due T0+200, leased ahead at T0+100 (its lease starts at its due time); the lease's tag. */
  async function leasedAhead(runs: boolean): Promise<{ h: Harness; f: bigint; tag: Uint8Array }> {
    const h = await ordered();
    h.leaseRuns = runs;
    const f = await put(h, 'k', 200);
    h.now = T0 + 100;
    const [d] = await h.sm.reader.dueEntriesOf('t', 'default', T0 + 200, 10);
    const r = await h.ok({
      kind: 'lease',
      topic: 't',
      group: 'default',
      tags: [d!.tag],
      leaseMs: 10_000,
      aheadMs: 200,
    });
    expect(r.outcomes[0]!.status).toBe('leased');
    return { h, f, tag: r.outcomes[0]!.newTag! };
  }

  for (const runs of [true, false])
    for (const delayMs of [0, 100]) {
      const how = `${runs ? 'a run' : 'in place'}, nack delay ${delayMs} ms`;
      it(`is never leased again, so one published behind it while leased and due earlier goes first (${how})`, async () => {
        const { h, f, tag } = await leasedAhead(runs);
        const p = await put(h, 'k', 80); // due T0+180: behind the leased front, whatever its due time
        expect(await front(h, 'k')).toBe(f);
        h.now = T0 + 150;
        expect((await h.ok({ kind: 'nack', tag, delayMs })).outcome.status).toBe('ok');
        expect(await front(h, 'k')).toBe(p);
        await sound(h);
      });

      it(`keeps its new due time in the head: one published due before it goes first (${how})`, async () => {
        const { h, f, tag } = await leasedAhead(runs);
        h.now = T0 + 150;
        expect((await h.ok({ kind: 'nack', tag, delayMs })).outcome.status).toBe('ok');
        await sound(h);
        // Due T0+190 (or T0+220 after a delay to T0+250): before the handed-back front.
        const q = await put(h, 'k', delayMs > 0 ? 70 : 40);
        expect(await front(h, 'k')).toBe(q);
        expect(await readKeyWaits(h.sm.reader.view, h.sm.reader.queueHash('t', 'default'), 'k', 10)).toEqual([
          { dueAtMs: T0 + 200 + (delayMs > 0 ? 50 : 0), id: f },
        ]);
        await sound(h);
      });
    }
});

describe('per-key ordering within one apply batch', () => {
  /** Key k: a..e due 0..40 ms in; a..d expire at 10 ms, e later. */
  async function fiveOfK(): Promise<{ h: Harness; ids: bigint[] }> {
    const h = await ordered();
    const ids = [];
    for (const [i, ttlMs] of [10, 10, 10, 10, 10_000].entries())
      ids.push(await put(h, 'k', i * 10, { ttlMs }));
    h.now = T0 + 25;
    return { h, ids };
  }

  it('the next front skips the waits the batch ended and finds those it wrote, as one command a batch', async () => {
    const [one, each] = [await fiveOfK(), await fiveOfK()];
    const e = one.ids[4];
    const commands = (ids: bigint[]) => [
      { kind: 'expire' as const, ids: [ids[2]!, ids[3]!] },
      {
        kind: 'publish' as const,
        messages: [{ topic: 't', payload: text('f'), orderingKey: 'k', deliverAtMs: T0 + 35 }],
      },
      { kind: 'expire' as const, ids: [ids[0]!] },
      { kind: 'expire' as const, ids: [ids[1]!] },
    ];
    const results = await one.h.runAll(commands(one.ids));
    for (const cmd of commands(each.ids)) await each.h.run(cmd);
    const f = results[1]!.kind === 'publish' ? results[1].results[0]!.id : undefined;
    // c and d (waiting) end first; a's end moves b up; b's moves f (due 35, written by the
    // batch) up, past c and d, before e (due 40, stored).
    expect(results.map((r) => r.kind)).toEqual(['expire', 'publish', 'expire', 'expire']);
    expect(await front(one.h, 'k')).toBe(f);
    const waits = await readKeyWaits(
      one.h.sm.reader.view,
      one.h.sm.reader.queueHash('t', 'default'),
      'k',
      10,
    );
    expect(waits.map((w) => w.id)).toEqual([e]);
    expect(await one.h.digest()).toBe(await each.h.digest());
    await sound(one.h);
  });
});

describe('per-key ordering: reschedule', () => {
  it('a waiting message rescheduled ahead of a leased head does not pre-empt it; it comes next', async () => {
    const h = await ordered();
    const a = await put(h, 'k');
    const [b, c] = [await put(h, 'k', 100), await put(h, 'k', 200)];
    const [la] = await lease(h);
    const r = await h.ok({ kind: 'reschedule', topic: 't', target: { id: c }, delayMs: 10 });
    expect(r.result.status).toBe('rescheduled');
    h.now = T0 + 1_000;
    expect(await dueIds(h)).toEqual([]);
    await ack(h, la!.newTag!);
    expect(await dueIds(h)).toEqual([c]);
    void a;
    void b;
    await sound(h);
  });

  it('a waiting message rescheduled ahead of a front never leased takes its place, and back', async () => {
    const h = await ordered();
    const [a, b] = [await put(h, 'k', 100), await put(h, 'k', 200)];
    const waits = async () =>
      (await readKeyWaits(h.sm.reader.view, h.sm.reader.queueHash('t', 'default'), 'k', 10)).map((w) => w.id);
    await h.ok({ kind: 'reschedule', topic: 't', target: { id: b }, delayMs: 10 });
    h.now = T0 + 50;
    expect(await dueIds(h)).toEqual([b]);
    expect([await front(h, 'k'), await waits()]).toEqual([b, [a]]);
    // The front rescheduled after the waiting one: they swap back.
    await h.ok({ kind: 'reschedule', topic: 't', target: { id: b }, delayMs: 1_000 });
    h.now = T0 + 500;
    expect(await dueIds(h)).toEqual([a]);
    expect([await front(h, 'k'), await waits()]).toEqual([a, [b]]);
    await sound(h);
  });

  it('a nacked head rescheduled stays the head', async () => {
    const h = await ordered();
    const [a] = [await put(h, 'k'), await put(h, 'k')];
    const leased = await lease(h);
    expect(leased.map((o) => o.id)).toEqual([a]);
    await h.ok({ kind: 'nack', tag: leased[0]!.newTag!, delayMs: 0 });
    await h.ok({ kind: 'reschedule', topic: 't', target: { id: a }, delayMs: 3_000 });
    h.now = T0 + 1_000;
    expect(await dueIds(h)).toEqual([]);
    h.now = T0 + 3_000;
    expect(await dueIds(h)).toEqual([a]);
    await sound(h);
  });
});

describe('per-key ordering: groups, settings, deletions, restarts', () => {
  it('a group ordered by key and one that is not: the same message waits in one only', async () => {
    const h = await ordered({ group: true });
    await h.ok({
      kind: 'update-group',
      topic: 't',
      group: 'g',
      settings: { ordering: 'none' },
      updateMask: ['ordering'],
    });
    const [a, b] = [await put(h, 'k'), await put(h, 'k')];
    expect(await dueIds(h)).toEqual([a]);
    expect(await dueIds(h, 'g')).toEqual([a, b]);
    const view = await h.sm.reader.getMessage('t', { id: b }, h.now);
    expect(view?.groups.map((g) => g.state)).toEqual(['pending', 'pending']);
    await sound(h);
  });

  it('messages without an ordering key, or in groups that do not order, write nothing new', async () => {
    const h = await Harness.create();
    h.leaseRuns = true;
    await h.ok({ kind: 'create-topic', name: 't' });
    const writes = countWrites(h.store);
    await h.publish({ topic: 't', payload: text('a'), orderingKey: 'k' }, { topic: 't', payload: text('b') });
    const leased = await lease(h);
    await h.ok({ kind: 'ack', tags: leased.map((o) => o.newTag!) });
    const counts = writes.take();
    expect(counts['key-heads']).toBeUndefined();
    expect(counts['key-waits']).toBeUndefined();
    // One record each (their bodies inline), as before ordering existed.
    expect(counts.body).toBeUndefined();
    expect(counts.index).toBeUndefined();
  });

  it('in a topic of one group an ordered message is one entry carrying its body; a move writes its index', async () => {
    const h = await ordered();
    const writes = countWrites(h.store);
    const [a, b, c] = [await put(h, 'k'), await put(h, 'k'), await put(h, 'k')];
    const published = writes.take();
    // No body or index record: the entries carry the bodies, the publish records say where they went.
    expect(published.body).toBeUndefined();
    expect(published.index).toBeUndefined();
    expect(published.queue).toBe(3);
    // A waiting one is found by id under its waiting key, its body with it.
    const waiting = await h.sm.reader.getMessage('t', { id: c }, h.now);
    expect(waiting?.message.payload).toEqual(text('k+0'));
    expect(waiting?.groups.map((g) => g.state)).toEqual(['pending']);
    const [la] = await lease(h);
    expect(la!.id).toBe(a);
    writes.take();
    await ack(h, la!.newTag!);
    // The ack deletes a's entry (no index to delete: it never moved) and moves b up: b's entry is
    // written under its due key, with its index record (b moved away from its published key).
    const acked = writes.take();
    expect(acked.body).toBeUndefined();
    expect(acked.index).toBe(1);
    expect(await dueIds(h)).toEqual([b]);
    expect((await h.sm.reader.getMessage('t', { id: b }, h.now))?.message.payload).toEqual(text('k+0'));
    await ack(h, (await lease(h))[0]!.newTag!);
    await ack(h, (await lease(h))[0]!.newTag!);
    expect(await h.sm.reader.getMessage('t', { id: c }, h.now)).toBeUndefined();
    expect(await countKeyRecords(h.sm.reader.view)).toEqual({ heads: 0, waits: 0 });
    await sound(h);
  });

  it('an ordered payload over ORDERED_INLINE_PAYLOAD_BYTES, or in a topic of several groups, has a body record', async () => {
    const h = await ordered();
    const writes = countWrites(h.store);
    const big = new Uint8Array(ORDERED_INLINE_PAYLOAD_BYTES + 1).fill(0x62);
    const small = new Uint8Array(ORDERED_INLINE_PAYLOAD_BYTES).fill(0x61);
    await h.publish({ topic: 't', payload: small, orderingKey: 'k' });
    expect(writes.take().body).toBeUndefined();
    const [r] = await h.publish({ topic: 't', payload: big, orderingKey: 'k' });
    expect(writes.take()).toMatchObject({ body: 1, index: 1 });
    await ack(h, (await lease(h))[0]!.newTag!);
    const [next] = await lease(h);
    expect(next!.id).toBe(r!.id);
    expect((await h.sm.reader.getMessage('t', { id: r!.id }, h.now))?.message.payload).toEqual(big);
    await ack(h, next!.newTag!);
    const several = await ordered({ group: true });
    const counting = countWrites(several.store);
    await put(several, 'k');
    expect(counting.take()).toMatchObject({ body: 1, index: 1 });
    await sound(h);
    await sound(several);
  });

  it('one command publishing a key later-due first and earlier-due after swaps fronts it wrote itself', async () => {
    const h = await ordered();
    // Each next message is due before the front the same command placed: its lookup by id finds
    // that front among the command's own noted keys (no publish record yet).
    const [a, b, c] = await h.publish(
      { topic: 't', payload: text('a'), orderingKey: 'k', delayMs: 100 },
      { topic: 't', payload: text('b'), orderingKey: 'k', delayMs: 50 },
      { topic: 't', payload: text('c'), orderingKey: 'k', delayMs: 10 },
    );
    await sound(h);
    h.now = T0 + 1_000;
    const order: bigint[] = [];
    for (let i = 0; i < 3; i++) {
      const [l] = await lease(h);
      order.push(l!.id!);
      await ack(h, l!.newTag!);
    }
    expect(order).toEqual([c!.id, b!.id, a!.id]);
    await sound(h);
  });

  it('an ordered entry written before the `ordered` field (its body a record) still moves its key on', async () => {
    const h = await Harness.create({ cacheEntries: 0 });
    h.leaseRuns = true;
    // As builds before the field wrote ordered messages: a body record, an index, no mark.
    h.inlineBodies = false;
    await h.ok({ kind: 'create-topic', name: 't', settings: { ordering: 'key' } });
    const [a, b] = [await put(h, 'k'), await put(h, 'k')];
    const ops: BatchOp[] = [];
    await h.store.scan(NS.queue.range(), (k, v) => {
      const e = decodeEntry(v);
      if (e.ordered) ops.push({ type: 'put', key: k.slice(), value: encodeEntry({ ...e, ordered: false }) });
    });
    expect(ops).toHaveLength(2);
    await h.store.batch(ops, { sync: false });
    h.inlineBodies = true;
    const [la] = await lease(h);
    expect(la!.id).toBe(a);
    await ack(h, la!.newTag!);
    expect(await dueIds(h)).toEqual([b]);
    await ack(h, (await lease(h))[0]!.newTag!);
    expect(await front(h, 'k')).toBeUndefined();
    await sound(h);
  });

  it('ordering turned on: messages queued before it are not held, those published after it are', async () => {
    const h = await Harness.create();
    h.leaseRuns = true;
    await h.ok({ kind: 'create-topic', name: 't' });
    // Written as a store of a version without ordering writes them: bodies inline, no index.
    const [a, b] = [await put(h, 'k'), await put(h, 'k')];
    await h.ok({ kind: 'update-topic', name: 't', settings: { ordering: 'key' } });
    const [c, d] = [await put(h, 'k'), await put(h, 'k')];
    expect(await dueIds(h)).toEqual([a, b, c]);
    expect(await front(h, 'k')).toBe(c);
    const leased = await lease(h);
    await h.ok({ kind: 'ack', tags: leased.map((o) => o.newTag!) });
    expect(await dueIds(h)).toEqual([d]);
    await sound(h);
  });

  it('ordering turned off: the waiting messages still go one by one; new ones are not held', async () => {
    const h = await ordered();
    const [a, b, c] = [await put(h, 'k'), await put(h, 'k'), await put(h, 'k')];
    const [la] = await lease(h);
    await h.ok({ kind: 'update-topic', name: 't', settings: { ordering: 'none' }, updateMask: ['ordering'] });
    const d = await put(h, 'k');
    expect(await dueIds(h)).toEqual([d]);
    await ack(h, la!.newTag!);
    expect(await dueIds(h)).toEqual([b, d]);
    const [lb] = (await lease(h)).filter((o) => o.id === b);
    await ack(h, lb!.newTag!);
    expect(await dueIds(h)).toEqual([c]);
    void a;
    await sound(h);
  });

  it('the dedup key is the ordering key when the topic says so', async () => {
    const h = await Harness.create();
    await h.ok({ kind: 'create-topic', name: 't', settings: { ordering: 'key', orderingKeyFromKey: true } });
    const [a] = await h.publish({ topic: 't', payload: text('a'), key: 'order-1' });
    await h.publish({ topic: 't', payload: text('b'), key: 'order-1' }); // deduplicated
    await h.publish({ topic: 't', payload: text('c'), orderingKey: 'order-1' });
    expect(await dueIds(h)).toEqual([a!.id]);
    expect(await front(h, 'order-1')).toBe(a!.id);
  });

  for (const whole of [false, true]) {
    it(`a purge of ${whole ? 'the topic' : 'an ordered group'} leaves no head or wait record`, async () => {
      const h = await ordered({ group: true });
      for (let i = 0; i < 6; i++) await put(h, `k${i % 2}`, i);
      await lease(h, 'g');
      expect((await countKeyRecords(h.sm.reader.view)).waits).toBe(8);
      if (whole) await h.deleteTopic('t');
      else await h.deleteGroup('t', 'g');
      expect(await countKeyRecords(h.sm.reader.view)).toEqual(
        whole ? { heads: 0, waits: 0 } : { heads: 2, waits: 4 },
      );
      await sound(h);
    });
  }

  it('a list window skipping many waiting messages answers in pages of bounded reads', async () => {
    const h = await ordered();
    const first = await put(h, 'k');
    const plain = (await h.publish({ topic: 't', payload: text('no key') }))[0]!.id;
    // 2,500 waiting behind k's front, due after the window.
    for (let b = 0; b < 3; b++) {
      const n = b < 2 ? 1_000 : 500;
      await h.publish(
        ...Array.from({ length: n }, () => ({
          topic: 't',
          payload: text('w'),
          orderingKey: 'k',
          delayMs: 60_000,
        })),
      );
    }
    const pages: bigint[][] = [];
    let token: Uint8Array | undefined;
    do {
      const window = { fromDueMs: T0, toDueMs: T0 + 1, limit: 10, ...(token ? { pageToken: token } : {}) };
      const page = await h.sm.reader.listMessages('t', window, h.now);
      pages.push(page.items.map((i) => i.entry.id));
      token = page.nextPageToken;
    } while (token && pages.length < 10);
    // Each page passes over at most MAX_LIST_SKIPPED (1,000) waiting messages.
    expect(pages).toEqual([[first, plain], [], []]);
    // Unwindowed, the waiting ones come after the others, limit by limit.
    const all = await h.sm.reader.listMessages('t', { limit: 1_000 }, h.now);
    expect(all.items.length).toBe(1_000);
    expect(all.items.slice(0, 2).map((i) => i.entry.id)).toEqual([first, plain]);
  });

  it('the head records survive a restart: the key stays held', async () => {
    const h = await ordered();
    const [a, b] = [await put(h, 'k'), await put(h, 'k')];
    const [la] = await lease(h);
    await h.sm.flush();
    const again = await Harness.create({ store: h.store });
    again.leaseRuns = true;
    expect(await dueIds(again)).toEqual([]);
    await ack(again, la!.newTag!);
    expect(await dueIds(again)).toEqual([b]);
    void a;
  });
});

describe('per-key ordering under deadlines and pause', () => {
  const statuses = (outcomes: readonly { status: string }[]) => outcomes.map((o) => o.status);

  /** What the leader's janitor proposes at `h.now`: an Expire of every due expiry record. */
  async function sweep(h: Harness) {
    const due = await h.sm.reader.dueExpiries(h.now, 100);
    const cmd = {
      kind: 'expire' as const,
      ids: due.map((d) => d.id),
      keys: due.map((d) => d.key),
      atMs: due.map((d) => d.expireAtMs),
    };
    return due.length === 0 ? [] : (await h.ok(cmd)).outcomes;
  }

  /** The reasons of `t`'s dead letters, in their order. */
  async function deadLetterReasons(h: Harness) {
    const page = await h.sm.reader.listMessages('t.dlq', { group: 'default', limit: 100 }, h.now);
    return page.items.map((it) => it.message?.deadLetter?.reason);
  }

  const waits = async (h: Harness) =>
    (await readKeyWaits(h.sm.reader.view, h.sm.reader.queueHash('t', 'default'), 'k', 10)).map((w) => w.id);

  for (const runs of [false, true]) {
    it(`a front met ${runs ? 'by a lease of runs' : 'in place'} past its deadline is dead-lettered; the next becomes the front`, async () => {
      const h = await ordered();
      h.leaseRuns = runs;
      const a = await put(h, 'k', 0, { deliverBeforeMs: T0 + 1_000 });
      const [b, c] = [await put(h, 'k', 10), await put(h, 'k', 20)];
      h.now = T0 + 1_000;
      const outcomes = await h.leaseAll('t');
      expect(outcomes.map((o) => [o.id, o.status, o.deadlineExceeded])).toEqual([[a, 'dead-lettered', true]]);
      expect([await front(h, 'k'), await waits(h)]).toEqual([b, [c]]);
      expect(await dueIds(h)).toEqual([b]);
      expect((await h.leaseAll('t')).map((o) => [o.id, o.status])).toEqual([[b, 'leased']]);
      expect(await dueIds(h)).toEqual([]);
      expect(await deadLetterReasons(h)).toEqual(['deadline_exceeded']);
      // The front's deadline record went with it.
      expect(await h.sm.reader.dueExpiries(T0 + 100_000, 10)).toEqual([]);
      await sound(h);
    });
  }

  it('a paused ordered group leases nothing; a front that ends meanwhile moves the next up', async () => {
    const h = await ordered({ group: true });
    const a = await put(h, 'k');
    const b = await put(h, 'k', 10, { deliverBeforeMs: T0 + 1_000 });
    const c = await put(h, 'k', 20);
    const [la] = await lease(h);
    expect(la!.id).toBe(a);
    await h.ok({ kind: 'update-group', topic: 't', group: 'default', settings: { paused: true } });
    // The head leased before the pause is acked: b moves up, and is not leased.
    await ack(h, la!.newTag!);
    expect(await front(h, 'k')).toBe(b);
    h.now = T0 + 500;
    expect(statuses(await h.leaseAll('t'))).toEqual(['paused']);
    // The group g orders the same key apart and is not paused.
    expect((await lease(h, 'g')).map((o) => o.id)).toEqual([a]);
    // b's deadline passes while paused: the janitor ends it in both groups; c moves up in default.
    h.now = T0 + 1_000;
    expect(await sweep(h)).toEqual([
      {
        id: b,
        status: 'dead-lettered',
        deadline: {
          topic: 't',
          groups: [
            { group: 'default', action: 'dead-letter' },
            { group: 'g', action: 'dead-letter' },
          ],
        },
      },
    ]);
    expect(await front(h, 'k')).toBe(c);
    expect(statuses(await h.leaseAll('t'))).toEqual(['paused']);
    expect(await h.stats('t')).toMatchObject({ pending: 1, inFlight: 0 });
    await h.ok({ kind: 'update-group', topic: 't', group: 'default', settings: {}, updateMask: ['paused'] });
    expect((await lease(h)).map((o) => o.id)).toEqual([c]);
    await sound(h);
  });

  it("a waiting message's deadline ends it through the janitor; the head and the rest keep their order", async () => {
    const h = await ordered();
    const a = await put(h, 'k');
    const b = await put(h, 'k', 10, { deliverBeforeMs: T0 + 1_000 });
    const c = await put(h, 'k', 20);
    const [la] = await lease(h, 'default', 5_000);
    expect(await waits(h)).toEqual([b, c]);
    h.now = T0 + 1_000;
    expect(await sweep(h)).toEqual([
      {
        id: b,
        status: 'dead-lettered',
        deadline: { topic: 't', groups: [{ group: 'default', action: 'dead-letter' }] },
      },
    ]);
    expect([await front(h, 'k'), await waits(h)]).toEqual([a, [c]]);
    expect(await h.sm.reader.dueExpiries(T0 + 100_000, 10)).toEqual([]);
    await ack(h, la!.newTag!);
    expect(await dueIds(h)).toEqual([c]);
    expect(await deadLetterReasons(h)).toEqual(['deadline_exceeded']);
    await sound(h);
  });

  it("a head leased before its deadline holds its key to the lease's end; the janitor ends it there", async () => {
    const h = await ordered();
    const a = await put(h, 'k', 0, { deliverBeforeMs: T0 + 500 });
    const b = await put(h, 'k', 10);
    await lease(h, 'default', 1_000);
    h.now = T0 + 500;
    expect(statuses(await sweep(h))).toEqual(['not-due']);
    expect([await front(h, 'k'), await dueIds(h)]).toEqual([a, []]);
    // The record moved to the lease's end: there the lapsed head is ended and b moves up.
    h.now = T0 + 1_000;
    expect(statuses(await sweep(h))).toEqual(['dead-lettered']);
    expect([await front(h, 'k'), await dueIds(h)]).toEqual([b, [b]]);
    await sound(h);
  });
});
