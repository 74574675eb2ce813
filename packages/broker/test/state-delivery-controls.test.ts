// The apply guards of the delivery controls: a lease command of a paused queue leases
// nothing, whatever the leader that proposed it believed; a resume makes the queue due again.
import { describe, expect, it } from 'vitest';
import type { Command } from '../src/state/index.js';
import { Harness, T0, text } from './state-harness.js';

type DueChange = { readonly topic: string; readonly group: string; readonly dueAtMs: number };

/** A harness whose state machine reports the due changes each apply notes (what the dispatcher hears). */
async function harness(): Promise<{ h: Harness; dues: DueChange[] }> {
  const h = await Harness.create();
  const dues: DueChange[] = [];
  h.sm.onDue = (changes) => {
    for (const c of changes) dues.push({ topic: c.topic, group: c.group, dueAtMs: c.dueAtMs });
  };
  await h.ok({ kind: 'create-topic', name: 't' });
  await h.ok({ kind: 'create-group', topic: 't', group: 'g' });
  return { h, dues };
}

const statuses = (outcomes: readonly { status: string }[]) => outcomes.map((o) => o.status);

describe('pause: nothing is leased from a paused queue after the pause is applied', () => {
  for (const runs of [false, true]) {
    it(`a lease ${runs ? 'of runs' : 'in place'} proposed before a topic pause applied leases nothing`, async () => {
      const { h } = await harness();
      h.leaseRuns = runs;
      await h.publish({ topic: 't', payload: text('a') }, { topic: 't', payload: text('b') });
      // The leader read the due entries before the pause; its lease command applies after it.
      const due = await h.due('t');
      await h.ok({ kind: 'update-topic', name: 't', settings: { paused: true } });
      const lease: Extract<Command, { kind: 'lease' }>['tags'] = due.map((d) => d.tag);
      const r = await h.ok({ kind: 'lease', topic: 't', group: 'default', tags: lease, leaseMs: 1_000 });
      expect(statuses(r.outcomes)).toEqual(['paused', 'paused']);
      expect(await h.stats('t')).toMatchObject({ pending: 2, inFlight: 0 });
      // The other group of the topic is paused too: the topic's pause covers every group.
      expect(statuses(await h.leaseAll('t', 'g'))).toEqual(['paused', 'paused']);
    });
  }

  it('a group pause holds only that group; a lease of runs leases the other runs', async () => {
    const { h } = await harness();
    await h.publish({ topic: 't', payload: text('a') });
    await h.ok({ kind: 'update-group', topic: 't', group: 'g', settings: { paused: true } });
    const outcomes = await h.leaseQueues([{ topic: 't' }, { topic: 't', group: 'g' }]);
    expect(statuses(outcomes)).toEqual(['leased', 'paused']);
    expect(await h.stats('t', 'g')).toMatchObject({
      pending: 1,
      inFlight: 0,
      settings: { paused: true },
    });
  });

  it('deliveries in flight at the pause may still be acked and nacked; a nacked one waits', async () => {
    const { h } = await harness();
    await h.publish({ topic: 't', payload: text('a') }, { topic: 't', payload: text('b') });
    const [a, b] = await h.leaseAll('t');
    await h.ok({ kind: 'update-topic', name: 't', settings: { paused: true } });
    expect(statuses((await h.ok({ kind: 'ack', tags: [a!.newTag!] })).outcomes)).toEqual(['ok']);
    expect((await h.ok({ kind: 'nack', tag: b!.newTag!, delayMs: 0 })).outcome.status).toBe('ok');
    h.now = T0 + 100_000;
    expect(statuses(await h.leaseAll('t'))).toEqual(['paused']);
    expect(await h.stats('t')).toMatchObject({ pending: 1, inFlight: 0 });
  });

  it('a resume notes the queue due again and leases as before; pausing again stops it', async () => {
    const { h, dues } = await harness();
    await h.publish({ topic: 't', payload: text('a') });
    await h.ok({ kind: 'update-group', topic: 't', group: 'g', settings: { paused: true } });
    await h.ok({ kind: 'update-topic', name: 't', settings: { paused: true } });
    dues.length = 0;
    // The topic resumes; the group stays paused by its own flag: only default is due again.
    await h.ok({ kind: 'update-topic', name: 't', settings: {}, updateMask: ['paused'] });
    expect(dues).toEqual([{ topic: 't', group: 'default', dueAtMs: 0 }]);
    expect(statuses(await h.leaseAll('t', 'g'))).toEqual(['paused']);
    dues.length = 0;
    await h.ok({ kind: 'update-group', topic: 't', group: 'g', settings: {}, updateMask: ['paused'] });
    expect(dues).toEqual([{ topic: 't', group: 'g', dueAtMs: 0 }]);
    expect(statuses(await h.leaseAll('t'))).toEqual(['leased']);
    expect(statuses(await h.leaseAll('t', 'g'))).toEqual(['leased']);
  });

  it('the pause survives a restart of the state machine (it is in the topic record)', async () => {
    const { h } = await harness();
    await h.ok({ kind: 'update-group', topic: 't', group: 'g', settings: { paused: true } });
    await h.publish({ topic: 't', payload: text('a') });
    await h.sm.flush();
    const again = await Harness.create({ store: h.store });
    expect(statuses(await again.leaseAll('t', 'g'))).toEqual(['paused']);
    expect(statuses(await again.leaseAll('t'))).toEqual(['leased']);
  });
});

