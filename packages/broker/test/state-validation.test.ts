import { digestStore } from '@fermata/storage';
import { describe, expect, it } from 'vitest';
import { messageValid } from '../src/state/commands/validation.js';
import {
  DEFAULT_LIMITS,
  isStateError,
  LimitError,
  NotFoundError,
  type PublishInput,
  type StateError,
  ValidationError,
  validateCommand,
  validateMessage,
  validatePublish,
} from '../src/state/index.js';
import { type Cmd, Harness, rng, T0, text } from './state-harness.js';

/** Everything but the meta namespace (0x09: applied index, last id, last stamp). */
const content = (h: Harness) => digestStore(h.store, { lt: Uint8Array.of(0x09) });

async function seeded(): Promise<Harness> {
  const h = await Harness.create();
  await h.ok({ kind: 'create-topic', name: 't', settings: { dedupWindowMs: 1_000 } });
  await h.ok({ kind: 'create-group', topic: 't', group: 'g' });
  await h.ok({
    kind: 'create-group',
    topic: 't',
    group: 'slow',
    settings: { maxDeliveriesPerSecond: 5, burst: 20 },
  });
  await h.publish(
    { topic: 't', payload: text('a'), key: 'k', ttlMs: 5_000 },
    { topic: 't', payload: text('b') },
  );
  await h.leaseAll('t');
  return h;
}

const msg = (over: Partial<PublishInput> = {}): PublishInput => ({ topic: 't', payload: text('x'), ...over });
const tag5 = new Uint8Array(5);

