/**
 * The REST forms of the HTTP API as gRPC requests: what each header and
 * batch field becomes, and the refusals that name the header or field.
 */
import { toBigInt } from '@fermata/protocol';
import { describe, expect, it } from 'vitest';
import {
  publishFromBatch,
  publishFromHeaders,
  rescheduleFromHeaders,
  targetOf,
} from '../src/server/http-messages.js';
import { ValidationError } from '../src/state/model/errors.js';

/** Headers as node gives them: lower-case names, each value a list. */
function distinct(h: Record<string, string | string[]>): NodeJS.Dict<string[]> {
  return Object.fromEntries(Object.entries(h).map(([k, v]) => [k, Array.isArray(v) ? v : [v]]));
}

function single(h: Record<string, string | string[]>, body = 'x') {
  const plain = Object.fromEntries(
    Object.entries(h).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : v]),
  );
  const form = publishFromHeaders('t', plain, distinct(h));
  return { request: form.request(Buffer.from(body)), rename: form.rename };
}

function refusedField(fn: () => unknown): { field: string; message: string } {
  try {
    fn();
  } catch (err) {
    if (err instanceof ValidationError) return { field: err.field, message: err.message };
    throw err;
  }
  throw new Error('expected a ValidationError');
}

describe('publishing one message by headers', () => {
  it('takes each field from its header; the content type and Fermata-Header-* become message headers', () => {
    const { request } = single({
      'content-type': 'text/plain',
      'fermata-delay': '1h30m',
      'fermata-ttl': '2d',
      'fermata-key': 'k',
      'fermata-ordering-key': 'o',
      'fermata-deliver-before': '2030-01-01T00:00:00+01:00',
      'fermata-header-trace': 'abc',
      'idempotency-key': 'i',
    });
    const m = request.messages![0]!;
    expect(toBigInt(m.delayMs)).toBe(5_400_000n);
    expect(toBigInt(m.ttlMs)).toBe(172_800_000n);
    expect(toBigInt(m.deliverBeforeMs)).toBe(BigInt(Date.parse('2029-12-31T23:00:00Z')));
    expect(m).toMatchObject({ topic: 't', key: 'k', orderingKey: 'o' });
    expect(m.headers).toEqual({ 'content-type': 'text/plain', trace: 'abc' });
    expect(request.idempotencyKey).toBe('i');
  });

  it('reads Fermata-Deliver-At as epoch ms or ISO 8601 with a zone, never a local time', () => {
    expect(
      toBigInt(single({ 'fermata-deliver-at': '1700000000000' }).request.messages![0]!.deliverAtMs),
    ).toBe(1_700_000_000_000n);
    expect(refusedField(() => single({ 'fermata-deliver-at': '2030-01-01T09:00:00' }))).toMatchObject({
      field: 'Fermata-Deliver-At',
      message: expect.stringContaining('with a zone'),
    });
  });

  it('refuses epoch ms past 2^53 naming the header or field, never failing inside', () => {
    expect(refusedField(() => single({ 'fermata-deliver-at': '9999999999999999' }))).toMatchObject({
      field: 'Fermata-Deliver-At',
      message: expect.stringContaining('past the largest time'),
    });
    expect(refusedField(() => single({ 'fermata-deliver-before': '99999999999999999999999' }))).toMatchObject(
      { field: 'Fermata-Deliver-Before' },
    );
    expect(
      refusedField(() => publishFromBatch('t', { messages: [{ deliverAt: '9007199254740993' }] }, {})),
    ).toMatchObject({ field: 'messages[0].deliverAt' });
  });

  it('refuses a header given twice, both schedules, and an unknown Fermata header with the closest name', () => {
    expect(refusedField(() => single({ 'fermata-key': ['a', 'b'] }))).toMatchObject({ field: 'Fermata-Key' });
    expect(refusedField(() => single({ 'fermata-delay': '1s', 'fermata-deliver-at': '5' }))).toMatchObject({
      field: 'Fermata-Deliver-At',
    });
    expect(refusedField(() => single({ 'fermata-ttll': '1s' }))).toMatchObject({
      field: 'fermata-ttll',
      message: expect.stringContaining('Fermata-TTL'),
    });
    expect(refusedField(() => single({ 'fermata-delay': '-5s' }))).toMatchObject({ field: 'Fermata-Delay' });
  });

  it("names the server's fields as the request named them", () => {
    const { rename } = single({});
    expect(rename('messages[0].delay_ms')).toBe('Fermata-Delay');
    expect(rename('messages[0].deliver_at_ms')).toBe('Fermata-Deliver-At');
    expect(rename('messages[0].payload')).toBe('body');
    expect(rename('messages[0].headers')).toBe('Fermata-Header-*');
    expect(rename('idempotency_key')).toBe('Idempotency-Key');
  });
});

