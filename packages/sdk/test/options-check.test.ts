import { afterAll, describe, expect, it } from 'vitest';
import { FermataClient, type Logger } from '../src/index.js';

const quiet: Logger = { debug: () => {}, warn: () => {}, error: () => {} };
// Nothing listens there: every check below must fail before any call leaves.
const client = new FermataClient({ endpoints: '127.0.0.1:9', logger: quiet, deadlineMs: 60_000 });
afterAll(() => client.close());

/** The TypeError `p` fails with (a rejection or a synchronous throw), or a failure if it does not. */
async function typeError(p: () => unknown): Promise<string> {
  try {
    await p();
  } catch (e) {
    expect(e).toBeInstanceOf(TypeError);
    return (e as Error).message;
  }
  throw new Error('expected a TypeError');
}

// Plain JavaScript: the options objects below do not type-check, as a user's JS is never checked.
// biome-ignore lint/suspicious/noExplicitAny: calls as plain JavaScript makes them
const js = client as any;

describe('options are checked at run time: an unknown name is a TypeError naming it and the right one', () => {
  it("BullMQ's names: delay -> delayMs, jobId -> key; attempts and priority say what Fermata does", async () => {
    expect(await typeError(() => js.publish('t', 'x', { delay: 5_000 }))).toBe(
      'publish options: unknown option "delay"; did you mean "delayMs"?',
    );
    expect(await typeError(() => js.publishDetailed('t', 'x', { jobId: 'a' }))).toBe(
      'publish options: unknown option "jobId"; did you mean "key"?',
    );
    expect(await typeError(() => js.publish('t', 'x', { attempts: 3 }))).toContain(
      'attempts are a topic setting: createTopic(topic, { maxAttempts })',
    );
    expect(await typeError(() => js.publishBatch([{ topic: 't', payload: 'x', priority: 1 }]))).toBe(
      'publishBatch messages[0]: unknown option "priority"; Fermata has no priorities: a message is delivered at its due time',
    );
  });

  it('typos in every call that takes options', async () => {
    expect(await typeError(() => new FermataClient({ endpoint: 'x:1' } as never))).toBe(
      'new FermataClient options: unknown option "endpoint"; did you mean "endpoints"?',
    );
    expect(
      await typeError(() => new FermataClient({ endpoints: 'x:1', retry: { intialMs: 5 } } as never)),
    ).toBe('options.retry: unknown option "intialMs"; did you mean "initialMs"?');
    expect(await typeError(() => js.subscribe('t', { concurency: 4 }, () => {}))).toBe(
      'subscribe options: unknown option "concurency"; did you mean "concurrency"?',
    );
    expect(await typeError(() => js.subscribe('t', { autoExtend: { maxTotal: 1 } }, () => {}))).toContain(
      'did you mean "maxTotalMs"?',
    );
    expect(await typeError(() => js.producer({ linger: 5 }))).toBe(
      'producer options: unknown option "linger"; did you mean "lingerMs"?',
    );
    const producer = js.producer();
    expect(await typeError(() => producer.send('t', 'x', { delay: 1 }))).toContain('"delayMs"');
    await producer.close();
    expect(await typeError(() => js.cancel('t', 1n, { deadline: 5 }))).toBe(
      'cancel options: unknown option "deadline"; did you mean "deadlineMs"?',
    );
    expect(await typeError(() => js.cancel('t', { ids: 1n }))).toContain('did you mean "id"?');
    expect(await typeError(() => js.reschedule('t', 1n, { delay: 5 }))).toContain('did you mean "delayMs"?');
    expect(await typeError(() => js.listMessages('t', { groop: 'a' }))).toContain('did you mean "group"?');
    expect(await typeError(() => js.createTopic('t', { maxAttempt: 3 }))).toBe(
      'createTopic settings: unknown option "maxAttempt"; did you mean "maxAttempts"?',
    );
    expect(
      await typeError(() => js.upsertSchedule('t', 's', { spec: 'every 1m', timezone: 'UTC' })),
    ).toContain('did you mean "timeZone"?');
    expect(await typeError(() => js.listSchedules('t', { afterNam: 'a' }))).toContain(
      'did you mean "afterName"?',
    );
    expect(await typeError(() => js.addMember('n4', { peerAddr: 'a:1', address: 'a:2' }))).toContain(
      'did you mean "peerAddress"?',
    );
    expect(await typeError(() => js.publish('t', 'x', 5_000))).toBe(
      'publish options must be an object of options, got number 5000',
    );
  });

  it('a name with nothing close lists the options', async () => {
    expect(await typeError(() => js.topicStats('t', { zzzzzzzz: 1 }))).toBe(
      'topicStats options: unknown option "zzzzzzzz"; the options are "deadlineMs"',
    );
  });
});
