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
