import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ManualClock } from '@fermata/base';
import { v1 } from '@fermata/protocol';
import type { Entry } from '@fermata/raft';
import { type KVStore, openStore } from '@fermata/storage';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import {
  discardLeaderMetrics,
  JANITOR_INTERVAL_MS,
  Janitor,
  Proposer,
  PUBLISH_CHECK_MARGIN_MS,
  PUBLISH_PASS_INTERVAL_MS,
} from '../src/leader/index.js';
import { decodeCommand } from '../src/state/commands/commands.js';
import type { LeaseOutcome } from '../src/state/commands/results.js';
import { countWrites, integrityProblems } from './state-determinism-support.js';
import { Harness, T0, text } from './state-harness.js';

/** Counts the scans of `store` over the publish records (lookups by id through them). */
function countPublishScans(store: KVStore): () => number {
  let scans = 0;
  const scan = store.scan.bind(store);
  store.scan = (options, visit) => {
    if ((options.gte?.[0] ?? options.lt?.[0]) === 0x0f) scans++;
    return scan(options, visit);
  };
  return () => scans;
}

/** Every record of one namespace, as [key hex, value]. */
async function records(store: KVStore, prefix: number): Promise<Array<[string, Uint8Array]>> {
  const out: Array<[string, Uint8Array]> = [];
  await store.scan({ gte: Uint8Array.of(prefix), lt: Uint8Array.of(prefix + 1) }, (k, v) => {
    out.push([Buffer.from(k).toString('hex'), new Uint8Array(v)]);
  });
  return out;
}

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const payloadOf = (b: { payload: Uint8Array } | undefined) => b && new TextDecoder().decode(b.payload);

function leasedTag(l: LeaseOutcome | undefined): Uint8Array {
  if (l?.status !== 'leased' || !l.newTag) throw new Error(`expected a lease, got ${l?.status}`);
  return l.newTag;
}

const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

async function leveldb(path?: string): Promise<{ store: KVStore; path: string }> {
  const dir = path ?? (await mkdtemp(join(tmpdir(), 'fermata-inline-')));
  if (!path) dirs.push(dir);
  return { store: await openStore({ engine: 'leveldb', path: dir }), path: dir };
}

describe('one record per message', () => {
  it('a publish to a topic of one group writes one record per message and one per command; a lease rewrites it, an ack deletes it', async () => {
    const { store } = await leveldb();
    const writes = countWrites(store);
    const h = await Harness.create({ store });
    await h.ok({ kind: 'create-topic', name: 't' });
    writes.take();
    const n = 100;
    await h.publish(...Array.from({ length: n }, (_, i) => ({ topic: 't', payload: text(`m${i}`) })));
    // The entries and one publish record (plus the queue's counters, once per batch, and its
    // due-load buckets of the messages' one due time, one per level).
    expect(writes.take()).toEqual({ queue: n, publishes: 1, queues: 1, 'due-load': 4 });
    const leases = await h.leaseAll('t', 'default', 60_000);
    expect(leases.filter((l) => l.status === 'leased')).toHaveLength(n);
    expect(writes.take()).toEqual({ queue: n, queues: 1, 'due-load': 4 });
    const acked = await h.ok({ kind: 'ack', tags: leases.map(leasedTag) });
    expect(acked.outcomes.every((o) => o.status === 'ok')).toBe(true);
    expect(writes.take()).toEqual({ queue: n, queues: 1 });
    for (const prefix of [0x01, 0x02, 0x03]) expect(await records(store, prefix)).toEqual([]);
    expect(await integrityProblems(store, h.hasher)).toEqual([]);
    await store.close();
  });

  it('a topic of several groups keeps one body record and an entry per group; a key adds its key and index records', async () => {
    const { store } = await leveldb();
    const writes = countWrites(store);
    const h = await Harness.create({ store });
    await h.ok({ kind: 'create-topic', name: 'one' });
    await h.ok({ kind: 'create-topic', name: 'two' });
    await h.ok({ kind: 'create-group', topic: 'two', group: 'g2' });
    writes.take();
    await h.publish({ topic: 'two', payload: text('fan-out') });
    expect(writes.take()).toEqual({ queue: 2, body: 1, index: 1, queues: 2, 'due-load': 8 });
    // A key: its record and an index record (key -> id -> entry); the body still in the entry.
    await h.publish({ topic: 'one', payload: text('keyed'), key: 'k' });
    expect(writes.take()).toEqual({ queue: 1, keys: 1, index: 1, queues: 1, 'due-load': 4 });
    const [entry] = await h.due('one');
    expect(payloadOf(entry?.body)).toBe('keyed');
    expect(await integrityProblems(store, h.hasher)).toEqual([]);
    await store.close();
  });
});

