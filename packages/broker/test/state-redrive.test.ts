/**
 * Redrive (state/apply-control.ts `applyRedrive`): dead letters back to the
 * topic and group they came from. Each copies a payload it did not bring, so
 * a command stops at the bound on one apply (state/apply-bound.ts) and
 * leaves the rest `deferred` for the leader to propose again; a topic or a
 * dead-letter topic being deleted takes nothing back.
 */
import { describe, expect, it } from 'vitest';
import { type ApplyWork, applyBound } from '../src/state/apply/apply-bound.js';
import type { RedriveOutcome } from '../src/state/commands/results.js';
import { BIG, Harness, T0, text } from './state-harness.js';

/** Publishes `n` messages of `payload` to `topic` (an expiry-dead-letter topic) and expires them all into its dlq. */
async function deadLetters(h: Harness, topic: string, n: number, payload: Uint8Array): Promise<bigint[]> {
  const ids: bigint[] = [];
  for (let i = 0; i < n; i++) {
    const [r] = await h.publish({ topic, payload, ttlMs: 10, delayMs: 60_000 });
    ids.push(r!.id);
  }
  h.now += 100;
  for (let round = 0; round < 100 && ids.length > 0; round++) {
    const r = await h.ok({ kind: 'expire', ids });
    const left = new Set(r.outcomes.filter((o) => o.status === 'not-due').map((o) => o.id));
    for (let i = ids.length - 1; i >= 0; i--) if (!left.has(ids[i]!)) ids.splice(i, 1);
  }
  expect(ids).toEqual([]);
  return (await h.due(`${topic}.dlq`, 'default', 1000)).map((e) => e.id);
}

async function redrive(h: Harness, dlq: string, sourceTopic: string, ids: readonly bigint[]) {
  const firstId = h.sm.ids.nextIds(ids.length);
  return (await h.ok({ kind: 'redrive', topic: dlq, sourceTopic, ids, firstId, idCount: ids.length }))
    .outcomes;
}

const statuses = (outcomes: readonly RedriveOutcome[]) => outcomes.map((o) => o.status);

describe('redrive', () => {
  it('a redrive whose copies would pass the bound moves what fits; the rest wait, deferred, for the next command', async () => {
    const h = await Harness.create({ limits: BIG });
    let most: ApplyWork = { records: 0, bytes: 0 };
    h.sm.onCommandWork = (kind, work) => {
      if (kind === 'redrive')
        most = { records: Math.max(most.records, work.records), bytes: Math.max(most.bytes, work.bytes) };
    };
    await h.ok({ kind: 'create-topic', name: 'big', settings: { expiryAction: 'dead-letter' } });
    const dead = await deadLetters(h, 'big', 40, new Uint8Array(512 * 1024).fill(9));
    expect(dead).toHaveLength(40);

    const first = await redrive(h, 'big.dlq', 'big', dead);
    const moved = first.filter((o) => o.status === 'redriven').length;
    expect(moved).toBeGreaterThan(0);
    expect(moved).toBeLessThan(40);
    // What did not fit is left alone, in order after what moved.
    expect(statuses(first)).toEqual([
      ...Array<string>(moved).fill('redriven'),
      ...Array<string>(40 - moved).fill('deferred'),
    ]);
    let left = first.filter((o) => o.status === 'deferred').map((o) => o.id);
    for (let round = 0; round < 10 && left.length > 0; round++) {
      const r = await redrive(h, 'big.dlq', 'big', left);
      expect(r.some((o) => o.status === 'redriven')).toBe(true);
      left = r.filter((o) => o.status === 'deferred').map((o) => o.id);
    }
    expect(left).toEqual([]);
    expect((await h.stats('big')).pending).toBe(40);
    expect((await h.stats('big.dlq')).pending).toBe(0);
    const bound = applyBound(h.sm.limits);
    expect(most.bytes).toBeLessThanOrEqual(bound.bytes);
    expect(most.bytes).toBeGreaterThan(bound.bytes / 2);
  });

  it('a dead letter of a topic being deleted is not redriven (group-gone), nor one of a group being deleted', async () => {
    const h = await Harness.create();
    await h.ok({ kind: 'create-topic', name: 'src', settings: { expiryAction: 'dead-letter' } });
    await h.ok({ kind: 'create-group', topic: 'src', group: 'g' });
    const dead = await deadLetters(h, 'src', 2, text('x'));
    // One dead letter per group of each message.
    expect(dead).toHaveLength(4);
    const bodies = await h.sm.reader.getBodies(dead);
    const ofG = dead.filter((_, i) => bodies[i]?.deadLetter?.sourceGroup === 'g');
    expect(ofG).toHaveLength(2);

    await h.ok({ kind: 'delete-group', topic: 'src', group: 'g' });
    expect(statuses(await redrive(h, 'src.dlq', 'src', ofG))).toEqual(['group-gone', 'group-gone']);

    await h.ok({ kind: 'delete-topic', name: 'src' });
    const ofDefault = dead.filter((id) => !ofG.includes(id));
    expect(statuses(await redrive(h, 'src.dlq', 'src', ofDefault))).toEqual(['group-gone', 'group-gone']);
    // The dead letters stay where they are.
    expect((await h.stats('src.dlq')).pending).toBe(4);
  });

  it('a dead-letter topic being deleted gives nothing back (not-found)', async () => {
    const h = await Harness.create();
    await h.ok({ kind: 'create-topic', name: 'src', settings: { expiryAction: 'dead-letter' } });
    const dead = await deadLetters(h, 'src', 2, text('y'));
    await h.ok({ kind: 'delete-topic', name: 'src.dlq' });
    expect(statuses(await redrive(h, 'src.dlq', 'src', dead))).toEqual(['not-found', 'not-found']);
    expect((await h.stats('src')).pending).toBe(0);
    h.now = T0 + 1_000;
    await h.purge('src.dlq');
    expect(await h.sm.reader.getTopic('src.dlq')).toBeUndefined();
  });
});
