/**
 * A simulated file system for one node (the `FileSystem` port of
 * log/file-system.ts), with the crash model at the file level, under the
 * shipped LogStore, group writer and atomic files:
 *
 * - Every file has the content reads see (the page cache) and the content a
 *   power loss leaves (durable). Writes and truncations change the first at
 *   once and queue as pending changes; fdatasync/fsync (and a write to a file
 *   opened with O_DSYNC, when `syncWrites`) make them durable when they land,
 *   after a delay drawn by the node's SimDisk. Creations, renames and
 *   deletions change the directory at once and are durable once the
 *   directory is synced.
 * - A power loss keeps the durable content plus, now and then, a prefix of
 *   each file's pending changes, the last one torn: cut at a sector boundary,
 *   or the file grown to its full length with zeros in place of the data (the
 *   size reached the disk, the blocks did not); and a prefix of each
 *   directory's pending changes (a journal commits metadata in order).
 * - A sync can fail (EIO, `failSyncs`): what it covered never becomes durable,
 *   though reads still see it. A full disk (`full`) refuses writes that grow a
 *   file (ENOSPC).
 *
 * Directories are created durably at once. One instance per node survives
 * its crashes; each incarnation of the node
 * uses `view(generation)`, whose operations do nothing once a crash has
 * passed it (its abandoned promise chains may still run).
 */
import { basename, dirname } from 'node:path';
import type { FileSystem, OpenFlags } from '../log/file-system.js';
import type { Prng } from './prng.js';

/** The file a durable operation belongs to, for the disk's per-file queues and holds. */
export type FileCategory = 'log' | 'hard-state' | 'members';

type Change =
  | { readonly kind: 'write'; readonly offset: number; readonly bytes: Buffer }
  | { readonly kind: 'truncate'; readonly size: number };

type DirChange =
  | { readonly kind: 'link'; readonly name: string; readonly inode: Inode }
  | { readonly kind: 'unlink'; readonly name: string }
  | { readonly kind: 'rename'; readonly from: string; readonly to: string; readonly inode: Inode };

interface Inode {
  durable: Buffer;
  data: Buffer;
  pending: Change[];
}

interface Dir {
  durable: Map<string, Inode>;
  current: Map<string, Inode>;
  pending: DirChange[];
}

interface OpenFile {
  readonly inode: Inode;
  readonly path: string;
  readonly write: boolean;
  readonly dsync: boolean;
  readonly generation: number;
}

/** What the node's SimDisk does for a durable operation: runs it after a delay, or fails it. */
export interface DurableQueue {
  /** Resolves once `land` ran (the operation completed), rejects with `failure` if it failed. */
  submit(
    generation: number,
    category: FileCategory,
    what: string,
    land: () => void,
    options?: { readonly truncates?: boolean; readonly failure?: () => Error | undefined },
  ): Promise<void>;
  readonly generation: number;
}

export function fsError(code: string, syscall: string, path: string): Error {
  return Object.assign(new Error(`${code}: ${syscall} '${path}'`), { code, syscall, path });
}

/** `content` with `change` applied, as a new buffer (buffers are never changed in place: they are shared). */
function applyChange(content: Buffer, change: Change): Buffer {
  if (change.kind === 'truncate') {
    if (change.size <= content.length) return content.subarray(0, change.size);
    return Buffer.concat([content, Buffer.alloc(change.size - content.length)]);
  }
  const out = Buffer.alloc(Math.max(content.length, change.offset + change.bytes.length));
  content.copy(out);
  change.bytes.copy(out, change.offset);
  return out;
}

/** A path's category; the node's files are `<dir>/log/*`, `<dir>/snapshot-meta`, `<dir>/hard-state`, `<dir>/members.json`. */
export function categoryOf(path: string): FileCategory {
  const name = basename(path);
  if (name.startsWith('hard-state')) return 'hard-state';
  if (name.startsWith('members.json')) return 'members';
  return 'log';
}

/** A path for the trace: temporary files lose their process-specific suffix. */
function tracePath(path: string): string {
  return path.replace(/\.\d+\.\d+\.tmp$/, '.tmp');
}

