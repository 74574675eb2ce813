import { slabCopy } from '@fermata/storage';

/**
 * Protocol Buffers wire format for the records every message touches (queue
 * entry, index, body; entry.ts, message-index.ts, body.ts): protobufjs builds a list of write
 * operations per field and then a pooled buffer, which showed as a tenth of
 * each node's CPU and much of its garbage. These write and read the same bytes
 * directly: fields in number order, proto3 defaults left out, repeated
 * scalars packed, exactly as protobufjs writes them (record-codec tests check
 * byte equality both ways, and that unknown fields are skipped).
 */

const utf8Write = (Buffer.prototype as unknown as { utf8Write(s: string, offset: number): number }).utf8Write;
const utf8Slice = (Buffer.prototype as unknown as { utf8Slice(start: number, end: number): string })
  .utf8Slice;

export const WIRE_VARINT = 0;
export const WIRE_I64 = 1;
export const WIRE_LEN = 2;
export const WIRE_I32 = 5;

/** Writes into one growing scratch buffer; `finish()` copies the record out. */
export class WireWriter {
  private buf = new Uint8Array(1024);
  private pos = 0;

  reset(): this {
    this.pos = 0;
    return this;
  }

  private room(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const next = new Uint8Array(Math.max(this.buf.length * 2, this.pos + n));
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
  }

  /** A safe integer; a negative one as an int64 (ten bytes). */
  varint(value: number): this {
    if (!Number.isSafeInteger(value)) throw new RangeError(`varint ${value} is not a safe integer`);
    if (value < 0) return this.varint64(BigInt.asUintN(64, BigInt(value)));
    this.room(10);
    const b = this.buf;
    let p = this.pos;
    let v = value;
    while (v > 0x7fffffff) {
      b[p++] = (v % 128) | 0x80;
      v = Math.floor(v / 128);
    }
    while (v > 0x7f) {
      b[p++] = (v & 0x7f) | 0x80;
      v >>>= 7;
    }
    b[p++] = v;
    this.pos = p;
    return this;
  }

  /** A uint64 given as a bigint (ids). */
  varint64(value: bigint): this {
    if (value <= BigInt(Number.MAX_SAFE_INTEGER)) return this.varint(Number(value));
    this.room(10);
    let v = BigInt.asUintN(64, value);
    while (v > 0x7fn) {
      this.buf[this.pos++] = Number(v & 0x7fn) | 0x80;
      v >>= 7n;
    }
    this.buf[this.pos++] = Number(v);
    return this;
  }

  /** A fixed64 (little-endian, as protobuf writes it) of a uint64 given as a bigint. */
  fixed64(value: bigint): this {
    this.room(8);
    let v = BigInt.asUintN(64, value);
    for (let i = 0; i < 8; i++) {
      this.buf[this.pos++] = Number(v & 0xffn);
      v >>= 8n;
    }
    return this;
  }

  /** One raw byte. */
  byte(value: number): this {
    this.room(1);
    this.buf[this.pos++] = value;
    return this;
  }

  tag(field: number, wireType: number): this {
    return this.varint(field * 8 + wireType);
  }

  /** A packed repeated varint field of safe integers; nothing when empty (as protobuf writes it). */
  packed(field: number, values: readonly number[]): this {
    if (values.length === 0) return this;
    let n = 0;
    for (const v of values) n += varintSize(v);
    this.tag(field, WIRE_LEN).varint(n);
    for (const v of values) this.varint(v);
    return this;
  }

  /** `packed` of uint64 values given as bigints. */
  packed64(field: number, values: readonly bigint[]): this {
    if (values.length === 0) return this;
    let n = 0;
    for (const v of values) n += varint64Size(v);
    this.tag(field, WIRE_LEN).varint(n);
    for (const v of values) this.varint64(v);
    return this;
  }

  string(value: string): this {
    const n = Buffer.byteLength(value, 'utf8');
    this.varint(n);
    this.room(n);
    utf8Write.call(this.buf, value, this.pos);
    this.pos += n;
    return this;
  }

  bytes(value: Uint8Array): this {
    return this.varint(value.length).raw(value);
  }

  /** Bytes already encoded (a nested message written by another encoder). */
  raw(value: Uint8Array): this {
    this.room(value.length);
    this.buf.set(value, this.pos);
    this.pos += value.length;
    return this;
  }

  /**
   * Starts the contents of a length-delimited field whose tag was written:
   * room for its length is kept before them, and `endLength(at)` (with what
   * this returned) writes the length there once they are written.
   */
  beginLength(): number {
    this.room(5);
    const at = this.pos;
    this.pos += 5;
    return at;
  }

