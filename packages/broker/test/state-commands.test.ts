import { describe, expect, it } from 'vitest';
import { KEY_BYTES, leaseTag, TAG_BYTES, tagEntryKey } from '../src/keys.js';
import { Harness, T0, text } from './state-harness.js';

describe('publish', () => {
  it('stores the body once and one entry per group; fan-out to two groups', async () => {
    const h = await Harness.create();
    await h.ok({ kind: 'create-topic', name: 'orders' });
    await h.ok({ kind: 'create-group', topic: 'orders', group: 'billing' });
    const [r] = await h.publish({ topic: 'orders', payload: text('p1'), headers: { a: 'b' } });
    expect(r).toMatchObject({ deduplicated: false, dueAtMs: T0 });
    const d1 = await h.due('orders', 'default');
    const d2 = await h.due('orders', 'billing');
    expect(d1.map((d) => d.id)).toEqual([r!.id]);
    expect(d2.map((d) => d.id)).toEqual([r!.id]);
    expect(Buffer.from(d1[0]!.tag).equals(Buffer.from(d2[0]!.tag))).toBe(false);
    let bodies = 0;
    await h.store.scan({ gte: Uint8Array.of(0x02), lt: Uint8Array.of(0x03) }, () => {
      bodies++;
    });
    expect(bodies).toBe(1);
    const view = await h.sm.reader.getMessage('orders', { id: r!.id }, h.now);
    expect(view?.message.headers).toEqual({ a: 'b' });
    expect(view?.groups.map((g) => [g.group, g.state])).toEqual([
      ['default', 'pending'],
      ['billing', 'pending'],
    ]);
    // Acking in one group leaves the other's copy and the body.
    const [lease] = await h.leaseAll('orders', 'default');
    await h.ok({ kind: 'ack', tags: [lease!.newTag!] });
    expect((await h.due('orders', 'billing')).length).toBe(1);
    expect((await h.sm.reader.getBodies([r!.id]))[0]).toBeDefined();
    const [lease2] = await h.leaseAll('orders', 'billing');
    await h.ok({ kind: 'ack', tags: [lease2!.newTag!] });
    expect((await h.sm.reader.getBodies([r!.id]))[0]).toBeUndefined();
  });

  it('a group receives only messages published after it was created', async () => {
    const h = await Harness.create();
    await h.publish({ topic: 't', payload: text('old') });
    await h.ok({ kind: 'create-group', topic: 't', group: 'late' });
    await h.publish({ topic: 't', payload: text('new') });
    expect((await h.due('t', 'default')).length).toBe(2);
    expect((await h.due('t', 'late')).length).toBe(1);
  });

  it('auto-creates an unknown topic with default settings', async () => {
    const h = await Harness.create();
    await h.publish({ topic: 'fresh', payload: text('x') });
    const t = await h.sm.reader.getTopic('fresh');
    expect(t).toMatchObject({ groups: ['default'], settings: { maxAttempts: 10, defaultLeaseMs: 30_000 } });
  });

  it('delayMs and deliverAtMs set the due time; a due time in the past means now', async () => {
    const h = await Harness.create();
    const r = await h.publish(
      { topic: 't', payload: text('a'), delayMs: 5_000 },
      { topic: 't', payload: text('b'), deliverAtMs: T0 + 2_000 },
      { topic: 't', payload: text('c'), deliverAtMs: T0 - 60_000 },
    );
    expect(r.map((x) => x.dueAtMs)).toEqual([T0 + 5_000, T0 + 2_000, T0]);
    expect((await h.due('t')).map((d) => d.id)).toEqual([r[2]!.id]);
    expect(await h.sm.reader.nextDueMs(h.sm.reader.queueHash('t'))).toBe(T0);
    h.now = T0 + 2_000;
    expect((await h.due('t')).map((d) => d.id)).toEqual([r[2]!.id, r[1]!.id]);
    h.now = T0 + 5_000;
    expect((await h.due('t')).length).toBe(3);
  });

  it('ids are assigned in batch order and a batch is one entry', async () => {
    const h = await Harness.create();
    const r = await h.publish({ topic: 't', payload: text('a') }, { topic: 'u', payload: text('b') });
    expect(r[1]!.id).toBe(r[0]!.id + 1n);
    expect(h.sm.ids.lastId).toBe(r[1]!.id);
  });

  it('dedup: a live key returns the existing id and writes nothing', async () => {
    const h = await Harness.create();
    const [a] = await h.publish({ topic: 't', payload: text('a'), key: 'k1', delayMs: 100 });
    const before = await h.digest();
    const r = await h.sm.apply([
      {
        term: 1,
        index: h.index + 1,
        type: 'normal',
        data: h.encode({ kind: 'publish', messages: [{ topic: 't', payload: text('b'), key: 'k1' }] }),
      },
    ]);
    h.index++;
    expect(r[0]).toMatchObject({
      kind: 'publish',
      results: [{ id: a!.id, deduplicated: true, dueAtMs: T0 + 100 }],
    });
    // Only the applied index, last id and stamp moved: same message content.
    expect((await h.due('t', 'default', 10)).length).toBe(0);
    expect(await h.stats('t')).toMatchObject({ pending: 1 });
    expect(before).not.toBe(''); // digest differs only in meta; content checked above
  });

  it('dedup within one batch: the second message with the key is deduplicated', async () => {
    const h = await Harness.create();
    const r = await h.publish(
      { topic: 't', payload: text('a'), key: 'k' },
      { topic: 't', payload: text('b'), key: 'k' },
    );
    expect(r[1]).toMatchObject({ id: r[0]!.id, deduplicated: true });
    expect(await h.stats('t')).toMatchObject({ pending: 1 });
  });

  it('dedup: a key stays reserved for the window after its message ends, then is free', async () => {
    const h = await Harness.create();
    await h.ok({ kind: 'create-topic', name: 't', settings: { dedupWindowMs: 60_000 } });
    const [a] = await h.publish({ topic: 't', payload: text('a'), key: 'k' });
    const [l] = await h.leaseAll('t');
    await h.ok({ kind: 'ack', tags: [l!.newTag!] });
    h.now = T0 + 59_999;
    const [again] = await h.publish({ topic: 't', payload: text('b'), key: 'k' });
    expect(again).toMatchObject({ id: a!.id, deduplicated: true, dueAtMs: 0 });
    expect(await h.sm.reader.dueKeyPurges(h.now, 10)).toEqual([]);
    h.now = T0 + 60_000;
    expect(await h.sm.reader.dueKeyPurges(h.now, 10)).toEqual([
      { topic: 't', key: 'k', windowEndMs: T0 + 60_000 },
    ]);
    expect(await h.ok({ kind: 'purge-keys', keys: [{ topic: 't', key: 'k' }] })).toMatchObject({ purged: 1 });
    expect(await h.sm.reader.dueKeyPurges(h.now, 10)).toEqual([]);
    const [b] = await h.publish({ topic: 't', payload: text('c'), key: 'k' });
    expect(b!.deduplicated).toBe(false);
    expect(b!.id).not.toBe(a!.id);
  });

  it('dedup: after the window a key is free even before the purge ran', async () => {
    const h = await Harness.create();
    await h.ok({ kind: 'create-topic', name: 't', settings: { dedupWindowMs: 1_000 } });
    await h.publish({ topic: 't', payload: text('a'), key: 'k' });
    await h.ok({ kind: 'cancel', topic: 't', target: { key: 'k' } });
    h.now += 1_000;
    const [b] = await h.publish({ topic: 't', payload: text('b'), key: 'k' });
    expect(b!.deduplicated).toBe(false);
    // The stale window entry went with the old reservation.
    expect(await h.sm.reader.dueKeyPurges(h.now + 10_000_000, 10)).toEqual([]);
  });
});