const cases: [string, Cmd, (e: StateError) => void][] = [
  [
    'unknown topic on cancel',
    { kind: 'cancel', topic: 'nope', target: { id: 1n } },
    (e) => expect(e).toMatchObject({ name: 'NotFoundError', what: 'topic', target: 'nope' }),
  ],
  [
    'unknown topic on reschedule',
    { kind: 'reschedule', topic: 'nope', target: { key: 'k' }, delayMs: 1 },
    (e) => expect(e).toBeInstanceOf(NotFoundError),
  ],
  [
    'unknown topic on lease',
    { kind: 'lease', topic: 'nope', group: 'default', tags: [new Uint8Array(24)], leaseMs: 10 },
    (e) => expect(e).toMatchObject({ what: 'topic' }),
  ],
  [
    'unknown group on lease',
    { kind: 'lease', topic: 't', group: 'zzz', tags: [new Uint8Array(24)], leaseMs: 10 },
    (e) => expect(e).toMatchObject({ what: 'group' }),
  ],
  [
    'unknown topic on create-group',
    { kind: 'create-group', topic: 'nope', group: 'g' },
    (e) => expect(e).toMatchObject({ what: 'topic' }),
  ],
  [
    'unknown topic on delete-topic',
    { kind: 'delete-topic', name: 'nope' },
    (e) => expect(e).toMatchObject({ what: 'topic' }),
  ],
  [
    'malformed tag on ack',
    { kind: 'ack', tags: [new Uint8Array(24), tag5] },
    (e) => expect(e).toMatchObject({ name: 'ValidationError', field: 'tags[1]' }),
  ],
  [
    'malformed tag on nack',
    { kind: 'nack', tag: tag5, delayMs: 0 },
    (e) => expect(e).toMatchObject({ field: 'tag' }),
  ],
  [
    'malformed tag on extend',
    { kind: 'extend', tag: tag5, leaseMs: 10 },
    (e) => expect(e).toMatchObject({ field: 'tag' }),
  ],
  [
    'payload over the limit',
    {
      kind: 'publish',
      messages: [msg(), msg({ payload: new Uint8Array(DEFAULT_LIMITS.maxPayloadBytes + 1) })],
    },
    (e) =>
      expect(e).toMatchObject({ name: 'LimitError', limit: 'maxPayloadBytes', field: 'messages[1].payload' }),
  ],
  [
    'negative delay',
    { kind: 'publish', messages: [msg({ delayMs: -1 })] },
    (e) => expect(e).toMatchObject({ name: 'ValidationError', field: 'messages[0].delay_ms' }),
  ],
  [
    'delay beyond the maximum',
    { kind: 'publish', messages: [msg({ delayMs: DEFAULT_LIMITS.maxDelayMs + 1 })] },
    (e) => expect(e).toMatchObject({ limit: 'maxDelayMs', field: 'messages[0].delay_ms' }),
  ],
  [
    'deliver_at beyond the maximum',
    { kind: 'publish', messages: [msg({ deliverAtMs: T0 + DEFAULT_LIMITS.maxDelayMs + 1 })] },
    (e) => expect(e).toMatchObject({ limit: 'maxDelayMs', field: 'messages[0].deliver_at_ms' }),
  ],
  [
    'illegal topic name',
    { kind: 'publish', messages: [msg({ topic: 'bad topic/name' })] },
    (e) => expect(e).toMatchObject({ name: 'ValidationError', field: 'messages[0].topic' }),
  ],
  [
    'empty topic name',
    { kind: 'publish', messages: [msg({ topic: '' })] },
    (e) => expect(e).toMatchObject({ field: 'messages[0].topic' }),
  ],
  [
    'too many messages in a batch',
    { kind: 'publish', messages: Array.from({ length: DEFAULT_LIMITS.maxBatchMessages + 1 }, () => msg()) },
    (e) => expect(e).toMatchObject({ limit: 'maxBatchMessages', field: 'messages' }),
  ],
  [
    'headers too large',
    { kind: 'publish', messages: [msg({ headers: { big: 'x'.repeat(DEFAULT_LIMITS.maxHeadersBytes) } })] },
    (e) => expect(e).toMatchObject({ limit: 'maxHeadersBytes', field: 'messages[0].headers' }),
  ],
  [
    'key too long',
    { kind: 'publish', messages: [msg({ key: 'k'.repeat(DEFAULT_LIMITS.maxKeyBytes + 1) })] },
    (e) => expect(e).toMatchObject({ limit: 'maxKeyBytes' }),
  ],
  [
    'negative ttl',
    { kind: 'publish', messages: [msg({ ttlMs: -5 })] },
    (e) => expect(e).toMatchObject({ field: 'messages[0].ttl_ms' }),
  ],
  ['empty batch', { kind: 'publish', messages: [] }, (e) => expect(e).toMatchObject({ field: 'messages' })],
  [
    'lease of zero ms',
    { kind: 'lease', topic: 't', group: 'default', tags: [new Uint8Array(24)], leaseMs: 0 },
    (e) => expect(e).toMatchObject({ field: 'lease_ms' }),
  ],
  [
    'lease beyond the maximum',
    { kind: 'extend', tag: new Uint8Array(24), leaseMs: DEFAULT_LIMITS.maxLeaseMs + 1 },
    (e) => expect(e).toMatchObject({ limit: 'maxLeaseMs' }),
  ],
  [
    'nack delay negative',
    { kind: 'nack', tag: new Uint8Array(24), delayMs: -1 },
    (e) => expect(e).toMatchObject({ field: 'delay_ms' }),
  ],
  [
    'bad topic settings',
    { kind: 'create-topic', name: 'x', settings: { maxAttempts: DEFAULT_LIMITS.maxMaxAttempts + 1 } },
    (e) => expect(e).toMatchObject({ limit: 'maxMaxAttempts', field: 'settings.max_attempts' }),
  ],
  [
    'unknown update mask field',
    { kind: 'update-topic', name: 't', settings: {}, updateMask: ['colour'] },
    (e) => expect(e).toMatchObject({ field: 'update_mask' }),
  ],
  [
    'existing topic',
    { kind: 'create-topic', name: 't' },
    (e) => expect(e).toMatchObject({ name: 'AlreadyExistsError', what: 'topic' }),
  ],
  [
    'existing group',
    { kind: 'create-group', topic: 't', group: 'g' },
    (e) => expect(e).toMatchObject({ name: 'AlreadyExistsError', what: 'group' }),
  ],
  ['expire with no ids', { kind: 'expire', ids: [] }, (e) => expect(e).toMatchObject({ field: 'ids' })],
  [
    'ordering key too long',
    { kind: 'publish', messages: [msg({ orderingKey: 'o'.repeat(DEFAULT_LIMITS.maxKeyBytes + 1) })] },
    (e) => expect(e).toMatchObject({ limit: 'maxKeyBytes', field: 'messages[0].ordering_key' }),
  ],
  [
    'a deadline before the due time',
    { kind: 'publish', messages: [msg({ delayMs: 1_000, deliverBeforeMs: T0 + 999 })] },
    (e) => expect(e).toMatchObject({ name: 'ValidationError', field: 'messages[0].deliver_before_ms' }),
  ],
  [
    'a deadline further past the due time than a TTL may be',
    { kind: 'publish', messages: [msg({ deliverBeforeMs: T0 + DEFAULT_LIMITS.maxTtlMs + 1 })] },
    (e) => expect(e).toMatchObject({ limit: 'maxTtlMs', field: 'messages[0].deliver_before_ms' }),
  ],
  [
    'a topic lateness past the TTL limit',
    { kind: 'update-topic', name: 't', settings: { maxLatenessMs: DEFAULT_LIMITS.maxTtlMs + 1 } },
    (e) => expect(e).toMatchObject({ limit: 'maxTtlMs', field: 'settings.max_lateness_ms' }),
  ],
  [
    'a group burst without a rate',
    { kind: 'create-group', topic: 't', group: 'h', settings: { burst: 10 } },
    (e) => expect(e).toMatchObject({ name: 'ValidationError', field: 'settings.burst' }),
  ],
  [
    'a group rate over the limit',
    { kind: 'update-group', topic: 't', group: 'g', settings: { maxDeliveriesPerSecond: 100_001 } },
    (e) =>
      expect(e).toMatchObject({
        limit: 'maxDeliveriesPerSecond',
        field: 'settings.max_deliveries_per_second',
      }),
  ],
  [
    'a group in-flight limit over the limit',
    { kind: 'update-group', topic: 't', group: 'g', settings: { maxInFlight: 1_000_001 } },
    (e) => expect(e).toMatchObject({ limit: 'maxMaxInFlight', field: 'settings.max_in_flight' }),
  ],
  [
    'a group burst over the limit',
    {
      kind: 'update-group',
      topic: 't',
      group: 'g',
      settings: { maxDeliveriesPerSecond: 10, burst: 1_000_001 },
    },
    (e) => expect(e).toMatchObject({ limit: 'maxBurst', field: 'settings.burst' }),
  ],
  [
    'a group update that clears the rate a burst needs',
    {
      kind: 'update-group',
      topic: 't',
      group: 'slow',
      settings: {},
      updateMask: ['max_deliveries_per_second'],
    },
    (e) => expect(e).toMatchObject({ name: 'ValidationError', field: 'settings.burst' }),
  ],
  [
    'a burst over the limit given alone, checked before the group is read',
    {
      kind: 'update-group',
      topic: 't',
      group: 'slow',
      settings: { burst: 1_000_001 },
      updateMask: ['burst'],
    },
    (e) => expect(e).toMatchObject({ limit: 'maxBurst', field: 'settings.burst' }),
  ],
  [
    'unknown group update mask field',
    { kind: 'update-group', topic: 't', group: 'g', settings: {}, updateMask: ['max_attempts'] },
    (e) => expect(e).toMatchObject({ field: 'update_mask' }),
  ],
  [
    'settings of a group that does not exist',
    { kind: 'update-group', topic: 't', group: 'nope', settings: { paused: true } },
    (e) => expect(e).toMatchObject({ name: 'NotFoundError', what: 'group' }),
  ],
];