  /** Ends what `beginLength` started: its length, then its contents moved up to it. */
  endLength(at: number): this {
    const n = this.pos - at - 5;
    if (n >= 2 ** 35) throw new RangeError(`length-delimited field of ${n} bytes`);
    const size = varintSize(n);
    const b = this.buf;
    b.copyWithin(at + size, at + 5, this.pos);
    let v = n;
    let p = at;
    while (v > 0x7f) {
      b[p++] = (v % 128) | 0x80;
      v = Math.floor(v / 128);
    }
    b[p] = v;
    this.pos = at + size + n;
    return this;
  }

  /**
   * A copy of what was written: a view into a shared slab
   * (storage's slab.ts; an ArrayBuffer per record costs more to allocate and
   * to collect than the record's encoding). Whatever keeps a record beyond its
   * batch copies it (the record cache does: `Txn.written`).
   */
  finish(): Uint8Array {
    return slabCopy(this.buf.subarray(0, this.pos));
  }

  /** `finish` into memory of its own: for a record kept beyond the write (the record cache). */
  finishOwned(): Uint8Array {
    return this.buf.slice(0, this.pos);
  }
}

/** The last short string a field read, for `WireReader.memoString`. */
export class StringMemo {
  bytes: Uint8Array = new Uint8Array(0);
  value = '';
}

/** Reads fields in any order; callers skip the ones they do not know. */
export class WireReader {
  pos = 0;

  constructor(
    readonly buf: Uint8Array,
    private end = buf.length,
  ) {}

  get done(): boolean {
    return this.pos >= this.end;
  }

  /**
   * A varint of up to seven bytes (49 bits), in float arithmetic: every time,
   * count and length stored here. -1, with nothing read, for a longer one.
   */
  private shortVarint(): number {
    const b = this.buf;
    const start = this.pos;
    let result = 0;
    let scale = 1;
    for (let i = 0; i < 7; i++) {
      if (this.pos >= this.end) throw new RangeError('truncated varint');
      const byte = b[this.pos++]!;
      result += (byte & 0x7f) * scale;
      if (byte < 0x80) return result;
      scale *= 128;
    }
    this.pos = start;
    return -1;
  }

  /** A varint of up to seven bytes (below 2^49); -1, with nothing read, for a longer one. */
  smallVarint(): number {
    return this.shortVarint();
  }

  /** A varint as a number (an int64 may be negative); beyond 2^53 in size it is refused. */
  varint(): number {
    const short = this.shortVarint();
    if (short >= 0) return short;
    const v = BigInt.asIntN(64, this.varint64());
    if (v > BigInt(Number.MAX_SAFE_INTEGER) || v < BigInt(Number.MIN_SAFE_INTEGER)) {
      throw new RangeError(`varint ${v} is not a safe integer`);
    }
    return Number(v);
  }

