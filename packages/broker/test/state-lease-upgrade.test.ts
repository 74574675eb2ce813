import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '@fermata/storage';
import { afterEach, describe, expect, it } from 'vitest';
import { KEY_BYTES, RUN_TAG_BYTES, TAG_BYTES } from '../src/keys.js';
import type { LeaseOutcome } from '../src/state/commands/results.js';
import { integrityProblems } from './state-determinism-support.js';
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

describe('leases written by a version that moved entries', () => {
  it('a node restarted on their store settles their 24-byte tags, leases them in place once they lapse, and refuses the old tags then', async () => {
    const path = await mkdtemp(join(tmpdir(), 'fermata-upgrade-'));
    dirs.push(path);
    // The previous version's leader: its lease commands carry no `in_place` (the bytes it wrote).
    const before = await Harness.create({ store: await openStore({ engine: 'leveldb', path }) });
    before.leaseInPlace = false;
    const ids = await before.publish(
      { topic: 't', payload: text('acked') },
      { topic: 't', payload: text('extended') },
      { topic: 't', payload: text('lapses') },
      { topic: 't', payload: text('keyed'), key: 'k-1' },
    );
    const old = await before.leaseAll('t', 'default', 1_000);
    expect(old.map((l) => tagOf(l).length)).toEqual([KEY_BYTES, KEY_BYTES, KEY_BYTES, KEY_BYTES]);
    const applied = before.index;
    await before.sm.flush();
    await before.store.close();

    // This version, restarted on those LevelDB files.
    const store = await openStore({ engine: 'leveldb', path });
    const after = await Harness.create({ store }); // leads again: one no-op applied
    expect(after.index).toBe(applied + 1);
    after.now = T0 + 500;
    expect(await after.stats('t')).toMatchObject({ pending: 0, inFlight: 4 });
    expect(statuses(await after.ok({ kind: 'ack', tags: [tagOf(old[0]), tagOf(old[3])] }))).toEqual([
      'ok',
      'ok',
    ]);
    // Extending a moved lease moves it again, under a new 24-byte tag; the old one is then stale.
    const extended = await after.ok({ kind: 'extend', tag: tagOf(old[1]), leaseMs: 10_000 });
    expect(extended.outcome).toMatchObject({ status: 'ok', dueAtMs: T0 + 10_500 });
    expect(extended.outcome.newTag!.length).toBe(KEY_BYTES);
    expect(statuses(await after.ok({ kind: 'ack', tags: [tagOf(old[1])] }))).toEqual(['lease-expired']);

    // The third lapses and is leased again, in place: attempt 2, a 28-byte tag; its old tag settles nothing.
    after.now = T0 + 1_000;
    const again = await after.leaseAll('t', 'default', 5_000);
    expect(again).toMatchObject([{ status: 'leased', id: ids[2]!.id, attempt: 2 }]);
    expect(tagOf(again[0]).length).toBe(TAG_BYTES);
    expect(statuses(await after.ok({ kind: 'ack', tags: [tagOf(old[2])] }))).toEqual(['lease-expired']);
    const view = await after.sm.reader.getMessage('t', { id: ids[2]!.id }, after.now);
    expect(view?.groups[0]).toMatchObject({ state: 'in-flight', attempt: 2, dueAtMs: T0 + 6_000 });
    expect(Buffer.from(view!.groups[0]!.tag!).equals(Buffer.from(tagOf(again[0])))).toBe(true);

    expect(
      statuses(await after.ok({ kind: 'ack', tags: [tagOf(again[0]), extended.outcome.newTag!] })),
    ).toEqual(['ok', 'ok']);
    expect(await after.stats('t')).toMatchObject({ pending: 0, inFlight: 0 });
    expect(await integrityProblems(store, after.hasher)).toEqual([]);
    await store.close();
  });

  it('the same commands applied with and without the restart end in the same store', async () => {
    const run = async (restart: boolean) => {
      const store = await openStore({ engine: 'memory' });
      let h = await Harness.create({ store });
      h.leaseInPlace = false;
      await h.publish({ topic: 't', payload: text('a') }, { topic: 't', payload: text('b') });
      const old = await h.leaseAll('t', 'default', 1_000);
      if (restart) {
        const index = h.index;
        h = await Harness.create({ store }); // applies a no-op as it leads again
        expect(h.index).toBe(index + 1);
      } else await h.lead(); // the same no-op
      h.leaseInPlace = true;
      h.now = T0 + 2_000;
      const lapsed = await h.leaseAll('t', 'default', 1_000);
      await h.ok({ kind: 'ack', tags: [tagOf(lapsed[0]), tagOf(old[1])] });
      return h.digest();
    };
    expect(await run(true)).toBe(await run(false));
  });
});

