/**
 * Ids are 64-bit, so the SDK hands them out as bigints, which JSON.stringify
 * refuses. Against a real node: an id stored as its decimal string (in JSON,
 * in a database's text column) names the message in every call that takes
 * an id, a message gives its `idString`, and a bad id string says what was
 * expected.
 */
import { InvalidArgumentError, type Message } from '@fermata/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, startCluster } from '../src/index.js';
import { clientOf, createdTopic, rejection } from './sdk-support.js';

describe('message ids as decimal strings', () => {
  let cluster: Cluster;
  let client: ReturnType<typeof clientOf>;
  beforeAll(async () => {
    cluster = await startCluster({ nodes: 1 });
    client = clientOf(cluster);
  });
  afterAll(async () => {
    await client?.close();
    await cluster?.stop();
  });

  it('getMessage, reschedule and cancel take the id as stored in JSON; Message.idString round-trips', async () => {
    const topic = await createdTopic(client, 'ids');
    const id = await client.publish(topic, 'later', { delayMs: 600_000 });
    // What an application keeps: a JSON document with the id as a string.
    const stored = JSON.stringify({ id: String(id), to: 'ada@example.com' });
    const { id: idText } = JSON.parse(stored) as { id: string };
    expect((await client.getMessage(topic, idText)).message.id).toBe(id);
    expect((await client.getMessage(topic, { id: idText })).message.id).toBe(id);
    expect((await client.reschedule(topic, idText, { delayMs: 900_000 })).status).toBe('rescheduled');
    expect((await client.cancel(topic, idText)).status).toBe('cancelled');

    const now = await client.publish(topic, 'now');
    const message = await new Promise<Message>((resolve) => {
      client.subscribe(topic, async (m) => resolve(m));
    });
    expect(message.id).toBe(now);
    expect(message.idString).toBe(String(now));
    expect(JSON.parse(JSON.stringify({ id: message.idString })).id).toBe(String(now));
    expect((await client.cancel(topic, message.idString)).status).not.toBe('not-found');
  });

  it('a string that is not an id, or an id as a number, is refused naming what was expected', async () => {
    const topic = await createdTopic(client, 'bad-ids');
    const word = await rejection(client.cancel(topic, 'order-17'), InvalidArgumentError);
    expect(word.message).toBe(
      'INVALID_ARGUMENT: id: must be a message id, a bigint or its decimal string, got "order-17"; a message key goes as { key: "order-17" }',
    );
    expect(word.field).toBe('id');
    const tooBig = await rejection(client.getMessage(topic, '18446744073709551616'), InvalidArgumentError);
    expect(tooBig.message).toContain('got "18446744073709551616"');
    // biome-ignore lint/suspicious/noExplicitAny: what plain JavaScript can pass
    const asNumber = await rejection(client.cancel(topic, 102612 as any), InvalidArgumentError);
    expect(asNumber.message).toContain('ids are bigints (102612n) or decimal strings ("102612")');
  });
});