describe('bad commands produce precise errors and change nothing', () => {
  for (const [name, cmd, check] of cases) {
    it(name, async () => {
      const h = await seeded();
      const before = await content(h);
      const r = await h.run(cmd);
      expect(r.kind).toBe('error');
      if (r.kind !== 'error') return;
      expect(isStateError(r.error)).toBe(true);
      check(r.error);
      expect(await content(h)).toBe(before);
      expect(h.sm.appliedIndex()).toBe(h.index);
    });
  }

  it("a group update of its burst alone passes the leader's check and keeps the group's rate", async () => {
    const h = await seeded();
    const cmd = {
      kind: 'update-group' as const,
      topic: 't',
      group: 'slow',
      settings: { burst: 40 },
      updateMask: ['burst'],
    };
    expect(() => validateCommand({ ...cmd, nowMs: T0 }, T0, DEFAULT_LIMITS)).not.toThrow();
    const r = await h.ok(cmd);
    expect(r.topic.groupSettings?.['slow']).toMatchObject({ maxDeliveriesPerSecond: 5, burst: 40 });
  });

  it('a publish batch with one bad message stores none of it (atomic)', async () => {
    const h = await seeded();
    const before = await content(h);
    const r = await h.run({ kind: 'publish', messages: [msg({ topic: 'brand-new' }), msg({ delayMs: -1 })] });
    expect(r.kind).toBe('error');
    expect(await content(h)).toBe(before);
    expect(await h.sm.reader.getTopic('brand-new')).toBeUndefined();
  });

  it('a bad command between good ones in one entry batch: the others apply, the index advances over all', async () => {
    const h = await seeded();
    const start = h.index;
    const results = await h.runAll([
      { kind: 'publish', messages: [msg({ topic: 'one' })] },
      { kind: 'publish', messages: [msg({ topic: 'two', delayMs: -1 })] },
      { kind: 'publish', messages: [msg({ topic: 'three' })] },
    ]);
    expect(results.map((r) => r.kind)).toEqual(['publish', 'error', 'publish']);
    expect(h.sm.appliedIndex()).toBe(start + 3);
    expect((await h.sm.reader.listTopics()).map((t) => t.name).sort()).toEqual(['one', 't', 'three']);
  });

  it('an entry that is not a command is an error result and advances the index', async () => {
    const h = await seeded();
    const before = await content(h);
    const [r] = await h.applyEntries([
      { term: 1, index: h.index + 1, type: 'normal', data: Uint8Array.of(0xff, 0xff, 0xff) },
    ]);
    expect(r).toMatchObject({ kind: 'error', error: { field: 'command' } });
    expect(await content(h)).toBe(before);
  });

  it('a command stamped with a negative time is refused', async () => {
    const h = await seeded();
    const before = await content(h);
    const r = await h.run({ kind: 'publish', messages: [msg()], nowMs: -5 });
    expect(r).toMatchObject({ kind: 'error', error: { field: 'now_ms' } });
    expect(await content(h)).toBe(before);
  });

  it('a publish whose ids are not above the last id is refused (never reuses an id)', async () => {
    const h = await seeded();
    const before = await content(h);
    const r = await h.run({ kind: 'publish', messages: [msg()], firstId: h.sm.ids.lastId });
    expect(r).toMatchObject({ kind: 'error', error: { name: 'ConflictError', reason: 'id-reuse' } });
    expect(await content(h)).toBe(before);
  });

  it('validatePublish answers before proposing with the same errors apply gives', () => {
    expect(() => validatePublish([msg({ delayMs: -3 })], T0, DEFAULT_LIMITS)).toThrow(ValidationError);
    expect(() =>
      validatePublish([msg({ payload: new Uint8Array(11) })], T0, { ...DEFAULT_LIMITS, maxPayloadBytes: 10 }),
    ).toThrow(LimitError);
    try {
      validatePublish([msg(), msg({ topic: 'a\u0000b' })], T0, DEFAULT_LIMITS);
      expect.unreachable();
    } catch (e) {
      expect(e).toMatchObject({ field: 'messages[1].topic' });
    }
    // The wire oneof cannot carry both, but a server building inputs by hand can.
    expect(() => validatePublish([msg({ delayMs: 1, deliverAtMs: T0 })], T0, DEFAULT_LIMITS)).toThrow(
      /schedule/,
    );
    expect(() =>
      validatePublish([msg({ delayMs: 10, ttlMs: 10, key: 'k', headers: { a: 'b' } })], T0, DEFAULT_LIMITS),
    ).not.toThrow();
  });

  it('validateCommand checks any command before it is proposed', () => {
    expect(() => validateCommand({ kind: 'ack', nowMs: T0, tags: [tag5] }, T0, DEFAULT_LIMITS)).toThrow(
      /tags\[0\]/,
    );
    expect(() =>
      validateCommand({ kind: 'cancel', nowMs: T0, topic: 'x', target: { key: '' } }, T0, DEFAULT_LIMITS),
    ).toThrow(ValidationError);
    expect(() =>
      validateCommand(
        { kind: 'create-group', nowMs: T0, topic: 'x', group: 'no spaces' },
        T0,
        DEFAULT_LIMITS,
      ),
    ).toThrow(/group/);
    expect(() =>
      validateCommand(
        {
          kind: 'lease',
          nowMs: T0,
          topic: 'x',
          group: '',
          tags: [new Uint8Array(24)],
          leaseMs: 5,
          firstId: 1n,
          idCount: 1,
        },
        T0,
        DEFAULT_LIMITS,
      ),
    ).not.toThrow();
  });

  it('limits are configurable (every node the same)', async () => {
    const h = await Harness.create({ limits: { maxBatchMessages: 2 } });
    const r = await h.run({ kind: 'publish', messages: [msg(), msg(), msg()] });
    expect(r).toMatchObject({ kind: 'error', error: { limit: 'maxBatchMessages', max: 2 } });
  });
});