export class SimFileSystem {
  private readonly dirs = new Map<string, Dir>();
  private readonly fds = new Map<number, OpenFile>();
  private nextFd = 3;
  /** Writes that grow a file fail with ENOSPC while true. */
  full = false;
  /** When room last came back (virtual ms; the simulation sets it). */
  roomAtMs = Number.NEGATIVE_INFINITY;
  /** Chance that a sync (or O_DSYNC write) fails with EIO. */
  failSyncs = 0;
  /** Tests: the next sync of a file whose path this matches fails with EIO. */
  failNextSync: ((path: string) => boolean) | undefined;
  /** Power losses that kept part of some pending change. */
  torn = 0;

  constructor(
    readonly disk: DurableQueue,
    private readonly prng: Prng,
    readonly syncWrites: boolean,
  ) {}

  /** The file system as one incarnation of the node sees it (see the header). */
  view(generation: number): FileSystem {
    return new SimFileSystemView(this, generation);
  }

  /** Power loss: what was not durable is lost, or (now and then) partly kept; `keep` (tests) decides instead. */
  crash(keep?: (pending: number) => number | undefined): void {
    for (const dir of this.dirs.values()) {
      const n = keep ? (keep(dir.pending.length) ?? 0) : this.prefix(dir.pending.length);
      for (const change of dir.pending.slice(0, n)) applyDirChange(dir.durable, change);
      dir.pending = [];
      dir.current = new Map(dir.durable);
    }
    for (const inode of this.inodes()) {
      if (inode.pending.length > 0) {
        const torn = keep === undefined && this.prng.chance(0.5);
        const n = keep ? (keep(inode.pending.length) ?? 0) : this.prefix(inode.pending.length);
        let content = inode.durable;
        inode.pending.slice(0, n).forEach((change, i) => {
          content = i === n - 1 && torn ? this.tear(content, change) : applyChange(content, change);
        });
        if (n > 0) this.torn++;
        inode.durable = content;
      }
      inode.data = inode.durable;
      inode.pending = [];
    }
    this.fds.clear();
  }

  /** How many of `n` pending changes a power loss keeps: none half the time, else a random prefix. */
  private prefix(n: number): number {
    if (n === 0 || !this.prng.chance(0.5)) return 0;
    return this.prng.int(1, n);
  }

  /**
   * The torn last change, as LogStore's recovery expects a power loss to leave one
   * (log-crash.serial.test.ts models the same): cut at a sector boundary (sectors of
   * SECTOR_BYTES land whole and in order, and the file ends there), or the whole
   * change zeroed (the file's size reached the disk, its blocks did not). A
   * truncation lands whole.
   */
  private tear(content: Buffer, change: Change): Buffer {
    if (change.kind === 'truncate') return applyChange(content, change);
    const { offset, bytes } = change;
    if (this.prng.chance(0.5)) {
      return applyChange(content, { kind: 'write', offset, bytes: Buffer.alloc(bytes.length) });
    }
    const end = offset + this.prng.int(0, bytes.length - 1);
    const kept = Math.max(0, Math.floor(end / SECTOR_BYTES) * SECTOR_BYTES - offset);
    const cut = applyChange(content, { kind: 'write', offset, bytes: bytes.subarray(0, kept) });
    return offset + kept >= content.length ? cut.subarray(0, Math.max(offset + kept, content.length)) : cut;
  }

  private *inodes(): Iterable<Inode> {
    const seen = new Set<Inode>();
    for (const dir of this.dirs.values()) {
      for (const inode of [...dir.durable.values(), ...dir.current.values()]) {
        if (!seen.has(inode)) {
          seen.add(inode);
          yield inode;
        }
      }
    }
    for (const f of this.fds.values()) if (!seen.has(f.inode)) yield f.inode;
  }

  /** The durable content of `path` (what a power loss now would leave), for tests. */
  durableFile(path: string): Buffer | undefined {
    return this.dirs.get(dirname(path))?.durable.get(basename(path))?.durable;
  }

  // ------------------------------------------------------------ operations (through a view)

  dir(path: string): Dir {
    const dir = this.dirs.get(path);
    if (!dir) throw fsError('ENOENT', 'scandir', path);
    return dir;
  }

  mkdir(path: string): void {
    for (let p = path; !this.dirs.has(p); p = dirname(p)) {
      this.dirs.set(p, { durable: new Map(), current: new Map(), pending: [] });
      if (dirname(p) === p) break;
    }
  }

