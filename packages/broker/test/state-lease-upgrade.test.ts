import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '@fermata/storage';
import { afterEach, describe, expect, it } from 'vitest';
import { KEY_BYTES, TAG_BYTES } from '../src/keys.js';
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
