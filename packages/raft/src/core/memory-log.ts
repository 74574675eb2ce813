import { invariant } from '@fermata/base';
import type { Entry, LogReader, SnapshotMeta } from '../types.js';

/**
 * An in-memory stable log: what the simulator and the unit tests use in place of
 * the on-disk log store. Holds entries after a snapshot point.
 */
export class MemoryLog implements LogReader {
  private snap: SnapshotMeta;
  private log: Entry[] = [];

  constructor(snapshot: SnapshotMeta = { index: 0, term: 0, conf: { voters: [], learners: [] } }) {
    this.snap = snapshot;
  }

  firstIndex(): number {
    return this.snap.index + 1;
  }

  lastIndex(): number {
    return this.snap.index + this.log.length;
  }

  term(index: number): number | undefined {
    if (index === this.snap.index) return this.snap.term;
    if (index < this.snap.index) return undefined;
    return this.log[index - this.snap.index - 1]?.term;
  }

  entries(lo: number, hi: number, maxBytes: number): Entry[] {
    invariant(lo >= this.firstIndex() && hi <= this.lastIndex() + 1, 'entries within the stable log', () => ({
      lo,
      hi,
      firstIndex: this.firstIndex(),
      lastIndex: this.lastIndex(),
    }));
    const out: Entry[] = [];
    let bytes = 0;
    for (let i = lo; i < hi; i++) {
      const entry = this.log[i - this.snap.index - 1]!;
      if (out.length > 0 && bytes + entry.data.length > maxBytes) break;
      bytes += entry.data.length;
      out.push(entry);
    }
    return out;
  }

  snapshotMeta(): SnapshotMeta {
    return this.snap;
  }

  /** Writes `entries`, dropping any suffix from entries[0].index (a Ready's `entries`). */
  append(entries: readonly Entry[]): void {
    const first = entries[0];
    if (!first) return;
    invariant(
      first.index > this.snap.index && first.index <= this.lastIndex() + 1,
      'append within the log',
      () => ({
        firstAppended: first.index,
        snapshotIndex: this.snap.index,
        lastIndex: this.lastIndex(),
      }),
    );
    this.log = this.log.slice(0, first.index - this.snap.index - 1);
    for (const e of entries) this.log.push(e);
  }

  /** Drops entries after `index`. */
  truncateAfter(index: number): void {
    this.log = this.log.slice(0, Math.max(0, index - this.snap.index));
  }

  /** Discards entries up to `meta.index` (which must be in the log) and records the snapshot point. */
  compact(meta: SnapshotMeta): void {
    if (meta.index <= this.snap.index) return;
    invariant(
      meta.index <= this.lastIndex() && this.term(meta.index) === meta.term,
      'compaction point is in the log',
      () => ({
        index: meta.index,
        term: meta.term,
        lastIndex: this.lastIndex(),
        termThere: this.term(meta.index),
      }),
    );
    this.log = this.log.slice(meta.index - this.snap.index);
    this.snap = meta;
  }

  /** Replaces the whole log by a snapshot point (a Ready's `snapshot`). */
  installSnapshot(meta: SnapshotMeta): void {
    this.snap = meta;
    this.log = [];
  }

  clone(): MemoryLog {
    const copy = new MemoryLog(this.snap);
    copy.log = this.log.slice();
    return copy;
  }
}