  readdir(path: string): string[] {
    return [...this.dir(path).current.keys()];
  }

  lookup(path: string): Inode | undefined {
    return this.dirs.get(dirname(path))?.current.get(basename(path));
  }

  open(path: string, flags: OpenFlags, generation: number): number {
    const dir = this.dir(dirname(path));
    let inode = dir.current.get(basename(path));
    if (!inode) {
      if (!flags.create) throw fsError('ENOENT', 'open', path);
      inode = { durable: Buffer.alloc(0), data: Buffer.alloc(0), pending: [] };
      dir.current.set(basename(path), inode);
      dir.pending.push({ kind: 'link', name: basename(path), inode });
    } else if (flags.create && inode.data.length > 0) {
      this.change(inode, { kind: 'truncate', size: 0 });
    }
    const fd = this.nextFd++;
    this.fds.set(fd, {
      inode,
      path,
      write: flags.write === true,
      dsync: flags.dsync === true && this.syncWrites,
      generation,
    });
    return fd;
  }

  file(fd: number): OpenFile {
    const f = this.fds.get(fd);
    if (!f) throw fsError('EBADF', 'fd', String(fd));
    return f;
  }

  close(fd: number): void {
    this.fds.delete(fd);
  }

  write(fd: number, buf: Buffer, offset: number, length: number, position: number): Promise<number> {
    const f = this.file(fd);
    if (!f.write) return Promise.reject(fsError('EBADF', 'write', f.path));
    if (this.full && position + length > f.inode.data.length) {
      return Promise.reject(fsError('ENOSPC', 'write', f.path));
    }
    const bytes = Buffer.from(buf.subarray(offset, offset + length));
    this.change(f.inode, { kind: 'write', offset: position, bytes });
    if (!f.dsync) return Promise.resolve(length);
    return this.sync(f, `write ${tracePath(f.path)} ${length}B@${position} (dsync)`).then(() => length);
  }

  truncate(fd: number, bytes: number): void {
    const f = this.file(fd);
    if (this.full && bytes > f.inode.data.length) throw fsError('ENOSPC', 'ftruncate', f.path);
    this.change(f.inode, { kind: 'truncate', size: bytes });
  }

  /** Makes the file's pending changes (as of now) durable once the disk completes it. */
  sync(f: OpenFile, what: string): Promise<void> {
    const covered = f.inode.pending.slice();
    const truncates = covered.some((c) => c.kind === 'truncate' && c.size < f.inode.durable.length);
    return this.disk.submit(
      f.generation,
      categoryOf(f.path),
      what,
      () => this.landChanges(f.inode, covered),
      {
        truncates,
        failure: () => {
          const next = this.failNextSync?.(f.path) === true;
          if (next) this.failNextSync = undefined;
          if (!next && !this.prng.chance(this.failSyncs)) return undefined;
          // The page cache drops what it could not write: a later sync will not write it either.
          f.inode.pending = f.inode.pending.filter((c) => !covered.includes(c));
          return fsError('EIO', 'fsync', f.path);
        },
      },
    );
  }

  syncNow(fd: number): void {
    const f = this.file(fd);
    this.landChanges(f.inode, f.inode.pending.slice());
  }

  syncDir(path: string): void {
    const dir = this.dir(path);
    this.landDirChanges(dir, dir.pending.slice());
  }

  syncDirAsync(path: string, generation: number): Promise<void> {
    const dir = this.dir(path);
    const covered = dir.pending.slice();
    const first = covered[0];
    const name = first ? (first.kind === 'rename' ? first.to : first.name) : '';
    return this.disk.submit(generation, categoryOf(`${path}/${name}`), `syncdir ${path}`, () =>
      this.landDirChanges(dir, covered),
    );
  }

  unlink(path: string): void {
    const dir = this.dirs.get(dirname(path));
    if (!dir?.current.has(basename(path))) return;
    dir.current.delete(basename(path));
    dir.pending.push({ kind: 'unlink', name: basename(path) });
  }

  rename(from: string, to: string): void {
    const dir = this.dir(dirname(from));
    const inode = dir.current.get(basename(from));
    if (!inode || dirname(to) !== dirname(from)) throw fsError('ENOENT', 'rename', from);
    dir.current.delete(basename(from));
    dir.current.set(basename(to), inode);
    dir.pending.push({ kind: 'rename', from: basename(from), to: basename(to), inode });
  }

