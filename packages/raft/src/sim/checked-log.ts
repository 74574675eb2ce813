import type { LogStore } from '../log/log-store.js';
import type { LogStorage } from '../node/ports.js';
import type { Entry, SnapshotMeta } from '../types.js';

export interface LogHooks {
  /**
   * Called with every append before it changes anything (the checker's log-matching,
   * truncation and acknowledgement checks); `truncating`: the store will cut entries.
   */
  appending(entries: readonly Entry[], store: LogStorage, truncating: boolean): void;
  /** A received snapshot replaces the log. */
  installing(meta: SnapshotMeta): void;
}

/**
 * The node's log port in the simulator: the shipped LogStore, with the checker's
 * hooks called before each change. Nothing else is added: reads and writes are
 * the store's own.
 */
export class CheckedLog implements LogStorage {
  constructor(
    readonly store: LogStore,
    private readonly hooks: LogHooks,
  ) {}

  get fsyncs(): number {
    return this.store.fsyncs;
  }

  get entriesSynced(): number {
    return this.store.entriesSynced;
  }

  firstIndex(): number {
    return this.store.firstIndex();
  }

  lastIndex(): number {
    return this.store.lastIndex();
  }

  term(index: number): number | undefined {
    return this.store.term(index);
  }

  entries(lo: number, hi: number, maxBytes: number): Entry[] {
    return this.store.entries(lo, hi, maxBytes);
  }

  snapshotMeta(): SnapshotMeta {
    return this.store.snapshotMeta();
  }

  append(entries: readonly Entry[], options?: { commit?: number }): Promise<void> {
    if (entries.length > 0) this.hooks.appending(entries, this, this.truncates(entries));
    return this.store.append(entries, options);
  }

  recordSnapshot(meta: SnapshotMeta): Promise<void> {
    return this.store.recordSnapshot(meta);
  }

  compact(index: number): Promise<void> {
    return this.store.compact(index);
  }

  installSnapshot(meta: SnapshotMeta): Promise<void> {
    this.hooks.installing(meta);
    return this.store.installSnapshot(meta);
  }

  sync(): Promise<void> {
    return this.store.sync();
  }

  close(): Promise<void> {
    return this.store.close();
  }

  /** Whether LogStore.append cuts entries: one whose term differs from the store's, or entries past the last handed in. */
  private truncates(entries: readonly Entry[]): boolean {
    const last = this.store.lastIndex();
    const lastIn = (entries.at(-1) as Entry).index;
    if (lastIn < last) return true;
    return entries.some((e) => e.index <= last && this.store.term(e.index) !== e.term);
  }
}
