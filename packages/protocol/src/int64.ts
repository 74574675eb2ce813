import Long from 'long';

/**
 * 64-bit integers on the wire are `Long` (protobufjs); inside Fermata they are
 * `bigint`. These convert at the boundary without passing through a `number`.
 */
export type WireInt64 = Long | number | string | null | undefined;

const U64_MAX = (1n << 64n) - 1n;
const I64_MIN = -(1n << 63n);
const I64_MAX = (1n << 63n) - 1n;

/** A wire uint64/int64 (Long, number or decimal string) as a bigint; absent is 0n. */
export function toBigInt(value: WireInt64): bigint {
  if (value === null || value === undefined) return 0n;
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new RangeError(`not a safe integer: ${value}`);
    return BigInt(value);
  }
  if (typeof value === 'string') return BigInt(value);
  const high = value.high >>> 0;
  // Below 2^53 (ids, times): one exact number, one BigInt, instead of four BigInt steps.
  if (high < 0x200000) return BigInt(high * 0x100000000 + (value.low >>> 0));
  const lo = BigInt(value.low >>> 0);
  const hi = BigInt(value.high >>> 0);
  const unsignedValue = (hi << 32n) | lo;
  if (value.unsigned || hi < 0x80000000n) return unsignedValue;
  return unsignedValue - (1n << 64n);
}

/** A bigint as an unsigned wire Long. Throws RangeError outside [0, 2^64). */
export function toUint64(value: bigint): Long {
  if (value < 0n || value > U64_MAX) throw new RangeError(`out of uint64 range: ${value}`);
  return new Long(Number(value & 0xffffffffn) | 0, Number(value >> 32n) | 0, true);
}

/**
 * A safe integer for an int64 field being encoded, as it is: protobufjs's
 * writer takes a number (exact up to 2^53) without the BigInt arithmetic and
 * Long object `toInt64` costs. The generated types name only Long, hence the
 * cast. Not for decoded messages: those carry Longs.
 */
export function numberAsInt64(value: number): Long;
export function numberAsInt64(value: number | undefined): Long | undefined;
export function numberAsInt64(value: number | undefined): Long | undefined {
  if (value !== undefined && !Number.isSafeInteger(value))
    throw new RangeError(`not a safe integer: ${value}`);
  return value as unknown as Long | undefined;
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * A uint64 (an id) for a field being encoded: a plain number up to 2^53 (as
 * `numberAsInt64`, written byte for byte as the Long would be), else a Long.
 */
export function uint64ForWire(value: bigint): Long {
  if (value >= 0n && value <= MAX_SAFE) return Number(value) as unknown as Long;
  return toUint64(value);
}

/** A bigint as a signed wire Long. Throws RangeError outside the int64 range. */
export function toInt64(value: bigint): Long {
  if (value < I64_MIN || value > I64_MAX) throw new RangeError(`out of int64 range: ${value}`);
  const bits = BigInt.asUintN(64, value);
  return new Long(Number(bits & 0xffffffffn) | 0, Number(bits >> 32n) | 0, false);
}

/**
 * A wire int64 that holds a time or a duration in ms, as a number. Times and
 * durations stay far below 2^53 ms (285,000 years); anything beyond is refused.
 */
export function toSafeNumber(value: WireInt64, field: string): number {
  // The usual case without bigints: a Long whose high word keeps it within 2^53.
  if (typeof value === 'object' && value !== null) {
    const high = value.unsigned ? value.high >>> 0 : value.high | 0;
    if (high < 0x200000 && high > -0x200000) return high * 4294967296 + (value.low >>> 0);
  } else if (typeof value === 'number' && Number.isSafeInteger(value)) {
    return value;
  }
  const big = toBigInt(value);
  if (big > BigInt(Number.MAX_SAFE_INTEGER) || big < BigInt(Number.MIN_SAFE_INTEGER)) {
    throw new RangeError(`${field} is out of range: ${big}`);
  }
  return Number(big);
}

/** A safe integer (a time or duration in ms) as a signed wire Long, without bigints. */
export function int64FromSafe(value: number): Long {
  if (!Number.isSafeInteger(value)) throw new RangeError(`not a safe integer: ${value}`);
  const high = Math.floor(value / 4294967296);
  return new Long((value - high * 4294967296) | 0, high | 0, false);
}

export { Long };