describe('deadlines: never leased at or after a message deadline', () => {
  /** The dead letters of `t` (its `t.dlq`), with their reason. */
  async function deadLetters(h: Harness) {
    if (!(await h.sm.reader.getTopic('t.dlq'))) return [];
    const page = await h.sm.reader.listMessages('t.dlq', { group: 'default', limit: 100 }, h.now);
    return page.items.map((it) => ({ id: it.entry.id, reason: it.message?.deadLetter?.reason }));
  }

  for (const runs of [false, true]) {
    it(`a lease ${runs ? 'of runs' : 'in place'} at its deadline dead-letters it with deadline_exceeded instead`, async () => {
      const { h } = await harness();
      h.leaseRuns = runs;
      const [late, fine] = await h.publish(
        { topic: 't', payload: text('late'), deliverBeforeMs: T0 + 1_000 },
        { topic: 't', payload: text('fine'), deliverBeforeMs: T0 + 1_001 },
      );
      h.now = T0 + 1_000;
      const outcomes = await h.leaseAll('t');
      expect(outcomes.map((o) => [o.id, o.status, o.deadlineExceeded ?? false])).toEqual([
        [late!.id, 'dead-lettered', true],
        [fine!.id, 'leased', false],
      ]);
      expect(await deadLetters(h)).toEqual([{ id: outcomes[0]!.deadLetterId, reason: 'deadline_exceeded' }]);
      // Every group's copy has the message's deadline.
      expect(statuses(await h.leaseAll('t', 'g'))).toEqual(['dead-lettered', 'leased']);
    });
  }

  it("under deadline_action drop it is removed; the topic's max lateness gives a default deadline", async () => {
    const { h } = await harness();
    await h.ok({ kind: 'update-topic', name: 't', settings: { maxLatenessMs: 500, deadlineAction: 'drop' } });
    await h.publish({ topic: 't', payload: text('a'), delayMs: 100 });
    h.now = T0 + 600;
    const [o] = await h.leaseAll('t');
    expect(o).toMatchObject({ status: 'dropped', deadlineExceeded: true });
    expect(await deadLetters(h)).toEqual([]);
    expect(await h.stats('t')).toMatchObject({ pending: 0, inFlight: 0 });
  });

  it('a lease taken ahead that would start at the deadline waits; at its due time it is dead-lettered', async () => {
    const { h } = await harness();
    await h.publish({ topic: 't', payload: text('a'), delayMs: 1_000, deliverBeforeMs: T0 + 1_000 });
    const due = await h.sm.reader.dueEntriesOf('t', 'default', T0 + 1_000, 10);
    const ahead = await h.ok({
      kind: 'lease',
      topic: 't',
      group: 'default',
      tags: due.map((d) => d.tag),
      leaseMs: 1_000,
      aheadMs: 5_000,
    });
    expect(statuses(ahead.outcomes)).toEqual(['not-due']);
    h.now = T0 + 1_000;
    expect(statuses(await h.leaseAll('t'))).toEqual(['dead-lettered']);
  });

  it('a nacked message past its deadline is dead-lettered, not leased again', async () => {
    const { h } = await harness();
    await h.publish({ topic: 't', payload: text('a'), deliverBeforeMs: T0 + 2_000 });
    const [first] = await h.leaseAll('t', 'default', 1_000);
    expect(first).toMatchObject({ status: 'leased' });
    expect((await h.ok({ kind: 'nack', tag: first!.newTag!, delayMs: 2_000 })).outcome.status).toBe('ok');
    h.now = T0 + 2_000;
    expect(statuses(await h.leaseAll('t'))).toEqual(['dead-lettered']);
  });

  it('the janitor ends it while nobody leases it (paused); a running lease taken before goes on', async () => {
    const { h } = await harness();
    await h.ok({ kind: 'update-topic', name: 't', settings: { paused: true } });
    const [m] = await h.publish({ topic: 't', payload: text('a'), deliverBeforeMs: T0 + 1_000 });
    h.now = T0 + 1_000;
    const due = await h.sm.reader.dueExpiries(h.now, 10);
    expect(due.map((d) => [d.id, d.expireAtMs])).toEqual([[m!.id, T0 + 1_000]]);
    const r = await h.ok({ kind: 'expire', ids: [m!.id], keys: due.map((d) => d.key), atMs: [T0 + 1_000] });
    expect(r.outcomes).toEqual([
      {
        id: m!.id,
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
    expect(await h.sm.reader.dueExpiries(h.now + 100_000, 10)).toEqual([]);
  });

  it("a lease running at the deadline moves the record to the lease's end; a lapse there ends it", async () => {
    const { h } = await harness();
    const [m] = await h.publish({ topic: 't', payload: text('a'), deliverBeforeMs: T0 + 500 });
    await h.leaseAll('t', 'default', 1_000);
    h.now = T0 + 500;
    let due = await h.sm.reader.dueExpiries(h.now, 10);
    let r = await h.ok({
      kind: 'expire',
      ids: [m!.id],
      keys: due.map((d) => d.key),
      atMs: [due[0]!.expireAtMs],
    });
    // The group g had no lease: it ends now; default's lease (until T0 + 1000) goes on.
    expect(r.outcomes[0]!.deadline?.groups).toEqual([{ group: 'g', action: 'dead-letter' }]);
    expect((await h.sm.reader.dueExpiries(h.now + 100_000, 10)).map((d) => [d.id, d.expireAtMs])).toEqual([
      [m!.id, T0 + 1_000],
    ]);
    // Nobody takes the lapsed lease again: at its end the janitor ends it.
    h.now = T0 + 1_000;
    due = await h.sm.reader.dueExpiries(h.now, 10);
    r = await h.ok({
      kind: 'expire',
      ids: due.map((d) => d.id),
      keys: due.map((d) => d.key),
      atMs: due.map((d) => d.expireAtMs),
    });
    expect(r.outcomes.map((o) => o.status)).toEqual(['dead-lettered']);
    expect(await h.sm.reader.dueExpiries(h.now + 100_000, 10)).toEqual([]);
    expect(await h.stats('t')).toMatchObject({ pending: 0, inFlight: 0 });
  });

  for (const runs of [false, true]) {
    it(`an ack ${runs ? 'of a run' : 'in place'} before the deadline leaves no expiry record behind`, async () => {
      const { h } = await harness();
      h.leaseRuns = runs;
      await h.ok({ kind: 'delete-group', topic: 't', group: 'g' });
      await h.purge('t', 'g');
      // One group, no key, body in the entry: its deadline's expiry record is all it has besides.
      await h.publish({ topic: 't', payload: text('a'), deliverBeforeMs: T0 + 5_000 });
      const [o] = await h.leaseAll('t');
      expect(statuses((await h.ok({ kind: 'ack', tags: [o!.newTag!] })).outcomes)).toEqual(['ok']);
      expect(await h.sm.reader.dueExpiries(T0 + 100_000, 10)).toEqual([]);
      expect(await h.stats('t')).toMatchObject({ pending: 0, inFlight: 0 });
    });
  }

  it('a lapsed run lease is not taken again past the deadline: the next lease dead-letters it', async () => {
    const { h } = await harness();
    h.leaseRuns = true;
    await h.publish({ topic: 't', payload: text('a'), deliverBeforeMs: T0 + 1_500 });
    const [first] = await h.leaseAll('t', 'default', 1_000);
    expect(first).toMatchObject({ status: 'leased', attempt: 1 });
    // Lapsed before the deadline: leased again (attempt 2), until T0 + 2_000.
    h.now = T0 + 1_000;
    const [second] = await h.leaseAll('t', 'default', 1_000);
    expect(second).toMatchObject({ status: 'leased', attempt: 2 });
    h.now = T0 + 2_000;
    const [third] = await h.leaseAll('t');
    expect(third).toMatchObject({ status: 'dead-lettered', deadlineExceeded: true });
    const [letter] = await deadLetters(h);
    expect(letter?.reason).toBe('deadline_exceeded');
  });

  it('the janitor drops under deadline_action drop, and removes the entry of a group being deleted', async () => {
    const { h } = await harness();
    await h.ok({ kind: 'update-topic', name: 't', settings: { deadlineAction: 'drop' } });
    const [m] = await h.publish({ topic: 't', payload: text('a'), deliverBeforeMs: T0 + 1_000 });
    // The group's deletion is under way (not purged yet) when the deadline comes.
    await h.ok({ kind: 'delete-group', topic: 't', group: 'g' });
    h.now = T0 + 1_000;
    const due = await h.sm.reader.dueExpiries(h.now, 10);
    const r = await h.ok({ kind: 'expire', ids: [m!.id], keys: due.map((d) => d.key), atMs: [T0 + 1_000] });
    expect(r.outcomes).toEqual([
      {
        id: m!.id,
        status: 'expired',
        deadline: { topic: 't', groups: [{ group: 'default', action: 'drop' }] },
      },
    ]);
    expect(await h.sm.reader.dueExpiries(h.now + 100_000, 10)).toEqual([]);
    expect(await deadLetters(h)).toEqual([]);
    expect(await h.stats('t')).toMatchObject({ pending: 0, inFlight: 0, deadLettered: 0 });
    await h.purge('t', 'g');
  });
});

describe('limits: enforced by the leader, not by apply', () => {
  it('a change of a group`s rate or in-flight limit notes its queue due at once (the leader reads it anew)', async () => {
    const { h, dues } = await harness();
    // The rate, the in-flight limit, then something else: only the limits note the queue due.
    for (const [settings, noted] of [
      [{ maxDeliveriesPerSecond: 5 }, true],
      [{ maxInFlight: 2 }, true],
      [{ ordering: 'key' as const }, false],
    ] as const) {
      dues.length = 0;
      const updateMask = Object.keys(settings).map((k) => k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`));
      await h.ok({ kind: 'update-group', topic: 't', group: 'g', settings, updateMask });
      expect(dues, updateMask[0]).toEqual(noted ? [{ topic: 't', group: 'g', dueAtMs: 0 }] : []);
    }
    // Apply leases past the limits: they live in the leader's dispatcher.
    await h.publish(...['a', 'b', 'c'].map((p) => ({ topic: 't', payload: text(p) })));
    expect(statuses(await h.leaseAll('t', 'g'))).toEqual(['leased', 'leased', 'leased']);
  });
});
