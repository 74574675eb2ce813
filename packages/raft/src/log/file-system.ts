/**
 * The file operations the log store, the group writer and the small atomic
 * files (hard state, snapshot meta, address book) make, as one port: the
 * shipped implementation is node:fs (`nodeFileSystem`), the simulator's is a
 * simulated file system with the crash model at the file level (unsynced
 * writes lost or torn at a power loss, failing fsyncs, a full disk). The
 * calls are the ones the code makes, with the same blocking behaviour: the
 * synchronous ones block the event loop (start-up, rare metadata changes),
 * the asynchronous ones are the hot path (one pool request per group write).
 *
 * Errors are node's: an `Error` with a `code` ('ENOENT', 'EIO', 'ENOSPC', ...).
 */
import {
  closeSync,
  constants,
  fdatasync,
  fdatasyncSync,
  fstatSync,
  fsync,
  fsyncSync,
  ftruncateSync,
  mkdirSync,
  open,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  rmSync,
  write,
} from 'node:fs';
import { rename } from 'node:fs/promises';
import { promisify } from 'node:util';

/** How a file is opened: read only unless `write`; `create` creates it or empties it (O_CREAT | O_TRUNC). */
export interface OpenFlags {
  readonly write?: boolean;
  readonly create?: boolean;
  /** Writes return once on disk (O_DSYNC), when the file system has it (`syncWrites`). */
  readonly dsync?: boolean;
}

export interface FileSystem {
  /**
   * Whether a write to a file opened with `dsync` is durable when it returns
   * (O_DSYNC on Linux). Elsewhere the caller follows each write with fdatasync.
   */
  readonly syncWrites: boolean;
  /** Creates `dir` and its parents (no error if it exists). */
  mkdir(dir: string): void;
  readdir(dir: string): string[];
  /** The whole file; undefined when it does not exist. */
  readFile(path: string): Buffer | undefined;
  open(path: string, flags: OpenFlags): number;
  openAsync(path: string, flags: OpenFlags): Promise<number>;
  close(fd: number): void;
  /** The file's size. */
  size(fd: number): number;
  /** Reads into `buf[offset, offset + length)` from `position`; the bytes read (0 at the end). */
  read(fd: number, buf: Buffer, offset: number, length: number, position: number): number;
  /** Writes `buf[offset, offset + length)` at `position`; the bytes written. */
  write(fd: number, buf: Buffer, offset: number, length: number, position: number): Promise<number>;
  truncate(fd: number, bytes: number): void;
  fdatasync(fd: number): Promise<void>;
  fdatasyncSync(fd: number): void;
  fsync(fd: number): Promise<void>;
  /** Makes the creations, renames and deletions in `dir` durable. */
  syncDir(dir: string): void;
  syncDirAsync(dir: string): Promise<void>;
  /** Removes a file; no error when it does not exist. */
  unlink(path: string): void;
  rename(from: string, to: string): Promise<void>;
}

const writeAsync = promisify(write);
const fdatasyncAsync = promisify(fdatasync);
const fsyncAsync = promisify(fsync);
const openAsync = promisify(open);

/** O_DSYNC on Linux only: on macOS it does not flush the drive's cache (libuv's fdatasync uses F_FULLFSYNC there). */
const SYNC_WRITES = process.platform === 'linux';

function openMode(flags: OpenFlags): number {
  let mode = flags.write ? constants.O_RDWR : constants.O_RDONLY;
  if (flags.create) mode |= constants.O_CREAT | constants.O_TRUNC;
  if (flags.dsync && SYNC_WRITES) mode |= constants.O_DSYNC;
  return mode;
}

/** The shipped file system: node:fs. */
export const nodeFileSystem: FileSystem = {
  syncWrites: SYNC_WRITES,
  mkdir: (dir) => {
    mkdirSync(dir, { recursive: true });
  },
  readdir: (dir) => readdirSync(dir),
  readFile(path) {
    try {
      return readFileSync(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  },
  open: (path, flags) => openSync(path, openMode(flags)),
  openAsync: (path, flags) => openAsync(path, openMode(flags)),
  close: (fd) => closeSync(fd),
  size: (fd) => fstatSync(fd).size,
  read: (fd, buf, offset, length, position) => readSync(fd, buf, offset, length, position),
  write: async (fd, buf, offset, length, position) =>
    (await writeAsync(fd, buf, offset, length, position)).bytesWritten,
  truncate: (fd, bytes) => ftruncateSync(fd, bytes),
  fdatasync: (fd) => fdatasyncAsync(fd),
  fdatasyncSync: (fd) => fdatasyncSync(fd),
  fsync: (fd) => fsyncAsync(fd),
  syncDir(dir) {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  },
  async syncDirAsync(dir) {
    const fd = await openAsync(dir, 'r');
    try {
      await fsyncAsync(fd);
    } finally {
      closeSync(fd);
    }
  },
  unlink: (path) => rmSync(path, { force: true }),
  rename: (from, to) => rename(from, to),
};