describe('publish request idempotency keys', () => {
  const msgs = (n: number, topic = 't') =>
    Array.from({ length: n }, (_, i) => ({ topic, payload: text(`m${i}`), delayMs: 1_000 * i }));

  it('a retried request stores nothing and answers the first results, deduplicated, within the window', async () => {
    const h = await Harness.create();
    const first = await h.ok({
      kind: 'publish',
      messages: msgs(3),
      requests: [{ idempotencyKey: 'r1', count: 3 }],
    });
    expect(first.results.map((r) => r.deduplicated)).toEqual([false, false, false]);
    h.now = T0 + 599_999;
    const again = await h.ok({
      kind: 'publish',
      messages: msgs(3),
      requests: [{ idempotencyKey: 'r1', count: 3 }],
    });
    expect(again.results).toEqual(first.results.map((r) => ({ ...r, deduplicated: true })));
    expect(again.results.map((r) => r.dueAtMs)).toEqual([T0, T0 + 1_000, T0 + 2_000]);
    expect(await h.stats('t')).toMatchObject({ pending: 3 });
  });

  it('requests of one entry are answered alone: a repeated one deduplicated, the others stored', async () => {
    const h = await Harness.create();
    const a = await h.ok({
      kind: 'publish',
      messages: msgs(2),
      requests: [{ idempotencyKey: 'a', count: 2 }],
    });
    const r = await h.ok({
      kind: 'publish',
      messages: [...msgs(1), ...msgs(2), ...msgs(1), ...msgs(1)],
      requests: [
        { idempotencyKey: 'b', count: 1 },
        { idempotencyKey: 'a', count: 2 },
        { idempotencyKey: '', count: 1 },
        { idempotencyKey: 'b', count: 1 },
      ],
    });
    const firstIds = a.results.map((x) => x.id);
    expect(r.results.map((x) => x.deduplicated)).toEqual([false, true, true, false, true]);
    expect(r.results.slice(1, 3).map((x) => x.id)).toEqual(firstIds);
    // The second 'b' in the same entry sees the first one's record.
    expect(r.results[4]!.id).toBe(r.results[0]!.id);
    expect(await h.stats('t')).toMatchObject({ pending: 4 });
  });

  it('a key used again with another number of messages refuses that request alone, naming the field', async () => {
    const h = await Harness.create();
    await h.ok({ kind: 'publish', messages: msgs(2), requests: [{ idempotencyKey: 'k', count: 2 }] });
    const r = await h.ok({
      kind: 'publish',
      messages: [...msgs(3), ...msgs(1)],
      requests: [
        { idempotencyKey: 'k', count: 3 },
        { idempotencyKey: 'other', count: 1 },
      ],
    });
    expect(r.results).toHaveLength(1);
    expect(r.results[0]!.deduplicated).toBe(false);
    expect(r.refused).toHaveLength(1);
    expect(r.refused![0]!.request).toBe(0);
    expect(r.refused![0]!.error).toMatchObject({ code: 'invalid', field: 'idempotency_key' });
    expect(await h.stats('t')).toMatchObject({ pending: 3 });
  });

  it('after the window the key is purged and a request with it is stored again', async () => {
    const h = await Harness.create({ limits: { publishDedupWindowMs: 60_000 } });
    const [a] = (
      await h.ok({ kind: 'publish', messages: msgs(1), requests: [{ idempotencyKey: 'k', count: 1 }] })
    ).results;
    h.now = T0 + 59_999;
    expect(await h.sm.reader.dueRequestPurges(h.now, 10)).toEqual([]);
    h.now = T0 + 60_000;
    expect(await h.sm.reader.dueRequestPurges(h.now, 10)).toEqual(['k']);
    expect(await h.ok({ kind: 'purge-keys', keys: [], requests: ['k'] })).toMatchObject({ purged: 1 });
    expect(await h.sm.reader.dueRequestPurges(h.now + 10_000_000, 10)).toEqual([]);
    const [b] = (
      await h.ok({ kind: 'publish', messages: msgs(1), requests: [{ idempotencyKey: 'k', count: 1 }] })
    ).results;
    expect(b!.deduplicated).toBe(false);
    expect(b!.id).not.toBe(a!.id);
    // A purge naming a key whose window has not ended leaves it.
    expect(await h.ok({ kind: 'purge-keys', keys: [], requests: ['k'] })).toMatchObject({ purged: 0 });
  });

  it('after the window, before the purge, a request with the key is stored and its stale window entry goes', async () => {
    const h = await Harness.create({ limits: { publishDedupWindowMs: 1_000 } });
    await h.ok({ kind: 'publish', messages: msgs(1), requests: [{ idempotencyKey: 'k', count: 1 }] });
    h.now = T0 + 1_000;
    const r = await h.ok({
      kind: 'publish',
      messages: msgs(1),
      requests: [{ idempotencyKey: 'k', count: 1 }],
    });
    expect(r.results[0]!.deduplicated).toBe(false);
    expect(await h.sm.reader.dueRequestPurges(h.now, 10)).toEqual([]);
    expect(await h.sm.reader.dueRequestPurges(h.now + 1_000, 10)).toEqual(['k']);
  });

  it('a message key deduplicated inside a keyed request answers the existing id on the retry too', async () => {
    const h = await Harness.create();
    const [orig] = await h.publish({ topic: 't', payload: text('x'), key: 'order-1' });
    const messages = [
      { topic: 't', payload: text('y'), key: 'order-1' },
      { topic: 't', payload: text('z'), delayMs: 5_000 },
    ];
    const first = await h.ok({ kind: 'publish', messages, requests: [{ idempotencyKey: 'r', count: 2 }] });
    h.now += 10;
    const again = await h.ok({ kind: 'publish', messages, requests: [{ idempotencyKey: 'r', count: 2 }] });
    expect(first.results[0]).toMatchObject({ id: orig!.id, deduplicated: true, dueAtMs: T0 });
    expect(again.results).toEqual([
      { id: orig!.id, deduplicated: true, dueAtMs: T0 },
      { id: first.results[1]!.id, deduplicated: true, dueAtMs: T0 + 5_000 },
    ]);
  });

  it('refuses spans that do not cover the messages, and keys over maxKeyBytes, naming the field', async () => {
    const h = await Harness.create();
    const bad = async (requests: { idempotencyKey: string; count: number }[]) => {
      const r = await h.run({ kind: 'publish', messages: msgs(2), requests });
      return r.kind === 'error' ? r.error : r;
    };
    expect(await bad([{ idempotencyKey: 'a', count: 1 }])).toMatchObject({ field: 'requests' });
    expect(
      await bad([
        { idempotencyKey: 'a', count: 2 },
        { idempotencyKey: 'b', count: 0 },
      ]),
    ).toMatchObject({ field: 'requests[1].count' });
    expect(await bad([{ idempotencyKey: 'x'.repeat(257), count: 2 }])).toMatchObject({
      field: 'requests[0].idempotency_key',
      limit: 'maxKeyBytes',
    });
    expect(await h.stats('t').catch(() => undefined)).toBeUndefined();
  });
});

