/**
 * Who may send dead letters where: a topic's dead-letter topic records the
 * token that set it, and a lease or expire the leader marks as falling back
 * sends its dead letters to the topic's own `<topic>.dlq` instead.
 */
import { describe, expect, it } from 'vitest';
import { Harness, T0, text } from './state-harness.js';

describe('dead-letter authority', () => {
  it('the setting keeps the token that set the target; an update of other fields keeps it, a new target replaces it', async () => {
    const h = await Harness.create();
    const c = await h.ok({
      kind: 'create-topic',
      name: 'a.x',
      settings: { deadLetterTopic: 'victim', deadLetterAuthorizedBy: 'alice' },
    });
    expect(c.topic.settings).toMatchObject({ deadLetterTopic: 'victim', deadLetterAuthorizedBy: 'alice' });
    const u = await h.ok({ kind: 'update-topic', name: 'a.x', settings: { maxAttempts: 3 } });
    expect(u.topic.settings.deadLetterAuthorizedBy).toBe('alice');
    const v = await h.ok({
      kind: 'update-topic',
      name: 'a.x',
      settings: { deadLetterTopic: 'other', deadLetterAuthorizedBy: 'bob' },
    });
    expect(v.topic.settings).toMatchObject({ deadLetterTopic: 'other', deadLetterAuthorizedBy: 'bob' });
    const reset = await h.ok({
      kind: 'update-topic',
      name: 'a.x',
      settings: { deadLetterTopic: '' },
      updateMask: ['dead_letter_topic'],
    });
    expect(reset.topic.settings).toMatchObject({ deadLetterTopic: '', deadLetterAuthorizedBy: '' });
    // Without a target there is no authority to keep.
    const d = await h.ok({
      kind: 'create-topic',
      name: 'b',
      settings: { deadLetterAuthorizedBy: 'mallory' },
    });
    expect(d.topic.settings.deadLetterAuthorizedBy).toBe('');
  });

  it('a lease or an expire marked to fall back dead-letters to <topic>.dlq, not the configured target', async () => {
    const h = await Harness.create();
    await h.ok({
      kind: 'create-topic',
      name: 'src',
      settings: {
        maxAttempts: 1,
        deadLetterTopic: 'victim',
        expiryAction: 'dead-letter',
        deadLetterAuthorizedBy: 'alice',
      },
    });
    await h.publish({ topic: 'src', payload: text('a') }, { topic: 'src', payload: text('b') });
    const [e] = await h.publish({ topic: 'src', payload: text('c'), ttlMs: 10, delayMs: 60_000 });
    await h.leaseAll('src', 'default', 100);
    h.now = T0 + 200;
    const due = await h.due('src');
    // One lease as an authorized leader proposes it, one marked to fall back.
    const first = await h.ok({
      kind: 'lease',
      topic: 'src',
      group: 'default',
      tags: [due[0]!.tag],
      leaseMs: 10,
    });
    expect(first.outcomes[0]!.status).toBe('dead-lettered');
    const second = await h.ok({
      kind: 'lease',
      topic: 'src',
      group: 'default',
      tags: [due[1]!.tag],
      leaseMs: 10,
      deadLetterFallback: true,
    });
    expect(second.outcomes[0]!.status).toBe('dead-lettered');
    const x = await h.ok({ kind: 'expire', ids: [e!.id], deadLetterFallbackTopics: ['src'] });
    expect(x.outcomes).toEqual([{ id: e!.id, status: 'dead-lettered' }]);
    expect((await h.stats('victim')).pending).toBe(1);
    expect((await h.stats('src.dlq')).pending).toBe(2);
  });
});
