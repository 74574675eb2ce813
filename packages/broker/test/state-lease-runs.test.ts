import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type KVStore, openStore } from '@fermata/storage';
import { afterEach, describe, expect, it } from 'vitest';
import { KEY_BYTES, RUN_TAG_BYTES, runTagParts, TAG_BYTES } from '../src/keys.js';
import { decodeCommand, encodeCommand } from '../src/state/commands/commands.js';
import type { LeaseOutcome } from '../src/state/commands/results.js';
import { validateCommand } from '../src/state/commands/validate-command.js';
import { countWrites, heldKeysForTest, integrityProblems, NS } from './state-determinism-support.js';
import { Harness, T0, text } from './state-harness.js';

function tagOf(l: LeaseOutcome | undefined): Uint8Array {
  if (l?.status !== 'leased' || !l.newTag) throw new Error(`expected a lease, got ${l?.status}`);
  return l.newTag;
}

const statuses = (r: { outcomes: readonly { status: string }[] }) => r.outcomes.map((o) => o.status);

const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

async function leveldb(path?: string): Promise<{ store: KVStore; path: string }> {
  const dir = path ?? (await mkdtemp(join(tmpdir(), 'fermata-runs-')));
  if (!path) dirs.push(dir);
  return { store: await openStore({ engine: 'leveldb', path: dir }), path: dir };
}

/** Leases what is due in `topic` within 2 s, ahead of its due time (as the leader does). */
async function leaseAhead(h: Harness, topic: string, leaseMs: number): Promise<readonly LeaseOutcome[]> {
  const due = await h.sm.reader.scanDue(h.sm.reader.queueHash(topic), 0, h.now, h.now + 2_000, 10);
  const tags = due.entries.map((e) => e.tag);
  return (await h.ok({ kind: 'lease', topic, group: 'default', tags, leaseMs, aheadMs: 2_000 })).outcomes;
}

/** Counts the reads of queue entries that reach the store (get and getMany), by key. */
function countEntryReads(store: KVStore): { take(): number } {
  let n = 0;
  const isEntry = (k: Uint8Array) => k[0] === NS.queue.prefix;
  const get = store.get.bind(store);
  store.get = (key) => {
    if (isEntry(key)) n++;
    return get(key);
  };
  const getMany = store.getMany?.bind(store);
  if (getMany) {
    store.getMany = (keys) => {
      n += keys.filter(isEntry).length;
      return getMany(keys);
    };
  }
  return {
    take() {
      const out = n;
      n = 0;
      return out;
    },
  };
}

/** The bytes of every lease settles record in the store, together. */
async function settlesBytes(store: KVStore): Promise<number> {
  let bytes = 0;
  await store.scan(NS.leaseSettles.range(), (_k, v) => {
    bytes += v.length;
  });
  return bytes;
}

async function runsHarness(options: Parameters<typeof Harness.create>[0] = {}): Promise<Harness> {
  const h = await Harness.create(options);
  h.leaseRuns = true;
  return h;
}

