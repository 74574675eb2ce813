/**
 * Deleting a topic or a group (state/apply/apply-purge.ts): the delete marks it at
 * once and takes nothing new for it; purge steps remove its records, each at
 * most `max_records` of them, from where the last one stopped; the progress
 * is replicated state, so the removal resumes after a restart or a snapshot.
 */
import { openStore } from '@fermata/storage';
import { describe, expect, it } from 'vitest';
import { applyBound } from '../src/state/apply/apply-bound.js';
import { NS } from '../src/state/model/layout.js';
import { DEFAULT_LIMITS } from '../src/state/model/limits.js';
import { scheduleDef } from './schedule-support.js';
import { Harness, T0, text } from './state-harness.js';

/** Every stored key of a namespace, as hex. */
async function keysOf(h: Harness, ns: { range(): { gte: Uint8Array; lt: Uint8Array } }): Promise<string[]> {
  const out: string[] = [];
  await h.store.scan(ns.range(), (k) => {
    out.push(Buffer.from(k).toString('hex'));
  });
  return out;
}

/** A topic of `n` messages in two groups, some keyed, some with a TTL, and a schedule. */
async function fill(h: Harness, topic: string, n: number): Promise<void> {
  await h.ok({ kind: 'create-topic', name: topic });
  await h.ok({ kind: 'create-group', topic, group: 'g' });
  for (let i = 0; i < n; i += 100) {
    const batch = Array.from({ length: Math.min(100, n - i) }, (_, j) => ({
      topic,
      payload: text(`m${i + j}`),
      ...((i + j) % 3 === 0 ? { key: `k${i + j}` } : {}),
      ...((i + j) % 5 === 0 ? { ttlMs: 3_600_000 } : {}),
      delayMs: (i + j) % 7,
    }));
    await h.publish(...batch);
  }
  await h.ok({ kind: 'schedule', op: { op: 'upsert', def: scheduleDef('every 1m', { topic }) } });
}

