/**
 * The node driver's storage ports on a SimDisk. The log, the hard state and
 * the address book are the shipped LogStore, HardStateFile and atomic file
 * on the disk's simulated file system (`openSimFiles`); the snapshot file
 * and received snapshot data are simulated whole (`SimSnapshotStorage`,
 * `SimIncoming`).
 */

import { crc32 } from 'node:zlib';
import { HardStateFile } from '../log/hard-state.js';
import { LogStore, type LogStoreOptions } from '../log/log-store.js';
import type { SnapshotInfo, SnapshotReader } from '../log/snapshot-store.js';
import { atomicSmallFile } from '../node/file-ports.js';
import type { IncomingSnapshots, SmallFile, SnapshotStorage } from '../node/ports.js';
import type { SnapshotMeta } from '../types.js';
import { SIM_DATA_DIR, type SimDisk } from './sim-disk.js';
import { SimulationError } from './sim-error.js';

export interface SimFileOptions {
  /** LogStore's segment size (small ones make segments turn over and compaction delete them). */
  readonly segmentBytes?: number;
  /** LogStore's entry cache (a small one makes reads go to the segment files). */
  readonly cacheBytes?: number;
  /** Opens the log (a test-only subclass of LogStore with an injected bug, say). */
  readonly openLog?: (options: LogStoreOptions) => LogStore;
}

/** The current incarnation's log, hard state and address book, opened (recovered) from the disk's files. */
export function openSimFiles(
  disk: SimDisk,
  options: SimFileOptions = {},
): { log: LogStore; stable: HardStateFile; addressBook: SmallFile } {
  const fs = disk.fs.view(disk.generation);
  const stable = HardStateFile.open(SIM_DATA_DIR, fs);
  const log = (options.openLog ?? ((o) => LogStore.open(o)))({
    dir: SIM_DATA_DIR,
    fs,
    ...(options.segmentBytes !== undefined ? { segmentBytes: options.segmentBytes } : {}),
    ...(options.cacheBytes !== undefined ? { cacheBytes: options.cacheBytes } : {}),
  });
  return { log, stable, addressBook: atomicSmallFile(`${SIM_DATA_DIR}/members.json`, fs) };
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
    if (!data) throw new SimulationError(`no received snapshot data ${ref}`);
    return chunksOf(data);
  }

  discard(ref: string): void {
    this.data.delete(ref);
  }
}

export { chunksOf, collect };
