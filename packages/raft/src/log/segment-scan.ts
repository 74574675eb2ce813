/**
 * Start-up recovery of one segment file: checks every frame and builds the
 * in-memory index for it.
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
import { readFileSync } from 'node:fs';
import { CorruptionError } from './errors.js';
import { decodeFrame, decodeSegmentHeader, FRAME_OVERHEAD_BYTES, SEGMENT_HEADER_BYTES } from './frame.js';

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