describe('the per-message fast check', () => {
  it('accepts exactly what validateMessage accepts (3,000 random messages near every limit)', () => {
    const limits = {
      ...DEFAULT_LIMITS,
      maxPayloadBytes: 64,
      maxHeaderCount: 2,
      maxHeadersBytes: 20,
      maxKeyBytes: 8,
    };
    const r = rng(11);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
    const maybe = <T>(x: T): T | undefined => (r() < 0.5 ? x : undefined);
    let accepted = 0;
    for (let i = 0; i < 3_000; i++) {
      const m = {
        topic: pick([
          't',
          '',
          'bad name',
          'é',
          'x'.repeat(limits.maxTopicNameBytes),
          'x'.repeat(limits.maxTopicNameBytes + 1),
        ]),
        payload: pick([
          new Uint8Array(0),
          new Uint8Array(64),
          new Uint8Array(65),
          'text' as unknown as Uint8Array,
        ]),
        headers: maybe(
          pick([{}, { a: 'b' }, { '': 'x' }, { a: '1', b: '2', c: '3' }, { a: 'é'.repeat(10) }]),
        ),
        key: maybe(pick(['', 'k', 'ü'.repeat(4), 'ü'.repeat(5)])),
        delayMs: maybe(pick([0, 5, -1, 1.5, limits.maxDelayMs, limits.maxDelayMs + 1])),
        deliverAtMs: maybe(pick([0, T0 - 1, T0 + limits.maxDelayMs, T0 + limits.maxDelayMs + 1, -3, 2.5])),
        ttlMs: maybe(pick([0, 10, -1, limits.maxTtlMs + 1, Number.NaN])),
        orderingKey: maybe(pick(['', 'o', 'ü'.repeat(4), 'ü'.repeat(5)])),
        deliverBeforeMs: maybe(
          pick([
            0,
            T0 - 1,
            T0,
            T0 + 5,
            T0 + limits.maxTtlMs,
            T0 + limits.maxDelayMs + limits.maxTtlMs + 1,
            1.5,
          ]),
        ),
      } as PublishInput;
      let valid = true;
      try {
        validateMessage(m, T0, limits, '');
      } catch (err) {
        if (!isStateError(err)) throw err;
        valid = false;
      }
      expect({ i, m, fast: messageValid(m, T0, limits) }).toEqual({ i, m, fast: valid });
      if (valid) accepted++;
    }
    expect(accepted).toBeGreaterThan(50);
  });
});
