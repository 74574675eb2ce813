import { describe, expect, it } from 'vitest';
import { queueName } from '../src/keys.js';
import { Harness, T0, text } from './state-harness.js';

const hex = (b: Uint8Array | undefined) => (b ? Buffer.from(b).toString('hex') : undefined);

describe('scanDue from a cursor', () => {
  it('starts at the given tag, returns the first entry it met, and refuses a tag of another queue', async () => {
    const h = await Harness.create();
    await h.publish(...[0, 10, 20, 30].map((d) => ({ topic: 't', payload: text(`m${d}`), delayMs: d })), {
      topic: 'other',
      payload: text('o'),
      delayMs: 0,
    });
    h.now = T0 + 100;
    const q = h.hasher(queueName('t', 'default'));
    const all = await h.sm.reader.scanDue(q, 0, h.now, h.now, 100);
    expect(all.entries.map((e) => e.dueAtMs)).toEqual([T0, T0 + 10, T0 + 20, T0 + 30]);
    expect(hex(all.firstTag)).toBe(hex(all.entries[0]!.tag));

    // Lease the first two: the next read from the first remaining entry meets only the rest.
    const leased = await h.ok({
      kind: 'lease',
      topic: 't',
      group: 'default',
      tags: all.entries.slice(0, 2).map((e) => e.tag),
      leaseMs: 60_000,
    });
    expect(leased.outcomes.map((o) => o.status)).toEqual(['leased', 'leased']);
    const fromThird = await h.sm.reader.scanDue(q, 0, h.now, h.now, 100, undefined, all.entries[2]!.tag);
    expect(fromThird.entries.map((e) => e.dueAtMs)).toEqual([T0 + 20, T0 + 30]);
    expect(hex(fromThird.firstTag)).toBe(hex(all.entries[2]!.tag));
    // From a deleted key (the first, leased): the same, first met is the third.
    const fromGone = await h.sm.reader.scanDue(q, 0, h.now, h.now, 100, undefined, all.entries[0]!.tag);
    expect(hex(fromGone.firstTag)).toBe(hex(all.entries[2]!.tag));
    // Skipped entries (carried by a lease in flight) count as met.
    const skip = new Set([hex(all.entries[2]!.tag)!]);
    const skipping = await h.sm.reader.scanDue(q, 0, h.now, h.now, 100, skip, all.entries[0]!.tag);
    expect(skipping.entries.map((e) => e.dueAtMs)).toEqual([T0 + 30]);
    expect(hex(skipping.firstTag)).toBe(hex(all.entries[2]!.tag));

    const otherQueue = h.hasher(queueName('other', 'default'));
    const other = await h.sm.reader.scanDue(otherQueue, 0, h.now, h.now, 100);
    await expect(h.sm.reader.scanDue(q, 0, h.now, h.now, 100, undefined, other.firstTag)).rejects.toThrow(
      /another queue/,
    );
  });
});
