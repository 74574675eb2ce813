/**
 * Per-key ordering through the SDK against three real `fermata serve`
 * processes: one key's messages are handled one at a time in due order; a
 * nack or a lapsed lease holds the key's later messages until the head is
 * acked; the order holds across a SIGKILL of the leader; and while one key's
 * head is held, the other keys' messages keep flowing. Everything asserted is
 * a count or an order, never a time.
 */
import type { Message } from '@fermata/sdk';
import { describe, expect, it } from 'vitest';
import { sleep } from '../src/index.js';
import { clientOf, createdTopic, threeNodeSuite } from './sdk-support.js';
import { eventually } from './support.js';

/** What handlers saw: per delivery, the message, its attempt, and how many of its key ran at once. */
interface Handling {
  readonly text: string;
  readonly id: bigint;
  readonly dueAtMs: number;
  readonly attempt: number;
  readonly running: number;
}

/** Counts the handlers of each key running at once, and records every handling in order. */
function recorder(keyOf: (m: Message) => string) {
  const running = new Map<string, number>();
  const seen: Handling[] = [];
  return {
    seen,
    enter(m: Message): void {
      const k = keyOf(m);
      const n = (running.get(k) ?? 0) + 1;
      running.set(k, n);
      seen.push({ text: m.text(), id: m.id, dueAtMs: m.dueAtMs, attempt: m.attempt, running: n });
    },
    leave(m: Message): void {
      const k = keyOf(m);
      running.set(k, (running.get(k) ?? 1) - 1);
    },
  };
}

/** The key of a payload `<key>:<n>`. */
const keyOfText = (m: Message): string => m.text().split(':')[0]!;

/** The first handling of each message, in handling order. */
function firsts(seen: readonly Handling[]): Handling[] {
  const out: Handling[] = [];
  const met = new Set<bigint>();
  for (const s of seen) {
    if (met.has(s.id)) continue;
    met.add(s.id);
    out.push(s);
  }
  return out;
}

