import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { FsyncSample } from '../src/log/group-writer.js';
import { LogStore, type LogStoreOptions } from '../src/log/log-store.js';
import { writeSnapshotMetaFile } from '../src/log/snapshot-meta-file.js';
import type { Entry, SnapshotMeta } from '../src/types.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'fermata-log-'));
  dirs.push(dir);
  return dir;
}

function entry(index: number, term: number, bytes = 10): Entry {
  const data = new Uint8Array(bytes);
  for (let i = 0; i < bytes; i++) data[i] = (index * 17 + term + i) & 0xff;
  return { index, term, type: 'normal', data };
}
function range(lo: number, hi: number, term = 1, bytes = 10): Entry[] {
  return Array.from({ length: hi - lo + 1 }, (_, k) => entry(lo + k, term, bytes));
}
function readAll(store: LogStore): Entry[] {
  return store.entries(store.firstIndex(), store.lastIndex() + 1, Number.MAX_SAFE_INTEGER);
}
function segmentFiles(dir: string): string[] {
  return readdirSync(join(dir, 'log')).sort();
}
async function reopen(store: LogStore, options: LogStoreOptions): Promise<LogStore> {
  await store.close();
  return LogStore.open(options);
}
const conf = { voters: ['n1', 'n2', 'n3'], learners: [] };