describe('a message whose entry carries its body', () => {
  it('GetMessage, lists, cancel, reschedule and expiry find it by id, through its publish record or index record', async () => {
    const { store } = await leveldb();
    const publishScans = countPublishScans(store);
    const h = await Harness.create({ store, cacheEntries: 0 });
    const [a, b, c, d] = await h.publish(
      { topic: 't', payload: text('a'), delayMs: 5_000, headers: { h: '1' } },
      { topic: 't', payload: text('b'), delayMs: 5_000 },
      { topic: 't', payload: text('c'), delayMs: 5_000, ttlMs: 1_000 },
      { topic: 't', payload: text('d'), delayMs: 5_000, key: 'k' },
    );
    expect(await records(store, 0x02)).toEqual([]);
    // d has a key: its index record; the others are in the command's one publish record.
    expect((await records(store, 0x03)).length).toBe(1);
    const published = await records(store, 0x0f);
    expect(published.length).toBe(1);
    expect(v1.PublishRecord.decode(published[0]![1]).idDeltas.length).toBe(3);

    const view = await h.sm.reader.getMessage('t', { id: a!.id }, h.now);
    expect(view?.message).toMatchObject({ id: a!.id, topic: 't', headers: { h: '1' }, dueAtMs: T0 + 5_000 });
    expect(payloadOf(view?.message)).toBe('a');
    expect(view?.groups).toEqual([
      expect.objectContaining({ group: 'default', state: 'pending', dueAtMs: T0 + 5_000, attempt: 0 }),
    ]);
    expect(await h.sm.reader.getMessage('other', { id: a!.id }, h.now)).toBeUndefined();
    expect(payloadOf((await h.sm.reader.getMessage('t', { key: 'k' }, h.now))?.message)).toBe('d');
    const page = await h.sm.reader.listMessages('t', {}, h.now);
    expect(page.items.map((i) => payloadOf(i.message))).toEqual(['a', 'b', 'c', 'd']);
    expect((await h.sm.reader.getBodies([b!.id, d!.id, 999n])).map(payloadOf)).toEqual(['b', 'd', undefined]);
    // A key still reserved answers the message's id and due time (read from its entry).
    const again = await h.publish({ topic: 't', payload: text('d2'), key: 'k' });
    expect(again).toEqual([{ id: d!.id, deduplicated: true, dueAtMs: T0 + 5_000 }]);

    const cancelled = await h.ok({ kind: 'cancel', topic: 't', target: { id: a!.id } });
    expect(cancelled.result.status).toBe('cancelled');
    expect(await h.sm.reader.getMessage('t', { id: a!.id }, h.now)).toBeUndefined();
    expect((await h.ok({ kind: 'cancel', topic: 't', target: { id: a!.id } })).result.status).toBe(
      'not-found',
    );

    const moved = await h.ok({ kind: 'reschedule', topic: 't', target: { id: b!.id }, delayMs: 100 });
    expect(moved.result.status).toBe('rescheduled');
    // Moved: an index record naming its new key, read before the publish record from now on.
    expect((await records(store, 0x03)).length).toBe(2);
    const bView = await h.sm.reader.getMessage('t', { id: b!.id }, h.now);
    expect(bView?.groups[0]?.dueAtMs).toBe(T0 + 100);
    expect(payloadOf(bView?.message)).toBe('b');

    // Expiry: the expiry record names c's entry, so the expire reads no publish record.
    h.now = T0 + 1_000;
    const [due] = await h.sm.reader.dueExpiries(h.now, 10);
    expect(due).toMatchObject({ id: c!.id, expireAtMs: T0 + 1_000 });
    const cEntry = (await h.sm.reader.listMessages('t', {}, h.now)).items.find((i) => i.entry.id === c!.id);
    expect(hex(due!.key)).toBe(hex(cEntry!.entry.tag));
    const scansBefore = publishScans();
    const expired = await h.ok({ kind: 'expire', ids: [c!.id], keys: [due!.key] });
    expect(expired.outcomes).toEqual([{ id: c!.id, status: 'expired' }]);
    expect(publishScans() - scansBefore).toBe(0);
    expect(await records(store, 0x05)).toEqual([]);
    expect(await h.stats('t')).toMatchObject({ pending: 2, inFlight: 0 });
    expect(await integrityProblems(store, h.hasher)).toEqual([]);
    await store.close();
  });

  it('an expire whose key names no entry of the message (moved, or another one) finds it by id', async () => {
    const h = await Harness.create({ cacheEntries: 0 });
    const [x, y] = await h.publish(
      { topic: 't', payload: text('x'), delayMs: 5_000, ttlMs: 1_000 },
      { topic: 't', payload: text('y'), delayMs: 5_000, ttlMs: 1_000 },
    );
    const keys = (await h.sm.reader.dueExpiries(T0 + 1_000, 10)).map((e) => e.key);
    await h.ok({ kind: 'reschedule', topic: 't', target: { id: x!.id }, delayMs: 3_000 });
    h.now = T0 + 1_000;
    // x's key is where it was published (it moved since); y is given x's key.
    const r = await h.ok({ kind: 'expire', ids: [x!.id, y!.id], keys: [keys[0]!, keys[0]!] });
    expect(r.outcomes).toEqual([
      { id: x!.id, status: 'expired' },
      { id: y!.id, status: 'expired' },
    ]);
    expect(await h.stats('t')).toMatchObject({ pending: 0, inFlight: 0 });
    expect(await integrityProblems(h.store, h.hasher)).toEqual([]);
  });

  it('is leased and delivered with its body, dead-lettered with it, and redriven back', async () => {
    const h = await Harness.create({ cacheEntries: 0 });
    await h.ok({ kind: 'create-topic', name: 'x', settings: { maxAttempts: 1 } });
    const [m] = await h.publish({ topic: 'x', payload: text('work'), headers: { trace: 't1' } });
    const [due] = await h.due('x');
    expect(due?.body).toMatchObject({ id: m!.id, headers: { trace: 't1' } });
    expect((await h.sm.reader.bodiesOf([due!])).map(payloadOf)).toEqual(['work']);
    const [first] = await h.leaseAll('x', 'default', 1_000);
    expect(first?.status).toBe('leased');
    expect(payloadOf((await h.sm.reader.getMessage('x', { id: m!.id }, h.now))?.message)).toBe('work');
    h.now = T0 + 2_000;
    const [second] = await h.leaseAll('x');
    expect(second?.status).toBe('dead-lettered');
    const deadId = second!.deadLetterId!;
    const dead = await h.sm.reader.getMessage('x.dlq', { id: deadId }, h.now);
    expect(payloadOf(dead?.message)).toBe('work');
    expect(dead?.message.deadLetter).toMatchObject({ sourceTopic: 'x', sourceId: m!.id, attempts: 1 });
    expect(await records(h.store, 0x02)).toEqual([]);
    const redriven = await h.ok({
      kind: 'redrive',
      topic: 'x.dlq',
      sourceTopic: 'x',
      ids: [deadId],
      firstId: h.sm.ids.nextIds(1),
      idCount: 1,
    });
    expect(redriven.outcomes).toEqual([{ id: deadId, status: 'redriven', newId: expect.any(BigInt) }]);
    const back = await h.sm.reader.getMessage('x', { id: redriven.outcomes[0]!.newId! }, h.now);
    expect(payloadOf(back?.message)).toBe('work');
    expect(back?.message.headers).toEqual({ trace: 't1' });
    expect(await integrityProblems(h.store, h.hasher)).toEqual([]);
  });
});

