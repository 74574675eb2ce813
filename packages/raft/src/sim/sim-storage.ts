/**
 * The node driver's storage ports over a SimDisk. SimLogStorage behaves as
 * LogStore does: its view changes at once, the change is durable when the
 * promise resolves, and an append whose first index is <= lastIndex
 * truncates first (made durable before the new frames are written, so a
 * crash in between leaves the log truncated), then writes the frames (a
 * crash may keep a prefix of them: recovery drops a torn frame and what
 * follows).
 */
import { crc32 } from 'node:zlib';
import { invariant } from '../core/errors.js';
import type { SnapshotInfo, SnapshotReader } from '../log/snapshot-store.js';
import type {
  IncomingSnapshots,
  LogStorage,
  SmallFile,
  SnapshotStorage,
  StableStorage,
} from '../node/ports.js';
import type { Entry, HardState, SnapshotMeta } from '../types.js';
import type { DurableLog, SimDisk } from './sim-disk.js';

function cloneLog(log: DurableLog): DurableLog {
  return { meta: log.meta, first: log.first, prevTerm: log.prevTerm, entries: log.entries.slice() };
}

function truncateFrom(log: DurableLog, index: number): void {
  if (index < log.first) throw new Error(`truncate at ${index} below the first index ${log.first}`);
  if (index - log.first < log.entries.length) log.entries.length = index - log.first;
}

function compactTo(log: DurableLog, index: number): void {
  if (index < log.first) return;
  const keep = Math.max(0, index + 1 - log.first);
  log.prevTerm = index - log.first < log.entries.length ? log.entries[index - log.first]!.term : log.prevTerm;
  log.entries = log.entries.slice(keep);
  log.first = index + 1;
}

export interface LogHooks {
  /** Called with every append before it changes anything (the checker's log-matching and truncation checks). */
  appending(entries: readonly Entry[], store: SimLogStorage, truncating: boolean): void;
  /** A received snapshot replaces the log. */
  installing(meta: SnapshotMeta): void;
}

export class SimLogStorage implements LogStorage {
  private readonly view: DurableLog;
  fsyncs = 0;
  entriesSynced = 0;

  private readonly generation: number;

  constructor(
    private readonly disk: SimDisk,
    private readonly hooks: LogHooks,
  ) {
    this.view = cloneLog(disk.log);
    this.generation = disk.generation;
  }

  firstIndex(): number {
    return this.view.first;
  }

  lastIndex(): number {
    return this.view.first + this.view.entries.length - 1;
  }

  term(index: number): number | undefined {
    if (index === this.view.first - 1) return this.view.prevTerm;
    return index >= this.view.first ? this.view.entries[index - this.view.first]?.term : undefined;
  }

  entries(lo: number, hi: number, maxBytes: number): Entry[] {
    invariant(lo >= this.view.first && hi <= this.lastIndex() + 1, 'entries within the stable log', () => ({
      lo,
      hi,
      firstIndex: this.view.first,
      lastIndex: this.lastIndex(),
    }));
    const out: Entry[] = [];
    let bytes = 0;
    for (let i = lo; i < hi; i++) {
      const entry = this.view.entries[i - this.view.first]!;
      if (out.length > 0 && bytes + entry.data.length > maxBytes) break;
      bytes += entry.data.length;
      out.push(entry);
    }
    return out;
  }

  snapshotMeta(): SnapshotMeta {
    return this.view.meta;
  }

  append(entries: readonly Entry[], options: { commit?: number } = {}): Promise<void> {
    const head = entries[0];
    if (head === undefined) return Promise.resolve();
    const last = this.lastIndex();
    invariant(
      head.index >= this.view.first && head.index <= last + 1 && head.index > this.view.meta.index,
      'append within the log',
      () => ({ append: head.index, first: this.view.first, last, snapshot: this.view.meta.index }),
    );
    if (options.commit !== undefined) {
      const commit = options.commit;
      invariant(
        head.index > commit || head.index > last,
        'append does not truncate committed entries',
        () => ({
          append: head.index,
          commit,
        }),
      );
    }
    const truncating = head.index <= last;
    this.hooks.appending(entries, this, truncating);
    const copy = entries.slice();
    truncateFrom(this.view, head.index);
    this.view.entries.push(...copy);
    const durable = this.disk.log;
    return this.disk.submitFor(this.generation, 'log', {
      what: `append ${head.index}..${head.index + copy.length - 1}${truncating ? ` truncating ${head.index}..${last}` : ''}`,
      truncates: truncating,
      land: () => {
        truncateFrom(durable, head.index);
        durable.entries.push(...copy);
        this.fsyncs++;
        this.entriesSynced += copy.length;
      },
      torn: (keep) => {
        if (truncating) truncateFrom(durable, head.index);
        else if (durable.first + durable.entries.length !== head.index) return;
        durable.entries.push(...copy.slice(0, Math.min(keep(copy.length), copy.length - 1)));
      },
    });
  }

  recordSnapshot(meta: SnapshotMeta): Promise<void> {
    invariant(
      meta.index >= this.view.meta.index && this.term(meta.index) === meta.term,
      'a recorded snapshot is in the log',
      () => ({ index: meta.index, term: meta.term, termThere: this.term(meta.index) }),
    );
    this.view.meta = meta;
    const durable = this.disk.log;
    return this.disk.submitFor(this.generation, 'log', {
      what: `record-snapshot ${meta.index}`,
      land: () => {
        durable.meta = meta;
      },
    });
  }