describe('LogStore', () => {
  it('cached entries own their bytes: a view into a larger buffer is copied, equal in content', async () => {
    const store = LogStore.open({ dir: tempDir() });
    const big = new Uint8Array(64 * 1024).fill(7);
    const view = big.subarray(100, 110);
    const own = new Uint8Array(10).fill(9);
    await store.append([
      { index: 1, term: 1, type: 'normal', data: view },
      { index: 2, term: 1, type: 'normal', data: own },
    ]);
    const [a, b] = readAll(store);
    expect(a?.data).toEqual(view);
    expect(a?.data.buffer.byteLength).toBe(10);
    expect(b?.data).toBe(own);
    await store.close();
  });

  it('a fresh log is empty: firstIndex 1, lastIndex 0, term(0) = 0', async () => {
    const store = LogStore.open({ dir: tempDir() });
    expect([store.firstIndex(), store.lastIndex(), store.term(0), store.term(1)]).toEqual([
      1,
      0,
      0,
      undefined,
    ]);
    expect(store.snapshotMeta()).toEqual({ index: 0, term: 0, conf: { voters: [], learners: [] } });
    await store.close();
  });

  it('appended entries read back from the cache, from disk, and after reopen', async () => {
    const options = { dir: tempDir(), segmentBytes: 4096, cacheBytes: 1000 };
    let store = LogStore.open(options);
    const written = range(1, 300, 1, 40);
    for (let i = 0; i < written.length; i += 50) await store.append(written.slice(i, i + 50));
    expect(readAll(store)).toEqual(written);
    expect(segmentFiles(options.dir).length).toBeGreaterThan(3);
    store = await reopen(store, options);
    expect(readAll(store)).toEqual(written);
    expect(store.term(150)).toBe(1);
    await store.close();
  });

  it('segments roll over once the next frame would exceed segmentBytes', async () => {
    const dir = tempDir();
    const store = LogStore.open({ dir, segmentBytes: 1000 });
    await store.append(range(1, 100, 1, 71)); // 100-byte frames: 9 per segment after the 28-byte header
    expect(segmentFiles(dir)).toHaveLength(12);
    await store.close();
  });

  it('entries(lo, hi, maxBytes) stops at the byte limit but always returns at least one entry', async () => {
    const options = { dir: tempDir() };
    let store = LogStore.open(options);
    await store.append(range(1, 10, 1, 100));
    for (let pass = 0; pass < 2; pass++) {
      // First pass: from the cache; second pass: after reopen, from disk.
      expect(store.entries(1, 11, 250).map((e) => e.index)).toEqual([1, 2]);
      expect(store.entries(1, 11, 200).map((e) => e.index)).toEqual([1, 2]);
      expect(store.entries(3, 11, 50).map((e) => e.index)).toEqual([3]);
      expect(store.entries(3, 11, 0).map((e) => e.index)).toEqual([3]);
      expect(store.entries(9, 11, 10_000).map((e) => e.index)).toEqual([9, 10]);
      expect(store.entries(4, 4, 10_000)).toEqual([]);
      store = await reopen(store, options);
    }
    expect(() => store.entries(0, 3, 100)).toThrow(/outside/);
    expect(() => store.entries(5, 12, 100)).toThrow(/outside/);
    await store.close();
  });

  it('appending at an index inside the log truncates the conflicting suffix first', async () => {
    const options = { dir: tempDir(), segmentBytes: 400 };
    let store = LogStore.open(options);
    await store.append(range(1, 40));
    const before = segmentFiles(options.dir).length;
    await store.append(range(6, 8, 2));
    expect(store.lastIndex()).toBe(8);
    expect(readAll(store)).toEqual([...range(1, 5), ...range(6, 8, 2)]);
    expect(segmentFiles(options.dir).length).toBeLessThan(before); // later segments deleted
    await store.append(range(9, 12, 2));
    store = await reopen(store, options);
    expect(readAll(store)).toEqual([...range(1, 5), ...range(6, 12, 2)]);
    expect(store.term(5)).toBe(1);
    await store.close();
  });

  it('an append whose leading entries are in the log with the same index and term keeps them in place and truncates only from the first differing term', async () => {
    const options = { dir: tempDir(), segmentBytes: 400 };
    let store = LogStore.open(options);
    await store.append(range(1, 11));
    await store.append(range(12, 14, 2));
    const segments = segmentFiles(options.dir);
    const synced = store.entriesSynced;
    // The Ready after a conflict hands out 12 and 13 again (durable, acknowledged) with a new 14.
    await store.append([entry(12, 2), entry(13, 2), entry(14, 3)]);
    expect(store.entriesSynced - synced).toBe(1); // only 14 was written
    expect(segmentFiles(options.dir)).toEqual(segments); // no segment at or after 12 was deleted
    store = await reopen(store, options);
    expect(readAll(store)).toEqual([...range(1, 11), ...range(12, 13, 2), entry(14, 3)]);
    await store.close();
  });

  it('re-appending entries that are all in the log, up to its end, writes and syncs nothing', async () => {
    const store = LogStore.open({ dir: tempDir() });
    await store.append(range(1, 10));
    const [fsyncs, synced] = [store.fsyncs, store.entriesSynced];
    await store.append(range(4, 10));
    expect([store.fsyncs - fsyncs, store.entriesSynced - synced]).toEqual([0, 0]);
    expect(readAll(store)).toEqual(range(1, 10));
    await store.close();
  });

  it('a re-appended entry still being written resolves only once that write is durable', async () => {
    const options = { dir: tempDir(), cacheBytes: 0 };
    let store = LogStore.open(options);
    const order: string[] = [];
    const first = store.append(range(1, 5)).then(() => order.push('first'));
    const again = store.append(range(3, 5)).then(() => order.push('again'));
    await Promise.all([first, again]);
    expect(order).toEqual(['first', 'again']);
    store = await reopen(store, options);
    expect(readAll(store)).toEqual(range(1, 5));
    await store.close();
  });

  it('entries are readable as soon as append is called, before they are durable, even with no cache budget', async () => {
    const options = { dir: tempDir(), cacheBytes: 0, segmentBytes: 400 };
    let store = LogStore.open(options);
    const first = store.append(range(1, 30));
    expect(readAll(store)).toEqual(range(1, 30));
    // A conflicting append while the first group is still being written.
    const second = store.append(range(20, 25, 2));
    expect(readAll(store)).toEqual([...range(1, 19), ...range(20, 25, 2)]);
    await Promise.all([first, second]);
    expect(readAll(store)).toEqual([...range(1, 19), ...range(20, 25, 2)]);
    store = await reopen(store, options);
    expect(readAll(store)).toEqual([...range(1, 19), ...range(20, 25, 2)]);
    await store.close();
  });

  it('a truncation at a segment boundary keeps the segment and its previous term', async () => {
    const options = { dir: tempDir(), segmentBytes: 400 };
    let store = LogStore.open(options);
    await store.append(range(1, 40));
    const second = Number(segmentFiles(options.dir)[1]!.slice(0, 20));
    await store.append([entry(second, 3)]);
    store = await reopen(store, options);
    expect(store.lastIndex()).toBe(second);
    expect(store.term(second)).toBe(3);
    expect(store.term(second - 1)).toBe(1);
    await store.close();
  });

  it('a truncation at or below the commit index is refused', async () => {
    const store = LogStore.open({ dir: tempDir() });
    await store.append(range(1, 10));
    expect(() => store.append(range(5, 6, 2), { commit: 5 })).toThrow(
      /would truncate committed entries from 5 \(commit 5, term there 1, handed in 2\)/,
    );
    // Committed entries handed in again with their own terms are kept: the truncation starts above them.
    await store.append([entry(4, 1), entry(5, 1), entry(6, 2)], { commit: 5 });
    expect(() => store.append([entry(5, 1), entry(6, 3)], { commit: 6 })).toThrow(
      /would truncate committed entries from 6/,
    );
    await store.append(range(6, 7, 2), { commit: 5 });
    await store.append(range(8, 8, 2), { commit: 7 }); // a plain append after the commit index is fine
    expect(store.lastIndex()).toBe(8);
    await store.close();
  });

  it('entries at or below the recorded snapshot may be handed in again with their terms, never replaced', async () => {
    const store = LogStore.open({ dir: tempDir() });
    await store.append(range(1, 10));
    await store.recordSnapshot({ index: 5, term: 1, conf });
    await store.append([entry(5, 1), entry(6, 2)]);
    expect(() => store.append([entry(5, 2)])).toThrow(/truncate from 5, at or below the snapshot at 5/);
    expect([store.lastIndex(), store.term(5), store.term(6)]).toEqual([6, 1, 2]);
    await store.close();
  });

  it('appends must be contiguous and never lower the term', async () => {
    const store = LogStore.open({ dir: tempDir() });
    await store.append(range(1, 3, 2));
    expect(() => store.append([entry(5, 2)])).toThrow(/append at 5/);
    expect(() => store.append([entry(4, 1)])).toThrow(/term goes backwards/);
    expect(() => store.append([entry(4, 2), entry(6, 2)])).toThrow(/not contiguous/);
    expect(store.lastIndex()).toBe(3);
    await store.close();
  });

  it('compact deletes whole segments at or below the recorded snapshot, and the result survives reopen', async () => {
    const options = { dir: tempDir(), segmentBytes: 400 };
    let store = LogStore.open(options);
    await store.append(range(1, 50, 2));
    expect(() => store.compact(30)).toThrow(/beyond the recorded snapshot 0/);
    const meta: SnapshotMeta = { index: 30, term: 2, conf };
    await store.recordSnapshot(meta);
    const filesBefore = segmentFiles(options.dir).length;
    await store.compact(30);
    const first = store.firstIndex();
    expect(first).toBeGreaterThan(1);
    expect(first).toBeLessThanOrEqual(31);
    expect(segmentFiles(options.dir).length).toBeLessThan(filesBefore);
    expect(store.term(first - 1)).toBe(2);
    expect(store.term(first - 2)).toBeUndefined();
    store = await reopen(store, options);
    expect([store.firstIndex(), store.lastIndex(), store.term(first - 1)]).toEqual([first, 50, 2]);
    expect(store.snapshotMeta()).toEqual(meta);
    expect(readAll(store)).toEqual(range(first, 50, 2));
    await store.close();
  });

  it('installSnapshot resets the log to start after the snapshot, across reopen', async () => {
    const options = { dir: tempDir(), segmentBytes: 400 };
    let store = LogStore.open(options);
    await store.append(range(1, 40));
    const meta: SnapshotMeta = { index: 100, term: 5, conf };
    await store.installSnapshot(meta);
    expect([store.firstIndex(), store.lastIndex(), store.term(100), store.term(40)]).toEqual([
      101,
      100,
      5,
      undefined,
    ]);
    expect(segmentFiles(options.dir)).toEqual([]);
    store = await reopen(store, options);
    expect([store.firstIndex(), store.lastIndex(), store.term(100)]).toEqual([101, 100, 5]);
    expect(store.snapshotMeta()).toEqual(meta);
    await store.append(range(101, 105, 5));
    store = await reopen(store, options);
    expect(readAll(store)).toEqual(range(101, 105, 5));
    expect(store.term(100)).toBe(5);
    await store.close();
  });

  it('after a crash between writing the snapshot meta and deleting the old log, the stale log is discarded', async () => {
    const options = { dir: tempDir(), segmentBytes: 400 };
    let store = LogStore.open(options);
    await store.append(range(1, 40));
    await store.close();
    // The meta of an installSnapshot whose term at index 20 disagrees with the log.
    await writeSnapshotMetaFile(join(options.dir, 'snapshot-meta'), { index: 20, term: 3, conf });
    store = LogStore.open(options);
    expect([store.firstIndex(), store.lastIndex(), store.term(20)]).toEqual([21, 20, 3]);
    expect(segmentFiles(options.dir)).toEqual([]);
    await store.close();
  });

  it('the snapshot meta is checked against the log: a log starting after it is corruption', async () => {
    const options = { dir: tempDir(), segmentBytes: 400 };
    const store = LogStore.open(options);
    await store.append(range(1, 40));
    await store.recordSnapshot({ index: 40, term: 1, conf });
    await store.compact(40);
    await store.close();
    await writeSnapshotMetaFile(join(options.dir, 'snapshot-meta'), { index: 2, term: 1, conf });
    expect(() => LogStore.open(options)).toThrow(/log starts at \d+ but the snapshot ends at 2/);
  });

  it('group commit: 200 concurrent appends share a handful of fsyncs', async () => {
    const samples: FsyncSample[] = [];
    const store = LogStore.open({ dir: tempDir(), onFsync: (s) => samples.push(s) });
    const pending = range(1, 200).map((e) => store.append([e]));
    await Promise.all(pending);
    expect(store.entriesSynced).toBe(200);
    expect(store.fsyncs).toBeLessThanOrEqual(5);
    expect(samples.reduce((n, s) => n + s.entries, 0)).toBe(200);
    expect(samples.length).toBeLessThanOrEqual(3);
    expect(samples.every((s) => s.durationMs >= 0 && s.bytes > 0)).toBe(true);
    await store.close();
  });

  it('operations queued behind an append resolve in order, and close waits for them', async () => {
    const dir = tempDir();
    const store = LogStore.open({ dir, segmentBytes: 400 });
    const order: string[] = [];
    const a = store.append(range(1, 30)).then(() => order.push('append'));
    const b = store.recordSnapshot({ index: 20, term: 1, conf }).then(() => order.push('snapshot'));
    const c = store.compact(20).then(() => order.push('compact'));
    await store.close();
    await Promise.all([a, b, c]);
    expect(order).toEqual(['append', 'snapshot', 'compact']);
    const reopened = LogStore.open({ dir });
    expect(reopened.firstIndex()).toBeGreaterThan(1);
    expect(reopened.lastIndex()).toBe(30);
    expect(existsSync(join(dir, 'snapshot-meta'))).toBe(true);
    await reopened.close();
  });
});