/** A leader's janitor over `h`, proposing through a Proposer that applies at once, on a manual clock. */
function janitorOn(h: Harness) {
  const clock = new ManualClock(T0);
  const kinds: string[] = [];
  const raft = {
    async propose(data: Uint8Array): Promise<unknown> {
      kinds.push(decodeCommand(data).kind);
      const entry: Entry = { term: 1, index: h.index + 1, type: 'normal', data };
      return (await h.applyEntries([entry]))[0];
    },
  };
  const proposer = new Proposer(raft, h.sm, { publishIdempotency: true, ackLingerMs: 0, clock });
  const work: Record<string, number> = {};
  const janitor = new Janitor({
    reader: h.sm.reader,
    proposer,
    metrics: {
      ...discardLeaderMetrics,
      publishRecords: {
        inc: ({ what }, n = 1) => {
          work[what] = (work[what] ?? 0) + n;
        },
      },
    },
    log: pino({ level: 'silent' }),
    batch: 100,
    limits: h.sm.limits,
    clock,
  });
  return { janitor, clock, kinds, work };
}

describe('publish records', () => {
  it('the janitor finds the records none of whose messages is at its published key; forgotten, lookups still find the rest', async () => {
    const h = await Harness.create({ cacheEntries: 0 });
    const one = await h.publish({ topic: 't', payload: text('1a') }, { topic: 't', payload: text('1b') });
    const two = await h.publish({ topic: 't', payload: text('2a') }, { topic: 't', payload: text('2b') });
    const three = await h.publish({ topic: 't', payload: text('3a'), delayMs: 60_000 });
    const leases = await h.leaseAll('t', 'default', 30_000);
    expect(leases).toHaveLength(4);
    // All of one acked; of two, one acked and one nacked (moved: it has an index record now).
    await h.ok({ kind: 'ack', tags: [leasedTag(leases[0]), leasedTag(leases[1]), leasedTag(leases[2])] });
    await h.ok({ kind: 'nack', tag: leasedTag(leases[3]), delayMs: 120_000 });
    const read = (nowMs: number, from = 0n, maxRecords = 100, maxKeys = 100) =>
      h.sm.reader.forgettablePublishes({ from, nowMs, marginMs: 1_000, maxRecords, maxKeys });
    // Not before their latest due time and the margin.
    expect((await read(T0 + 999)).firstIds).toEqual([]);
    const found = await read(T0 + 1_000);
    expect(found).toEqual({ firstIds: [one[0]!.id, two[0]!.id], next: 0n, recordsRead: 3, keysRead: 4 });
    // Bounded: one record at a time, from where the last read stopped.
    expect(await read(T0 + 1_000, 0n, 1)).toMatchObject({ firstIds: [one[0]!.id], next: one[0]!.id + 1n });
    expect(await read(T0 + 1_000, one[0]!.id + 1n, 1)).toMatchObject({ firstIds: [two[0]!.id] });
    expect(await read(T0 + 1_000, 0n, 100, 3)).toMatchObject({ firstIds: [one[0]!.id], keysRead: 2 });
    const r = await h.ok({ kind: 'forget-publishes', firstIds: found.firstIds });
    expect(r.forgotten).toBe(2);
    expect((await records(h.store, 0x0f)).length).toBe(1);
    // The nacked one through its index record, the pending one through the record left.
    const moved = await h.sm.reader.getMessage('t', { id: two[1]!.id }, h.now);
    expect(moved?.groups[0]).toMatchObject({ state: 'pending', dueAtMs: T0 + 120_000, attempt: 1 });
    expect(payloadOf(moved?.message)).toBe('2b');
    expect(payloadOf((await h.sm.reader.getMessage('t', { id: three[0]!.id }, h.now))?.message)).toBe('3a');
    expect((await h.ok({ kind: 'cancel', topic: 't', target: { id: two[1]!.id } })).result.status).toBe(
      'cancelled',
    );
    expect((await h.ok({ kind: 'cancel', topic: 't', target: { id: one[0]!.id } })).result.status).toBe(
      'not-found',
    );
    expect(await integrityProblems(h.store, h.hasher)).toEqual([]);
    // A first id no id was ever assigned to names no record: refused, nothing deleted.
    const bad = await h.run({ kind: 'forget-publishes', firstIds: [h.sm.ids.lastId + 1n] });
    expect(bad).toMatchObject({ kind: 'error', error: { field: 'first_ids[0]' } });
  });

  it('the leader janitor proposes ForgetPublishes once a record is past its margin, and the records go', async () => {
    const h = await Harness.create();
    await h.publish({ topic: 't', payload: text('a') }, { topic: 't', payload: text('b') });
    const leases = await h.leaseAll('t', 'default', 30_000);
    await h.ok({ kind: 'ack', tags: leases.map(leasedTag) });
    expect((await records(h.store, 0x0f)).length).toBe(1);
    const { janitor, clock, kinds, work } = janitorOn(h);
    janitor.start();
    await clock.advance(PUBLISH_CHECK_MARGIN_MS - JANITOR_INTERVAL_MS);
    expect(kinds).not.toContain('forget-publishes');
    await clock.advance(2 * JANITOR_INTERVAL_MS);
    expect(kinds).toContain('forget-publishes');
    expect(await records(h.store, 0x0f)).toEqual([]);
    expect(work).toMatchObject({ forgotten: 1, keys_read: 2 });
    janitor.stop();
  });

  it('a record still needed is told by its first keys, and read again once a pass interval, not every sweep', async () => {
    const h = await Harness.create();
    const ids = await h.publish(
      ...Array.from({ length: 100 }, (_, i) => ({ topic: 't', payload: text(`m${i}`) })),
    );
    expect((await records(h.store, 0x0f)).length).toBe(1);
    const { janitor, clock, kinds, work } = janitorOn(h);
    janitor.start();
    // Past its margin from 10 s on, with every message still at its key: a pass at 10.2, 20.2
    // and 30.2 s reads the record's first 32 keys each time (every sweep, 100 keys: 10,000).
    await clock.advance(PUBLISH_CHECK_MARGIN_MS + 3 * PUBLISH_PASS_INTERVAL_MS - 2 * JANITOR_INTERVAL_MS);
    expect(kinds).not.toContain('forget-publishes');
    expect(work.keys_read).toBe(3 * 32);
    // Once all are acked, the next pass reads all 100 keys and forgets the record.
    const leases = await h.leaseAll('t', 'default', 30_000);
    expect(leases).toHaveLength(ids.length);
    await h.ok({ kind: 'ack', tags: leases.map(leasedTag) });
    await clock.advance(PUBLISH_PASS_INTERVAL_MS);
    expect(work).toMatchObject({ forgotten: 1, keys_read: 3 * 32 + 100 });
    expect(await records(h.store, 0x0f)).toEqual([]);
    janitor.stop();
  });
});