/** Sorted in due order (due time, then id), as the key hands them out. */
const inDueOrder = (list: readonly Handling[]): Handling[] =>
  [...list].sort((a, b) => a.dueAtMs - b.dueAtMs || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

describe('per-key ordering on a three-node cluster', () => {
  const suite = threeNodeSuite(40);

  it("a key's messages are handled one at a time, in due order, by a consumer of concurrency 8", async () => {
    const topic = await createdTopic(suite.client, 'one-key', { ordering: 'key' });
    // Due within 90 ms of each other (a consumer of concurrency 8 would run them side by side)
    // and published out of due order: due order is what counts.
    const delays = [60, 20, 90, 40, 80, 0, 70, 30, 50, 10];
    await suite.client.publishBatch(
      delays.map((delayMs, n) => ({ topic, payload: `k:${n}`, delayMs, orderingKey: 'k' })),
    );
    const r = recorder(keyOfText);
    const sub = suite.client.subscribe(topic, { concurrency: 8 }, async (m) => {
      r.enter(m);
      await sleep(200);
      r.leave(m);
    });
    try {
      await eventually(() => r.seen.length >= delays.length, 60_000, 'every message handled');
      expect(r.seen.map((s) => s.running)).toEqual(delays.map(() => 1));
      expect(r.seen.map((s) => s.text)).toEqual(inDueOrder(r.seen).map((s) => s.text));
    } finally {
      await sub.close();
    }
  });

  it("a nack and a lapsed lease hold the key's later messages until the head is acked", async () => {
    const topic = await createdTopic(suite.client, 'held-head', { ordering: 'key' });
    await suite.client.publishBatch(
      ['h:nacked', 'h:lapsed', 'h:last'].map((payload, n) => ({
        topic,
        payload,
        delayMs: n * 100,
        orderingKey: 'h',
      })),
    );
    const r = recorder(keyOfText);
    const sub = suite.client.subscribe(
      topic,
      { concurrency: 4, mode: 'manual', leaseMs: 1_500, retryBackoff: () => 1_000 },
      async (m) => {
        r.enter(m);
        r.leave(m);
        if (m.text() === 'h:nacked' && m.attempt === 1) {
          // Its first delivery fails; the second acks.
          await m.nack();
        } else if (m.text() !== 'h:lapsed' || m.attempt > 1) {
          // The first delivery of h:lapsed is never settled: its lease runs out.
          await m.ack();
        }
      },
    );
    try {
      await eventually(() => r.seen.length >= 5, 60_000, 'five handlings');
      await sleep(1_000);
      expect(r.seen.map((s) => `${s.text}#${s.attempt}`)).toEqual([
        'h:nacked#1',
        'h:nacked#2',
        'h:lapsed#1',
        'h:lapsed#2',
        'h:last#1',
      ]);
    } finally {
      await sub.close();
    }
  });

  it("the key's order holds across a SIGKILL of the leader", { timeout: 180_000 }, async () => {
    const topic = await createdTopic(suite.client, 'failover', { ordering: 'key' });
    const count = 30;
    await suite.client.publishBatch(
      Array.from({ length: count }, (_, n) => ({
        topic,
        payload: `f:${n}`,
        // Due over about six seconds, out of publish order.
        delayMs: ((n * 7) % count) * 200,
        orderingKey: 'f',
      })),
    );
    const consumer = clientOf(suite.cluster);
    const r = recorder(keyOfText);
    const sub = consumer.subscribe(topic, { concurrency: 8, leaseMs: 20_000 }, async (m) => {
      r.enter(m);
      await sleep(100);
      r.leave(m);
    });
    try {
      await eventually(() => firsts(r.seen).length >= 8, 60_000, 'deliveries before the kill');
      const old = await suite.cluster.leader();
      await old.kill('SIGKILL');
      await suite.cluster.waitForLeader();
      await eventually(() => firsts(r.seen).length >= count, 120_000, 'every message after the kill');
      // At least once: a message may run again, but never beside another of its key.
      expect(r.seen.filter((s) => s.running > 1)).toEqual([]);
      const first = firsts(r.seen);
      expect(first.map((s) => s.text)).toEqual(inDueOrder(first).map((s) => s.text));
      await old.start();
    } finally {
      await sub.close();
      await consumer.close();
    }
  });

  it("other keys keep flowing while one key's head is held", async () => {
    const topic = await createdTopic(suite.client, 'other-keys', { ordering: 'key' });
    const others = ['a', 'b', 'c', 'd', 'e'];
    await suite.client.publish(topic, 'held:head', { orderingKey: 'held' });
    await suite.client.publishBatch([
      ...Array.from({ length: 20 }, (_, n) => ({ topic, payload: `held:${n}`, orderingKey: 'held' })),
      ...others.flatMap((k) =>
        Array.from({ length: 10 }, (_, n) => ({ topic, payload: `${k}:${n}`, orderingKey: k })),
      ),
    ]);
    const r = recorder(keyOfText);
    let head: Message | undefined;
    const sub = suite.client.subscribe(
      topic,
      { concurrency: 8, mode: 'manual', leaseMs: 60_000 },
      async (m) => {
        r.enter(m);
        r.leave(m);
        if (m.text() === 'held:head') head = m;
        else await m.ack();
      },
    );
    try {
      await eventually(
        () => r.seen.filter((s) => others.includes(s.text.split(':')[0]!)).length >= 50,
        60_000,
        'the other keys handled',
      );
      // The head is held (leased, unsettled): none of the 20 behind it went out.
      expect(r.seen.filter((s) => s.text.startsWith('held:')).map((s) => s.text)).toEqual(['held:head']);
      expect(r.seen.filter((s) => s.running > 1)).toEqual([]);
      await head!.ack();
      await eventually(() => r.seen.length >= 71, 60_000, 'the held key after its head');
      expect(r.seen.filter((s) => s.text.startsWith('held:')).map((s) => s.text)).toEqual([
        'held:head',
        ...Array.from({ length: 20 }, (_, n) => `held:${n}`),
      ]);
    } finally {
      await sub.close();
    }
  });
});
