import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { CorruptionError, LimitError } from '../src/log/errors.js';
import { SnapshotFiles } from '../src/log/snapshot-store.js';
import type { SnapshotMeta } from '../src/types.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'fermata-snap-'));
  dirs.push(dir);
  return dir;
}

function data(bytes: number, seed: number): Buffer {
  const out = Buffer.alloc(bytes);
  let x = seed;
  for (let i = 0; i < bytes; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

async function* chunksOf(buf: Buffer, size: number): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < buf.length; i += size) yield buf.subarray(i, i + size);
}

async function collect(chunks: AsyncIterable<Uint8Array>): Promise<Uint8Array[]> {
  const out: Uint8Array[] = [];
  for await (const c of chunks) out.push(c);
  return out;
}

const meta = (index: number): SnapshotMeta => ({
  index,
  term: 2,
  conf: { voters: ['n1', 'n2'], learners: ['n3'] },
});

describe('SnapshotFiles', () => {
  it('a snapshot written from chunks reads back identical, in chunks of at most chunkBytes', async () => {
    const files = new SnapshotFiles(tempDir(), { chunkBytes: 64 * 1024 });
    const payload = data(300_000, 1);
    const info = await files.write(meta(50), chunksOf(payload, 10_000));
    expect(info).toEqual({ meta: meta(50), dataBytes: payload.length, crc32: crc32(payload) });
    expect(await files.latest()).toEqual(info);
    const reader = await files.read();
    expect(reader?.meta).toEqual(meta(50));
    const chunks = await collect(reader!.chunks);
    expect(chunks.every((c) => c.length <= 64 * 1024)).toBe(true);
    expect(Buffer.concat(chunks)).toEqual(payload);
  });

  it('an empty snapshot round-trips, and no snapshot reads as undefined', async () => {
    const files = new SnapshotFiles(tempDir());
    expect(await files.latest()).toBeUndefined();
    expect(await files.read()).toBeUndefined();
    await files.write(meta(1), chunksOf(Buffer.alloc(0), 1));
    expect(Buffer.concat(await collect((await files.read())!.chunks))).toHaveLength(0);
  });

  it('one flipped bit in the data is a CorruptionError, before any chunk is handed out', async () => {
    const files = new SnapshotFiles(tempDir(), { chunkBytes: 4096 });
    await files.write(meta(7), chunksOf(data(20_000, 2), 3000));
    const bytes = readFileSync(files.path);
    bytes[10_000]! ^= 0x04;
    writeFileSync(files.path, bytes);
    await expect(files.read()).rejects.toBeInstanceOf(CorruptionError);
    await expect(files.read()).rejects.toThrow(files.path);
    // Without the up-front check, streaming still fails at the end instead of passing bad data as good.
    const reader = await files.read({ verifyFirst: false });
    await expect(collect(reader!.chunks)).rejects.toThrow(/data checksum/);
  });

  it('a damaged header or trailer is a CorruptionError', async () => {
    const files = new SnapshotFiles(tempDir());
    await files.write(meta(7), chunksOf(data(1000, 3), 100));
    const original = readFileSync(files.path);
    for (const at of [14, original.length - 5]) {
      const bytes = Buffer.from(original);
      bytes[at]! ^= 0x01;
      writeFileSync(files.path, bytes);
      await expect(files.latest()).rejects.toBeInstanceOf(CorruptionError);
    }
  });

  it('a transfer whose size or checksum differs from the sender`s is refused and the previous snapshot stays', async () => {
    const dir = tempDir();
    const files = new SnapshotFiles(dir);
    const first = data(5000, 4);
    await files.write(meta(10), chunksOf(first, 1000));
    const second = data(5000, 5);
    const announced = { dataBytes: second.length, crc32: crc32(second) ^ 1 };
    await expect(files.write(meta(20), chunksOf(second, 1000), announced)).rejects.toBeInstanceOf(
      CorruptionError,
    );
    expect((await files.latest())?.meta.index).toBe(10);
    expect(readdirSync(dir)).toEqual(['latest.snap']);
    await files.write(meta(20), chunksOf(second, 1000), { dataBytes: second.length, crc32: crc32(second) });
    expect(Buffer.concat(await collect((await files.read())!.chunks))).toEqual(second);
  });

  it('a failing source stream or a size limit leaves the previous snapshot and no temporary file', async () => {
    const dir = tempDir();
    const files = new SnapshotFiles(dir, { maxSnapshotBytes: 10_000 });
    await files.write(meta(10), chunksOf(data(100, 6), 50));
    async function* failing(): AsyncGenerator<Uint8Array> {
      yield data(100, 7);
      throw new Error('peer went away');
    }
    await expect(files.write(meta(11), failing())).rejects.toThrow('peer went away');
    await expect(files.write(meta(12), chunksOf(data(20_000, 8), 1000))).rejects.toBeInstanceOf(LimitError);
    expect(readdirSync(dir)).toEqual(['latest.snap']);
    expect((await files.latest())?.meta.index).toBe(10);
  });

  it('an older snapshot never replaces a newer one', async () => {
    const files = new SnapshotFiles(tempDir());
    await files.write(meta(30), chunksOf(data(100, 9), 100));
    const result = await files.write(meta(20), chunksOf(data(100, 10), 100));
    expect(result.meta.index).toBe(30);
    expect((await files.latest())?.meta.index).toBe(30);
  });

  it('a reader keeps streaming the snapshot it opened while a newer one replaces it', async () => {
    const files = new SnapshotFiles(tempDir(), { chunkBytes: 1000 });
    const old = data(10_000, 11);
    await files.write(meta(5), chunksOf(old, 1000));
    const reader = await files.read();
    await files.write(meta(6), chunksOf(data(10_000, 12), 1000));
    expect(Buffer.concat(await collect(reader!.chunks))).toEqual(old);
  });
});
