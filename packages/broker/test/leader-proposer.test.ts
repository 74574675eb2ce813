import { ManualClock } from '@fermata/base';
import type { Entry, RaftNode } from '@fermata/raft';
import { describe, expect, it } from 'vitest';
import { MAX_ACK_ENTRIES_IN_FLIGHT, MAX_QUEUED_ACK_TAGS, Proposer } from '../src/leader/proposer.js';
import { type Command, decodeCommand } from '../src/state/commands/commands.js';
import { LimitError } from '../src/state/model/errors.js';
import { Harness, text } from './state-harness.js';

/**
 * The Proposer in front of a one-node log that commits only when the test says
 * so: each proposal waits in `waiting` until `commitNext()` applies it to the
 * real state machine (in log order) and answers the proposer with the result.
 */
class HeldLog {
  readonly waiting: { data: Uint8Array; resolve: (r: unknown) => void }[] = [];
  constructor(private readonly h: Harness) {}

  propose(data: Uint8Array): Promise<unknown> {
    return new Promise((resolve) => this.waiting.push({ data, resolve }));
  }

  commands(): Command[] {
    return this.waiting.map((w) => decodeCommand(w.data));
  }

  async commitNext(): Promise<void> {
    const next = this.waiting.shift();
    if (!next) throw new Error('nothing proposed');
    const entry: Entry = { term: 1, index: this.h.index + 1, type: 'normal', data: next.data };
    const [result] = await this.h.applyEntries([entry]);
    next.resolve(result);
    // Let the proposer's continuation run and propose what queued meanwhile.
    await new Promise((r) => setImmediate(r));
  }
}

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

/** A well-formed delivery tag that names no entry. */
function tag(i: number): Uint8Array {
  const t = new Uint8Array(24);
  new DataView(t.buffer).setUint32(20, i);
  return t;
}

