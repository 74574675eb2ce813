import { invariant } from '@fermata/base';
import type { Entry, LogReader, SnapshotMeta } from '../types.js';

/**
 * The log as the core sees it: the stable `LogReader` (what the driver has made
 * durable) overlaid with an unstable suffix (entries handed out, or about to be
 * handed out, in `Ready.entries` and not yet confirmed by `advance`) and at most
 * one accepted snapshot that the driver has not installed yet.
 *
 * Indices at or above `offset` are answered from the unstable buffer even when
 * the stable log still holds (stale) entries there: a truncation is pending.
 */
export class RaftLog {
  private unstable: Entry[] = [];
  private offset: number;
  private pendingSnapshot: SnapshotMeta | undefined;
  committed: number;
  /** Handed out for applying (in a Ready's committedEntries or snapshot). */
  applying: number;
  /** Confirmed applied by advance(). */
  applied: number;

  constructor(
    readonly stable: LogReader,
    committed: number,
    applied: number,
  ) {
    this.offset = stable.lastIndex() + 1;
    const first = stable.firstIndex();
    // A commit index below the snapshot is stale hard state: the snapshot is committed.
    this.committed = Math.max(committed, first - 1);
    this.applied = Math.max(applied, first - 1);
    this.applying = this.applied;
    invariant(this.committed <= this.lastIndex(), 'committed <= last index', () => ({
      committed: this.committed,
      lastIndex: this.lastIndex(),
    }));
    invariant(this.applied <= this.committed, 'applied <= committed', () => ({
      applied: this.applied,
      committed: this.committed,
    }));
  }

  firstIndex(): number {
    return this.pendingSnapshot ? this.pendingSnapshot.index + 1 : this.stable.firstIndex();
  }

  lastIndex(): number {
    if (this.unstable.length > 0) return this.offset + this.unstable.length - 1;
    if (this.pendingSnapshot) return this.pendingSnapshot.index;
    return this.stable.lastIndex();
  }

  /** The last index that is durable on this node (entries up to it survive a crash). */
  stableLastIndex(): number {
    if (this.pendingSnapshot) return this.committed;
    return this.unstable.length > 0 ? this.offset - 1 : this.lastIndex();
  }

  term(index: number): number | undefined {
    const snap = this.pendingSnapshot;
    if (snap) {
      if (index === snap.index) return snap.term;
      if (index < snap.index) return undefined;
    }
    if (index >= this.offset) return this.unstable[index - this.offset]?.term;
    if (index < this.stable.firstIndex() - 1) return undefined;
    return this.stable.term(index);
  }

  lastTerm(): number {
    const term = this.term(this.lastIndex());
    invariant(term !== undefined, 'term of the last index is known', () => ({ lastIndex: this.lastIndex() }));
    return term;
  }

  matchTerm(index: number, term: number): boolean {
    return this.term(index) === term;
  }

  /** §5.4.1: a candidate's log is at least as up to date as ours. */
  isUpToDate(lastIndex: number, lastTerm: number): boolean {
    const ourTerm = this.lastTerm();
    return lastTerm > ourTerm || (lastTerm === ourTerm && lastIndex >= this.lastIndex());
  }

  /** Index of the first entry whose term differs from ours (or that we lack), or 0 if all match. */
  findConflict(entries: readonly Entry[]): number {
    for (const entry of entries) {
      if (!this.matchTerm(entry.index, entry.term)) return entry.index;
    }
    return 0;
  }

  /**
   * The largest index <= `index` whose term is <= `term` (fast backtracking: every
   * entry after it either conflicts or is unknown). Stops at the compaction point.
   */
  findConflictByTerm(index: number, term: number): number {
    const floor = this.firstIndex() - 1;
    let at = Math.min(index, this.lastIndex());
    while (at > floor) {
      const t = this.term(at);
      if (t === undefined || t <= term) return at;
      at--;
    }
    return floor;
  }

  /** Appends `entries`, dropping our suffix from `entries[0].index` (which must be above the commit index). */
  append(entries: readonly Entry[]): void {
    const first = entries[0];
    if (!first) return;
    invariant(first.index > this.committed, 'no truncation at or below the commit index', () => ({
      firstAppended: first.index,
      committed: this.committed,
    }));
    invariant(first.index <= this.lastIndex() + 1, 'append leaves no gap', () => ({
      firstAppended: first.index,
      lastIndex: this.lastIndex(),
    }));
    const end = this.offset + this.unstable.length;
    if (first.index === end) {
      this.unstable.push(...entries);
    } else if (first.index <= this.offset) {
      this.unstable = [...entries];
      this.offset = first.index;
    } else {
      this.unstable = [...this.unstable.slice(0, first.index - this.offset), ...entries];
    }
  }

