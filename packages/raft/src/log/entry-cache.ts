/**
 * The recent end of the log in memory: a contiguous run of entries ending at
 * the last index. Entries not yet written to their segment are always here
 * (reads of them cannot go to disk); older ones are evicted from the front once
 * the cache exceeds its byte budget.
 */
import type { Entry } from '../types.js';
import { invariant } from './errors.js';

export class EntryCache {
  private entries: Entry[] = [];
  private head = 0;
  private bytes = 0;
  /** Index of entries[head]. */
  private start: number;

  constructor(
    private readonly maxBytes: number,
    nextIndex: number,
  ) {
    this.start = nextIndex;
  }

  /** First cached index (== last index + 1 when empty). */
  firstIndex(): number {
    return this.start;
  }

  get(index: number): Entry | undefined {
    return index >= this.start ? this.entries[this.head + index - this.start] : undefined;
  }

  push(entry: Entry): void {
    const expected = this.start + this.entries.length - this.head;
    invariant(entry.index === expected, () => `cache push of index ${entry.index}, expected ${expected}`);
    this.entries.push(entry);
    this.bytes += entry.data.length;
  }

  /** Drops entries with index >= `index`. */
  truncateFrom(index: number): void {
    if (index <= this.start) {
      this.reset(index);
      return;
    }
    const keep = this.head + index - this.start;
    for (let i = keep; i < this.entries.length; i++) this.bytes -= this.entries[i]!.data.length;
    if (keep < this.entries.length) this.entries.length = keep;
  }

  /** Empties the cache; the next pushed entry must be `nextIndex`. */
  reset(nextIndex: number): void {
    this.entries = [];
    this.head = 0;
    this.bytes = 0;
    this.start = nextIndex;
  }

  /** Drops entries below `index` (compacted away). */
  dropBefore(index: number): void {
    while (this.start < index && this.head < this.entries.length) this.shift();
    if (this.head === this.entries.length) this.reset(Math.max(index, this.start));
  }

  /** Evicts from the front while over budget, but never entries above `writtenIndex`. */
  evict(writtenIndex: number): void {
    while (this.bytes > this.maxBytes && this.start <= writtenIndex && this.head < this.entries.length)
      this.shift();
  }

  private shift(): void {
    this.bytes -= this.entries[this.head]!.data.length;
    // Release the entry now: the dead prefix is reclaimed only every 1,024 shifts, and
    // 1,024 evicted entries of a few hundred KiB each would stay alive until then.
    (this.entries as Array<Entry | undefined>)[this.head] = undefined;
    this.head += 1;
    this.start += 1;
    // Reclaim the array's dead prefix now and then, keeping shifts amortised O(1).
    if (this.head > 1024 && this.head * 2 > this.entries.length) {
      this.entries = this.entries.slice(this.head);
      this.head = 0;
    }
  }
}