describe('deleting a topic', () => {
  it('marks it at once, then purge steps of at most max_records remove everything; the name is free again', async () => {
    const h = await Harness.create();
    await h.publish({ topic: 'other', payload: text('stays'), key: 'k1' });
    const before = {
      queue: await keysOf(h, NS.queue),
      body: await keysOf(h, NS.body),
      keys: await keysOf(h, NS.keys),
      expiry: await keysOf(h, NS.expiry),
    };
    await fill(h, 't', 500);
    expect((await h.sm.reader.topicStats('t')).groups.every((g) => g.nextDueMs !== undefined)).toBe(true);
    const work: number[] = [];
    h.sm.onCommandWork = (kind, w) => {
      if (kind === 'purge') work.push(w.records);
    };
    const d = await h.ok({ kind: 'delete-topic', name: 't' });
    expect(d.removedMessages).toBe(500);
    expect((await h.sm.reader.getTopic('t'))?.deleting).toBe(true);
    expect(h.sm.deleting.topic('t')).toBe(true);
    const stats = await h.sm.reader.topicStats('t');
    expect(stats.deletions).toMatchObject([{ group: '', entriesAtStart: 1000, removedEntries: 0 }]);
    // Nothing of it falls due (and its stats walk no purged keys to say so).
    expect(stats.groups.map((g) => g.nextDueMs)).toEqual([undefined, undefined]);
    const steps = await h.purge('t', '', 64);
    // 1000 entries (two groups), 167 key records and a schedule, 64 records a step.
    expect(steps).toBe(Math.ceil((1000 + 167 + 1) / 64));
    // One step touches a few records per record removed, never a number that grows with the topic.
    expect(Math.max(...work)).toBeLessThan(64 * 10);
    expect(await h.sm.reader.getTopic('t')).toBeUndefined();
    expect(h.sm.deleting.size).toBe(0);
    expect({
      queue: await keysOf(h, NS.queue),
      body: await keysOf(h, NS.body),
      keys: await keysOf(h, NS.keys),
      expiry: await keysOf(h, NS.expiry),
    }).toEqual(before);
    expect(await keysOf(h, NS.purges)).toEqual([]);
    expect((await h.sm.reader.listQueues()).map((q) => q.topic)).toEqual(['other']);
    // A publish may create the topic again: nothing of the old one is left.
    const [again] = await h.publish({ topic: 't', payload: text('x'), key: 'k3' });
    expect(again!.deduplicated).toBe(false);
    expect((await h.stats('t')).pending).toBe(1);
  });

  it('a deleted topic takes no publish, lease, settle, cancel, change or fire until it is gone', async () => {
    const h = await Harness.create();
    await h.ok({ kind: 'create-topic', name: 't' });
    const [m1, m2] = await h.publish({ topic: 't', payload: text('a') }, { topic: 't', payload: text('b') });
    const due = await h.due('t');
    const [l1] = (
      await h.ok({ kind: 'lease', topic: 't', group: 'default', tags: [due[0]!.tag], leaseMs: 10_000 })
    ).outcomes;
    expect(l1!.status).toBe('leased');
    await h.ok({ kind: 'delete-topic', name: 't' });
    // A publish entry of two requests: the one for the deleted topic is refused alone.
    const p = await h.run({
      kind: 'publish',
      messages: [
        { topic: 't', payload: text('no') },
        { topic: 'u', payload: text('yes') },
      ],
      requests: [
        { idempotencyKey: '', count: 1 },
        { idempotencyKey: '', count: 1 },
      ],
    });
    expect(p).toMatchObject({
      kind: 'publish',
      refused: [{ request: 0, error: { name: 'ConflictError', reason: 'topic-deleting' } }],
    });
    expect((await h.stats('u')).pending).toBe(1);
    const lease = await h.ok({
      kind: 'lease',
      topic: 't',
      group: 'default',
      tags: [due[1]!.tag],
      leaseMs: 1,
    });
    expect(lease.outcomes.map((o) => o.status)).toEqual(['gone']);
    expect((await h.ok({ kind: 'ack', tags: [l1!.newTag!] })).outcomes[0]!.status).toBe('lease-expired');
    expect((await h.ok({ kind: 'nack', tag: l1!.newTag!, delayMs: 0 })).outcome.status).toBe('lease-expired');
    expect((await h.ok({ kind: 'extend', tag: l1!.newTag!, leaseMs: 5 })).outcome.status).toBe(
      'lease-expired',
    );
    for (const cmd of [
      { kind: 'cancel' as const, topic: 't', target: { id: m2!.id } },
      { kind: 'reschedule' as const, topic: 't', target: { id: m1!.id }, delayMs: 5 },
      { kind: 'create-topic' as const, name: 't' },
      { kind: 'update-topic' as const, name: 't', settings: { maxAttempts: 3 } },
      { kind: 'create-group' as const, topic: 't', group: 'g' },
      { kind: 'delete-group' as const, topic: 't', group: 'g' },
    ]) {
      const r = await h.run(cmd);
      expect({ cmd: cmd.kind, r }).toMatchObject({
        cmd: cmd.kind,
        r: { kind: 'error', error: { reason: 'topic-deleting' } },
      });
    }
    // A retried delete answers what is left.
    expect((await h.ok({ kind: 'delete-topic', name: 't' })).removedMessages).toBe(2);
    await h.purge('t');
    expect(await h.sm.reader.getTopic('t')).toBeUndefined();
    // A purge step of a deletion that is over (proposed twice) changes nothing.
    const topics = await keysOf(h, NS.topics);
    const queues = await keysOf(h, NS.queues);
    expect(await h.ok({ kind: 'purge', topic: 't', group: '', maxRecords: 10 })).toMatchObject({
      done: true,
    });
    expect(await keysOf(h, NS.topics)).toEqual(topics);
    expect(await keysOf(h, NS.queues)).toEqual(queues);
  });

  it('dead letters bound for a topic being deleted are dropped; its expired messages just go', async () => {
    const h = await Harness.create();
    await h.ok({ kind: 'create-topic', name: 'src', settings: { maxAttempts: 1, deadLetterTopic: 'sink' } });
    await h.ok({ kind: 'create-topic', name: 'sink' });
    await h.ok({ kind: 'create-topic', name: 'gone', settings: { expiryAction: 'dead-letter' } });
    await h.publish({ topic: 'src', payload: text('x') }, { topic: 'sink', payload: text('y') });
    const [e] = await h.publish({ topic: 'gone', payload: text('z'), ttlMs: 10, delayMs: 1_000 });
    await h.leaseAll('src', 'default', 100);
    await h.ok({ kind: 'delete-topic', name: 'sink' });
    await h.ok({ kind: 'delete-topic', name: 'gone' });
    h.now = T0 + 200;
    const [dl] = await h.leaseAll('src');
    expect(dl!.status).toBe('dropped');
    const x = await h.ok({ kind: 'expire', ids: [e!.id] });
    expect(x.outcomes).toEqual([{ id: e!.id, status: 'expired' }]);
    expect(await h.sm.reader.getTopic('gone.dlq')).toBeUndefined();
    await h.purge('sink');
    await h.purge('gone');
    expect((await h.stats('src')).deadLettered).toBe(1);
  });

  it('the progress is replicated state: a restore or a reopen mid-way resumes, ending byte-identical', async () => {
    const straight = await Harness.create();
    await fill(straight, 't', 300);
    await straight.ok({ kind: 'delete-topic', name: 't' });
    await straight.purge('t', '', 50);

    const store = await openStore({ engine: 'memory' });
    const h = await Harness.create({ store });
    await fill(h, 't', 300);
    await h.ok({ kind: 'delete-topic', name: 't' });
    for (let i = 0; i < 3; i++) await h.ok({ kind: 'purge', topic: 't', group: '', maxRecords: 50 });
    expect((await h.sm.reader.topicStats('t')).deletions[0]).toMatchObject({ removedEntries: 150 });
    // A follower gets the store mid-way from a snapshot and goes on from the cursor.
    const snap = await h.sm.snapshot();
    const follower = await Harness.create();
    await follower.sm.restore(snap.chunks);
    follower.index = follower.sm.appliedIndex();
    expect(follower.sm.deleting.topic('t')).toBe(true);
    await follower.purge('t', '', 50);
    // The node itself, reopened over its store.
    const reopened = await Harness.create({ store });
    await reopened.purge('t', '', 50);
    // Both end as the uninterrupted run did, but for the applied index and the meta records.
    const data = async (x: Harness) => ({
      queue: await keysOf(x, NS.queue),
      body: await keysOf(x, NS.body),
      index: await keysOf(x, NS.index),
      keys: await keysOf(x, NS.keys),
      expiry: await keysOf(x, NS.expiry),
      topics: await keysOf(x, NS.topics),
      queues: await keysOf(x, NS.queues),
      schedules: await keysOf(x, NS.schedules),
      purges: await keysOf(x, NS.purges),
    });
    const expected = await data(straight);
    expect(await data(follower)).toEqual(expected);
    expect(await data(reopened)).toEqual(expected);
  });
});

