import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CorruptionError } from '../src/log/errors.js';
import { FRAME_OVERHEAD_BYTES, SEGMENT_HEADER_BYTES, segmentFileName } from '../src/log/frame.js';
import { LogStore } from '../src/log/log-store.js';
import type { Entry } from '../src/types.js';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'fermata-log-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function entry(index: number, term: number, bytes = 10): Entry {
  const data = new Uint8Array(bytes);
  for (let i = 0; i < bytes; i++) data[i] = (index * 31 + i) & 0xff;
  return { index, term, type: index % 7 === 0 ? 'conf-change' : 'normal', data };
}

function range(lo: number, hi: number, term = 1, bytes = 10): Entry[] {
  return Array.from({ length: hi - lo + 1 }, (_, k) => entry(lo + k, term, bytes));
}

async function writeLog(entries: Entry[], segmentBytes?: number): Promise<string> {
  const dir = tempDir();
  const store = LogStore.open({ dir, ...(segmentBytes ? { segmentBytes } : {}) });
  await store.append(entries);
  await store.close();
  return dir;
}

function segmentPath(dir: string, firstIndex: number): string {
  return join(dir, 'log', segmentFileName(firstIndex));
}

function readAll(store: LogStore): Entry[] {
  return store.entries(store.firstIndex(), store.lastIndex() + 1, Number.MAX_SAFE_INTEGER);
}

/** Copies a one-segment log to a fresh directory with its segment cut to `bytes`. */
function cutCopy(source: string, bytes: number): string {
  const dir = tempDir();
  mkdirSync(join(dir, 'log'));
  const contents = readFileSync(segmentPath(source, 1));
  writeFileSync(segmentPath(dir, 1), contents.subarray(0, bytes));
  return dir;
}