  private change(inode: Inode, change: Change): void {
    inode.data = applyChange(inode.data, change);
    inode.pending.push(change);
  }

  private landChanges(inode: Inode, covered: readonly Change[]): void {
    let content = inode.durable;
    for (const c of covered) {
      const at = inode.pending.indexOf(c);
      if (at < 0) continue; // already durable, or dropped by a failed sync
      content = applyChange(content, c);
      inode.pending.splice(at, 1);
    }
    inode.durable = content;
  }

  private landDirChanges(dir: Dir, covered: readonly DirChange[]): void {
    for (const c of covered) {
      const at = dir.pending.indexOf(c);
      if (at < 0) continue;
      applyDirChange(dir.durable, c);
      dir.pending.splice(at, 1);
    }
  }
}

function applyDirChange(entries: Map<string, Inode>, change: DirChange): void {
  if (change.kind === 'link') entries.set(change.name, change.inode);
  else if (change.kind === 'unlink') entries.delete(change.name);
  else {
    entries.delete(change.from);
    entries.set(change.to, change.inode);
  }
}

/** The disk's atomic unit: a sector lands whole or not at all. */
const SECTOR_BYTES = 512;

const never = <T>() => new Promise<T>(() => undefined);

/** One incarnation's file system: nothing it does reaches the disk once a crash has passed it. */
class SimFileSystemView implements FileSystem {
  constructor(
    private readonly sim: SimFileSystem,
    private readonly generation: number,
  ) {}

  get syncWrites(): boolean {
    return this.sim.syncWrites;
  }

  private get live(): boolean {
    return this.sim.disk.generation === this.generation;
  }

  mkdir(dir: string): void {
    if (this.live) this.sim.mkdir(dir);
  }

  readdir(dir: string): string[] {
    return this.sim.readdir(dir);
  }

  readFile(path: string): Buffer | undefined {
    const inode = this.sim.lookup(path);
    return inode ? Buffer.from(inode.data) : undefined;
  }

  open(path: string, flags: OpenFlags): number {
    if (!this.live) return -1;
    return this.sim.open(path, flags, this.generation);
  }

  openAsync(path: string, flags: OpenFlags): Promise<number> {
    if (!this.live) return never();
    try {
      return Promise.resolve(this.sim.open(path, flags, this.generation));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  close(fd: number): void {
    if (this.live) this.sim.close(fd);
  }

  size(fd: number): number {
    return this.sim.file(fd).inode.data.length;
  }

  read(fd: number, buf: Buffer, offset: number, length: number, position: number): number {
    const data = this.sim.file(fd).inode.data;
    if (position >= data.length) return 0;
    return data.copy(buf, offset, position, Math.min(data.length, position + length));
  }

  write(fd: number, buf: Buffer, offset: number, length: number, position: number): Promise<number> {
    if (!this.live) return never();
    try {
      return this.sim.write(fd, buf, offset, length, position);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  truncate(fd: number, bytes: number): void {
    if (this.live) this.sim.truncate(fd, bytes);
  }

  fdatasync(fd: number): Promise<void> {
    if (!this.live) return never();
    const f = this.sim.file(fd);
    return this.sim.sync(f, `fdatasync ${tracePath(f.path)}`);
  }

  fdatasyncSync(fd: number): void {
    if (this.live) this.sim.syncNow(fd);
  }

  fsync(fd: number): Promise<void> {
    if (!this.live) return never();
    const f = this.sim.file(fd);
    return this.sim.sync(f, `fsync ${tracePath(f.path)}`);
  }

  syncDir(dir: string): void {
    if (this.live) this.sim.syncDir(dir);
  }

  syncDirAsync(dir: string): Promise<void> {
    if (!this.live) return never();
    return this.sim.syncDirAsync(dir, this.generation);
  }

  unlink(path: string): void {
    if (this.live) this.sim.unlink(path);
  }

  rename(from: string, to: string): Promise<void> {
    if (!this.live) return never();
    try {
      this.sim.rename(from, to);
      return Promise.resolve();
    } catch (error) {
      return Promise.reject(error);
    }
  }
}