describe('a lease per run', () => {
  it('a lease of 100 entries writes one record and no entry; their acks delete the entries unread, rewrite a few bytes of settles, then delete both records', async () => {
    const { store } = await leveldb();
    const writes = countWrites(store);
    const entryReads = countEntryReads(store);
    // No record cache: every read of an entry reaches the store, where it is counted.
    const h = await runsHarness({ store, cacheEntries: 0 });
    await h.ok({ kind: 'create-topic', name: 't' });
    const n = 100;
    await h.publish(...Array.from({ length: n }, (_, i) => ({ topic: 't', payload: text(`m${i}`) })));
    writes.take();
    const leases = await h.leaseAll('t', 'default', 60_000);
    expect(leases.filter((l) => l.status === 'leased')).toHaveLength(n);
    expect(leases.every((l) => l.newTag?.length === RUN_TAG_BYTES)).toBe(true);
    // The run's record (and the queue's counters and due-load buckets, one per level): no entry is written.
    expect(writes.take()).toEqual({ leases: 1, queues: 1, 'due-load': 4 });
    expect(await h.stats('t')).toMatchObject({ pending: 0, inFlight: n });
    const half = leases.slice(0, n / 2).map(tagOf);
    entryReads.take();
    expect(statuses(await h.ok({ kind: 'ack', tags: half })).every((s) => s === 'ok')).toBe(true);
    // Each entry is all its message has (one group, no key, no expiry, body inline): deleted unread.
    expect(entryReads.take()).toBe(0);
    // The run's settles written once for the command (its record is not), an entry deleted per message.
    expect(writes.take()).toEqual({ queue: n / 2, 'lease-settles': 1, queues: 1 });
    expect(await settlesBytes(store)).toBeLessThanOrEqual(2 + Math.ceil(n / 8));
    expect(statuses(await h.ok({ kind: 'ack', tags: leases.slice(n / 2).map(tagOf) }))).toEqual(
      Array(n / 2).fill('ok'),
    );
    // The last open offset settled: the record and its settles are deleted.
    expect(writes.take()).toEqual({ queue: n / 2, leases: 1, 'lease-settles': 1, queues: 1 });
    expect((await heldKeysForTest(store)).size).toBe(0);
    expect(h.sm.leases.openOffsets).toBe(0);
    expect(await h.stats('t')).toMatchObject({ pending: 0, inFlight: 0 });
    // A tag acked twice settles nothing the second time.
    expect(statuses(await h.ok({ kind: 'ack', tags: [tagOf(leases[0])] }))).toEqual(['lease-expired']);
    expect(await integrityProblems(store, h.hasher)).toEqual([]);
    await store.close();
  });

  it('attempts and history stay exact: a lapsed offset is counted into its entry when it is leased again', async () => {
    const h = await runsHarness();
    const [m] = await h.publish({ topic: 't', payload: text('a') });
    const [first] = await h.leaseAll('t', 'default', 1_000);
    expect(first).toMatchObject({
      status: 'leased',
      attempt: 1,
      startsAtMs: T0,
      leaseExpiresAtMs: T0 + 1_000,
    });
    const view = await h.sm.reader.getMessage('t', { id: m!.id }, h.now);
    expect(view?.groups[0]).toMatchObject({ state: 'in-flight', attempt: 1, dueAtMs: T0 + 1_000 });
    expect(Buffer.from(view!.groups[0]!.tag!).equals(Buffer.from(tagOf(first)))).toBe(true);
    // Not due again while it runs.
    expect(
      (await h.ok({ kind: 'lease', topic: 't', group: 'default', tags: [first!.tag], leaseMs: 1_000 }))
        .outcomes,
    ).toEqual([{ tag: first!.tag, status: 'not-due', id: m!.id }]);
    h.now = T0 + 1_000;
    // Lapsed: it reads as pending, its attempt counted.
    expect((await h.sm.reader.getMessage('t', { id: m!.id }, h.now))?.groups[0]).toMatchObject({
      state: 'pending',
      attempt: 1,
    });
    const [second] = await h.leaseAll('t', 'default', 1_000);
    expect(second).toMatchObject({ status: 'leased', attempt: 2, startsAtMs: T0 + 1_000 });
    expect(statuses(await h.ok({ kind: 'ack', tags: [tagOf(first)] }))).toEqual(['lease-expired']);
    const page = await h.sm.reader.listMessages('t', {}, h.now);
    expect(page.items[0]).toMatchObject({ state: 'in-flight', dueAtMs: T0 + 2_000 });
    expect(page.items[0]!.entry.deliveredAtMs).toEqual([T0, T0 + 1_000]);
    expect(statuses(await h.ok({ kind: 'ack', tags: [tagOf(second)] }))).toEqual(['ok']);
    expect(await h.stats('t')).toMatchObject({ pending: 0, inFlight: 0 });
    expect(await integrityProblems(h.store, h.hasher)).toEqual([]);
  });

  it('nack counts the lease and writes the entry back; extend keeps the tag; a hand-back before the start counts nothing', async () => {
    const h = await runsHarness();
    await h.ok({ kind: 'create-topic', name: 't', settings: { maxAttempts: 5 } });
    const [a, b, c] = await h.publish(
      { topic: 't', payload: text('a') },
      { topic: 't', payload: text('b') },
      { topic: 't', payload: text('c'), delayMs: 1_000 },
    );
    const leases = await leaseAhead(h, 't', 500);
    expect(leases.map((l) => [l.id, l.status, l.startsAtMs])).toEqual([
      [a!.id, 'leased', T0],
      [b!.id, 'leased', T0],
      [c!.id, 'leased', T0 + 1_000],
    ]);
    const nacked = await h.ok({ kind: 'nack', tag: tagOf(leases[0]), delayMs: 100, error: 'boom' });
    expect(nacked.outcome).toMatchObject({ status: 'ok', dueAtMs: T0 + 100 });
    expect((await h.sm.reader.getMessage('t', { id: a!.id }, h.now))?.groups[0]).toMatchObject({
      state: 'pending',
      attempt: 1,
      dueAtMs: T0 + 100,
    });
    const extended = await h.ok({ kind: 'extend', tag: tagOf(leases[1]), leaseMs: 5_000 });
    expect(extended.outcome).toMatchObject({ status: 'ok', dueAtMs: T0 + 5_000 });
    expect(Buffer.from(extended.outcome.newTag!).equals(Buffer.from(tagOf(leases[1])))).toBe(true);
    // The lease taken ahead: not acked before it starts; handed back, its entry untouched.
    expect(statuses(await h.ok({ kind: 'ack', tags: [tagOf(leases[2])] }))).toEqual(['lease-expired']);
    const back = await h.ok({ kind: 'nack', tag: tagOf(leases[2]), delayMs: 0 });
    expect(back.outcome).toMatchObject({ status: 'ok', dueAtMs: T0 + 1_000 });
    expect((await h.sm.reader.getMessage('t', { id: c!.id }, h.now))?.groups[0]).toMatchObject({
      state: 'pending',
      attempt: 0,
      dueAtMs: T0 + 1_000,
    });
    h.now = T0 + 1_000;
    // Past the first end, the extended offset still runs and acks.
    expect(statuses(await h.ok({ kind: 'ack', tags: [tagOf(leases[1])] }))).toEqual(['ok']);
    // An uncounted hand-back of a running lease: the attempt is not counted.
    const both = await h.leaseAll('t', 'default', 5_000);
    const again = both.find((l) => l.id === c!.id);
    expect(again).toMatchObject({ status: 'leased', attempt: 1 });
    await h.ok({ kind: 'nack', tag: tagOf(again), delayMs: 0, uncounted: true });
    expect((await h.sm.reader.getMessage('t', { id: c!.id }, h.now))?.groups[0]).toMatchObject({
      attempt: 0,
    });
    // a, nacked once, is leased with its second attempt.
    const aAgain = both.find((l) => l.id === a!.id);
    expect(aAgain).toMatchObject({ status: 'leased', attempt: 2 });
    await h.ok({ kind: 'ack', tags: [tagOf(aAgain)] });
    expect(await h.stats('t')).toMatchObject({ inFlight: 0 });
    expect(h.sm.leases.openOffsets).toBe(0);
    expect(await integrityProblems(h.store, h.hasher)).toEqual([]);
  });

  it('cancel and reschedule answer in-flight while a run holds the message; expiry settles its offset and withdraws a lease not started', async () => {
    const withdrawn: Uint8Array[] = [];
    const h = await runsHarness();
    h.sm.onWithdrawn = (tags) => withdrawn.push(...tags);
    await h.ok({ kind: 'create-topic', name: 't', settings: { expiryAction: 'dead-letter' } });
    const [a, b] = await h.publish(
      { topic: 't', payload: text('a'), ttlMs: 5_000 },
      { topic: 't', payload: text('b'), delayMs: 1_000, ttlMs: 500 },
    );
    const leases = await leaseAhead(h, 't', 2_000);
    expect(statuses({ outcomes: leases })).toEqual(['leased', 'leased']);
    for (const target of [{ id: a!.id }, { id: b!.id }]) {
      expect((await h.ok({ kind: 'cancel', topic: 't', target })).result.status).toBe('in-flight');
      expect((await h.ok({ kind: 'reschedule', topic: 't', target, delayMs: 10 })).result.status).toBe(
        'in-flight',
      );
    }
    h.now = T0 + 500;
    const expired = await h.ok({ kind: 'expire', ids: [b!.id] });
    expect(expired.outcomes).toEqual([{ id: b!.id, status: 'dead-lettered' }]);
    expect(withdrawn.map((t) => Buffer.from(t).toString('hex'))).toEqual([
      Buffer.from(tagOf(leases[1])).toString('hex'),
    ]);
    expect(
      statuses(
        await h
          .ok({ kind: 'nack', tag: tagOf(leases[1]), delayMs: 0 })
          .then((r) => ({ outcomes: [r.outcome] })),
      ),
    ).toEqual(['lease-expired']);
    // The dead letter's history holds the lease it had, as an expired lease in place's does.
    const dlq = await h.sm.reader.listMessages('t.dlq', {}, h.now);
    expect(dlq.items[0]!.message?.deadLetter).toMatchObject({
      sourceId: b!.id,
      attempts: 1,
      deliveredAtMs: [T0 + 1_000],
    });
    // Once a's lease ran out, cancel goes through and its offset is settled.
    h.now = T0 + 2_000;
    expect((await h.ok({ kind: 'cancel', topic: 't', target: { id: a!.id } })).result.status).toBe(
      'cancelled',
    );
    expect(statuses(await h.ok({ kind: 'ack', tags: [tagOf(leases[0])] }))).toEqual(['lease-expired']);
    expect(h.sm.leases.openOffsets).toBe(0);
    expect(await h.stats('t')).toMatchObject({ pending: 0, inFlight: 0 });
    expect(await integrityProblems(h.store, h.hasher)).toEqual([]);
  });

  it('an entry past its attempts is dead-lettered at its next lease with the lapsed lease in its history', async () => {
    const h = await runsHarness();
    await h.ok({ kind: 'create-topic', name: 'x', settings: { maxAttempts: 1 } });
    const [m] = await h.publish({ topic: 'x', payload: text('work') });
    await h.leaseAll('x', 'default', 1_000);
    h.now = T0 + 1_000;
    const [second] = await h.leaseAll('x');
    expect(second).toMatchObject({ status: 'dead-lettered', id: m!.id });
    const dead = await h.sm.reader.getMessage('x.dlq', { id: second!.deadLetterId! }, h.now);
    expect(dead?.message.deadLetter).toMatchObject({
      attempts: 1,
      deliveredAtMs: [T0],
      reason: 'max_attempts',
    });
    expect(h.sm.leases.openOffsets).toBe(0);
    expect(await integrityProblems(h.store, h.hasher)).toEqual([]);
  });

  it('deleting the topic or a group drops the runs that hold its entries', async () => {
    const h = await runsHarness();
    await h.ok({ kind: 'create-topic', name: 't' });
    await h.ok({ kind: 'create-group', topic: 't', group: 'g' });
    await h.publish(...Array.from({ length: 5 }, (_, i) => ({ topic: 't', payload: text(`m${i}`) })));
    await h.leaseAll('t', 'default', 60_000);
    const inG = await h.leaseAll('t', 'g', 60_000);
    expect(h.sm.leases.openOffsets).toBe(10);
    expect(await h.deleteGroup('t', 'g')).toBe(5);
    expect(h.sm.leases.openOffsets).toBe(5);
    expect(statuses(await h.ok({ kind: 'ack', tags: [tagOf(inG[0])] }))).toEqual(['lease-expired']);
    await h.deleteTopic('t');
    expect(h.sm.leases.openOffsets).toBe(0);
    expect((await heldKeysForTest(h.store)).size).toBe(0);
    expect(await integrityProblems(h.store, h.hasher)).toEqual([]);
  });
});