  compact(index: number): Promise<void> {
    invariant(index <= this.view.meta.index, 'compaction only behind the recorded snapshot', () => ({
      index,
      snapshot: this.view.meta.index,
    }));
    if (index < this.view.first) return Promise.resolve();
    compactTo(this.view, index);
    const durable = this.disk.log;
    return this.disk.submitFor(this.generation, 'log', {
      what: `compact ${index}`,
      land: () => compactTo(durable, index),
    });
  }

  installSnapshot(meta: SnapshotMeta): Promise<void> {
    invariant(meta.index >= this.view.meta.index, 'an installed snapshot is not older', () => ({
      index: meta.index,
      recorded: this.view.meta.index,
    }));
    this.hooks.installing(meta);
    const reset = (log: DurableLog) => {
      log.meta = meta;
      log.first = meta.index + 1;
      log.prevTerm = meta.term;
      log.entries = [];
    };
    reset(this.view);
    const durable = this.disk.log;
    // The meta lands first and recovery drops segments that disagree with it: all or nothing.
    return this.disk.submitFor(this.generation, 'log', {
      what: `install-snapshot ${meta.index}`,
      land: () => reset(durable),
    });
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

/** HardStateFile: replaced atomically; `get` returns what the last completed save wrote. */
export class SimStableStorage implements StableStorage {
  private current: HardState;

  private readonly generation: number;

  constructor(
    private readonly disk: SimDisk,
    private readonly onDurable: (state: HardState) => void,
  ) {
    this.current = disk.hardState;
    this.generation = disk.generation;
  }

  get(): HardState {
    return this.current;
  }

  save(state: HardState): Promise<void> {
    invariant(state.term >= this.current.term, 'hard state term never goes back', () => ({
      saved: this.current.term,
      saving: state.term,
    }));
    return this.disk.submitFor(this.generation, 'hard-state', {
      what: `hard-state ${state.term}/${state.vote}/${state.commit}`,
      land: () => {
        this.disk.hardState = state;
        this.current = state;
        this.onDurable(state);
      },
    });
  }
}

const SNAPSHOT_CHUNK_BYTES = 256;

async function collect(chunks: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const c of chunks) parts.push(c);
  return Buffer.concat(parts);
}

async function* chunksOf(data: Uint8Array): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < data.length; at += SNAPSHOT_CHUNK_BYTES)
    yield data.subarray(at, at + SNAPSHOT_CHUNK_BYTES);
}

function info(meta: SnapshotMeta, data: Uint8Array): SnapshotInfo {
  return { meta, dataBytes: data.length, crc32: crc32(data) };
}

/** SnapshotFiles: the latest snapshot, replaced atomically (rename), never by an older one. */
export class SimSnapshotStorage implements SnapshotStorage {
  private readonly generation: number;

  constructor(private readonly disk: SimDisk) {
    this.generation = disk.generation;
  }

  latest(): Promise<SnapshotInfo | undefined> {
    const s = this.disk.snapshot;
    return Promise.resolve(s ? info(s.meta, s.data) : undefined);
  }

  read(): Promise<SnapshotReader | undefined> {
    const s = this.disk.snapshot;
    if (!s) return Promise.resolve(undefined);
    return Promise.resolve({
      ...info(s.meta, s.data),
      chunks: chunksOf(s.data),
      close: () => Promise.resolve(),
    });
  }

  async write(meta: SnapshotMeta, chunks: AsyncIterable<Uint8Array>): Promise<SnapshotInfo> {
    const data = await collect(chunks);
    await this.disk.submitFor(this.generation, 'snapshot', {
      what: `snapshot ${meta.index}`,
      land: () => {
        const current = this.disk.snapshot;
        if (!current || current.meta.index <= meta.index) this.disk.snapshot = { meta, data };
      },
    });
    const s = this.disk.snapshot as { meta: SnapshotMeta; data: Uint8Array };
    return info(s.meta, s.data);
  }
}

/** members.json */
export class SimSmallFile implements SmallFile {
  private readonly generation: number;

  constructor(private readonly disk: SimDisk) {
    this.generation = disk.generation;
  }

  read(): Uint8Array | undefined {
    return this.disk.members;
  }

  write(bytes: Uint8Array): Promise<void> {
    const copy = bytes.slice();
    return this.disk.submitFor(this.generation, 'members', {
      what: 'members',
      land: () => {
        this.disk.members = copy;
      },
    });
  }
}

/** Snapshot data received by the simulated transport, by reference; gone at a crash. */
export class SimIncoming implements IncomingSnapshots {
  private readonly data = new Map<string, Uint8Array>();
  private seq = 0;

  reset(): void {
    this.data.clear();
  }

  add(data: Uint8Array): string {
    const ref = `incoming-${++this.seq}`;
    this.data.set(ref, data);
    return ref;
  }

  open(ref: string): AsyncIterable<Uint8Array> {
    const data = this.data.get(ref);
    if (!data) throw new Error(`no received snapshot data ${ref}`);
    return chunksOf(data);
  }

  discard(ref: string): void {
    this.data.delete(ref);
  }
}

export { chunksOf, collect };