  /** A varint as an unsigned 64-bit bigint (ids). */
  varint64(): bigint {
    const short = this.shortVarint();
    if (short >= 0) return BigInt(short);
    const b = this.buf;
    let result = 0n;
    let shift = 0n;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) throw new RangeError('truncated varint');
      const byte = b[this.pos++]!;
      result |= BigInt(byte & 0x7f) << shift;
      if (byte < 0x80) return BigInt.asUintN(64, result);
      shift += 7n;
    }
    throw new RangeError('varint longer than 10 bytes');
  }

  /** A fixed64 (little-endian) as its 8 bytes big-endian (a uint64 as keys hold it), no bigint. */
  fixed64Bytes(): Uint8Array {
    if (this.pos + 8 > this.end) throw new RangeError('truncated fixed64');
    const out = new Uint8Array(8);
    for (let i = 0; i < 8; i++) out[i] = this.buf[this.pos + 7 - i]!;
    this.pos += 8;
    return out;
  }

  /** A fixed64 (little-endian) as an unsigned bigint. */
  fixed64(): bigint {
    if (this.pos + 8 > this.end) throw new RangeError('truncated fixed64');
    let v = 0n;
    for (let i = 7; i >= 0; i--) v = (v << 8n) | BigInt(this.buf[this.pos + i]!);
    this.pos += 8;
    return v;
  }

  /**
   * A repeated varint field (packed or not, as a reader must take either)
   * whose tag had wire type `wt`, appended to `out`; false for another wire
   * type (the caller skips the field).
   */
  repeated(wt: number, out: number[]): boolean {
    if (wt === WIRE_LEN) {
      const p = this.sub();
      while (!p.done) out.push(p.varint());
      return true;
    }
    if (wt !== WIRE_VARINT) return false;
    out.push(this.varint());
    return true;
  }

  /** `repeated` of uint64 values, as bigints. */
  repeated64(wt: number, out: bigint[]): boolean {
    if (wt === WIRE_LEN) {
      const p = this.sub();
      while (!p.done) out.push(p.varint64());
      return true;
    }
    if (wt !== WIRE_VARINT) return false;
    out.push(this.varint64());
    return true;
  }

  /** The end of a length-delimited field that starts here (after its length). */
  lengthEnd(): number {
    const n = this.varint();
    // A ten-byte varint reads as negative: it would move backwards (and a decode loop never end).
    if (n < 0) throw new RangeError(`negative length ${n}`);
    const end = this.pos + n;
    if (end > this.end) throw new RangeError('length-delimited field past the end');
    return end;
  }

  string(): string {
    const end = this.lengthEnd();
    const s = utf8Slice.call(this.buf, this.pos, end);
    this.pos = end;
    return s;
  }

  /**
   * `string()` of a field that mostly repeats (a topic or group name): the
   * last string `memo` read is returned again while the bytes are the same,
   * without decoding or allocating.
   */
  memoString(memo: StringMemo): string {
    const end = this.lengthEnd();
    const b = this.buf;
    const start = this.pos;
    this.pos = end;
    const last = memo.bytes;
    const n = end - start;
    if (n === last.length) {
      let i = 0;
      while (i < n && b[start + i] === last[i]) i++;
      if (i === n) return memo.value;
    }
    const value = utf8Slice.call(b, start, end);
    if (n <= 64) {
      memo.bytes = b.slice(start, end);
      memo.value = value;
    }
    return value;
  }

  /**
   * A view of the field's bytes (callers copy what they keep beyond the
   * record): a plain Uint8Array even over a Buffer, whose `subarray` costs
   * several times more.
   */
  bytes(): Uint8Array {
    const end = this.lengthEnd();
    const b = this.buf;
    const out = new Uint8Array(b.buffer, b.byteOffset + this.pos, end - this.pos);
    this.pos = end;
    return out;
  }

  sub(): WireReader {
    const end = this.lengthEnd();
    const r = new WireReader(this.buf, end);
    r.pos = this.pos;
    this.pos = end;
    return r;
  }

  skip(wireType: number): void {
    switch (wireType) {
      case WIRE_VARINT:
        // Any size (an unknown uint64 field may exceed 2^53): up to ten bytes.
        for (let i = 0; ; i++) {
          if (i === 10) throw new RangeError('varint longer than 10 bytes');
          if (this.pos >= this.end) throw new RangeError('truncated varint');
          if (this.buf[this.pos++]! < 0x80) return;
        }
      case WIRE_I64:
        this.pos += 8;
        break;
      case WIRE_LEN:
        this.pos = this.lengthEnd();
        return;
      case WIRE_I32:
        this.pos += 4;
        break;
      default:
        throw new RangeError(`unsupported wire type ${wireType}`);
    }
    if (this.pos > this.end) throw new RangeError('field past the end');
  }
}

/** Byte length of a varint of a safe integer (a negative one takes ten). */
export function varintSize(value: number): number {
  if (value < 0) return 10;
  let n = 1;
  let v = value;
  while (v > 0x7f) {
    v = Math.floor(v / 128);
    n++;
  }
  return n;
}

/** Byte length of a length-delimited field of field number < 16 holding `n` bytes. */
export function lenFieldSize(n: number): number {
  return 1 + varintSize(n) + n;
}

/** Byte length of the varint of a uint64 given as a bigint. */
export function varint64Size(value: bigint): number {
  if (value <= BigInt(Number.MAX_SAFE_INTEGER)) return varintSize(Number(value));
  let n = 1;
  for (let v = value; v > 0x7fn; v >>= 7n) n++;
  return n;
}

/**
 * A signed 64-bit integer as protobuf's sint64 (zigzag) varint value, and
 * back. A difference of two uint64s is taken modulo 2^64 first, as int64
 * arithmetic would (its sum with the first gives the second back).
 */
export const zigzag64 = (value: bigint): bigint => {
  const n = BigInt.asIntN(64, value);
  return BigInt.asUintN(64, (n << 1n) ^ (n >> 63n));
};
export const unzigzag64 = (z: bigint): bigint => BigInt.asIntN(64, (z >> 1n) ^ -(z & 1n));
