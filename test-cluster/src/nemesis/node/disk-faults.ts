/**
 * Test-only: a disk that fails on command. While `file` holds `eio`, every
 * write and fsync/fdatasync to a file under the node's Raft data directory
 * (`<FERMATA_DATA_DIR>/raft`: log segments, hard state, snapshot meta,
 * address book) fails with EIO, as a disk whose write-back fails does. A
 * segment opened with O_DSYNC (Linux) reports its failed sync from the write
 * itself, so the write is failed too. Anything else in the file (or no file)
 * leaves the disk alone.
 *
 * It replaces functions of `node:fs` before the server is imported and
 * resyncs the ES module bindings (`syncBuiltinESMExports`), so the shipped
 * file system port (packages/raft/src/log/file-system.ts) runs unchanged on
 * top of it. Loaded only by test-node.ts when FERMATA_TEST_DISK_FAULT_FILE
 * is set; nothing shipped imports it and no build includes it.
 */
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { resolve, sep } from 'node:path';

type Callback = (err: NodeJS.ErrnoException | null, ...rest: unknown[]) => void;

export function installDiskFaults(file: string, dataDir: string): void {
  const under = resolve(dataDir, 'raft') + sep;
  const paths = new Map<number, string>();
  const readFileSync = fs.readFileSync;
  const failing = (): boolean => {
    try {
      return readFileSync(file, 'utf8').trim() === 'eio';
    } catch {
      return false;
    }
  };
  const watched = (fd: unknown): string | undefined => {
    const path = typeof fd === 'number' ? paths.get(fd) : undefined;
    return path !== undefined && failing() ? path : undefined;
  };
  const eio = (syscall: string, path: string): NodeJS.ErrnoException => {
    const err: NodeJS.ErrnoException = new Error(`EIO: i/o error, ${syscall} '${path}' (injected)`);
    err.code = 'EIO';
    err.errno = -5;
    err.syscall = syscall;
    err.path = path;
    process.stderr.write(`test disk: ${syscall} of ${path} fails with EIO (injected)\n`);
    return err;
  };
  const note = (path: unknown, fd: number): void => {
    const p = typeof path === 'string' ? resolve(path) : undefined;
    if (p?.startsWith(under)) paths.set(fd, p);
    else paths.delete(fd);
  };

  const { openSync, open, closeSync, close, write, writeSync, fsync, fsyncSync, fdatasync, fdatasyncSync } =
    fs;
  const patched = fs as unknown as Record<string, unknown>;
  patched['openSync'] = (path: fs.PathLike, ...rest: unknown[]) => {
    const fd = (openSync as (...a: unknown[]) => number)(path, ...rest);
    note(path, fd);
    return fd;
  };
  patched['open'] = (path: fs.PathLike, ...rest: unknown[]) => {
    const cb = rest.pop() as Callback;
    (open as (...a: unknown[]) => void)(path, ...rest, (err: NodeJS.ErrnoException | null, fd: number) => {
      if (!err) note(path, fd);
      cb(err, fd);
    });
  };
  patched['closeSync'] = (fd: number) => {
    paths.delete(fd);
    closeSync(fd);
  };
  patched['close'] = (fd: number, cb?: Callback) => {
    paths.delete(fd);
    close(fd, cb as (err: NodeJS.ErrnoException | null) => void);
  };
  const asyncFault =
    (name: string, real: (...a: unknown[]) => void) =>
    (fd: number, ...rest: unknown[]) => {
      const path = watched(fd);
      if (path === undefined) return real(fd, ...rest);
      const cb = rest.pop() as Callback;
      process.nextTick(() => cb(eio(name, path)));
    };
  const syncFault =
    (name: string, real: (...a: unknown[]) => unknown) =>
    (fd: number, ...rest: unknown[]) => {
      const path = watched(fd);
      if (path !== undefined) throw eio(name, path);
      return real(fd, ...rest);
    };
  const put = (name: string, wrapper: (...a: never[]) => unknown, real: object): void => {
    // Keep what util.promisify reads from the real function (fs.write resolves { bytesWritten, buffer }).
    for (const sym of Object.getOwnPropertySymbols(real))
      (wrapper as unknown as Record<symbol, unknown>)[sym] = (real as Record<symbol, unknown>)[sym];
    patched[name] = wrapper;
  };
  put('write', asyncFault('write', write as (...a: unknown[]) => void), write);
  put('fsync', asyncFault('fsync', fsync as (...a: unknown[]) => void), fsync);
  put('fdatasync', asyncFault('fdatasync', fdatasync as (...a: unknown[]) => void), fdatasync);
  put('writeSync', syncFault('write', writeSync as (...a: unknown[]) => unknown), writeSync);
  put('fsyncSync', syncFault('fsync', fsyncSync as (...a: unknown[]) => unknown), fsyncSync);
  put('fdatasyncSync', syncFault('fdatasync', fdatasyncSync as (...a: unknown[]) => unknown), fdatasyncSync);
  syncBuiltinESMExports();
}
