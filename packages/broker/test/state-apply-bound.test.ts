/**
 * The bound on one command's apply (state/apply/apply-bound.ts, docs/design.md
 * "Every apply is bounded"): every command's work is counted and asserted,
 * and commands that copy payloads they did not bring (dead letters, a
 * schedule's occurrences) stop at the bound and leave the rest for a later
 * command, so no command's work grows with what the store holds.
 */
import { InvariantError } from '@fermata/base';
import { describe, expect, it } from 'vitest';
import { type ApplyWork, applyBound, assertApplyWork, orderingWork } from '../src/state/apply/apply-bound.js';
import { DEFAULT_LIMITS } from '../src/state/model/limits.js';
import { BIG, Harness, T0, text } from './state-harness.js';

/** Batches of 40: the bound of a few commands, not of 1,000-message batches. */
const SMALL = {
  maxTagsPerCommand: 40,
  maxBatchMessages: 40,
  maxIdsPerCommand: 40,
  maxScheduleFiresPerCommand: 40,
};

/** Records the work of every command applied by `h`, by kind. */
function watch(h: Harness): Map<string, ApplyWork[]> {
  const seen = new Map<string, ApplyWork[]>();
  h.sm.onCommandWork = (kind, work) => {
    const list = seen.get(kind) ?? [];
    list.push(work);
    seen.set(kind, list);
  };
  return seen;
}

function maxOf(seen: Map<string, ApplyWork[]>): ApplyWork {
  let records = 0;
  let bytes = 0;
  for (const list of seen.values()) {
    for (const w of list) {
      records = Math.max(records, w.records);
      bytes = Math.max(bytes, w.bytes);
    }
  }
  return { records, bytes };
}