describe('Proposer: acks share entries', () => {
  it('acks arriving while entries are in flight join the next one; each request gets its own outcomes', async () => {
    const h = await Harness.create();
    h.now = Date.now(); // the proposer stamps commands with the real clock
    await h.publish(...['a', 'b', 'c', 'd'].map((s) => ({ topic: 't', payload: text(s) })));
    const tags = (await h.leaseAll('t', 'default', 60_000)).map((o) => o.newTag!);
    const log = new HeldLog(h);
    const proposer = new Proposer(log as unknown as RaftNode, h.sm);

    const answers = [
      proposer.ack([tags[0]!]),
      proposer.ack([tags[1]!]),
      proposer.ack([tags[2]!, tags[3]!]),
      proposer.ack([tags[0]!]), // again: the first ack of it is applied before
    ];
    // Two entries in flight, one tag each; the other two requests wait together.
    expect(MAX_ACK_ENTRIES_IN_FLIGHT).toBe(2);
    expect(log.commands().map((c) => (c.kind === 'ack' ? c.tags.map(hex) : c.kind))).toEqual([
      [hex(tags[0]!)],
      [hex(tags[1]!)],
    ]);
    await log.commitNext();
    // The freed slot takes everything queued, as one entry, in arrival order.
    expect(log.commands().map((c) => (c.kind === 'ack' ? c.tags.map(hex) : c.kind))).toEqual([
      [hex(tags[1]!)],
      [hex(tags[2]!), hex(tags[3]!), hex(tags[0]!)],
    ]);
    await log.commitNext();
    await log.commitNext();
    const outcomes = await Promise.all(answers);
    expect(outcomes.map((o) => o.map((x) => [hex(x.tag), x.status]))).toEqual([
      [[hex(tags[0]!), 'ok']],
      [[hex(tags[1]!), 'ok']],
      [
        [hex(tags[2]!), 'ok'],
        [hex(tags[3]!), 'ok'],
      ],
      [[hex(tags[0]!), 'lease-expired']],
    ]);
    expect(await h.stats('t')).toMatchObject({ pending: 0, inFlight: 0 });
  });

  it(`refuses an ack beyond ${MAX_QUEUED_ACK_TAGS} queued tags (maxQueuedAckTags) and fails the queued ones when told to`, async () => {
    const h = await Harness.create();
    const log = new HeldLog(h);
    const proposer = new Proposer(log as unknown as RaftNode, h.sm);
    const perRequest = h.sm.limits.maxTagsPerCommand;
    const accepted: Promise<unknown>[] = [];
    for (let r = 0; r < MAX_QUEUED_ACK_TAGS / perRequest; r++) {
      accepted.push(proposer.ack(Array.from({ length: perRequest }, (_, i) => tag(r * perRequest + i))));
    }
    const settled = accepted.map((p) =>
      p.then(
        () => 'answered',
        (e: unknown) => e,
      ),
    );
    const refused = await proposer.ack([tag(-1 >>> 0)]).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(LimitError);
    expect(refused).toMatchObject({ limit: 'maxQueuedAckTags', field: 'tags', max: MAX_QUEUED_ACK_TAGS });
    expect(log.waiting).toHaveLength(MAX_ACK_ENTRIES_IN_FLIGHT);
    const gone = new Error('leadership lost');
    proposer.failQueued(gone);
    // The queued ones fail; the two in flight are answered by their entries.
    await log.commitNext();
    await log.commitNext();
    const results = await Promise.all(settled);
    expect(results.filter((r) => r === 'answered')).toHaveLength(MAX_ACK_ENTRIES_IN_FLIGHT);
    expect(results.filter((r) => r === gone)).toHaveLength(accepted.length - MAX_ACK_ENTRIES_IN_FLIGHT);
    // Their tags no longer count: a new ack is accepted.
    const again = proposer.ack([tag(7)]);
    expect(log.waiting).toHaveLength(1);
    await log.commitNext();
    expect((await again).map((o) => o.status)).toEqual(['lease-expired']);
  });

  describe('linger (dispatcher.ackLingerMs)', () => {
    const ackTags = (log: HeldLog) => log.commands().map((c) => (c.kind === 'ack' ? c.tags.length : -1));

    it('a client awaiting each answer never waits; concurrent acks then wait out the linger together', async () => {
      const h = await Harness.create();
      const clock = new ManualClock(h.now);
      await h.publish(...Array.from({ length: 8 }, (_, i) => ({ topic: 't', payload: text(`m${i}`) })));
      const tags = (await h.leaseAll('t', 'default', 60_000)).map((o) => o.newTag!);
      const log = new HeldLog(h);
      const proposer = new Proposer(log as unknown as RaftNode, h.sm, {
        publishIdempotency: true,
        ackLingerMs: 1_000,
        clock,
      });
      // One at a time, each awaited: every ack is proposed on arrival.
      for (const tag of tags.slice(0, 2)) {
        const answer = proposer.ack([tag]);
        expect(ackTags(log)).toEqual([1]);
        await log.commitNext();
        expect((await answer).map((o) => o.status)).toEqual(['ok']);
      }
      // Four at once: two entries of one, then the other two share an entry.
      const burst = tags.slice(2, 6).map((t) => proposer.ack([t]));
      expect(ackTags(log)).toEqual([1, 1]);
      await log.commitNext();
      expect(ackTags(log)).toEqual([1, 2]);
      await log.commitNext();
      await log.commitNext();
      // The last entry carried two requests: the next ack waits for the linger.
      const late = proposer.ack([tags[6]!]);
      const later = proposer.ack([tags[7]!]);
      await new Promise((r) => setImmediate(r));
      expect(ackTags(log)).toEqual([]);
      await clock.advance(999);
      expect(ackTags(log)).toEqual([]);
      await clock.advance(1);
      expect(ackTags(log)).toEqual([2]);
      await log.commitNext();
      for (const answer of [...burst, late, later])
        expect((await answer).map((o) => o.status)).toEqual(['ok']);
      expect(await h.stats('t')).toMatchObject({ pending: 0, inFlight: 0 });
    });

    it('an entry that fills limits.maxTagsPerCommand goes without waiting', async () => {
      const h = await Harness.create();
      const clock = new ManualClock(h.now);
      const log = new HeldLog(h);
      const proposer = new Proposer(log as unknown as RaftNode, h.sm, {
        publishIdempotency: true,
        ackLingerMs: 60_000,
        clock,
      });
      const perRequest = h.sm.limits.maxTagsPerCommand;
      const answers: Promise<unknown>[] = [];
      // Two entries of one request each fill the slots; two more requests queue and share the next.
      for (let i = 0; i < 4; i++) answers.push(proposer.ack([tag(i)]));
      await log.commitNext();
      await log.commitNext();
      expect(ackTags(log)).toEqual([2]);
      await log.commitNext();
      // Lingering now; a request that fills a whole entry with what waits goes at once.
      answers.push(proposer.ack([tag(100)]));
      await new Promise((r) => setImmediate(r));
      expect(ackTags(log)).toEqual([]);
      answers.push(proposer.ack(Array.from({ length: perRequest }, (_, i) => tag(1_000 + i))));
      // The waiting one goes with the first slot; the full request, alone, takes the second (the
      // group before it carried one request).
      expect(ackTags(log)).toEqual([1, perRequest]);
      await log.commitNext();
      await log.commitNext();
      // Lingering again (two requests in one entry); one that exactly fills an entry goes at once.
      answers.push(proposer.ack([tag(5_000)]), proposer.ack([tag(5_001)]));
      answers.push(proposer.ack([tag(5_002)]), proposer.ack([tag(5_003)]));
      await log.commitNext();
      expect(ackTags(log)).toEqual([1, 2]);
      await log.commitNext();
      await log.commitNext();
      expect(ackTags(log)).toEqual([]);
      answers.push(proposer.ack(Array.from({ length: perRequest }, (_, i) => tag(10_000 + i))));
      expect(ackTags(log)).toEqual([perRequest]);
      await log.commitNext();
      expect(await Promise.all(answers)).toHaveLength(11);
    });
  });
});