describe('due notifications for the dispatcher', () => {
  it('after each batch, reports per queue the earliest due time of entries it inserted or moved', async () => {
    const h = await Harness.create();
    const seen: { topic: string; group: string; dueAtMs: number; lapse?: boolean }[][] = [];
    h.sm.onDue = (changes) =>
      seen.push(
        changes.map(({ topic, group, dueAtMs, lapse }) => ({
          topic,
          group,
          dueAtMs,
          ...(lapse ? { lapse } : {}),
        })),
      );
    await h.ok({ kind: 'create-topic', name: 't' });
    await h.ok({ kind: 'create-group', topic: 't', group: 'g' });
    expect(seen).toEqual([]);
    await h.publish(
      { topic: 't', payload: text('a'), delayMs: 500 },
      { topic: 't', payload: text('b'), delayMs: 100 },
    );
    expect(seen.pop()).toEqual([
      { topic: 't', group: 'default', dueAtMs: T0 + 100 },
      { topic: 't', group: 'g', dueAtMs: T0 + 100 },
    ]);
    h.now = T0 + 100;
    // A lease in place leaves its entry where it lies: nothing comes due, but its end is reported.
    await h.leaseAll('t', 'g', 2_000);
    expect(seen.pop()).toEqual([{ topic: 't', group: 'g', dueAtMs: T0 + 2_100, lapse: true }]);
    // A moved lease (earlier versions' command) puts the entry at its lease's end.
    h.now = T0 + 500;
    const [pending] = await h.due('t', 'g');
    await h.ok({
      kind: 'lease',
      topic: 't',
      group: 'g',
      tags: [pending!.tag],
      leaseMs: 2_000,
      inPlace: false,
    });
    expect(seen.pop()).toEqual([{ topic: 't', group: 'g', dueAtMs: T0 + 2_500 }]);
    // A refused command reports nothing.
    await h.run({ kind: 'publish', messages: [{ topic: 't', payload: text('x'), delayMs: -1 }] });
    expect(seen).toEqual([]);
  });
});