describe('deleting a group', () => {
  it('removes its entries in steps, ending messages no other group holds; its name is taken again only once gone', async () => {
    const h = await Harness.create();
    await fill(h, 't', 200);
    const [l] = await h.leaseAll('t', 'default');
    await h.ok({ kind: 'ack', tags: [l!.newTag!] }); // message 0 now lives only in `g`
    const d = await h.ok({ kind: 'delete-group', topic: 't', group: 'g' });
    expect(d.removedMessages).toBe(200);
    expect((await h.sm.reader.getTopic('t'))!.groups).toEqual(['default']);
    const refused = await h.run({ kind: 'create-group', topic: 't', group: 'g' });
    expect(refused).toMatchObject({ kind: 'error', error: { reason: 'group-deleting' } });
    // Publishes go on, to `default` only.
    await h.publish({ topic: 't', payload: text('new') });
    await h.purge('t', 'g', 32);
    const t = await h.sm.reader.getTopic('t');
    expect(t!.deletingGroups).toBeUndefined();
    const s = await h.stats('t');
    expect(s.pending + s.inFlight).toBe(200); // 199 left of the first 200, and the new one
    expect((await h.sm.reader.getBodies([l!.id!]))[0]).toBeUndefined();
    await h.ok({ kind: 'create-group', topic: 't', group: 'g' });
    expect(await h.due('t', 'g')).toEqual([]);
  });

  it("deleting the topic takes over a group's deletion under way", async () => {
    const h = await Harness.create();
    await fill(h, 't', 120);
    await h.ok({ kind: 'delete-group', topic: 't', group: 'g' });
    await h.ok({ kind: 'purge', topic: 't', group: 'g', maxRecords: 10 });
    await h.ok({ kind: 'delete-topic', name: 't' });
    expect(h.sm.deleting.list()).toEqual([{ topic: 't', group: '' }]);
    expect(await h.ok({ kind: 'purge', topic: 't', group: 'g', maxRecords: 10 })).toMatchObject({
      done: true,
    });
    await h.purge('t', '', 25);
    for (const ns of [
      NS.queue,
      NS.body,
      NS.index,
      NS.keys,
      NS.expiry,
      NS.topics,
      NS.queues,
      NS.purges,
      NS.dueLoad,
    ]) {
      expect(await keysOf(h, ns)).toEqual([]);
    }
  });
});

describe('the bound on one apply', () => {
  it('with the default limits, one command touches at most ~6.4 x 10^5 records and writes at most ~2.2 x 10^8 bytes', () => {
    const b = applyBound(DEFAULT_LIMITS);
    // Per-key ordering's work in each of 16 groups of every item (apply-bound.ts `orderingWork`)
    // and the due-load histogram's buckets (`DUE_LOAD_WORK`, 16 records and 208 bytes a group)
    // are most of it: without both, 105,768 records and 82,007,792 bytes. The body an ordered
    // entry moved for an item may carry (`orderedBodyBytes`) is 44,224 bytes of each item.
    expect(b).toEqual({ records: 642_744, bytes: 223_020_944 });
  });
});
