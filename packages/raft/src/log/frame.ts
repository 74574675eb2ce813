/**
 * On-disk layout of log segments: a fixed segment header, then one frame per
 * entry. Little-endian throughout; 64-bit indexes and terms are stored as two
 * u32 halves (they stay below 2^53, see types.ts).
 *
 * Frame:   u32 dataBytes | u8 type | u64 index | u64 term | u32 headerCrc | data | u32 dataCrc
 * Segment: u32 magic | u16 version | u16 zero | u64 firstIndex | u64 prevTerm | u32 crc
 *
 * The header has its own checksum so a damaged length field is detected as
 * corruption instead of looking like a frame that runs past the end of the file
 * (which recovery would otherwise treat as a torn write and silently cut).
 * CRC-32 comes from `node:zlib` (native, incremental).
 */
import { crc32 } from 'node:zlib';
import type { Entry, EntryType } from '../types.js';

export const FRAME_HEADER_BYTES = 25;
export const FRAME_OVERHEAD_BYTES = FRAME_HEADER_BYTES + 4;
export const SEGMENT_HEADER_BYTES = 28;
const SEGMENT_MAGIC = 0x4745_5346; // "FSEG"
const SEGMENT_VERSION = 1;
const TWO_32 = 2 ** 32;

const TYPE_CODES: Record<EntryType, number> = { normal: 0, 'conf-change': 1 };
const TYPES_BY_CODE: readonly EntryType[] = ['normal', 'conf-change'];

function writeU64(buf: Buffer, value: number, offset: number): void {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`not a u64-safe integer: ${value}`);
  buf.writeUInt32LE(value % TWO_32, offset);
  buf.writeUInt32LE(Math.floor(value / TWO_32), offset + 4);
}

function readU64(buf: Buffer, offset: number): number {
  return buf.readUInt32LE(offset) + buf.readUInt32LE(offset + 4) * TWO_32;
}

export function frameBytes(dataBytes: number): number {
  return FRAME_OVERHEAD_BYTES + dataBytes;
}

/** Encodes `entry` into `out` at `offset`; returns the offset after it. */
export function encodeFrame(entry: Entry, out: Buffer, offset: number): number {
  const n = entry.data.length;
  out.writeUInt32LE(n, offset);
  out.writeUInt8(TYPE_CODES[entry.type], offset + 4);
  writeU64(out, entry.index, offset + 5);
  writeU64(out, entry.term, offset + 13);
  out.writeUInt32LE(crc32(out.subarray(offset, offset + 21)), offset + 21);
  out.set(entry.data, offset + FRAME_HEADER_BYTES);
  out.writeUInt32LE(crc32(entry.data), offset + FRAME_HEADER_BYTES + n);
  return offset + FRAME_OVERHEAD_BYTES + n;
}

export type FrameResult =
  | { readonly status: 'ok'; readonly entry: Entry; readonly next: number }
  /** The frame does not fit before `end`: its header or its body is cut off. */
  | { readonly status: 'short' }
  /** A checksum or field is wrong; `wholeFrameFits` tells whether the frame's declared end is <= `end`. */
  | { readonly status: 'bad'; readonly reason: string; readonly wholeFrameFits: boolean };

export type FrameHeaderResult =
  | {
      readonly status: 'ok';
      readonly dataBytes: number;
      readonly type: EntryType;
      readonly index: number;
      readonly term: number;
    }
  | { readonly status: 'bad'; readonly reason: string };

/**
 * Decodes and checks the FRAME_HEADER_BYTES header at `offset` of `buf` (its
 * checksum, type and length bound); the data and its checksum are not looked at.
 */
export function decodeFrameHeader(buf: Buffer, offset: number, maxDataBytes: number): FrameHeaderResult {
  const headerCrc = buf.readUInt32LE(offset + 21);
  if (crc32(buf.subarray(offset, offset + 21)) !== headerCrc) {
    return { status: 'bad', reason: 'frame header checksum mismatch' };
  }
  const n = buf.readUInt32LE(offset);
  const typeCode = buf.readUInt8(offset + 4);
  const type = TYPES_BY_CODE[typeCode];
  if (n > maxDataBytes) return { status: 'bad', reason: `impossible data length ${n} > ${maxDataBytes}` };
  if (type === undefined) return { status: 'bad', reason: `unknown entry type ${typeCode}` };
  return {
    status: 'ok',
    dataBytes: n,
    type,
    index: readU64(buf, offset + 5),
    term: readU64(buf, offset + 13),
  };
}

/**
 * Decodes the frame at `offset` of `buf[0, end)`. `maxDataBytes` bounds the
 * length field: a larger value with a valid header checksum is impossible.
 * With `copy`, the entry's data is copied out of `buf` (so `buf` can be reused).
 */
export function decodeFrame(
  buf: Buffer,
  offset: number,
  end: number,
  maxDataBytes: number,
  copy: boolean,
): FrameResult {
  if (end - offset < FRAME_HEADER_BYTES) return { status: 'short' };
  const header = decodeFrameHeader(buf, offset, maxDataBytes);
  if (header.status === 'bad') return { status: 'bad', reason: header.reason, wholeFrameFits: false };
  const n = header.dataBytes;
  const dataStart = offset + FRAME_HEADER_BYTES;
  const next = dataStart + n + 4;
  if (next > end) return { status: 'short' };
  const view = buf.subarray(dataStart, dataStart + n);
  if (crc32(view) !== buf.readUInt32LE(dataStart + n)) {
    return { status: 'bad', reason: 'frame data checksum mismatch', wholeFrameFits: true };
  }
  // Plain Uint8Array (not Buffer) so entries read back compare equal to those appended.
  const data = copy ? new Uint8Array(view) : new Uint8Array(view.buffer, view.byteOffset, view.length);
  return {
    status: 'ok',
    entry: { index: header.index, term: header.term, type: header.type, data },
    next,
  };
}

export interface SegmentHeader {
  readonly firstIndex: number;
  /** Term of entry firstIndex - 1 (the snapshot's term, or 0 for index 0). */
  readonly prevTerm: number;
}

export function encodeSegmentHeader(header: SegmentHeader): Buffer {
  const buf = Buffer.alloc(SEGMENT_HEADER_BYTES);
  buf.writeUInt32LE(SEGMENT_MAGIC, 0);
  buf.writeUInt16LE(SEGMENT_VERSION, 4);
  writeU64(buf, header.firstIndex, 8);
  writeU64(buf, header.prevTerm, 16);
  buf.writeUInt32LE(crc32(buf.subarray(0, 24)), 24);
  return buf;
}

/** Returns the header, or a reason it is unreadable. `buf` holds at least SEGMENT_HEADER_BYTES. */
export function decodeSegmentHeader(buf: Buffer): SegmentHeader | string {
  if (crc32(buf.subarray(0, 24)) !== buf.readUInt32LE(24)) return 'segment header checksum mismatch';
  if (buf.readUInt32LE(0) !== SEGMENT_MAGIC) return 'not a segment file (bad magic)';
  const version = buf.readUInt16LE(4);
  if (version !== SEGMENT_VERSION) return `unsupported segment version ${version}`;
  return { firstIndex: readU64(buf, 8), prevTerm: readU64(buf, 16) };
}

/** Segment files are named after their first index, zero-padded so names sort. */
export function segmentFileName(firstIndex: number): string {
  return `${String(firstIndex).padStart(20, '0')}.seg`;
}

export function parseSegmentFileName(name: string): number | undefined {
  const m = /^(\d{20})\.seg$/.exec(name);
  return m ? Number(m[1]) : undefined;
}