describe('lease, ack, nack, extend', () => {
  it('lease then ack deletes the entry; counters follow', async () => {
    const h = await Harness.create();
    const [m] = await h.publish({ topic: 't', payload: text('a') });
    expect(await h.stats('t')).toMatchObject({ pending: 1, inFlight: 0 });
    const [l] = await h.leaseAll('t', 'default', 5_000);
    expect(l).toMatchObject({ status: 'leased', id: m!.id, attempt: 1, leaseExpiresAtMs: T0 + 5_000 });
    // The tag is the entry's key and the attempt: the entry stays where it lies.
    expect(l!.newTag!.length).toBe(TAG_BYTES);
    expect(Buffer.from(tagEntryKey(l!.newTag!)).equals(Buffer.from(l!.tag))).toBe(true);
    expect(await h.stats('t')).toMatchObject({ pending: 0, inFlight: 1, nextDueMs: T0 + 5_000 });
    expect(await h.due('t')).toEqual([]);
    const ack = await h.ok({ kind: 'ack', tags: [l!.newTag!] });
    expect(ack.outcomes).toMatchObject([{ status: 'ok' }]);
    expect(Buffer.from(ack.outcomes[0]!.tag).equals(Buffer.from(l!.newTag!))).toBe(true);
    expect(await h.stats('t')).toMatchObject({ pending: 0, inFlight: 0, nextDueMs: undefined });
    expect(await h.sm.reader.getMessage('t', { id: m!.id }, h.now)).toBeUndefined();
  });

  it('an ack by a stale tag (the old key) is lease-expired and changes nothing', async () => {
    const h = await Harness.create();
    await h.publish({ topic: 't', payload: text('a') });
    const [pending] = await h.due('t');
    await h.leaseAll('t');
    const ack = await h.ok({ kind: 'ack', tags: [pending!.tag] });
    expect(ack.outcomes[0]!.status).toBe('lease-expired');
    expect(await h.stats('t')).toMatchObject({ inFlight: 1 });
  });

  it('lease expiry makes the entry due again with attempt + 1; the old tag cannot ack the new lease', async () => {
    const h = await Harness.create();
    await h.publish({ topic: 't', payload: text('a') });
    const [l1] = await h.leaseAll('t', 'default', 1_000);
    h.now = T0 + 999;
    expect(await h.due('t')).toEqual([]);
    h.now = T0 + 1_000;
    const due = await h.due('t');
    expect(due).toHaveLength(1);
    expect(due[0]).toMatchObject({ inFlight: true, attempt: 1 });
    // The lease ran out: acking it is refused even before anyone re-leases.
    expect((await h.ok({ kind: 'ack', tags: [l1!.newTag!] })).outcomes[0]!.status).toBe('lease-expired');
    const [l2] = await h.leaseAll('t', 'default', 1_000);
    expect(l2).toMatchObject({ status: 'leased', attempt: 2 });
    expect((await h.ok({ kind: 'ack', tags: [l1!.newTag!] })).outcomes[0]!.status).toBe('lease-expired');
    expect(await h.stats('t')).toMatchObject({ inFlight: 1 });
    expect((await h.ok({ kind: 'ack', tags: [l2!.newTag!] })).outcomes[0]!.status).toBe('ok');
  });

  it('a tag named twice in one ack, or acked in the batch that leased it, is acked once', async () => {
    const h = await Harness.create();
    await h.publish({ topic: 't', payload: text('a') }, { topic: 't', payload: text('b') });
    const [l1, l2] = await h.leaseAll('t');
    const r = await h.ok({ kind: 'ack', tags: [l1!.newTag!, l2!.newTag!, l1!.newTag!] });
    expect(r.outcomes.map((o) => o.status)).toEqual(['ok', 'ok', 'lease-expired']);
    expect(await h.stats('t')).toMatchObject({ pending: 0, inFlight: 0 });
    // Lease and ack in one apply batch (a follower applies what it learns committed together).
    await h.publish({ topic: 't', payload: text('c') });
    const [due] = await h.due('t');
    const tag = due!.tag;
    const leaseMs = 1_000;
    const newTag = leaseTag(tag, 1);
    const results = await h.runAll([
      { kind: 'lease', topic: 't', group: 'default', tags: [tag], leaseMs },
      { kind: 'ack', tags: [newTag, newTag] },
    ]);
    expect(results.map((x) => (x.kind === 'ack' ? x.outcomes.map((o) => o.status) : x.kind))).toEqual([
      'lease',
      ['ok', 'lease-expired'],
    ]);
    expect(await h.stats('t')).toMatchObject({ pending: 0, inFlight: 0 });
  });

  it('lease of an entry not yet due, or one already leased, does nothing', async () => {
    const h = await Harness.create();
    await h.publish({ topic: 't', payload: text('a'), delayMs: 1_000 });
    const [entry] = await h.sm.reader.dueEntriesOf('t', 'default', T0 + 1_000, 10);
    const r = await h.ok({
      kind: 'lease',
      topic: 't',
      group: 'default',
      tags: [entry!.tag, entry!.tag],
      leaseMs: 100,
    });
    expect(r.outcomes.map((o) => o.status)).toEqual(['not-due', 'not-due']);
    h.now = T0 + 1_000;
    const r2 = await h.ok({
      kind: 'lease',
      topic: 't',
      group: 'default',
      tags: [entry!.tag, entry!.tag],
      leaseMs: 100,
    });
    // Named twice: the second finds it leased, and a running lease is never leased again.
    expect(r2.outcomes.map((o) => o.status)).toEqual(['leased', 'not-due']);
  });

  it('a lease taken ahead starts at the due time; a running lease is never taken ahead', async () => {
    const h = await Harness.create();
    const [m] = await h.publish({ topic: 't', payload: text('a'), delayMs: 1_000 });
    const [entry] = await h.sm.reader.dueEntriesOf('t', 'default', T0 + 1_000, 10);
    const lease = (aheadMs: number, tag = entry!.tag) =>
      h.ok({ kind: 'lease', topic: 't', group: 'default', tags: [tag], leaseMs: 100, aheadMs });
    expect((await lease(999)).outcomes[0]!.status).toBe('not-due');
    const [l] = (await lease(1_000)).outcomes;
    expect(l).toMatchObject({
      status: 'leased',
      attempt: 1,
      startsAtMs: T0 + 1_000,
      leaseExpiresAtMs: T0 + 1_100,
    });
    // Leased, it is in flight before it starts (its delivery may be on its way); ack waits for the start.
    const view = await h.sm.reader.getMessage('t', { id: m!.id }, h.now);
    expect(view!.groups[0]).toMatchObject({ state: 'in-flight', dueAtMs: T0 + 1_100, attempt: 1 });
    expect((await h.ok({ kind: 'ack', tags: [l!.newTag!] })).outcomes[0]!.status).toBe('lease-expired');
    h.now = T0 + 1_050;
    const running = await h.sm.reader.getMessage('t', { id: m!.id }, h.now);
    expect(running!.groups[0]).toMatchObject({ state: 'in-flight', attempt: 1 });
    expect((await lease(10_000)).outcomes[0]!.status).toBe('not-due');
    expect((await h.ok({ kind: 'ack', tags: [l!.newTag!] })).outcomes[0]!.status).toBe('ok');
  });

  it('an ahead lease past limits.maxLeaseAheadMs is refused and changes nothing', async () => {
    const h = await Harness.create({ limits: { maxLeaseAheadMs: 500 } });
    await h.publish({ topic: 't', payload: text('a'), delayMs: 100 });
    const [entry] = await h.sm.reader.dueEntriesOf('t', 'default', T0 + 100, 10);
    const r = await h.run({
      kind: 'lease',
      topic: 't',
      group: 'default',
      tags: [entry!.tag],
      leaseMs: 100,
      aheadMs: 501,
    });
    expect(r.kind).toBe('error');
    if (r.kind === 'error') expect(r.error.message).toMatch(/ahead_ms.*maxLeaseAheadMs|maxLeaseAheadMs/);
    expect(await h.stats('t')).toMatchObject({ pending: 1, inFlight: 0 });
    h.now = T0 + 100;
    expect((await h.leaseAll('t'))[0]).toMatchObject({ status: 'leased', attempt: 1 });
  });

  it('cancel and reschedule answer in flight for a lease taken ahead, also before it starts; expiry removes it and reports its tag withdrawn', async () => {
    const h = await Harness.create();
    const withdrawn: string[] = [];
    h.sm.onWithdrawn = (tags) => {
      for (const t of tags) withdrawn.push(Buffer.from(t).toString('hex'));
    };
    const [a, b] = await h.publish(
      { topic: 't', payload: text('a'), delayMs: 1_000, ttlMs: 500 },
      { topic: 't', payload: text('b'), delayMs: 1_000 },
    );
    const due = await h.sm.reader.dueEntriesOf('t', 'default', T0 + 1_000, 10);
    const r = await h.ok({
      kind: 'lease',
      topic: 't',
      group: 'default',
      tags: due.map((d) => d.tag),
      leaseMs: 100,
      aheadMs: 1_000,
    });
    expect(await h.stats('t')).toMatchObject({ pending: 0, inFlight: 2 });
    const tags = r.outcomes.map((o) => Buffer.from(o.newTag!).toString('hex'));
    const views = () => Promise.all([a, b].map((m) => h.sm.reader.getMessage('t', { id: m!.id }, h.now)));
    const before = await views();
    expect(before.map((v) => v!.groups[0]!.state)).toEqual(['in-flight', 'in-flight']);
    expect((await h.ok({ kind: 'cancel', topic: 't', target: { id: a!.id } })).result.status).toBe(
      'in-flight',
    );
    const moved = await h.ok({ kind: 'reschedule', topic: 't', target: { id: b!.id }, delayMs: 5_000 });
    expect(moved.result.status).toBe('in-flight');
    expect(await views()).toEqual(before);
    expect(withdrawn).toEqual([]);
    // Expiry removes a message in flight too; a lease that has not started is reported.
    h.now = T0 + 500;
    expect((await h.ok({ kind: 'expire', ids: [a!.id] })).outcomes).toEqual([
      { id: a!.id, status: 'expired' },
    ]);
    expect(withdrawn).toEqual([tags[0]]);
    expect(await h.stats('t')).toMatchObject({ pending: 0, inFlight: 1 });
  });

  it('a nack of a lease taken ahead that has not started restores the entry at its own due time', async () => {
    const h = await Harness.create();
    const [m] = await h.publish({ topic: 't', payload: text('a'), delayMs: 1_000 });
    const [entry] = await h.sm.reader.dueEntriesOf('t', 'default', T0 + 1_000, 10);
    const [l] = (
      await h.ok({
        kind: 'lease',
        topic: 't',
        group: 'default',
        tags: [entry!.tag],
        leaseMs: 100,
        aheadMs: 1_000,
      })
    ).outcomes;
    expect((await h.ok({ kind: 'ack', tags: [l!.newTag!] })).outcomes[0]!.status).toBe('lease-expired');
    const nack = await h.ok({ kind: 'nack', tag: l!.newTag!, delayMs: 0 });
    expect(nack.outcome).toMatchObject({ status: 'ok', dueAtMs: T0 + 1_000 });
    expect(await h.stats('t')).toMatchObject({ pending: 1, inFlight: 0 });
    const view = await h.sm.reader.getMessage('t', { id: m!.id }, h.now);
    expect(view!.groups[0]).toMatchObject({ state: 'pending', dueAtMs: T0 + 1_000, attempt: 0 });
    h.now = T0 + 1_000;
    expect((await h.leaseAll('t'))[0]).toMatchObject({ status: 'leased', attempt: 1 });
  });

  it('a lease keeps the consumer it was taken for; handed back uncounted after its start, the attempt is not counted', async () => {
    const h = await Harness.create();
    await h.ok({ kind: 'create-topic', name: 't', settings: { maxAttempts: 1 } });
    const [m] = await h.publish({ topic: 't', payload: text('a'), delayMs: 1_000 });
    const [entry] = await h.sm.reader.dueEntriesOf('t', 'default', T0 + 1_000, 10);
    const lease = (consumerId?: bigint) =>
      h.ok({
        kind: 'lease',
        topic: 't',
        group: 'default',
        tags: [entry!.tag],
        leaseMs: 5_000,
        aheadMs: 1_000,
        inPlace: true,
        ...(consumerId === undefined ? {} : { consumerId }),
      });
    const [first] = (await lease(0xfeed_beef_0000_0001n)).outcomes;
    const [running] = await h.sm.reader.runningLeases(h.sm.reader.queueHash('t'), h.now, 1, 10);
    expect(running).toMatchObject({ id: m!.id, leaseConsumer: 0xfeed_beef_0000_0001n, attempt: 1 });
    expect(Buffer.from(running!.tag).equals(Buffer.from(first!.newTag!))).toBe(true);
    // Past its start: a plain nack would keep the attempt (and the next lease dead-letters on
    // maxAttempts 1); the leader's uncounted hand-back undoes the lease.
    h.now = T0 + 1_500;
    expect((await h.sm.reader.runningLease(first!.newTag!, h.now))?.id).toBe(m!.id);
    const back = await h.ok({ kind: 'nack', tag: first!.newTag!, delayMs: 0, uncounted: true });
    expect(back.outcome).toMatchObject({ status: 'ok', dueAtMs: T0 + 1_000 });
    const view = await h.sm.reader.getMessage('t', { id: m!.id }, h.now);
    expect(view!.groups[0]).toMatchObject({ state: 'pending', attempt: 0 });
    expect(await h.sm.reader.runningLease(first!.newTag!, h.now)).toBeUndefined();
    const [second] = (await lease()).outcomes;
    expect(second).toMatchObject({ status: 'leased', attempt: 1 });
    // A lease that ran out is not handed back.
    h.now = T0 + 7_000;
    expect(
      (await h.ok({ kind: 'nack', tag: second!.newTag!, delayMs: 0, uncounted: true })).outcome.status,
    ).toBe('lease-expired');
  });

  it('nack moves the leased entry to now + delay; the attempt count is kept', async () => {
    const h = await Harness.create();
    await h.publish({ topic: 't', payload: text('a') });
    const [l] = await h.leaseAll('t');
    h.now = T0 + 100;
    const n = await h.ok({ kind: 'nack', tag: l!.newTag!, delayMs: 2_000 });
    expect(n.outcome).toMatchObject({ status: 'ok', dueAtMs: T0 + 2_100 });
    expect(await h.stats('t')).toMatchObject({ pending: 1, inFlight: 0, nextDueMs: T0 + 2_100 });
    h.now = T0 + 2_100;
    const [l2] = await h.leaseAll('t');
    expect(l2!.attempt).toBe(2);
    expect((await h.ok({ kind: 'nack', tag: l!.newTag!, delayMs: 0 })).outcome.status).toBe('lease-expired');
  });

  it('a lease taken ahead and handed back, then taken again, gets a new tag: the first settles nothing', async () => {
    const h = await Harness.create();
    await h.publish({ topic: 't', payload: text('a'), delayMs: 1_000 });
    const [entry] = await h.sm.reader.dueEntriesOf('t', 'default', T0 + 1_000, 10);
    const lease = () =>
      h.ok({
        kind: 'lease',
        topic: 't',
        group: 'default',
        tags: [entry!.tag],
        leaseMs: 5_000,
        aheadMs: 1_000,
      });
    const [first] = (await lease()).outcomes;
    // Its consumer left before the start: the lease is handed back, the attempt not counted.
    const back = await h.ok({ kind: 'nack', tag: first!.newTag!, delayMs: 0 });
    expect(back.outcome.status).toBe('ok');
    const [second] = (await lease()).outcomes;
    expect(second).toMatchObject({ status: 'leased', attempt: 1 });
    expect(Buffer.from(second!.newTag!).equals(Buffer.from(first!.newTag!))).toBe(false);
    // A retried hand-back of the first lease (its answer was lost) leaves the second alone.
    expect((await h.ok({ kind: 'nack', tag: first!.newTag!, delayMs: 0 })).outcome.status).toBe(
      'lease-expired',
    );
    h.now = T0 + 1_500;
    expect((await h.ok({ kind: 'ack', tags: [first!.newTag!] })).outcomes[0]!.status).toBe('lease-expired');
    expect((await h.ok({ kind: 'ack', tags: [second!.newTag!] })).outcomes[0]!.status).toBe('ok');
  });

  it('extend moves the end of a lease in place and keeps its tag', async () => {
    const h = await Harness.create();
    await h.publish({ topic: 't', payload: text('a') });
    const [l] = await h.leaseAll('t', 'default', 1_000);
    h.now = T0 + 500;
    const e = await h.ok({ kind: 'extend', tag: l!.newTag!, leaseMs: 10_000 });
    expect(e.outcome).toMatchObject({ status: 'ok', dueAtMs: T0 + 10_500 });
    expect(Buffer.from(e.outcome.newTag!).equals(Buffer.from(l!.newTag!))).toBe(true);
    h.now = T0 + 5_000;
    expect(await h.due('t')).toEqual([]);
    expect(await h.stats('t')).toMatchObject({ inFlight: 1, nextDueMs: T0 + 10_500 });
    expect((await h.ok({ kind: 'ack', tags: [l!.newTag!] })).outcomes[0]!.status).toBe('ok');
  });

  it('extend of a moved lease (earlier versions) moves it again under a new tag; the old tag is then unknown', async () => {
    const h = await Harness.create();
    h.leaseInPlace = false;
    await h.publish({ topic: 't', payload: text('a') });
    const [l] = await h.leaseAll('t', 'default', 1_000);
    expect(l!.newTag!.length).toBe(KEY_BYTES);
    h.now = T0 + 500;
    const e = await h.ok({ kind: 'extend', tag: l!.newTag!, leaseMs: 10_000 });
    expect(e.outcome).toMatchObject({ status: 'ok', dueAtMs: T0 + 10_500 });
    h.now = T0 + 5_000;
    expect(await h.due('t')).toEqual([]);
    expect((await h.ok({ kind: 'ack', tags: [l!.newTag!] })).outcomes[0]!.status).toBe('lease-expired');
    expect((await h.ok({ kind: 'ack', tags: [e.outcome.newTag!] })).outcomes[0]!.status).toBe('ok');
  });

  it('after maxAttempts deliveries the entry moves to <topic>.dlq with its history', async () => {
    const h = await Harness.create();
    await h.ok({ kind: 'create-topic', name: 'jobs', settings: { maxAttempts: 2 } });
    const [m] = await h.publish({ topic: 'jobs', payload: text('work'), headers: { h: '1' }, key: 'job-1' });
    const starts: number[] = [];
    for (let i = 0; i < 2; i++) {
      starts.push(h.now);
      const [l] = await h.leaseAll('jobs', 'default', 1_000);
      expect(l!.status).toBe('leased');
      h.now += 1_000;
    }
    const [last] = await h.leaseAll('jobs');
    expect(last).toMatchObject({ status: 'dead-lettered', id: m!.id });
    expect(await h.stats('jobs')).toMatchObject({ pending: 0, inFlight: 0, deadLettered: 1 });
    const dlq = await h.due('jobs.dlq');
    expect(dlq).toHaveLength(1);
    expect(dlq[0]!.id).toBe(last!.deadLetterId);
    const [body] = await h.sm.reader.getBodies([dlq[0]!.id]);
    expect(body).toMatchObject({
      topic: 'jobs.dlq',
      headers: { h: '1' },
      deadLetter: {
        sourceTopic: 'jobs',
        sourceGroup: 'default',
        sourceId: m!.id,
        sourceKey: 'job-1',
        reason: 'max_attempts',
        attempts: 2,
        deliveredAtMs: starts,
      },
    });
    expect(Buffer.from(body!.payload).toString()).toBe('work');
    // The source message ended: its key is reserved (window) and cancel says already done.
    expect((await h.ok({ kind: 'cancel', topic: 'jobs', target: { key: 'job-1' } })).result.status).toBe(
      'already-done',
    );
  });

  it('a dead letter that exhausts its attempts in the DLQ is dropped, not cascaded', async () => {
    const h = await Harness.create();
    await h.ok({ kind: 'create-topic', name: 'a', settings: { maxAttempts: 1, deadLetterTopic: 'dead' } });
    await h.ok({ kind: 'create-topic', name: 'dead', settings: { maxAttempts: 1 } });
    await h.publish({ topic: 'a', payload: text('x') });
    await h.leaseAll('a', 'default', 10);
    h.now += 10;
    expect((await h.leaseAll('a'))[0]!.status).toBe('dead-lettered');
    await h.leaseAll('dead', 'default', 10);
    h.now += 10;
    expect((await h.leaseAll('dead'))[0]!.status).toBe('dropped');
    expect(await h.stats('dead')).toMatchObject({ pending: 0, deadLettered: 1 });
    expect(await h.sm.reader.getTopic('dead.dlq')).toBeUndefined();
  });

  it('malformed and foreign tags: lease says gone, ack says lease-expired', async () => {
    const h = await Harness.create();
    await h.publish({ topic: 't', payload: text('a') }, { topic: 'u', payload: text('b') });
    const [u] = await h.due('u');
    const r = await h.ok({ kind: 'lease', topic: 't', group: 'default', tags: [u!.tag], leaseMs: 100 });
    expect(r.outcomes[0]!.status).toBe('gone');
    const ack = await h.ok({ kind: 'ack', tags: [new Uint8Array(KEY_BYTES)] });
    expect(ack.outcomes[0]!.status).toBe('lease-expired');
  });
});