describe('a lease of runs of several queues (one command per dispatch round)', () => {
  it('one command leases the due entries of three queues into a lease record each, writing no entry; one ack settles all their tags', async () => {
    const { store } = await leveldb();
    const writes = countWrites(store);
    const h = await runsHarness({ store });
    const topics = ['a', 'b', 'c'];
    for (const topic of topics) await h.ok({ kind: 'create-topic', name: topic });
    for (const topic of topics)
      await h.publish(...Array.from({ length: 4 }, (_, i) => ({ topic, payload: text(`${topic}${i}`) })));
    writes.take();
    const leased = await h.leaseQueues(
      topics.map((topic) => ({ topic })),
      60_000,
    );
    expect(leased.map((l) => [l.status, l.attempt, l.newTag?.length])).toEqual(
      Array(12).fill(['leased', 1, RUN_TAG_BYTES]),
    );
    // A lease record per run (queue), each queue's counters and due-load buckets: no entry is written.
    expect(writes.take()).toEqual({ leases: 3, queues: 3, 'due-load': 12 });
    const runs = leased.map((l) => runTagParts(tagOf(l))!);
    expect(new Set(runs.map((r) => r.leaseId)).size).toBe(3);
    expect(runs.map((r) => r.offset)).toEqual([0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3]);
    for (const topic of topics) expect(await h.stats(topic)).toMatchObject({ pending: 0, inFlight: 4 });
    // Acks of several leases and queues go in one command: each run's settles written once, and
    // once a run has no open offset, its two records deleted once.
    const half = [0, 1, 4, 5, 8, 9].map((i) => tagOf(leased[i]));
    expect(statuses(await h.ok({ kind: 'ack', tags: half }))).toEqual(Array(6).fill('ok'));
    expect(writes.take()).toEqual({ queue: 6, 'lease-settles': 3, queues: 3 });
    const rest = [2, 3, 6, 7, 10, 11].map((i) => tagOf(leased[i]));
    expect(statuses(await h.ok({ kind: 'ack', tags: rest }))).toEqual(Array(6).fill('ok'));
    expect(writes.take()).toEqual({ queue: 6, leases: 3, 'lease-settles': 3, queues: 3 });
    expect(h.sm.leases.openOffsets).toBe(0);
    expect((await heldKeysForTest(store)).size).toBe(0);
    for (const topic of topics) expect(await h.stats(topic)).toMatchObject({ pending: 0, inFlight: 0 });
    expect(await integrityProblems(store, h.hasher)).toEqual([]);
    await store.close();
  });

  it("a run of a topic or group gone answers gone and refuses nothing else; dead letters take the command's ids in order", async () => {
    const h = await runsHarness();
    await h.ok({ kind: 'create-topic', name: 'x', settings: { maxAttempts: 1 } });
    await h.ok({ kind: 'create-topic', name: 'gone' });
    await h.ok({ kind: 'create-topic', name: 'y', settings: { maxAttempts: 1 } });
    const [mx] = await h.publish({ topic: 'x', payload: text('x') });
    await h.publish({ topic: 'gone', payload: text('g') });
    const [my] = await h.publish({ topic: 'y', payload: text('y') });
    await h.leaseQueues([{ topic: 'x' }, { topic: 'y' }], 1_000);
    h.now = T0 + 1_000;
    const [tx, tg, ty] = await Promise.all(['x', 'gone', 'y'].map((t) => h.due(t)));
    await h.ok({ kind: 'delete-topic', name: 'gone' }); // marked, not yet purged
    const r = await h.run({
      kind: 'lease-runs',
      runs: [
        { topic: 'x', group: 'default', tags: [tx![0]!.tag], leaseMs: 1_000, leaseId: 0n },
        { topic: 'gone', group: 'default', tags: [tg![0]!.tag], leaseMs: 1_000, leaseId: 0n },
        { topic: 'y', group: 'nope', tags: [ty![0]!.tag], leaseMs: 1_000, leaseId: 0n },
        { topic: 'y', group: 'default', tags: [ty![0]!.tag], leaseMs: 1_000, leaseId: 0n },
      ],
    });
    if (r.kind !== 'lease') throw new Error(`expected a lease result, got ${r.kind}`);
    expect(r.outcomes.map((o) => o.status)).toEqual(['dead-lettered', 'gone', 'gone', 'dead-lettered']);
    const [dx, dy] = [r.outcomes[0]!.deadLetterId!, r.outcomes[3]!.deadLetterId!];
    expect(dy).toBe(dx + 1n);
    expect((await h.sm.reader.getMessage('x.dlq', { id: dx }, h.now))?.message.deadLetter).toMatchObject({
      sourceId: mx!.id,
    });
    expect((await h.sm.reader.getMessage('y.dlq', { id: dy }, h.now))?.message.deadLetter).toMatchObject({
      sourceId: my!.id,
    });
    await h.purge('gone');
    expect(h.sm.leases.openOffsets).toBe(0);
    expect(await integrityProblems(h.store, h.hasher)).toEqual([]);
  });

  it('the same key in two runs of one command is leased once: the second run finds it held', async () => {
    const h = await runsHarness();
    const [m] = await h.publish({ topic: 't', payload: text('a') });
    const [due] = await h.due('t');
    const r = await h.run({
      kind: 'lease-runs',
      runs: [0, 1].map(() => ({
        topic: 't',
        group: 'default',
        tags: [due!.tag],
        leaseMs: 1_000,
        leaseId: 0n,
      })),
    });
    if (r.kind !== 'lease') throw new Error(`expected a lease result, got ${r.kind}`);
    expect(r.outcomes.map((o) => [o.status, o.id])).toEqual([
      ['leased', m!.id],
      ['not-due', m!.id],
    ]);
    expect(h.sm.leases.openOffsets).toBe(1);
    expect(await integrityProblems(h.store, h.hasher)).toEqual([]);
  });

  it('a lease of runs is refused whole for its shape, naming the field or limit', async () => {
    const h = await runsHarness({ limits: { maxTagsPerCommand: 3 } });
    await h.publish(...Array.from({ length: 4 }, (_, i) => ({ topic: 't', payload: text(`m${i}`) })));
    const tags = (await h.due('t')).map((d) => d.tag);
    const run = (n: number, leaseId = 0n) => ({
      topic: 't',
      group: 'default',
      tags: tags.slice(0, n),
      leaseMs: 1_000,
      leaseId,
    });
    const refused = async (cmd: Parameters<Harness['run']>[0]) => {
      const r = await h.run(cmd);
      if (r.kind !== 'error') throw new Error(`expected a refusal, got ${r.kind}`);
      return { name: r.error.name, message: r.error.message };
    };
    // No run: the leader refuses it before proposing; on the wire it is a lease of no topic.
    expect(() =>
      validateCommand({ kind: 'lease-runs', nowMs: T0, firstId: 1n, idCount: 0, runs: [] }, T0, h.sm.limits),
    ).toThrow(/runs: names no run/);
    expect((await refused({ kind: 'lease-runs', runs: [] })).message).toMatch(/topic/);
    expect((await refused({ kind: 'lease-runs', runs: [run(2), run(2)] })).message).toMatch(
      /maxTagsPerCommand/,
    );
    expect((await refused({ kind: 'lease-runs', runs: [run(1), run(0)] })).message).toMatch(
      /runs\[1\]\.tags/,
    );
    // Lease ids must rise from run to run, above the dead-letter ids.
    expect((await refused({ kind: 'lease-runs', runs: [run(1, 10_000n), run(1, 9_999n)] })).message).toMatch(
      /runs\[1\]\.lease_id/,
    );
    expect(h.sm.leases.openOffsets).toBe(0);
    expect(await h.stats('t')).toMatchObject({ pending: 4, inFlight: 0 });
    // A lease command that names runs and tags of its own is no command a leader makes.
    const both = encodeCommand({
      kind: 'lease-runs',
      nowMs: T0,
      firstId: 1n,
      idCount: 0,
      runs: [run(1, 1_000n)],
    });
    const own = encodeCommand({
      kind: 'lease',
      nowMs: T0,
      topic: 't',
      group: 'default',
      tags: [tags[0]!],
      leaseMs: 1_000,
      firstId: 1n,
      idCount: 0,
    });
    // Command.lease (field 11) of each, the second merged into the first: runs and tags together.
    const merged = new Uint8Array([...both, ...own]);
    expect(() => decodeCommand(merged)).toThrow(/runs/);
  });
});