describe('publishing a JSON batch', () => {
  it('takes text, base64 or a JSON value as the payload, durations and times as strings or numbers', () => {
    const { request, rename } = publishFromBatch(
      't',
      {
        idempotencyKey: 'b',
        messages: [
          { payload: 'text', delay: '5s' },
          { payloadBase64: 'AAEC', delay: 1500, contentType: 'application/octet-stream' },
          { json: { n: 1 }, deliverAt: 1_700_000_000_000 },
        ],
      },
      {},
    );
    const [a, b, c] = request.messages!;
    expect(Buffer.from(a!.payload!).toString()).toBe('text');
    expect(toBigInt(a!.delayMs)).toBe(5000n);
    expect([...b!.payload!]).toEqual([0, 1, 2]);
    expect(b!.headers).toEqual({ 'content-type': 'application/octet-stream' });
    expect(Buffer.from(c!.payload!).toString()).toBe('{"n":1}');
    expect(c!.headers).toEqual({ 'content-type': 'application/json' });
    expect(request.idempotencyKey).toBe('b');
    expect(rename('messages[2].deliver_at_ms')).toBe('messages[2].deliverAt');
  });

  it('refuses a json payload whose numbers JSON.parse did not keep as written', () => {
    // What the server sees of {"id": 9007199254740993}: the integer already rounded.
    const body = JSON.parse('{"messages": [{"json": {"a": [1, 2.5, {"id": 9007199254740993}]}}]}');
    expect(refusedField(() => publishFromBatch('t', body, {}))).toMatchObject({
      field: 'messages[0].json.a[2].id',
      message: expect.stringContaining('payloadBase64'),
    });
    expect(
      refusedField(() => publishFromBatch('t', JSON.parse('{"messages": [{"json": 1e400}]}'), {})),
    ).toMatchObject({ field: 'messages[0].json' });
    const deep = JSON.parse(`{"messages": [{"json": ${'['.repeat(100_000)}${']'.repeat(100_000)}}]}`);
    expect(refusedField(() => publishFromBatch('t', deep, {})).message).toContain('deeper than 512');
    const exact = publishFromBatch('t', { messages: [{ json: { n: 9007199254740991, x: -0.125 } }] }, {});
    expect(Buffer.from(exact.request.messages![0]!.payload!).toString()).toBe(
      '{"n":9007199254740991,"x":-0.125}',
    );
  });

  it('refuses two payloads, an unknown field, and an idempotency key that differs from the header', () => {
    expect(
      refusedField(() => publishFromBatch('t', { messages: [{ payload: 'a', json: 1 }] }, {})),
    ).toMatchObject({
      field: 'messages[0].json',
    });
    expect(refusedField(() => publishFromBatch('t', { messages: [{ paylod: 'a' }] }, {}))).toMatchObject({
      field: 'messages[0].paylod',
      message: expect.stringContaining('payload'),
    });
    expect(
      refusedField(() =>
        publishFromBatch('t', { messages: [{}], idempotencyKey: 'a' }, distinct({ 'idempotency-key': 'b' })),
      ),
    ).toMatchObject({ field: 'idempotencyKey' });
    expect(refusedField(() => publishFromBatch('t', { messages: [] }, {}))).toMatchObject({
      field: 'messages',
    });
  });
});

describe('cancel and reschedule paths', () => {
  it('take an id of 1 to 2^64-1 or a percent-encoded key', () => {
    expect(toBigInt((targetOf('messages', '18446744073709551615') as { id: never }).id)).toBe(2n ** 64n - 1n);
    expect(targetOf('keys', 'a%2Fb')).toEqual({ key: 'a/b' });
    expect(refusedField(() => targetOf('messages', '0'))).toMatchObject({ field: 'id' });
    expect(refusedField(() => targetOf('messages', '18446744073709551616'))).toMatchObject({ field: 'id' });
    expect(refusedField(() => targetOf('keys', '%E0%A4%A'))).toMatchObject({ field: 'key' });
  });

  it('reschedule reads only Fermata-Delay or Fermata-Deliver-At', () => {
    expect(toBigInt(rescheduleFromHeaders(distinct({ 'fermata-delay': '2s' })).delayMs)).toBe(2000n);
    expect(rescheduleFromHeaders({})).toEqual({});
    expect(refusedField(() => rescheduleFromHeaders(distinct({ 'fermata-key': 'k' })))).toMatchObject({
      field: 'fermata-key',
    });
  });
});
