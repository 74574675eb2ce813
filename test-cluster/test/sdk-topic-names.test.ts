/**
 * Mistyped topic and group names against a real node: with the server's
 * default (`topics.autoCreate` off) a publish to a topic that does not exist
 * is refused with the names closest to it; consuming never creates a topic or
 * a group, whatever the setting, and says which one was meant. With
 * `topics.autoCreate` on, a publish creates its topic.
 */
import { type FermataError, NotFoundError } from '@fermata/sdk';
import { afterAll, describe, expect, it } from 'vitest';
import { type Cluster, startCluster } from '../src/index.js';
import { clientOf, rejection } from './sdk-support.js';

describe('topic and group names', () => {
  const clusters: Cluster[] = [];
  afterAll(async () => {
    await Promise.all(clusters.map((c) => c.stop()));
  });

  it('by default a publish to an unknown topic, a subscribe to one and to an unknown group are refused, naming the closest', {
    timeout: 120_000,
  }, async () => {
    const cluster = await startCluster({ nodes: 1, autoCreateTopics: false });
    clusters.push(cluster);
    const client = clientOf(cluster);
    try {
      await client.createTopic('greetings');
      await client.createTopic('orders');
      await client.createGroup('greetings', 'workers');

      const publish = await rejection(client.publish('greetngs', 'hello'), NotFoundError);
      expect(publish.message).toBe(
        'NOT_FOUND: topic "greetngs" not found; messages[0].topic: did you mean "greetings"? or create it with `fermata topics create` or createTopic (this cluster does not create topics on publish: topics.autoCreate is false)',
      );
      const far = await rejection(client.publish('zzzzzzzzzzzz', 'hello'), NotFoundError);
      expect(far.message).toContain('the topics closest to it are "greetings", "orders"');
      // Nothing was created by the refused publishes.
      expect((await client.listTopics()).map((t) => t.name).sort()).toEqual(['greetings', 'orders']);

      const errors: FermataError[] = [];
      const sub = client.subscribe('greetngs', { onError: (e) => errors.push(e) }, () => {});
      const stopped = await rejection(sub.done, NotFoundError);
      expect(stopped.message).toContain(
        'topic "greetngs" not found; subscribe.topic: did you mean "greetings"?',
      );
      expect(stopped.message).toContain('consuming never creates a topic');
      expect(errors).toEqual([stopped]);

      const group = await rejection(
        client.subscribe('greetings', { group: 'wokers' }, () => {}).done,
        NotFoundError,
      );
      expect(group.message).toContain(
        'group "greetings/wokers" not found; subscribe.group: did you mean "workers"?',
      );
      expect((await client.listTopics()).map((t) => t.name).sort()).toEqual(['greetings', 'orders']);
      expect((await client.listTopics()).find((t) => t.name === 'greetings')!.groups).toEqual([
        'default',
        'workers',
      ]);

      // The right names work.
      const id = await client.publish('greetings', 'hello');
      const got = await new Promise<bigint>((resolve) => {
        client.subscribe('greetings', { group: 'workers' }, (m) => resolve(m.id));
      });
      expect(got).toBe(id);
    } finally {
      await client.close();
    }
  });

  it('with topics.autoCreate a publish creates its topic; a subscribe to an unknown one is still refused', {
    timeout: 120_000,
  }, async () => {
    const cluster = await startCluster({ nodes: 1, env: { FERMATA_TOPICS__AUTO_CREATE: 'true' } });
    clusters.push(cluster);
    const client = clientOf(cluster);
    try {
      await client.publish('made-by-publish', 'hello');
      expect((await client.listTopics()).map((t) => t.name)).toEqual(['made-by-publish']);
      const sub = client.subscribe('made-by-publsh', () => {});
      expect((await rejection(sub.done, NotFoundError)).message).toContain('did you mean "made-by-publish"?');
    } finally {
      await client.close();
    }
  });
});