describe('run leases across restarts, snapshots and earlier leases', () => {
  it('a node restarted on its LevelDB files, and a store restored from a snapshot, rebuild the runs: their tags settle', async () => {
    const { store, path } = await leveldb();
    const h = await runsHarness({ store });
    await h.publish(...Array.from({ length: 4 }, (_, i) => ({ topic: 't', payload: text(`m${i}`) })));
    const leases = await h.leaseAll('t', 'default', 60_000);
    await h.ok({ kind: 'ack', tags: [tagOf(leases[0])] });
    const snap = await h.sm.snapshot();
    const target = await leveldb();
    const restored = await Harness.create({ store: target.store, hasher: h.hasher });
    expect(await restored.sm.restore(snap.chunks)).toBe(h.sm.appliedIndex());
    restored.index = restored.sm.appliedIndex();
    await restored.lead(2);
    await h.sm.flush();
    await store.close();
    const reopened = await leveldb(path);
    const after = await Harness.create({ store: reopened.store });
    for (const node of [after, restored]) {
      expect(node.sm.leases.openOffsets).toBe(3);
      const view = await node.sm.reader.getMessage('t', { id: leases[1]!.id! }, node.now);
      expect(view?.groups[0]).toMatchObject({ state: 'in-flight', attempt: 1 });
      expect(statuses(await node.ok({ kind: 'ack', tags: leases.map(tagOf) }))).toEqual([
        'lease-expired',
        'ok',
        'ok',
        'ok',
      ]);
      expect(node.sm.leases.openOffsets).toBe(0);
      expect(await integrityProblems(node.store, node.hasher)).toEqual([]);
    }
    await Promise.all([reopened.store.close(), target.store.close()]);
  });

  it("a node restarted on a store of the previous version's records (body records, leases in place) settles their tags, then writes runs and inline bodies", async () => {
    const { store, path } = await leveldb();
    // The previous version's leader: body records, leases in place (28-byte tags).
    const before = await Harness.create({ store });
    before.inlineBodies = false;
    const old = await before.publish(
      { topic: 't', payload: text('acked') },
      { topic: 't', payload: text('lapses') },
      { topic: 't', payload: text('pending'), delayMs: 5_000 },
    );
    const oldLeases = await before.leaseAll('t', 'default', 1_000);
    expect(oldLeases.map((l) => tagOf(l).length)).toEqual([TAG_BYTES, TAG_BYTES]);
    await before.sm.flush();
    await store.close();

    // This version on those LevelDB files, its leader leasing runs.
    const reopened = await leveldb(path);
    const h = await runsHarness({ store: reopened.store });
    h.now = T0 + 500;
    expect(statuses(await h.ok({ kind: 'ack', tags: [tagOf(oldLeases[0])] }))).toEqual(['ok']);
    const [fresh] = await h.publish({ topic: 't', payload: text('new') });
    h.now = T0 + 1_000;
    // The lapsed lease in place and the new message go into one run; the lapsed one's second attempt.
    const run = await h.leaseAll('t', 'default', 1_000);
    expect(run.map((l) => [l.id, l.attempt, l.newTag?.length])).toEqual([
      [old[1]!.id, 2, RUN_TAG_BYTES],
      [fresh!.id, 1, RUN_TAG_BYTES],
    ]);
    expect(statuses(await h.ok({ kind: 'ack', tags: [tagOf(oldLeases[1]), ...run.map(tagOf)] }))).toEqual([
      'lease-expired',
      'ok',
      'ok',
    ]);
    const pending = await h.sm.reader.getMessage('t', { id: old[2]!.id }, h.now);
    expect(new TextDecoder().decode(pending!.message.payload)).toBe('pending');
    expect(await h.stats('t')).toMatchObject({ pending: 1, inFlight: 0 });
    expect(h.sm.leases.openOffsets).toBe(0);
    expect(await integrityProblems(reopened.store, h.hasher)).toEqual([]);
    await reopened.store.close();
  });

  it('leases in place and moved leases of earlier versions settle; lapsed, their entries are leased into runs with the attempt counted once', async () => {
    const h = await Harness.create();
    await h.publish(
      { topic: 't', payload: text('in-place') },
      { topic: 't', payload: text('moved') },
      { topic: 't', payload: text('acked') },
    );
    const [inPlace] = await h
      .ok({
        kind: 'lease',
        topic: 't',
        group: 'default',
        tags: [(await h.due('t'))[0]!.tag],
        leaseMs: 1_000,
        inPlace: true,
      })
      .then((r) => r.outcomes);
    h.leaseInPlace = false;
    const rest = await h.leaseAll('t', 'default', 1_000);
    expect([tagOf(inPlace).length, ...rest.map((l) => tagOf(l).length)]).toEqual([
      TAG_BYTES,
      KEY_BYTES,
      KEY_BYTES,
    ]);
    h.leaseRuns = true;
    expect(statuses(await h.ok({ kind: 'ack', tags: [tagOf(rest[1])] }))).toEqual(['ok']);
    h.now = T0 + 1_000;
    const runs = await h.leaseAll('t', 'default', 1_000);
    expect(runs.map((l) => [l.status, l.attempt, l.newTag?.length])).toEqual([
      ['leased', 2, RUN_TAG_BYTES],
      ['leased', 2, RUN_TAG_BYTES],
    ]);
    expect(await h.stats('t')).toMatchObject({ pending: 0, inFlight: 2 });
    // The earlier tags settle nothing now.
    expect(statuses(await h.ok({ kind: 'ack', tags: [tagOf(inPlace), tagOf(rest[0])] }))).toEqual([
      'lease-expired',
      'lease-expired',
    ]);
    // Back to leases in place (the setting off again): a lapsed run's entry is counted, then leased in place.
    h.leaseRuns = false;
    h.leaseInPlace = true;
    h.now = T0 + 2_000;
    const inPlaceAgain = await h.leaseAll('t', 'default', 1_000);
    expect(inPlaceAgain.map((l) => [l.status, l.attempt, l.newTag?.length])).toEqual([
      ['leased', 3, TAG_BYTES],
      ['leased', 3, TAG_BYTES],
    ]);
    expect(h.sm.leases.openOffsets).toBe(0);
    expect(statuses(await h.ok({ kind: 'ack', tags: inPlaceAgain.map(tagOf) }))).toEqual(['ok', 'ok']);
    expect(await h.stats('t')).toMatchObject({ pending: 0, inFlight: 0 });
    expect(await integrityProblems(h.store, h.hasher)).toEqual([]);
  });
});
