/**
 * Start-up recovery of one segment file: checks its frames and builds the
 * in-memory index for it. The final segment is read whole and every frame's
 * data checksum is checked (the torn-write rule below needs it). A sealed
 * segment (any other: it was synced before the next one was created) is
 * indexed from its frame headers alone, each checked (checksum, index order,
 * terms, the frame ending inside the file, the last one at its end); its data
 * checksums are checked when entries are read (`LogStore.entries`), so start-up
 * does not read the whole log: a log of gigabytes took seconds to open.
 *
 * Torn-write rule: only the final segment can hold a write that was in flight
 * at a crash (a segment is synced before the next one is created), and only
 * its tail. A frame there counts as torn, and is cut off together with all
 * bytes after it, when
 *  - the file ends inside it (partial write), or
 *  - its header checksum fails and every byte from it to the end is zero
 *    (the file size grew but the data blocks never reached the disk), or
 *  - its data checksum fails and it is the very last frame of the file.
 * Anything else that fails a check is a CorruptionError naming file and offset.
 */
import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { CorruptionError } from './errors.js';
import {
  decodeFrame,
  decodeFrameHeader,
  decodeSegmentHeader,
  FRAME_HEADER_BYTES,
  FRAME_OVERHEAD_BYTES,
  SEGMENT_HEADER_BYTES,
} from './frame.js';

export interface ScannedSegment {
  readonly firstIndex: number;
  readonly prevTerm: number;
  /** Per entry, in index order from firstIndex. */
  readonly terms: number[];
  readonly offsets: number[];
  readonly dataBytes: number[];
  /** Bytes of intact content; the file is to be cut back to this length. */
  readonly validBytes: number;
  readonly fileBytes: number;
}

/** Why the final segment's header is unusable after a crash during its creation. */
export type TornSegment = { readonly torn: 'header'; readonly fileBytes: number };

function allZero(buf: Buffer, from: number): boolean {
  for (let i = from; i < buf.length; i++) if (buf[i] !== 0) return false;
  return true;
}

export function scanSegment(
  path: string,
  nameIndex: number,
  isLast: boolean,
  maxEntryBytes: number,
): ScannedSegment | TornSegment {
  if (!isLast) return scanSealedSegment(path, nameIndex, maxEntryBytes);
  const buf = readFileSync(path);
  const fail = (offset: number, detail: string): never => {
    throw new CorruptionError(path, offset, detail);
  };
  if (buf.length < SEGMENT_HEADER_BYTES || allZero(buf.subarray(0, SEGMENT_HEADER_BYTES), 0)) {
    if (isLast && allZero(buf, 0)) return { torn: 'header', fileBytes: buf.length };
    fail(0, `segment header missing (${buf.length} bytes)`);
  }
  const header = decodeSegmentHeader(buf);
  if (typeof header === 'string') return fail(0, header);
  if (header.firstIndex !== nameIndex)
    fail(8, `header says first index ${header.firstIndex}, name says ${nameIndex}`);

  const terms: number[] = [];
  const offsets: number[] = [];
  const dataBytes: number[] = [];
  let prevTerm = header.prevTerm;
  let offset = SEGMENT_HEADER_BYTES;
  while (offset < buf.length) {
    const frame = decodeFrame(buf, offset, buf.length, maxEntryBytes, false);
    if (frame.status === 'ok') {
      const expected = header.firstIndex + terms.length;
      if (frame.entry.index !== expected)
        fail(offset, `frame has index ${frame.entry.index}, expected ${expected}`);
      if (frame.entry.term < prevTerm)
        fail(offset, `term goes backwards: ${prevTerm} -> ${frame.entry.term}`);
      terms.push(frame.entry.term);
      offsets.push(offset);
      dataBytes.push(frame.entry.data.length);
      prevTerm = frame.entry.term;
      offset = frame.next;
      continue;
    }
    if (isLast && isTornTail(buf, offset, frame)) break;
    if (frame.status === 'short')
      fail(offset, `segment ends inside a frame (${buf.length - offset} bytes left)`);
    else fail(offset, frame.reason);
  }
  return {
    firstIndex: header.firstIndex,
    prevTerm: header.prevTerm,
    terms,
    offsets,
    dataBytes,
    validBytes: offset,
    fileBytes: buf.length,
  };
}

function isTornTail(buf: Buffer, offset: number, frame: ReturnType<typeof decodeFrame>): boolean {
  if (frame.status === 'short') return true;
  if (frame.status !== 'bad') return false;
  if (!frame.wholeFrameFits) return allZero(buf, offset);
  const frameEnd = offset + FRAME_OVERHEAD_BYTES + buf.readUInt32LE(offset);
  return frameEnd === buf.length;
}

/** Fills `buf` from `fd` at `position`; false if the file ends first. */
function readAt(fd: number, buf: Buffer, position: number): boolean {
  let done = 0;
  while (done < buf.length) {
    const n = readSync(fd, buf, done, buf.length - done, position + done);
    if (n === 0) return false;
    done += n;
  }
  return true;
}

/** A segment that is not the last one: indexed from its frame headers (see the file comment). */
function scanSealedSegment(path: string, nameIndex: number, maxEntryBytes: number): ScannedSegment {
  const fail = (offset: number, detail: string): never => {
    throw new CorruptionError(path, offset, detail);
  };
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    const head = Buffer.alloc(SEGMENT_HEADER_BYTES);
    if (!readAt(fd, head, 0)) fail(0, `segment header missing (${size} bytes)`);
    const header = decodeSegmentHeader(head);
    if (typeof header === 'string') return fail(0, header);
    if (header.firstIndex !== nameIndex)
      fail(8, `header says first index ${header.firstIndex}, name says ${nameIndex}`);
    const terms: number[] = [];
    const offsets: number[] = [];
    const dataBytes: number[] = [];
    const frameHeader = Buffer.alloc(FRAME_HEADER_BYTES);
    let prevTerm = header.prevTerm;
    let offset = SEGMENT_HEADER_BYTES;
    while (offset < size) {
      if (!readAt(fd, frameHeader, offset))
        fail(offset, `segment ends inside a frame (${size - offset} bytes left)`);
      const frame = decodeFrameHeader(frameHeader, 0, maxEntryBytes);
      if (frame.status === 'bad') return fail(offset, frame.reason);
      const next = offset + FRAME_OVERHEAD_BYTES + frame.dataBytes;
      if (next > size) fail(offset, `segment ends inside a frame (${size - offset} bytes left)`);
      const expected = header.firstIndex + terms.length;
      if (frame.index !== expected) fail(offset, `frame has index ${frame.index}, expected ${expected}`);
      if (frame.term < prevTerm) fail(offset, `term goes backwards: ${prevTerm} -> ${frame.term}`);
      terms.push(frame.term);
      offsets.push(offset);
      dataBytes.push(frame.dataBytes);
      prevTerm = frame.term;
      offset = next;
    }
    return {
      firstIndex: header.firstIndex,
      prevTerm: header.prevTerm,
      terms,
      offsets,
      dataBytes,
      validBytes: offset,
      fileBytes: size,
    };
  } finally {
    closeSync(fd);
  }
}
