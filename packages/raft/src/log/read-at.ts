import { type FileSystem, nodeFileSystem } from './file-system.js';

/** Fills `buf` from `fd` at `position`; returns the bytes read (fewer than `buf.length` only at the file's end). */
export function readAt(fd: number, buf: Buffer, position: number, fs: FileSystem = nodeFileSystem): number {
  let done = 0;
  while (done < buf.length) {
    const n = fs.read(fd, buf, done, buf.length - done, position + done);
    if (n === 0) break;
    done += n;
  }
  return done;
}