describe('records written before inline bodies', () => {
  it('a store written with body records is read, settled and cancelled by this version, which then writes inline bodies beside them', async () => {
    const { store, path } = await leveldb();
    const before = await Harness.create({ store });
    before.inlineBodies = false; // the previous version's leader
    const old = await before.publish(
      { topic: 't', payload: text('old-acked') },
      { topic: 't', payload: text('old-cancelled'), delayMs: 60_000 },
      { topic: 't', payload: text('old-expiring'), delayMs: 60_000, ttlMs: 1_000 },
      { topic: 't', payload: text('old-keyed'), key: 'k' },
    );
    const oldLeases = await before.leaseAll('t', 'default', 30_000);
    expect(oldLeases.map((l) => l.status)).toEqual(['leased', 'leased']);
    expect((await records(store, 0x02)).length).toBe(4);
    await before.sm.flush();
    await store.close();

    const reopened = await leveldb(path);
    const h = await Harness.create({ store: reopened.store });
    const fresh = await h.publish(
      { topic: 't', payload: text('new'), delayMs: 60_000 },
      { topic: 't', payload: text('new-expiring'), delayMs: 60_000, ttlMs: 1_000 },
    );
    // The new ones carry their body; the old ones keep their body records.
    expect((await records(reopened.store, 0x02)).length).toBe(4);
    expect((await records(reopened.store, 0x0f)).length).toBe(1);
    const bodies = await h.sm.reader.getBodies([...old, ...fresh].map((m) => m.id));
    expect(bodies.map(payloadOf)).toEqual([
      'old-acked',
      'old-cancelled',
      'old-expiring',
      'old-keyed',
      'new',
      'new-expiring',
    ]);
    const acked = await h.ok({ kind: 'ack', tags: oldLeases.map(leasedTag) });
    expect(acked.outcomes.map((o) => o.status)).toEqual(['ok', 'ok']);
    expect((await h.ok({ kind: 'cancel', topic: 't', target: { id: old[1]!.id } })).result.status).toBe(
      'cancelled',
    );
    h.now = T0 + 1_000;
    const due = await h.sm.reader.dueExpiries(h.now, 10);
    // The old expiry record names no key; the new one names its entry.
    expect(due.map((e) => e.key.length)).toEqual([0, 24]);
    const expired = await h.ok({ kind: 'expire', ids: due.map((e) => e.id), keys: due.map((e) => e.key) });
    expect(expired.outcomes.map((o) => o.status)).toEqual(['expired', 'expired']);
    expect(await records(reopened.store, 0x02)).toEqual([]);
    expect(await h.stats('t')).toMatchObject({ pending: 1, inFlight: 0 });
    expect(await integrityProblems(reopened.store, h.hasher)).toEqual([]);
    await reopened.store.close();
  });
});