describe('the bound on one command', () => {
  it('a command past the bound is an invariant error naming the command and the values', () => {
    const bound = applyBound(DEFAULT_LIMITS);
    expect(() => assertApplyWork('publish', 7, bound, DEFAULT_LIMITS)).not.toThrow();
    expect(() =>
      assertApplyWork('delete-topic', 7, { records: bound.records + 1, bytes: 0 }, DEFAULT_LIMITS),
    ).toThrow(InvariantError);
    expect(() =>
      assertApplyWork('delete-topic', 7, { records: 0, bytes: bound.bytes + 1 }, DEFAULT_LIMITS),
    ).toThrow(/delete-topic command of entry 7.*"records":0/);
  });

  it('a lease that would dead-letter past the bound dead-letters what fits; the next leases take the rest', async () => {
    const h = await Harness.create({ limits: BIG });
    const seen = watch(h);
    await h.ok({ kind: 'create-topic', name: 'big', settings: { maxAttempts: 1 } });
    const payload = new Uint8Array(512 * 1024).fill(7);
    for (let i = 0; i < 40; i += 2) {
      await h.publish({ topic: 'big', payload }, { topic: 'big', payload });
    }
    // Entries that carry their body are written again whole by a lease: one command holds half.
    let leased = 0;
    let rounds = 0;
    for (; leased < 40 && rounds < 10; rounds++) {
      leased += (await h.leaseAll('big', 'default', 100)).filter((o) => o.status === 'leased').length;
    }
    expect({ leased, rounds }).toEqual({ leased: 40, rounds: 2 });
    h.now = T0 + 1_000;
    const statuses: string[] = [];
    for (let round = 0; round < 10 && (await h.due('big')).length > 0; round++) {
      for (const o of await h.leaseAll('big')) statuses.push(o.status);
    }
    const dead = statuses.filter((s) => s === 'dead-lettered').length;
    expect(dead).toBe(40);
    // Some waited for a later lease: one command could not hold them all.
    expect(statuses.filter((s) => s === 'not-due').length).toBeGreaterThan(0);
    expect((await h.stats('big.dlq')).pending).toBe(40);
    const bound = applyBound(h.sm.limits);
    expect(maxOf(seen).bytes).toBeLessThanOrEqual(bound.bytes);
    expect(maxOf(seen).bytes).toBeGreaterThan(bound.bytes / 2);
  });

  it('an expire of dead letters stops at the bound; the next expire goes on', async () => {
    const h = await Harness.create({ limits: BIG });
    const seen = watch(h);
    await h.ok({ kind: 'create-topic', name: 'ttl', settings: { expiryAction: 'dead-letter' } });
    const payload = new Uint8Array(512 * 1024).fill(1);
    const ids: bigint[] = [];
    for (let i = 0; i < 40; i += 2) {
      const r = await h.publish(
        { topic: 'ttl', payload, ttlMs: 10, delayMs: 60_000 },
        { topic: 'ttl', payload, ttlMs: 10, delayMs: 60_000 },
      );
      ids.push(...r.map((x) => x.id));
    }
    h.now = T0 + 100;
    const first = await h.ok({ kind: 'expire', ids });
    const done = first.outcomes.filter((o) => o.status === 'dead-lettered').length;
    expect(done).toBeGreaterThan(0);
    expect(done).toBeLessThan(40);
    const rest = first.outcomes.filter((o) => o.status === 'not-due').map((o) => o.id);
    const second = await h.ok({ kind: 'expire', ids: rest });
    expect(second.outcomes.every((o) => o.status === 'dead-lettered')).toBe(true);
    expect((await h.stats('ttl.dlq')).pending).toBe(40);
    expect(maxOf(seen).bytes).toBeLessThanOrEqual(applyBound(h.sm.limits).bytes);
  });

  it('a fire of occurrences past the bound stores what fits and moves the cursor only that far', async () => {
    const h = await Harness.create({ limits: { ...BIG, minScheduleIntervalMs: 1 } });
    const seen = watch(h);
    const payload = new Uint8Array(400 * 1024).fill(3);
    const def = {
      topic: 's',
      name: 'heavy',
      spec: 'every 10ms',
      timeZone: '',
      payload,
      headers: {},
      keyTemplate: '',
      startAtMs: 0,
      endAtMs: 0,
      jitterMs: 0,
      catchUp: 'all' as const,
      dstPolicy: 'once' as const,
      misfireThresholdMs: 0,
      paused: false,
    };
    await h.ok({ kind: 'schedule', op: { op: 'upsert', def } });
    const rec = await h.sm.reader.getTopic('s');
    expect(rec).toBeDefined();
    const occurrences = Array.from({ length: 40 }, (_, i) => T0 + 10 * (i + 1));
    const r = await h.ok({
      kind: 'schedule',
      op: {
        op: 'fire',
        firstId: h.sm.ids.nextIds(40),
        fires: [
          { topic: 's', name: 'heavy', generation: 1, afterMs: T0, skipToMs: 0, skipped: 0, occurrences },
        ],
      },
    });
    const out = r.result.op === 'fire' ? r.result.outcomes[0]! : undefined;
    expect(out?.status).toBe('fired');
    const fired = out?.status === 'fired' ? out.fired : 0;
    expect(fired).toBeGreaterThan(0);
    expect(fired).toBeLessThan(40);
    expect(out?.status === 'fired' && out.rec.cursorMs).toBe(occurrences[fired - 1]);
    expect((await h.stats('s')).pending).toBe(fired);
    expect(maxOf(seen).bytes).toBeLessThanOrEqual(applyBound(h.sm.limits).bytes);
  });

  it('a worst case at the default limits stays within the bound: 16 groups, keys, ttl, headers, dead letters', async () => {
    const h = await Harness.create();
    const seen = watch(h);
    await h.ok({
      kind: 'create-topic',
      name: 'w',
      settings: { maxAttempts: 1, expiryAction: 'dead-letter' },
    });
    await h.ok({ kind: 'create-topic', name: 'w.dlq' });
    for (let g = 1; g < 16; g++) {
      await h.ok({ kind: 'create-group', topic: 'w', group: `group-${String(g).padStart(90, 'x')}` });
      await h.ok({ kind: 'create-group', topic: 'w.dlq', group: `g${g}` });
    }
    const headers = Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`h${i}`, 'v'.repeat(1000)]));
    const messages = Array.from({ length: 300 }, (_, i) => ({
      topic: 'w',
      payload: text(`m${i}`),
      headers,
      key: `key-${i}-${'k'.repeat(200)}`,
      ttlMs: 50,
    }));
    const published = await h.publish(...messages);
    h.now = T0 + 100;
    // Every message expires into w.dlq: 16 copies each, each into 16 groups.
    const ids = published.map((p) => p.id);
    for (let round = 0; round < 200 && ids.length > 0; round++) {
      const r = await h.ok({ kind: 'expire', ids });
      const left = new Set(r.outcomes.filter((o) => o.status === 'not-due').map((o) => o.id));
      for (let i = ids.length - 1; i >= 0; i--) if (!left.has(ids[i]!)) ids.splice(i, 1);
    }
    expect(ids).toEqual([]);
    const bound = applyBound(h.sm.limits);
    const max = maxOf(seen);
    expect(max.records).toBeLessThanOrEqual(bound.records);
    expect(max.bytes).toBeLessThanOrEqual(bound.bytes);
    // The publish of 300 messages into 16 groups, well within.
    expect(seen.get('publish')!.at(-1)!.records).toBeGreaterThan(16 * 300);
  });

  it('per-key ordering at its worst stays within the bound: each message swaps with a front in every group', async () => {
    const h = await Harness.create({ limits: SMALL });
    const seen = watch(h);
    await h.ok({ kind: 'create-topic', name: 'o', settings: { ordering: 'key' } });
    for (let g = 1; g < 16; g++) await h.ok({ kind: 'create-group', topic: 'o', group: `g${g}` });
    const batch = (delayMs: number) =>
      Array.from({ length: 40 }, (_, i) => ({
        topic: 'o',
        payload: text(`m${i}`),
        orderingKey: `key-${i}-${'k'.repeat(200)}`,
        delayMs,
      }));
    // Fronts due later, then messages of the same keys due before them: every one swaps places
    // with its key's front in each of the 16 groups (a move of the front with its index).
    await h.publish(...batch(10_000));
    await h.publish(...batch(0));
    const swaps = seen.get('publish')!.at(-1)!;
    const bound = applyBound(h.sm.limits);
    expect(swaps.records).toBeLessThanOrEqual(bound.records);
    expect(swaps.bytes).toBeLessThanOrEqual(bound.bytes);
    // Ordering's share, beside the same publishes to a topic that does not order: within the
    // ordering allowance of the command's 40 items in 16 groups, and more than half of it.
    const plain = await Harness.create({ limits: SMALL });
    const plainSeen = watch(plain);
    await plain.ok({ kind: 'create-topic', name: 'o', settings: { ordering: 'none' } });
    for (let g = 1; g < 16; g++) await plain.ok({ kind: 'create-group', topic: 'o', group: `g${g}` });
    await plain.publish(...batch(10_000));
    await plain.publish(...batch(0));
    const unordered = plainSeen.get('publish')!.at(-1)!;
    const allowance = orderingWork(h.sm.limits);
    expect(swaps.records - unordered.records).toBeLessThanOrEqual(40 * 16 * allowance.records);
    expect(swaps.records - unordered.records).toBeGreaterThan((40 * 16 * allowance.records) / 2);
    expect(swaps.bytes - unordered.bytes).toBeLessThanOrEqual(40 * 16 * allowance.bytes);
    expect((await h.due('o', 'g15')).length).toBe(40);
  });

  it('an ack moving up one message of 1 MiB per tag stays within the bound: such a body is a record', async () => {
    const h = await Harness.create({ limits: SMALL });
    h.leaseRuns = true;
    const seen = watch(h);
    await h.ok({ kind: 'create-topic', name: 'o', settings: { ordering: 'key' } });
    const payload = new Uint8Array(1024 * 1024).fill(0x61);
    // 40 keys of two messages each, three messages (3 MiB) a publish.
    const all = Array.from({ length: 80 }, (_, i) => ({ topic: 'o', payload, orderingKey: `k${i % 40}` }));
    for (let at = 0; at < all.length; at += 3) await h.publish(...all.slice(at, at + 3));
    const fronts = (await h.leaseAll('o')).filter((o) => o.status === 'leased');
    expect(fronts).toHaveLength(40);
    await h.ok({ kind: 'ack', tags: fronts.map((o) => o.newTag!) });
    expect(await h.due('o')).toHaveLength(40);
    const acked = seen.get('ack')!.at(-1)!;
    expect(acked.bytes).toBeLessThanOrEqual(applyBound(h.sm.limits).bytes);
    // The 40 moves wrote no payload: well under one payload a move.
    expect(acked.bytes).toBeLessThan(40 * payload.length);
  });

  /** A paused ordered group holding `n` messages of one key, all expired by now (a TTL of 50 ms). */
  async function pausedKey(
    n: number,
  ): Promise<{ h: Harness; seen: Map<string, ApplyWork[]>; ids: bigint[] }> {
    const h = await Harness.create();
    const seen = watch(h);
    await h.ok({ kind: 'create-topic', name: 'o', settings: { ordering: 'key' } });
    await h.ok({ kind: 'update-group', topic: 'o', group: 'default', settings: { paused: true } });
    const published = await h.publish(
      ...Array.from({ length: n }, (_, i) => ({
        topic: 'o',
        payload: text(`m${i}`),
        orderingKey: 'k',
        ttlMs: 50,
      })),
    );
    h.now = T0 + 100;
    return { h, seen, ids: published.map((p) => p.id) };
  }

  it("an expire ending a key's messages in due order moves each next one up in a few records", async () => {
    const n = DEFAULT_LIMITS.maxIdsPerCommand;
    const { h, seen, ids } = await pausedKey(n);
    // Each id is its key's front when the expire reaches it: n move-ups in one command.
    const r = await h.ok({ kind: 'expire', ids });
    expect(r.outcomes.every((o) => o.status === 'expired')).toBe(true);
    const work = seen.get('expire')!.at(-1)!;
    expect(work.records).toBeLessThanOrEqual(applyBound(h.sm.limits).records);
    // A few records a message, however many of the key's messages the command already ended.
    expect(work.records).toBeLessThan(40 * n);
    expect((await h.stats('o')).pending).toBe(0);
  });

  it('the same expires in one batch or one a batch do the same work and leave the same store', async () => {
    const runs = await Promise.all([pausedKey(400), pausedKey(400)]);
    const commands = (ids: bigint[]) =>
      Array.from({ length: 8 }, (_, c) => ({ kind: 'expire' as const, ids: ids.slice(c * 50, c * 50 + 50) }));
    const [one, each] = runs as [(typeof runs)[0], (typeof runs)[0]];
    await one.h.runAll(commands(one.ids));
    for (const cmd of commands(each.ids)) await each.h.ok(cmd);
    // Alike but for the topic and queue records, which a batch reads once (in its first command).
    const once = (w: ApplyWork, c: number) => ({ records: w.records + (c > 0 ? 2 : 0), bytes: w.bytes });
    expect(one.seen.get('expire')!.map(once)).toEqual(each.seen.get('expire'));
    expect(await one.h.digest()).toBe(await each.h.digest());
    expect((await one.h.stats('o')).pending).toBe(0);
  });
});