  /** Entries in [lo, hi), at most `maxBytes` of data (at least one entry when lo < hi). */
  entries(lo: number, hi: number, maxBytes: number): Entry[] {
    invariant(lo >= this.firstIndex() && hi <= this.lastIndex() + 1, 'entries within the log', () => ({
      lo,
      hi,
      firstIndex: this.firstIndex(),
      lastIndex: this.lastIndex(),
    }));
    if (lo >= hi) return [];
    const out: Entry[] = [];
    let bytes = 0;
    if (lo < this.offset) {
      const stableEntries = this.stable.entries(lo, Math.min(hi, this.offset), maxBytes);
      invariant(stableEntries[0]?.index === lo, 'stable log returns the entries asked for', () => ({
        lo,
        got: stableEntries[0]?.index,
      }));
      for (const entry of stableEntries) {
        bytes += entry.data.length;
        out.push(entry);
      }
      if (out.length < Math.min(hi, this.offset) - lo) return out;
    }
    for (let i = Math.max(lo, this.offset); i < hi; i++) {
      const entry = this.unstable[i - this.offset]!;
      if (out.length > 0 && bytes + entry.data.length > maxBytes) break;
      bytes += entry.data.length;
      out.push(entry);
    }
    return out;
  }

  entryAt(index: number): Entry {
    const entry = this.entries(index, index + 1, Number.MAX_SAFE_INTEGER)[0];
    invariant(entry !== undefined, 'entry exists', () => ({ index }));
    return entry;
  }

  unstableEntries(): readonly Entry[] {
    return this.unstable.slice();
  }

  snapshotToInstall(): SnapshotMeta | undefined {
    return this.pendingSnapshot;
  }

  /**
   * The driver persisted `entries` (one Ready's): the longest prefix of them
   * still in the log with the same terms leaves the unstable buffer. A
   * conflicting append stepped while they were being written replaces only a
   * suffix; the prefix is durable and must not be handed out (and rewritten)
   * again.
   */
  stableEntries(entries: readonly Entry[]): void {
    const last = entries.at(-1);
    if (!last) return;
    if (this.term(last.index) === last.term) {
      this.stableTo(last.index, last.term);
      return;
    }
    let matched: Entry | undefined;
    for (const e of entries) {
      if (this.term(e.index) !== e.term) break;
      matched = e;
    }
    if (matched) this.stableTo(matched.index, matched.term);
  }

  /** The driver persisted entries up to (index, term): drop them from the unstable buffer if still ours. */
  stableTo(index: number, term: number): void {
    if (index < this.offset || this.term(index) !== term) return;
    if (this.pendingSnapshot && index <= this.pendingSnapshot.index) return;
    this.unstable = this.unstable.slice(index + 1 - this.offset);
    this.offset = index + 1;
  }

  stableSnapshotTo(index: number): void {
    if (this.pendingSnapshot?.index === index) this.pendingSnapshot = undefined;
  }

  /** Accepts a snapshot: the whole log is replaced by it once the driver installs it. */
  restore(meta: SnapshotMeta): void {
    invariant(meta.index > this.committed, 'a restored snapshot is ahead of the commit index', () => ({
      snapshotIndex: meta.index,
      committed: this.committed,
    }));
    this.pendingSnapshot = meta;
    this.unstable = [];
    this.offset = meta.index + 1;
    this.committed = meta.index;
    this.applying = Math.max(this.applying, meta.index);
  }

  commitTo(index: number): boolean {
    if (index <= this.committed) return false;
    invariant(index <= this.lastIndex(), 'committed <= last index', () => ({
      commit: index,
      lastIndex: this.lastIndex(),
    }));
    this.committed = index;
    return true;
  }

  appliedTo(index: number): void {
    invariant(
      index <= this.committed && index >= this.applied,
      'applied <= committed, applied never decreases',
      () => ({
        applied: this.applied,
        newApplied: index,
        committed: this.committed,
      }),
    );
    this.applied = index;
  }

  hasEntriesToApply(): boolean {
    return this.committed > this.applying && this.applying + 1 >= this.firstIndex();
  }

  /** Committed entries not yet handed out, at most `maxBytes` (at least one). */
  nextEntriesToApply(maxBytes: number): Entry[] {
    if (!this.hasEntriesToApply()) return [];
    return this.entries(this.applying + 1, this.committed + 1, maxBytes);
  }
}
