import { readSync } from 'node:fs';

/** Fills `buf` from `fd` at `position`; returns the bytes read (fewer than `buf.length` only at the file's end). */
export function readAt(fd: number, buf: Buffer, position: number): number {
  let done = 0;
  while (done < buf.length) {
    const n = readSync(fd, buf, done, buf.length - done, position + done);
    if (n === 0) break;
    done += n;
  }
  return done;
}
