import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import {
  type BrokerHandlers,
  BrokerService,
  int64FromSafe,
  Long,
  makeClient,
  numberAsInt64,
  toBigInt,
  toInt64,
  toSafeNumber,
  toUint64,
  uint64ForWire,
  v1,
} from '../src/index.js';

const repo = resolve(import.meta.dirname, '../../..');

describe('generated protocol code', () => {
  it('is up to date with proto/ (run `npm run gen` after editing a .proto file)', () => {
    const out = mkdtempSync(join(tmpdir(), 'fermata-gen-'));
    try {
      execFileSync(process.execPath, [join(repo, 'scripts/gen-protocol.mjs'), '--out', out], {
        stdio: 'pipe',
      });
      for (const file of [
        'pb/fermata.js',
        'pb/fermata.d.ts',
        'src/generated/services.ts',
        'src/generated/descriptor.ts',
      ]) {
        const fresh = readFileSync(join(out, file), 'utf8');
        const committed = readFileSync(join(repo, 'packages/protocol', file), 'utf8');
        expect(committed === fresh, `${file} is stale: run npm run gen`).toBe(true);
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});

describe('64-bit integers', () => {
  it('round-trip uint64 ids through the wire without losing precision', () => {
    const id = (1n << 64n) - 1n;
    const bytes = v1.PublishResult.encode({ id: toUint64(id), deduplicated: false }).finish();
    const decoded = v1.PublishResult.decode(bytes);
    expect(toBigInt(decoded.id)).toBe(id);
    const beyondDouble = (1n << 53n) + 1n;
    expect(
      toBigInt(v1.PublishResult.decode(v1.PublishResult.encode({ id: toUint64(beyondDouble) }).finish()).id),
    ).toBe(beyondDouble);
  });

  it('read Longs as bigints alike below and above 2^53, signed and unsigned', () => {
    const values = [
      0n,
      1n,
      (1n << 32n) - 1n,
      1n << 32n,
      (1n << 53n) - 1n,
      1n << 53n,
      (1n << 53n) + 1n,
      (1n << 63n) - 1n,
      -1n,
      -(1n << 53n),
      -(1n << 63n),
    ];
    for (const v of values) {
      expect(toBigInt(toInt64(v))).toBe(v);
      expect(toBigInt(Long.fromString(v.toString()))).toBe(v);
      if (v >= 0n) expect(toBigInt(toUint64(v))).toBe(v);
    }
    expect(toBigInt(toUint64((1n << 64n) - 1n))).toBe((1n << 64n) - 1n);
    expect(toBigInt(numberAsInt64(1_700_000_000_123))).toBe(1_700_000_000_123n);
    expect(() => numberAsInt64(2 ** 53)).toThrow(RangeError);
  });

  it('encode plain-number int64s (numberAsInt64) byte for byte as Longs', () => {
    for (const ms of [0, 1, 86_400_000, 1_700_000_000_123, Number.MAX_SAFE_INTEGER]) {
      const asNumber = v1.PublishMessage.encode({
        topic: 't',
        delayMs: numberAsInt64(ms),
        ttlMs: numberAsInt64(ms),
      }).finish();
      const asLong = v1.PublishMessage.encode({
        topic: 't',
        delayMs: toInt64(BigInt(ms)),
        ttlMs: toInt64(BigInt(ms)),
      }).finish();
      expect(Buffer.from(asNumber).equals(Buffer.from(asLong))).toBe(true);
    }
    for (const id of [0n, 1n, 300n, BigInt(Number.MAX_SAFE_INTEGER), 1n << 53n, (1n << 64n) - 1n]) {
      const asWire = v1.Delivery.encode({ id: uint64ForWire(id), dueAtMs: numberAsInt64(5) }).finish();
      const asLong = v1.Delivery.encode({ id: toUint64(id), dueAtMs: toInt64(5n) }).finish();
      expect(Buffer.from(asWire).equals(Buffer.from(asLong))).toBe(true);
      expect(toBigInt(v1.Delivery.decode(asWire).id)).toBe(id);
    }
    expect(() => uint64ForWire(-1n)).toThrow(RangeError);
  });

  it('round-trip negative int64 times', () => {
    const bytes = v1.PublishMessage.encode({ topic: 't', delayMs: toInt64(-5n) }).finish();
    expect(toBigInt(v1.PublishMessage.decode(bytes).delayMs)).toBe(-5n);
  });

  it('refuse out-of-range values', () => {
    expect(() => toUint64(-1n)).toThrow(RangeError);
    expect(() => toInt64(1n << 63n)).toThrow(RangeError);
    expect(() => toSafeNumber(Long.fromString('9007199254740993'), 'delay_ms')).toThrow(/delay_ms/);
    expect(() => toBigInt(2 ** 60)).toThrow(RangeError);
  });

  it('convert safe integers to and from Longs as the bigint path does, at and around every word boundary', () => {
    const edges = [0, 1, -1, 2 ** 31, -(2 ** 31), 2 ** 32 - 1, 2 ** 32, -(2 ** 32), 1_700_000_000_123];
    const values = [...edges, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER];
    for (const e of edges) values.push(e + 1, e - 1, e * 3, -e * 7);
    for (const v of values.filter(Number.isSafeInteger).map((x) => x + 0)) {
      const viaBigint = toInt64(BigInt(v));
      const fast = int64FromSafe(v);
      expect([fast.low, fast.high, fast.unsigned]).toEqual([
        viaBigint.low,
        viaBigint.high,
        viaBigint.unsigned,
      ]);
      expect(toSafeNumber(fast, 'x')).toBe(v);
      expect(toSafeNumber(Long.fromString(String(v)), 'x')).toBe(v);
      if (v >= 0) expect(toSafeNumber(Long.fromString(String(v), true), 'x')).toBe(v);
    }
    expect(() => int64FromSafe(2 ** 53)).toThrow(RangeError);
    expect(() => int64FromSafe(1.5)).toThrow(RangeError);
    expect(() => toSafeNumber(Long.fromString('-9007199254740993'), 'x')).toThrow(/x/);
    expect(() => toSafeNumber(Long.fromString('18446744073709551615', true), 'x')).toThrow(/x/);
  });
});

describe('grpc service definitions', () => {
  it('carry a Publish call over a real socket', async () => {
    const server = new grpc.Server();
    const handlers: Partial<BrokerHandlers> = {
      publish: (call, callback) => {
        const results = call.request.messages.map((m, i) => ({
          id: toUint64(BigInt(i) + (1n << 60n)),
          deduplicated: m.key === 'dup',
        }));
        callback(null, { results });
      },
    };
    server.addService(BrokerService, handlers as grpc.UntypedServiceImplementation);
    const port = await new Promise<number>((ok, fail) =>
      server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, p) =>
        err ? fail(err) : ok(p),
      ),
    );
    const client = makeClient('Broker', `127.0.0.1:${port}`);
    try {
      const response = await new Promise<InstanceType<typeof v1.PublishResponse>>((ok, fail) =>
        client.publish(
          {
            messages: [
              { topic: 'a', payload: new Uint8Array([1, 2]) },
              { topic: 'a', key: 'dup' },
            ],
          },
          (err, res) => (err || !res ? fail(err) : ok(res)),
        ),
      );
      expect(response.results.map((r) => toBigInt(r.id))).toEqual([1n << 60n, (1n << 60n) + 1n]);
      expect(response.results.map((r) => r.deduplicated)).toEqual([false, true]);
    } finally {
      client.close();
      server.forceShutdown();
    }
  });
});
