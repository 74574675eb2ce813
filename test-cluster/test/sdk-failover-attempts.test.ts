/**
 * A failover costs no attempts: under a steady publish/consume load on a
 * topic with `maxAttempts: 1`, the leader is SIGKILLed. The deliveries the
 * old leader had leased (taken ahead of their due time and not yet pushed,
 * pushed and held by the SDK until their due time, or running in a handler)
 * are carried over to the new leader: none reaches the dead-letter topic,
 * every one is handled once at attempt 1, and none is later than the
 * election (from the kill to the new leader's dispatcher starting) plus the
 * consumer's reconnection.
 */
import type { FermataClient } from '@fermata/sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, sleep, startCluster } from '../src/index.js';
import { clientOf, type LogLine, type Seen, seen, topicName } from './sdk-support.js';
import { eventually } from './support.js';

/** Reconnecting and re-subscribing after the new leader is up, on a shared machine: generous. */
const RECONNECT_SLACK_MS = 1_000;

describe('a leader SIGKILL under load on a maxAttempts 1 topic', () => {
  let cluster: Cluster;
  let client: FermataClient & { log: LogLine[] };

  beforeAll(async () => {
    cluster = await startCluster({ nodes: 3 });
    client = clientOf(cluster);
  });
  afterEach((ctx) => {
    if (ctx.task.result?.state === 'fail') console.error(cluster.logs(60));
  });
  afterAll(async () => {
    await client?.close();
    await cluster?.stop();
  });

  it('dead-letters nothing, keeps every attempt at 1 and delays nothing past the election', {
    timeout: 180_000,
  }, async () => {
    const topic = topicName('no-attempt');
    await client.createTopic(topic, { maxAttempts: 1 });
    const producer = clientOf(cluster);
    const consumer = clientOf(cluster);
    const published = new Map<bigint, number>();
    const handled: Seen[] = [];
    let producing = true;

    // Delays up to 3 s: at the kill, some deliveries are leased ahead and not yet pushed, some
    // pushed and held by the SDK, some running in a handler, and some fall due during the election.
    const produce = (async () => {
      for (let n = 0; producing; n++) {
        const batch = Array.from({ length: 5 }, (_, i) => ({
          topic,
          payload: `m-${n}-${i}`,
          delayMs: Math.floor(Math.random() * 3_000),
        }));
        const results = await producer.publishBatch(batch);
        for (const r of results) published.set(r.id, r.dueAtMs);
        await sleep(40);
      }
    })();
    const sub = consumer.subscribe(topic, { concurrency: 8, leaseMs: 10_000 }, async (m) => {
      handled.push(seen(m));
      await sleep(5 + Math.floor(Math.random() * 30));
    });
    let stopped: unknown;
    sub.done.catch((e: unknown) => (stopped = e));

    await eventually(() => handled.length >= 150, 60_000, 'deliveries before the kill');
    const old = await cluster.leader();
    const killedAt = Date.now();
    expect(await old.kill('SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });
    const next = await cluster.leader();
    // The new leader's dispatcher start, by its log (written asynchronously).
    const startedAfterKill = () =>
      next
        .logLines('dispatcher started')
        .map((r) => Date.parse(String(r['time'])))
        .filter((t) => t > killedAt);
    await eventually(() => startedAfterKill().length > 0, 30_000, "the new leader's dispatcher start");
    const electedAt = Math.min(...startedAfterKill());
    const electionMs = electedAt - killedAt;
    await eventually(
      () => handled.some((h) => h.dueAtMs > electedAt + 3_000),
      60_000,
      'deliveries published on the new leader',
    );
    producing = false;
    await produce;

    // Each published message is handled, or (the failure this guards against) dead-lettered.
    const deadLettered = async () => (await client.topicStats(topic)).groups[0]!.deadLettered;
    await eventually(
      async () => new Set(handled.map((h) => h.id)).size + (await deadLettered()) >= published.size,
      60_000,
      'every published message handled or dead-lettered',
    );
    await sub.close();
    expect(stopped).toBeUndefined();

    const late = handled.map((h) => ({ id: h.id, lateMs: h.receivedAtMs - h.dueAtMs, attempt: h.attempt }));
    const worst = late.reduce((a, b) => (b.lateMs > a.lateMs ? b : a));
    const figures = {
      published: published.size,
      handled: handled.length,
      deadLettered: await deadLettered(),
      electionMs,
      worstLateMs: worst.lateMs,
      attemptsAbove1: late.filter((l) => l.attempt > 1).length,
      lateBeyondElection: late.filter((l) => l.lateMs > electionMs + RECONNECT_SLACK_MS).length,
    };
    console.log(JSON.stringify(figures));
    expect(figures.deadLettered).toBe(0);
    expect(late.filter((l) => l.attempt !== 1)).toEqual([]);
    expect(new Set(handled.map((h) => h.id)).size).toBe(handled.length);
    expect(figures.lateBeyondElection).toBe(0);
    // Never early.
    expect(late.filter((l) => l.lateMs < 0)).toEqual([]);
    await producer.close();
    await consumer.close();
  });
});
