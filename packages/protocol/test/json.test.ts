import { describe, expect, it } from 'vitest';
import { toBigInt, toUint64, v1 } from '../src/index.js';
import { JsonFieldError, jsonToMessageBytes, messageBytesToJson, serviceMethods } from '../src/json.js';

function refusal(type: string, value: unknown): JsonFieldError {
  try {
    jsonToMessageBytes(type, value);
  } catch (err) {
    if (err instanceof JsonFieldError) return err;
    throw err;
  }
  throw new Error('expected a JsonFieldError');
}

describe('the JSON form of fermata.v1 messages', () => {
  it('reads camelCase and snake_case names, 64-bit strings, base64 bytes, maps and enums by name', () => {
    const bytes = jsonToMessageBytes('PublishRequest', {
      messages: [
        { topic: 't', payload: 'aGk=', delay_ms: '18014398509481985', headers: { a: 'b' } },
        { topic: 'u', deliverAtMs: 1500, ttlMs: null },
      ],
      durability: 'DURABILITY_QUORUM',
      idempotencyKey: 'k',
    });
    const req = v1.PublishRequest.decode(bytes);
    expect(req.messages[0]!.topic).toBe('t');
    expect(Buffer.from(req.messages[0]!.payload ?? []).toString()).toBe('hi');
    // Past 2^53: read exactly from the string.
    expect(toBigInt(req.messages[0]!.delayMs)).toBe(18014398509481985n);
    expect(req.messages[0]!.headers).toEqual({ a: 'b' });
    expect(toBigInt(req.messages[1]!.deliverAtMs)).toBe(1500n);
    expect(req.durability).toBe(v1.Durability.DURABILITY_QUORUM);
    expect(req.idempotencyKey).toBe('k');
  });

  it('writes every field: 64-bit integers as strings, enums by name, bytes as base64', () => {
    const bytes = v1.CancelResponse.encode({
      status: v1.CancelStatus.CANCEL_STATUS_IN_FLIGHT,
      id: toUint64(7n),
    }).finish();
    expect(messageBytesToJson('CancelResponse', bytes)).toEqual({
      status: 'CANCEL_STATUS_IN_FLIGHT',
      id: '7',
    });
    const listed = v1.ListMessagesResponse.encode({ nextPageToken: Buffer.from([1, 2, 3]) }).finish();
    expect(messageBytesToJson('ListMessagesResponse', listed)).toEqual({
      messages: [],
      nextPageToken: 'AQID',
    });
  });

  it('refuses what it cannot read exactly, naming the field', () => {
    const cases: Array<[string, unknown, string, RegExp]> = [
      ['PublishRequest', { messages: [{ topci: 't' }] }, 'messages[0].topci', /did you mean topic\?/],
      [
        'PublishRequest',
        { messages: [{ delayMs: 1, deliverAtMs: 2 }] },
        'messages[0].deliverAtMs',
        /schedule/,
      ],
      ['PublishRequest', { messages: {} }, 'messages', /array/],
      ['PublishRequest', { messages: [{ payload: 'not base64!' }] }, 'messages[0].payload', /base64/],
      ['PublishRequest', { messages: [{ delayMs: 1.5 }] }, 'messages[0].delayMs', /integer/],
      ['PublishRequest', { messages: [{ headers: { a: 1 } }] }, 'messages[0].headers["a"]', /string/],
      ['PublishRequest', { durability: 'FAST' }, 'durability', /DURABILITY_QUORUM/],
      ['CancelRequest', { id: '18446744073709551616' }, 'id', /out of range for uint64/],
      ['CancelRequest', { id: -1 }, 'id', /out of range for uint64/],
      ['ListMessagesRequest', { limit: 'many' }, 'limit', /integer/],
      ['GetTopicStatsRequest', [], '', /JSON object/],
      // Properties every object has are no fields.
      ['GetTopicStatsRequest', { constructor: 't' }, 'constructor', /not a field/],
      ['GetTopicStatsRequest', JSON.parse('{"__proto__": {"topic": "t"}}'), '__proto__', /not a field/],
      ['GetTopicStatsRequest', { toString: 't', topic: 't' }, 'toString', /not a field/],
    ];
    for (const [type, value, field, reason] of cases) {
      const err = refusal(type, value);
      expect({ field: err.field }, JSON.stringify(value)).toEqual({ field });
      expect(err.reason).toMatch(reason);
    }
  });

  it('lists each service method with its types and whether it streams', () => {
    const broker = serviceMethods('Broker')!;
    expect(broker.get('Publish')).toMatchObject({
      path: '/fermata.v1.Broker/Publish',
      requestType: 'PublishRequest',
      requestStream: false,
      responseStream: false,
    });
    expect(broker.get('Consume')).toMatchObject({ requestStream: true, responseStream: true });
    expect(serviceMethods('Nope')).toBeUndefined();
  });
});
