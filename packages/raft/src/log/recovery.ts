/**
 * Start-up recovery of the whole log directory: scans every segment (see
 * segment-scan.ts), checks that they form one contiguous log, and reconciles
 * the log with the recorded snapshot meta.
 *
 * Reconciling covers crashes inside multi-step operations:
 *  - segments whose entries are all <= the snapshot index are compaction
 *    leftovers and are deleted (the final segment is kept, it names the tail);
 *  - when the log's term at the snapshot index disagrees with the snapshot, or
 *    the log ends before it, an installSnapshot was interrupted after writing the
 *    meta: the old log is stale and is deleted entirely;
 *  - a log that starts after snapshot index + 1 has lost entries: corruption.
 */
import { join } from 'node:path';
import type { SnapshotMeta } from '../types.js';
import { fsyncDirectory } from './atomic-file.js';
import { CorruptionError } from './errors.js';
import type { FileSystem } from './file-system.js';
import { parseSegmentFileName } from './frame.js';
import { type ScannedSegment, scanSegment } from './segment-scan.js';

export interface RecoveredSegment {
  readonly firstIndex: number;
  readonly prevTerm: number;
  readonly path: string;
  readonly bytes: number;
}

export interface RecoveredLog {
  readonly segments: RecoveredSegment[];
  readonly firstIndex: number;
  readonly prevTerm: number;
  readonly terms: number[];
  readonly offsets: number[];
  readonly dataBytes: number[];
}

export function recoverLog(
  logDir: string,
  meta: SnapshotMeta,
  maxEntryBytes: number,
  fs: FileSystem,
): RecoveredLog {
  const names = fs
    .readdir(logDir)
    .map((name) => ({ name, index: parseSegmentFileName(name) }))
    .filter((f): f is { name: string; index: number } => f.index !== undefined)
    .sort((a, b) => a.index - b.index);

  let scanned: Array<ScannedSegment & { path: string }> = [];
  names.forEach(({ name, index }, k) => {
    const path = join(logDir, name);
    const result = scanSegment(path, index, k === names.length - 1, maxEntryBytes, fs);
    if ('torn' in result) {
      // Crashed while creating the final segment: it holds no entries.
      fs.unlink(path);
      fsyncDirectory(logDir, fs);
      return;
    }
    if (result.validBytes < result.fileBytes) cutFile(path, result.validBytes, fs);
    scanned.push({ ...result, path });
  });

  for (let k = 1; k < scanned.length; k++) {
    const prev = scanned[k - 1]!;
    const cur = scanned[k]!;
    const expected = prev.firstIndex + prev.terms.length;
    if (cur.firstIndex !== expected) {
      throw new CorruptionError(
        cur.path,
        0,
        `segment starts at ${cur.firstIndex}, previous segment ends at ${expected - 1}`,
      );
    }
    const prevLastTerm = prev.terms.at(-1) ?? prev.prevTerm;
    if (cur.prevTerm !== prevLastTerm) {
      throw new CorruptionError(
        cur.path,
        16,
        `header says previous term ${cur.prevTerm}, log has ${prevLastTerm}`,
      );
    }
  }

  const empty = {
    segments: [],
    firstIndex: meta.index + 1,
    prevTerm: meta.term,
    terms: [],
    offsets: [],
    dataBytes: [],
  };
  const head = scanned[0];
  const tail = scanned.at(-1);
  if (head === undefined || tail === undefined) return empty;
  const lastIndex = tail.firstIndex + tail.terms.length - 1;
  if (head.firstIndex > meta.index + 1) {
    throw new CorruptionError(
      head.path,
      0,
      `log starts at ${head.firstIndex} but the snapshot ends at ${meta.index}`,
    );
  }
  if (lastIndex < meta.index || termAt(scanned, meta.index) !== meta.term) {
    deleteSegments(logDir, scanned.reverse(), fs);
    return empty;
  }
  let dropped = 0;
  while (dropped < scanned.length - 1 && scanned[dropped + 1]!.firstIndex - 1 <= meta.index) dropped += 1;
  deleteSegments(logDir, scanned.slice(0, dropped), fs);
  scanned = scanned.slice(dropped);

  const first = scanned[0]!;
  return {
    segments: scanned.map((s) => ({
      firstIndex: s.firstIndex,
      prevTerm: s.prevTerm,
      path: s.path,
      bytes: s.validBytes,
    })),
    firstIndex: first.firstIndex,
    prevTerm: first.prevTerm,
    terms: scanned.flatMap((s) => s.terms),
    offsets: scanned.flatMap((s) => s.offsets),
    dataBytes: scanned.flatMap((s) => s.dataBytes),
  };
}

/** Term of `index` per the scanned segments (including the first segment's previous term). */
function termAt(segments: readonly ScannedSegment[], index: number): number | undefined {
  for (const s of segments) {
    if (index === s.firstIndex - 1) return s.prevTerm;
    if (index >= s.firstIndex && index < s.firstIndex + s.terms.length) return s.terms[index - s.firstIndex];
  }
  return undefined;
}

function cutFile(path: string, bytes: number, fs: FileSystem): void {
  const fd = fs.open(path, { write: true });
  try {
    fs.truncate(fd, bytes);
    fs.fdatasyncSync(fd);
  } finally {
    fs.close(fd);
  }
}

function deleteSegments(logDir: string, segments: ReadonlyArray<{ path: string }>, fs: FileSystem): void {
  for (const s of segments) {
    fs.unlink(s.path);
    fsyncDirectory(logDir, fs);
  }
}