describe('start-up recovery', () => {
  it('a torn final frame is cut back to the last complete frame, at every byte offset', async () => {
    const written = range(1, 5);
    const source = await writeLog(written);
    const size = statSync(segmentPath(source, 1)).size;
    const lastFrameStart = size - FRAME_OVERHEAD_BYTES - 10;
    for (let cut = lastFrameStart; cut < size; cut++) {
      const dir = cutCopy(source, cut);
      const store = LogStore.open({ dir });
      expect(store.lastIndex(), `cut at ${cut}`).toBe(4);
      expect(readAll(store)).toEqual(written.slice(0, 4));
      await store.close();
      expect(statSync(segmentPath(dir, 1)).size).toBe(lastFrameStart);
    }
  });

  it('a recovered log accepts the lost entry again and keeps it across reopen', async () => {
    const source = await writeLog(range(1, 5));
    const dir = cutCopy(source, statSync(segmentPath(source, 1)).size - 3);
    const store = LogStore.open({ dir });
    await store.append([entry(5, 2)]);
    await store.close();
    const reopened = LogStore.open({ dir });
    expect(readAll(reopened)).toEqual([...range(1, 4), entry(5, 2)]);
    await reopened.close();
  });

  it('a final frame whose blocks never reached the disk (zeros) is cut, as is a zero-filled tail', async () => {
    const source = await writeLog(range(1, 5));
    const path = segmentPath(source, 1);
    const bytes = readFileSync(path);
    const lastFrameStart = bytes.length - FRAME_OVERHEAD_BYTES - 10;
    const zeroedFrame = Buffer.concat([
      bytes.subarray(0, lastFrameStart),
      Buffer.alloc(FRAME_OVERHEAD_BYTES + 10),
    ]);
    const zeroTail = Buffer.concat([bytes, Buffer.alloc(4096)]);
    for (const [contents, last] of [
      [zeroedFrame, 4],
      [zeroTail, 5],
    ] as const) {
      writeFileSync(path, contents);
      const store = LogStore.open({ dir: source });
      expect(store.lastIndex()).toBe(last);
      await store.close();
    }
  });

  it('flipping any bit of a middle frame is a CorruptionError naming the file and the frame offset', async () => {
    const source = await writeLog(range(1, 5));
    const original = readFileSync(segmentPath(source, 1));
    const frameBytes = FRAME_OVERHEAD_BYTES + 10;
    const thirdFrame = SEGMENT_HEADER_BYTES + 2 * frameBytes;
    for (let byte = thirdFrame; byte < thirdFrame + frameBytes; byte++) {
      const damaged = Buffer.from(original);
      damaged[byte]! ^= 1 << (byte % 8);
      const dir = tempDir();
      mkdirSync(join(dir, 'log'));
      const path = segmentPath(dir, 1);
      writeFileSync(path, damaged);
      let error: unknown;
      try {
        LogStore.open({ dir });
      } catch (err) {
        error = err;
      }
      expect(error, `bit flipped in byte ${byte}`).toBeInstanceOf(CorruptionError);
      expect((error as CorruptionError).file).toBe(path);
      expect((error as CorruptionError).offset).toBe(thirdFrame);
      expect((error as CorruptionError).message).toContain(`${path} at byte offset ${thirdFrame}`);
      // The damaged file is left as it was: nothing is silently cut.
      expect(readFileSync(path)).toEqual(damaged);
    }
  });

  it('a sealed segment is indexed from its frame headers: a damaged header fails the open, damaged data fails the read of that entry', async () => {
    const source = await writeLog(range(1, 30), 400);
    const first = segmentPath(source, 1);
    const original = readFileSync(first);
    const secondFrame = SEGMENT_HEADER_BYTES + FRAME_OVERHEAD_BYTES + 10;
    const copyWith = (byte: number): string => {
      const dir = tempDir();
      mkdirSync(join(dir, 'log'));
      for (const name of readdirSync(join(source, 'log'))) {
        copyFileSync(join(source, 'log', name), join(dir, 'log', name));
      }
      const damaged = Buffer.from(original);
      damaged[byte]! ^= 0x10;
      writeFileSync(segmentPath(dir, 1), damaged);
      return dir;
    };
    // The frame header (its index field): refused at open, naming the file and the frame.
    const badHeader = copyWith(secondFrame + 6);
    let error: unknown;
    try {
      LogStore.open({ dir: badHeader });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(CorruptionError);
    expect((error as CorruptionError).file).toBe(segmentPath(badHeader, 1));
    expect((error as CorruptionError).offset).toBe(secondFrame);
    // A data byte of entry 2: the log opens whole; reading entry 2 is a CorruptionError, never other bytes.
    const badData = copyWith(secondFrame + 25 + 3);
    const store = LogStore.open({ dir: badData });
    expect(store.lastIndex()).toBe(30);
    expect(store.entries(1, 2, Number.MAX_SAFE_INTEGER)).toEqual(range(1, 1));
    expect(() => store.entries(2, 3, Number.MAX_SAFE_INTEGER)).toThrow(CorruptionError);
    expect(store.entries(5, 31, Number.MAX_SAFE_INTEGER)).toEqual(range(5, 30));
    await store.close();
  });

  it('a torn tail in a segment that is not the last one is corruption', async () => {
    const source = await writeLog(range(1, 30), 400);
    const first = segmentPath(source, 1);
    const size = statSync(first).size;
    writeFileSync(first, readFileSync(first).subarray(0, size - 1));
    expect(() => LogStore.open({ dir: source })).toThrow(CorruptionError);
  });

  it('a missing segment in the middle of the log is corruption', async () => {
    const source = await writeLog(range(1, 30), 400);
    const names = readdirSync(join(source, 'log')).sort();
    expect(names.length).toBeGreaterThanOrEqual(3);
    rmSync(join(source, 'log', names[1]!));
    expect(() => LogStore.open({ dir: source })).toThrow(
      /segment starts at \d+, previous segment ends at \d+/,
    );
  });

  it('a final segment left empty by a crash during its creation is removed', async () => {
    const source = await writeLog(range(1, 5));
    writeFileSync(segmentPath(source, 6), Buffer.alloc(10));
    const store = LogStore.open({ dir: source });
    expect(store.lastIndex()).toBe(5);
    await store.append([entry(6, 1)]);
    await store.close();
    const reopened = LogStore.open({ dir: source });
    expect(readAll(reopened)).toEqual(range(1, 6));
    await reopened.close();
  });

  it('recovery reads segments written by another store byte for byte', async () => {
    const source = await writeLog(range(1, 200, 3, 50), 2000);
    const copy = tempDir();
    mkdirSync(join(copy, 'log'));
    for (const name of readdirSync(join(source, 'log')))
      copyFileSync(join(source, 'log', name), join(copy, 'log', name));
    const store = LogStore.open({ dir: copy });
    expect(readAll(store)).toEqual(range(1, 200, 3, 50));
    await store.close();
  });
});
