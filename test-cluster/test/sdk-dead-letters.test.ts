/**
 * Dead letters that say why, against a real node: a dead letter arrives with
 * `fermata-dead-letter-*` headers and `message.deadLetter` (reason, source
 * topic and group, source id, attempts, the handler's last error, bounded),
 * the SDK does not promise a redelivery for the attempt that dead-letters,
 * and redrive (by id, and all) moves dead letters back to their topic with
 * no attempt counted, to their group only.
 */
import { DEAD_LETTER_HEADERS, MAX_NACK_ERROR_BYTES, type Message } from '@fermata/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, startCluster } from '../src/index.js';
import { clientOf, createdTopic } from './sdk-support.js';
import { eventually } from './support.js';

describe('dead letters', () => {
  let cluster: Cluster;
  let client: ReturnType<typeof clientOf>;
  beforeAll(async () => {
    cluster = await startCluster({ nodes: 1, autoCreateTopics: false });
    client = clientOf(cluster);
  });
  afterAll(async () => {
    await client?.close();
    await cluster?.stop();
  });

  it('carry why as headers and typed fields; the last failed attempt is not called a redelivery', async () => {
    const topic = await createdTopic(client, 'dl', { maxAttempts: 2 });
    // A consumer of dead letters may subscribe before the first one (its topic declares the dead-letter topic).
    const letters: Message[] = [];
    const dlqSub = client.subscribe(`${topic}.dlq`, async (m) => {
      letters.push(m);
    });
    const long = `payment service said 503: ${'é'.repeat(3_000)}`;
    const failing = clientOf(cluster);
    const failSub = failing.subscribe(topic, { retryBackoff: { initialMs: 50, jitter: 0 } }, async (m) => {
      throw new Error(m.text() === 'long' ? long : 'payment service said 503');
    });
    const id = await client.publish(topic, 'short', { headers: { order: '17' } });
    const longId = await client.publish(topic, 'long');
    await eventually(() => letters.length === 2, 30_000, 'two dead letters');
    await failSub.close();
    await dlqSub.close();
    await failing.close();

    const short = letters.find((m) => m.text() === 'short')!;
    expect(short.headers).toEqual({
      order: '17',
      [DEAD_LETTER_HEADERS.reason]: 'max_attempts',
      [DEAD_LETTER_HEADERS.sourceTopic]: topic,
      [DEAD_LETTER_HEADERS.sourceGroup]: 'default',
      [DEAD_LETTER_HEADERS.sourceId]: String(id),
      [DEAD_LETTER_HEADERS.attempts]: '2',
      [DEAD_LETTER_HEADERS.lastError]: 'payment service said 503',
    });
    expect(short.deadLetter).toEqual({
      reason: 'max_attempts',
      sourceTopic: topic,
      sourceGroup: 'default',
      sourceId: id,
      attempts: 2,
      lastError: 'payment service said 503',
    });
    const cut = letters.find((m) => m.text() === 'long')!.deadLetter!;
    expect(cut.sourceId).toBe(longId);
    expect(Buffer.byteLength(cut.lastError)).toBeLessThanOrEqual(MAX_NACK_ERROR_BYTES);
    expect(cut.lastError.startsWith('payment service said 503: éé')).toBe(true);
    expect(cut.lastError.endsWith('…')).toBe(true);

    // Attempt 1 is retried; attempt 2 (maxAttempts) goes to the dead-letter topic and says so.
    const warned = failing.log.filter((l) => l.level === 'warn' && l.context?.['id'] === id);
    expect(warned.map((l) => [l.context?.['attempt'], l.message])).toEqual([
      [1, 'handler failed; the message will be redelivered'],
      [2, "handler failed on the message's last attempt (maxAttempts); it goes to the dead-letter topic"],
    ]);
  });

  it('redrive by id and all: back to their group as new messages, attempt 1 again, gone from the dead-letter topic', async () => {
    const topic = await createdTopic(client, 'redrive', { maxAttempts: 1 });
    await client.createGroup(topic, 'audit');
    const failing = clientOf(cluster);
    const failSub = failing.subscribe(topic, async () => {
      throw new Error('not today');
    });
    const ids = (await client.publishBatch(['a', 'b', 'c'].map((p) => ({ topic, payload: p })))).map(
      (r) => r.id,
    );
    const dlq = `${topic}.dlq`;
    await eventually(
      async () => (await client.topicStats(dlq).catch(() => undefined))?.groups[0]?.pending === 3,
      30_000,
      'three dead letters',
    );
    await failSub.close();
    await failing.close();
    // The dead-letter topic's messages show the same headers to an inspection.
    const listed = (await client.listMessages(dlq)).messages;
    expect(listed.map((m) => m.message.headers[DEAD_LETTER_HEADERS.lastError])).toEqual([
      'not today',
      'not today',
      'not today',
    ]);
    const letterOf = (id: bigint) =>
      listed.find((m) => m.message.headers[DEAD_LETTER_HEADERS.sourceId] === String(id))!.message.id;

    const [one] = await client.redrive(topic, { ids: [String(letterOf(ids[0]!))] });
    expect(one).toMatchObject({ id: letterOf(ids[0]!), status: 'redriven' });
    expect(await client.redrive(topic, { ids: [letterOf(ids[0]!)] })).toEqual([
      { id: letterOf(ids[0]!), status: 'not-found', newId: undefined },
    ]);
    const rest = await client.redrive(topic, { all: true });
    expect(rest.map((r) => r.status)).toEqual(['redriven', 'redriven']);
    expect((await client.topicStats(dlq)).groups[0]).toMatchObject({ pending: 0, inFlight: 0 });

    // Back in the topic, for the group that dead-lettered them only (audit never consumed them: it still
    // holds its own copies), attempt 1, no dead-letter headers.
    const stats = await client.topicStats(topic);
    expect(stats.groups.find((g) => g.group === 'default')!.pending).toBe(3);
    expect(stats.groups.find((g) => g.group === 'audit')!.pending).toBe(3);
    const got: Message[] = [];
    const sub = client.subscribe(topic, async (m) => {
      got.push(m);
    });
    await eventually(() => got.length === 3, 30_000, 'the redriven messages');
    await sub.close();
    expect(got.map((m) => [m.text(), m.attempt, m.deadLetter]).sort()).toEqual([
      ['a', 1, undefined],
      ['b', 1, undefined],
      ['c', 1, undefined],
    ]);
    expect(new Set(got.map((m) => m.id)).has(one!.newId!)).toBe(true);
  });
});
