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
import { CorruptionError } from './errors.js';
import type { FileSystem } from './file-system.js';
import {
  decodeFrame,
  decodeFrameHeader,
  decodeSegmentHeader,
  FRAME_HEADER_BYTES,
  FRAME_OVERHEAD_BYTES,
  SEGMENT_HEADER_BYTES,
} from './frame.js';
import { readAt } from './read-at.js';

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

/**
 * Checks a segment's header against its file name and collects its frames'
 * index: each frame must carry the next index and a term no lower than the last.
 */
function segmentIndex(path: string, nameIndex: number, head: Buffer) {
  const fail = (offset: number, detail: string): never => {
    throw new CorruptionError(path, offset, detail);
  };
  const header = decodeSegmentHeader(head);
  if (typeof header === 'string') return fail(0, header);
  if (header.firstIndex !== nameIndex)
    fail(8, `header says first index ${header.firstIndex}, name says ${nameIndex}`);
  const terms: number[] = [];
  const offsets: number[] = [];
  const dataBytes: number[] = [];
  let prevTerm = header.prevTerm;
  return {
    fail,
    add(offset: number, index: number, term: number, bytes: number): void {
      const expected = header.firstIndex + terms.length;
      if (index !== expected) fail(offset, `frame has index ${index}, expected ${expected}`);
      if (term < prevTerm) fail(offset, `term goes backwards: ${prevTerm} -> ${term}`);
      terms.push(term);
      offsets.push(offset);
      dataBytes.push(bytes);
      prevTerm = term;
    },
    done(validBytes: number, fileBytes: number): ScannedSegment {
      const { firstIndex, prevTerm: headerPrevTerm } = header;
      return { firstIndex, prevTerm: headerPrevTerm, terms, offsets, dataBytes, validBytes, fileBytes };
    },
  };
}

export function scanSegment(
  path: string,
  nameIndex: number,
  isLast: boolean,
  maxEntryBytes: number,
  fs: FileSystem,
): ScannedSegment | TornSegment {
  if (!isLast) return scanSealedSegment(path, nameIndex, maxEntryBytes, fs);
  const buf = fs.readFile(path);
  if (buf === undefined) throw new CorruptionError(path, 0, 'segment vanished while the log was read');
  if (buf.length < SEGMENT_HEADER_BYTES || allZero(buf.subarray(0, SEGMENT_HEADER_BYTES), 0)) {
    if (allZero(buf, 0)) return { torn: 'header', fileBytes: buf.length };
    throw new CorruptionError(path, 0, `segment header missing (${buf.length} bytes)`);
  }
  const index = segmentIndex(path, nameIndex, buf);
  let offset = SEGMENT_HEADER_BYTES;
  while (offset < buf.length) {
    const frame = decodeFrame(buf, offset, buf.length, maxEntryBytes, false);
    if (frame.status === 'ok') {
      index.add(offset, frame.entry.index, frame.entry.term, frame.entry.data.length);
      offset = frame.next;
      continue;
    }
    if (isTornTail(buf, offset, frame)) break;
    if (frame.status === 'short')
      index.fail(offset, `segment ends inside a frame (${buf.length - offset} bytes left)`);
    else index.fail(offset, frame.reason);
  }
  return index.done(offset, buf.length);
}

function isTornTail(buf: Buffer, offset: number, frame: ReturnType<typeof decodeFrame>): boolean {
  if (frame.status === 'short') return true;
  if (frame.status !== 'bad') return false;
  if (!frame.wholeFrameFits) return allZero(buf, offset);
  const frameEnd = offset + FRAME_OVERHEAD_BYTES + buf.readUInt32LE(offset);
  return frameEnd === buf.length;
}

/** A segment that is not the last one: indexed from its frame headers (see the file comment). */
function scanSealedSegment(
  path: string,
  nameIndex: number,
  maxEntryBytes: number,
  fs: FileSystem,
): ScannedSegment {
  const fd = fs.open(path, {});
  try {
    const size = fs.size(fd);
    const head = Buffer.alloc(SEGMENT_HEADER_BYTES);
    if (readAt(fd, head, 0, fs) < head.length)
      throw new CorruptionError(path, 0, `segment header missing (${size} bytes)`);
    const index = segmentIndex(path, nameIndex, head);
    const frameHeader = Buffer.alloc(FRAME_HEADER_BYTES);
    let offset = SEGMENT_HEADER_BYTES;
    while (offset < size) {
      if (readAt(fd, frameHeader, offset, fs) < frameHeader.length)
        index.fail(offset, `segment ends inside a frame (${size - offset} bytes left)`);
      const frame = decodeFrameHeader(frameHeader, 0, maxEntryBytes);
      if (frame.status === 'bad') return index.fail(offset, frame.reason);
      const next = offset + FRAME_OVERHEAD_BYTES + frame.dataBytes;
      if (next > size) index.fail(offset, `segment ends inside a frame (${size - offset} bytes left)`);
      index.add(offset, frame.index, frame.term, frame.dataBytes);
      offset = next;
    }
    return index.done(offset, size);
  } finally {
    fs.close(fd);
  }
}