describe('leases of runs of several queues after a rollout', () => {
  it("a node restarted on the previous version's store leases the lapsed entries of two queues in one command of runs; one ack settles the old and new tags", async () => {
    const path = await mkdtemp(join(tmpdir(), 'fermata-upgrade-'));
    dirs.push(path);
    // The previous version's leader: body records, one lease command per queue, leases in place.
    const before = await Harness.create({ store: await openStore({ engine: 'leveldb', path }) });
    before.inlineBodies = false;
    await before.publish(
      ...['a', 'b'].flatMap((topic) => [0, 1].map((i) => ({ topic, payload: text(`${topic}${i}`) }))),
    );
    const oldA = await before.leaseAll('a', 'default', 1_000);
    const oldB = await before.leaseAll('b', 'default', 1_000);
    expect([...oldA, ...oldB].map((l) => tagOf(l).length)).toEqual(Array(4).fill(TAG_BYTES));
    expect(statuses(await before.ok({ kind: 'ack', tags: [tagOf(oldA[0])] }))).toEqual(['ok']);
    await before.sm.flush();
    await before.store.close();

    // This version on those files, every node upgraded: its leader leases runs, a round's queues in one command.
    const store = await openStore({ engine: 'leveldb', path });
    const after = await Harness.create({ store });
    after.leaseRuns = true;
    after.now = T0 + 1_000;
    const runs = await after.leaseQueues([{ topic: 'a' }, { topic: 'b' }], 5_000);
    expect(runs.map((l) => [l.status, l.attempt, l.newTag?.length])).toEqual(
      Array(3).fill(['leased', 2, RUN_TAG_BYTES]),
    );
    expect(after.sm.leases.openOffsets).toBe(3);
    // Acks of old and new tags, of both queues and both runs, in one command.
    expect(
      statuses(await after.ok({ kind: 'ack', tags: [tagOf(oldA[1]), tagOf(oldB[0]), ...runs.map(tagOf)] })),
    ).toEqual(['lease-expired', 'lease-expired', 'ok', 'ok', 'ok']);
    for (const topic of ['a', 'b'])
      expect(await after.stats(topic)).toMatchObject({ pending: 0, inFlight: 0 });
    expect(after.sm.leases.openOffsets).toBe(0);
    expect(await integrityProblems(store, after.hasher)).toEqual([]);
    await store.close();
  });

  it("a log of the previous version's per-queue leases followed by commands of runs replays to the same store with or without a restart between them", async () => {
    const run = async (restart: boolean) => {
      const store = await openStore({ engine: 'memory' });
      let h = await Harness.create({ store });
      // Step 1 of the rollout (dispatcher.leaseRuns off): one lease command per queue, in place.
      h.inlineBodies = false;
      for (const topic of ['a', 'b', 'c'])
        await h.publish({ topic, payload: text(topic) }, { topic, payload: text(`${topic}+`) });
      const old = [];
      for (const topic of ['a', 'b', 'c']) old.push(...(await h.leaseAll(topic, 'default', 1_000)));
      if (restart) {
        const index = h.index;
        h = await Harness.create({ store }); // applies a no-op as it leads again
        expect(h.index).toBe(index + 1);
      } else await h.lead(); // the same no-op
      // Step 2 (leaseRuns on): the lapsed entries of the three queues, and new ones, in commands of runs.
      h.leaseRuns = true;
      h.inlineBodies = true;
      await h.publish({ topic: 'b', payload: text('new') });
      h.now = T0 + 2_000;
      const runs = await h.leaseQueues([{ topic: 'a' }, { topic: 'b' }, { topic: 'c' }], 1_000);
      expect(runs).toHaveLength(7);
      await h.ok({ kind: 'ack', tags: [tagOf(old[0]), ...runs.slice(0, 4).map(tagOf)] });
      return h.digest();
    };
    expect(await run(true)).toBe(await run(false));
  });
});