describe('snapshots of inline bodies and publish records', () => {
  it('restore gives a byte-identical store in which lookups by id still find each message', async () => {
    const { store } = await leveldb();
    const h = await Harness.create({ store });
    const [a, b] = await h.publish(
      { topic: 't', payload: text('a'), delayMs: 5_000 },
      { topic: 't', payload: text('b'), delayMs: 5_000, ttlMs: 60_000 },
    );
    await h.ok({ kind: 'reschedule', topic: 't', target: { id: b!.id }, delayMs: 100 });
    const target = await leveldb();
    const c = await Harness.create({ store: target.store, hasher: h.hasher });
    const snap = await h.sm.snapshot();
    expect(await c.sm.restore(snap.chunks)).toBe(h.sm.appliedIndex());
    expect(await c.digest()).toBe(await h.digest());
    expect((await records(target.store, 0x0f)).length).toBe(1);
    for (const [m, payload] of [
      [a!, 'a'],
      [b!, 'b'],
    ] as const) {
      expect(payloadOf((await c.sm.reader.getMessage('t', { id: m.id }, c.now))?.message)).toBe(payload);
    }
    c.index = c.sm.appliedIndex();
    await c.lead(2);
    expect((await c.ok({ kind: 'cancel', topic: 't', target: { id: a!.id } })).result.status).toBe(
      'cancelled',
    );
    expect(await integrityProblems(target.store, c.hasher)).toEqual([]);
    await Promise.all([store.close(), target.store.close()]);
  });
});