describe('cancel and reschedule', () => {
  it('cancel in each state: pending, in flight, done, unknown', async () => {
    const h = await Harness.create();
    await h.ok({ kind: 'create-topic', name: 't', settings: { dedupWindowMs: 60_000 } });
    const [a, b] = await h.publish(
      { topic: 't', payload: text('a'), key: 'ka' },
      { topic: 't', payload: text('b'), delayMs: 50 },
    );
    expect((await h.ok({ kind: 'cancel', topic: 't', target: { id: b!.id } })).result).toMatchObject({
      status: 'cancelled',
      id: b!.id,
    });
    expect(await h.stats('t')).toMatchObject({ pending: 1 });
    const [l] = await h.leaseAll('t');
    expect((await h.ok({ kind: 'cancel', topic: 't', target: { key: 'ka' } })).result).toMatchObject({
      status: 'in-flight',
      id: a!.id,
    });
    expect(await h.stats('t')).toMatchObject({ inFlight: 1 });
    await h.ok({ kind: 'ack', tags: [l!.newTag!] });
    expect((await h.ok({ kind: 'cancel', topic: 't', target: { key: 'ka' } })).result.status).toBe(
      'already-done',
    );
    expect((await h.ok({ kind: 'cancel', topic: 't', target: { id: a!.id } })).result.status).toBe(
      'already-done',
    );
    expect((await h.ok({ kind: 'cancel', topic: 't', target: { id: b!.id } })).result.status).toBe(
      'not-found',
    );
    expect((await h.ok({ kind: 'cancel', topic: 't', target: { key: 'nope' } })).result.status).toBe(
      'not-found',
    );
    expect((await h.ok({ kind: 'cancel', topic: 't', target: { id: 999_999n } })).result.status).toBe(
      'not-found',
    );
  });

  it('cancel of a message whose lease ran out removes it; the old tag then acks as expired', async () => {
    const h = await Harness.create();
    const [m] = await h.publish({ topic: 't', payload: text('a') });
    const [l] = await h.leaseAll('t', 'default', 100);
    h.now += 100;
    expect((await h.ok({ kind: 'cancel', topic: 't', target: { id: m!.id } })).result.status).toBe(
      'cancelled',
    );
    expect((await h.ok({ kind: 'ack', tags: [l!.newTag!] })).outcomes[0]!.status).toBe('lease-expired');
    expect(await h.stats('t')).toMatchObject({ pending: 0, inFlight: 0 });
  });

  it('multi-group cancel is all-or-nothing: in flight in one group blocks it everywhere', async () => {
    const h = await Harness.create();
    await h.ok({ kind: 'create-topic', name: 't' });
    await h.ok({ kind: 'create-group', topic: 't', group: 'g2' });
    const [m] = await h.publish({ topic: 't', payload: text('a') });
    const [l] = await h.leaseAll('t', 'g2');
    const r = await h.ok({ kind: 'cancel', topic: 't', target: { id: m!.id } });
    expect(r.result).toMatchObject({
      status: 'in-flight',
      groups: [
        { group: 'default', state: 'pending' },
        { group: 'g2', state: 'in-flight' },
      ],
    });
    expect(await h.stats('t', 'default')).toMatchObject({ pending: 1 });
    await h.ok({ kind: 'ack', tags: [l!.newTag!] });
    const r2 = await h.ok({ kind: 'cancel', topic: 't', target: { id: m!.id } });
    expect(r2.result).toMatchObject({
      status: 'cancelled',
      groups: [
        { group: 'default', state: 'pending' },
        { group: 'g2', state: 'ended' },
      ],
    });
    expect(await h.stats('t', 'default')).toMatchObject({ pending: 0 });
  });

  it('reschedule in each state moves every pending group entry to the new due time', async () => {
    const h = await Harness.create();
    await h.ok({ kind: 'create-topic', name: 't' });
    await h.ok({ kind: 'create-group', topic: 't', group: 'g2' });
    const [m] = await h.publish({ topic: 't', payload: text('a'), key: 'k' });
    const r = await h.ok({ kind: 'reschedule', topic: 't', target: { key: 'k' }, delayMs: 30_000 });
    expect(r.result).toMatchObject({ status: 'rescheduled', id: m!.id, dueAtMs: T0 + 30_000 });
    expect(await h.due('t', 'default')).toEqual([]);
    expect(await h.sm.reader.nextDueMs(h.sm.reader.queueHash('t', 'g2'))).toBe(T0 + 30_000);
    const r2 = await h.ok({ kind: 'reschedule', topic: 't', target: { id: m!.id }, deliverAtMs: T0 - 5 });
    expect(r2.result).toMatchObject({ status: 'rescheduled', dueAtMs: T0 });
    const [l] = await h.leaseAll('t', 'default');
    expect(
      (await h.ok({ kind: 'reschedule', topic: 't', target: { id: m!.id }, delayMs: 1 })).result.status,
    ).toBe('in-flight');
    await h.ok({ kind: 'ack', tags: [l!.newTag!] });
    await h.ok({ kind: 'cancel', topic: 't', target: { id: m!.id } });
    expect(
      (await h.ok({ kind: 'reschedule', topic: 't', target: { key: 'k' }, delayMs: 1 })).result.status,
    ).toBe('already-done');
    expect(
      (await h.ok({ kind: 'reschedule', topic: 't', target: { id: 424242n }, delayMs: 1 })).result.status,
    ).toBe('not-found');
  });

  it('getMessage reports the state of each group', async () => {
    const h = await Harness.create();
    await h.ok({ kind: 'create-topic', name: 't' });
    await h.ok({ kind: 'create-group', topic: 't', group: 'g2' });
    const [m] = await h.publish({ topic: 't', payload: text('a'), key: 'k', ttlMs: 60_000 });
    await h.leaseAll('t', 'g2', 1_000);
    const v = await h.sm.reader.getMessage('t', { key: 'k' }, h.now);
    expect(v?.message).toMatchObject({ id: m!.id, key: 'k', expireAtMs: T0 + 60_000, enqueuedAtMs: T0 });
    expect(v?.groups.map((g) => [g.group, g.state, g.attempt])).toEqual([
      ['default', 'pending', 0],
      ['g2', 'in-flight', 1],
    ]);
    expect(await h.sm.reader.getMessage('other', { key: 'k' }, h.now)).toBeUndefined();
  });
});

describe('expiry', () => {
  it('TTL: the janitor finds the message in the expiry index and Expire removes it from every group', async () => {
    const h = await Harness.create();
    await h.ok({ kind: 'create-topic', name: 't' });
    await h.ok({ kind: 'create-group', topic: 't', group: 'g2' });
    const [m, keep] = await h.publish(
      { topic: 't', payload: text('a'), ttlMs: 1_000, delayMs: 5_000 },
      { topic: 't', payload: text('b') },
    );
    const [l] = await h.leaseAll('t', 'g2');
    expect(await h.sm.reader.dueExpiries(T0 + 999, 10)).toEqual([]);
    h.now = T0 + 1_000;
    // A message of two groups: its expiry record names no entry (it has two).
    expect(await h.sm.reader.dueExpiries(h.now, 10)).toEqual([
      { id: m!.id, expireAtMs: T0 + 1_000, key: new Uint8Array(0) },
    ]);
    // Not yet due at the proposer's stamp: nothing happens.
    const early = await h.ok({ kind: 'expire', ids: [m!.id], nowMs: T0 + 999 });
    expect(early.outcomes).toEqual([{ id: m!.id, status: 'not-due' }]);
    const r = await h.ok({ kind: 'expire', ids: [m!.id, keep!.id] });
    expect(r.outcomes).toEqual([
      { id: m!.id, status: 'expired' },
      { id: keep!.id, status: 'not-due' },
    ]);
    expect(await h.sm.reader.dueExpiries(h.now, 10)).toEqual([]);
    expect(await h.sm.reader.getMessage('t', { id: m!.id }, h.now)).toBeUndefined();
    expect(await h.stats('t', 'default')).toMatchObject({ pending: 1, inFlight: 0 });
    expect(await h.stats('t', 'g2')).toMatchObject({ pending: 0, inFlight: 1 });
    // The g2 lease was on the other message (the expired one was not due yet) and still acks.
    expect(l!.id).toBe(keep!.id);
    expect((await h.ok({ kind: 'ack', tags: [l!.newTag!] })).outcomes[0]!.status).toBe('ok');
  });

  it('an in-flight message expires too; its delivery tag then acks as lease-expired', async () => {
    const h = await Harness.create();
    const [m] = await h.publish({ topic: 't', payload: text('a'), ttlMs: 100 });
    const [l] = await h.leaseAll('t', 'default', 60_000);
    h.now += 100;
    expect((await h.ok({ kind: 'expire', ids: [m!.id] })).outcomes).toEqual([
      { id: m!.id, status: 'expired' },
    ]);
    expect((await h.ok({ kind: 'ack', tags: [l!.newTag!] })).outcomes[0]!.status).toBe('lease-expired');
    expect(await h.stats('t')).toMatchObject({ pending: 0, inFlight: 0, deadLettered: 0 });
    expect((await h.ok({ kind: 'expire', ids: [m!.id] })).outcomes).toEqual([{ id: m!.id, status: 'gone' }]);
  });

  it('TTL with expiry action dead-letter moves every group entry to the DLQ', async () => {
    const h = await Harness.create();
    await h.ok({ kind: 'create-topic', name: 't', settings: { expiryAction: 'dead-letter' } });
    const [m] = await h.publish({ topic: 't', payload: text('a'), ttlMs: 10, delayMs: 1_000 });
    h.now += 10;
    const r = await h.ok({ kind: 'expire', ids: [m!.id] });
    expect(r.outcomes[0]!.status).toBe('dead-lettered');
    const [d] = await h.due('t.dlq');
    const [body] = await h.sm.reader.getBodies([d!.id]);
    expect(body?.deadLetter).toMatchObject({ reason: 'expired', sourceId: m!.id, attempts: 0 });
    expect(await h.stats('t')).toMatchObject({ pending: 0, deadLettered: 1 });
  });
});

describe('topics and groups', () => {
  it('create, update, delete a topic; delete removes everything it held', async () => {
    const h = await Harness.create();
    const c = await h.ok({ kind: 'create-topic', name: 't', settings: { maxAttempts: 3 } });
    expect(c.topic.settings).toMatchObject({ maxAttempts: 3, defaultLeaseMs: 30_000, expiryAction: 'drop' });
    expect((await h.run({ kind: 'create-topic', name: 't' })).kind).toBe('error');
    const u = await h.ok({ kind: 'update-topic', name: 't', settings: { defaultLeaseMs: 5_000 } });
    expect(u.topic.settings).toMatchObject({ maxAttempts: 3, defaultLeaseMs: 5_000 });
    const u2 = await h.ok({
      kind: 'update-topic',
      name: 't',
      settings: { dedupWindowMs: 0 },
      updateMask: ['dedup_window_ms'],
    });
    expect(u2.topic.settings.dedupWindowMs).toBe(0);
    const empty = await h.digest();
    await h.ok({ kind: 'create-group', topic: 't', group: 'g' });
    await h.publish(
      { topic: 't', payload: text('a'), key: 'k', ttlMs: 100 },
      { topic: 't', payload: text('b') },
      { topic: 'other', payload: text('c') },
    );
    expect(await h.deleteTopic('t')).toBe(2);
    expect(await h.sm.reader.getTopic('t')).toBeUndefined();
    expect(await h.sm.reader.dueExpiries(h.now + 1_000, 10)).toEqual([]);
    expect((await h.sm.reader.listQueues()).map((q) => q.topic)).toEqual(['other']);
    // Re-creating the topic starts clean: the old key is free.
    const [again] = await h.publish({ topic: 't', payload: text('x'), key: 'k' });
    expect(again!.deduplicated).toBe(false);
    expect(empty).not.toBe(await h.digest());
  });

  it('time_bucket_ms cannot change while the topic holds entries', async () => {
    const h = await Harness.create();
    await h.publish({ topic: 't', payload: text('a') });
    const r = await h.run({ kind: 'update-topic', name: 't', settings: { timeBucketMs: 1_000 } });
    expect(r.kind === 'error' && r.error.message).toMatch(/time_bucket_ms/);
  });

  it('time buckets: entries are keyed by bucket but delivered by exact due time', async () => {
    const h = await Harness.create();
    await h.ok({ kind: 'create-topic', name: 'b', settings: { timeBucketMs: 1_000 } });
    const r = await h.publish(
      { topic: 'b', payload: text('late'), deliverAtMs: T0 + 900 },
      { topic: 'b', payload: text('early'), deliverAtMs: T0 + 100 },
    );
    h.now = T0 + 500;
    expect((await h.due('b')).map((d) => d.id)).toEqual([r[1]!.id]);
    expect(await h.sm.reader.nextDueMs(h.sm.reader.queueHash('b'))).toBe(T0 + 100);
    const [l] = await h.leaseAll('b');
    expect(l!.status).toBe('leased');
    expect(await h.sm.reader.nextDueMs(h.sm.reader.queueHash('b'))).toBe(T0 + 900);
  });

  it('delete group removes its entries and ends messages no other group holds', async () => {
    const h = await Harness.create();
    await h.ok({ kind: 'create-topic', name: 't' });
    await h.ok({ kind: 'create-group', topic: 't', group: 'g' });
    const [m] = await h.publish({ topic: 't', payload: text('a') });
    const [l] = await h.leaseAll('t', 'default');
    await h.ok({ kind: 'ack', tags: [l!.newTag!] });
    expect((await h.sm.reader.getBodies([m!.id]))[0]).toBeDefined();
    expect(await h.deleteGroup('t', 'g')).toBe(1);
    expect((await h.sm.reader.getBodies([m!.id]))[0]).toBeUndefined();
    expect((await h.sm.reader.getTopic('t'))!.groups).toEqual(['default']);
    const r = await h.run({ kind: 'delete-group', topic: 't', group: 'default' });
    expect(r.kind).toBe('error');
  });

  it('two queue names with the same hash are detected and rejected, never merged', async () => {
    const real = await (await import('../src/keys.js')).createQueueHasher();
    const hasher = (name: string) => (name === 'beta' || name === 'alpha' ? 42n : real(name));
    const h = await Harness.create({ hasher });
    await h.ok({ kind: 'create-topic', name: 'alpha' });
    await h.publish({ topic: 'alpha', payload: text('a') });
    const before = await h.digest();
    const c = await h.run({ kind: 'create-topic', name: 'beta' });
    expect(c).toMatchObject({
      kind: 'error',
      error: { name: 'ConflictError', reason: 'queue-hash-collision' },
    });
    const p = await h.run({ kind: 'publish', messages: [{ topic: 'beta', payload: text('b') }] });
    expect(p).toMatchObject({ kind: 'error', error: { reason: 'queue-hash-collision' } });
    expect((await h.due('alpha')).length).toBe(1);
    expect(await h.sm.reader.getTopic('beta')).toBeUndefined();
    expect(before).not.toBe('');
  });

  it('listMessages pages through a queue by due time', async () => {
    const h = await Harness.create();
    const ids = await h.publish(
      ...Array.from({ length: 7 }, (_, i) => ({
        topic: 't',
        payload: text(`m${i}`),
        delayMs: (7 - i) * 100,
      })),
    );
    const seen: bigint[] = [];
    let token: Uint8Array | undefined;
    let pages = 0;
    do {
      const page = await h.sm.reader.listMessages(
        't',
        { limit: 3, ...(token ? { pageToken: token } : {}) },
        h.now,
      );
      seen.push(...page.items.map((i) => i.entry.id));
      expect(page.items.every((i) => i.message !== undefined)).toBe(true);
      token = page.nextPageToken;
      pages++;
    } while (token);
    expect(pages).toBe(3);
    expect(seen).toEqual(ids.map((r) => r.id).reverse());
    const ranged = await h.sm.reader.listMessages('t', { fromDueMs: T0 + 200, toDueMs: T0 + 400 }, h.now);
    expect(ranged.items.map((i) => i.entry.dueAtMs)).toEqual([T0 + 200, T0 + 300]);
  });

  it('listMessages refuses a page token of another queue and honours time buckets at the edges', async () => {
    const h = await Harness.create();
    await h.ok({ kind: 'create-topic', name: 'b', settings: { timeBucketMs: 1_000 } });
    await h.publish(
      { topic: 'b', payload: text('1'), deliverAtMs: T0 + 100 },
      { topic: 'b', payload: text('2'), deliverAtMs: T0 + 900 },
      { topic: 'b', payload: text('3'), deliverAtMs: T0 + 1_500 },
      { topic: 'other', payload: text('x') },
    );
    const page = await h.sm.reader.listMessages('b', { fromDueMs: T0 + 500, toDueMs: T0 + 1_500 }, h.now);
    expect(page.items.map((i) => i.entry.dueAtMs)).toEqual([T0 + 900]);
    const [foreign] = await h.due('other');
    await expect(h.sm.reader.listMessages('b', { pageToken: foreign!.tag }, h.now)).rejects.toThrow(
      /page_token/,
    );
    await expect(h.sm.reader.listMessages('nope', {}, h.now)).rejects.toThrow(/not found/);
    await expect(h.sm.reader.listMessages('b', { group: 'nope' }, h.now)).rejects.toThrow(/not found/);
  });

  it('topic stats and queue list come from the exact counters', async () => {
    const h = await Harness.create();
    await h.ok({ kind: 'create-topic', name: 't', settings: { maxAttempts: 1 } });
    await h.publish({ topic: 't', payload: text('a') }, { topic: 't', payload: text('b'), delayMs: 10 });
    await h.leaseAll('t', 'default', 5);
    h.now += 10;
    await h.leaseAll('t', 'default', 5);
    const s = await h.sm.reader.topicStats('t');
    expect(s.groups).toEqual([
      {
        topic: 't',
        group: 'default',
        pending: 0,
        inFlight: 1,
        deadLettered: 1,
        nextDueMs: T0 + 15,
        settings: { maxDeliveriesPerSecond: 0, burst: 0, maxInFlight: 0, ordering: 'none', paused: false },
      },
    ]);
    const queues = await h.sm.reader.listQueues();
    expect(queues.map((q) => `${q.topic}/${q.group}`).sort()).toEqual(['t.dlq/default', 't/default']);
  });
});
