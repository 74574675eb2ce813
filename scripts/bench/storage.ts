// Storage engines: batch puts (sync off/on), range scans, point gets.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type EngineName, openStore } from '@fermata/storage';
import { load1 } from './cluster.js';
import { emit, flag, round, summary } from './report.js';

const KEY_BYTES = 24;
const VALUE_BYTES = 256;
const BATCH = 1000;

function key(i: number): Uint8Array {
  const k = new Uint8Array(KEY_BYTES);
  const view = new DataView(k.buffer);
  view.setBigUint64(0, 0x5eedn);
  view.setBigUint64(8, BigInt(1_700_000_000_000 + i));
  view.setBigUint64(16, BigInt(i));
  return k;
}

export async function run(args: string[]): Promise<void> {
  const quick = flag(args, 'quick');
  const entries = quick ? 20_000 : 500_000;
  const syncedBatches = quick ? 20 : 300;
  const gets = quick ? 5_000 : 100_000;
  const value = randomBytes(VALUE_BYTES);
  for (const engine of ['leveldb', 'memory'] as EngineName[]) {
    const dir = mkdtempSync(join(tmpdir(), 'fermata-bench-storage-'));
    const store = await openStore({ engine, path: join(dir, 'db') });
    try {
      let t = performance.now();
      for (let start = 0; start < entries; start += BATCH) {
        const ops = [];
        for (let i = start; i < start + BATCH; i++) ops.push({ type: 'put' as const, key: key(i), value });
        await store.batch(ops, { sync: false });
      }
      const putNoSync = entries / ((performance.now() - t) / 1000);

      t = performance.now();
      for (let b = 0; b < syncedBatches; b++) {
        const ops = [];
        for (let i = 0; i < BATCH; i++) {
          ops.push({ type: 'put' as const, key: key(entries + b * BATCH + i), value });
        }
        await store.batch(ops, { sync: true });
      }
      const putSync = (syncedBatches * BATCH) / ((performance.now() - t) / 1000);

      t = performance.now();
      const scanned = await store.scan({}, () => undefined);
      const scanRate = scanned / ((performance.now() - t) / 1000);

      t = performance.now();
      let x = 12345;
      for (let i = 0; i < gets; i++) {
        x = (x * 1103515245 + 12345) & 0x7fffffff;
        await store.get(key(x % entries));
      }
      const getRate = gets / ((performance.now() - t) / 1000);

      const record = {
        scenario: 'storage',
        engine,
        quick,
        key_bytes: KEY_BYTES,
        value_bytes: VALUE_BYTES,
        batch_size: BATCH,
        batch_put_ops_per_s_sync_off: round(putNoSync, 0),
        batch_put_ops_per_s_sync_on: round(putSync, 0),
        range_scan_entries_per_s: round(scanRate, 0),
        point_get_ops_per_s: round(getRate, 0),
        entries: scanned,
        load_avg_1m: load1(),
      };
      emit(record);
      summary(
        `${engine.padEnd(8)} put ${record.batch_put_ops_per_s_sync_off}/s (sync off), ${record.batch_put_ops_per_s_sync_on}/s (sync on), ` +
          `scan ${record.range_scan_entries_per_s}/s, get ${record.point_get_ops_per_s}/s`,
      );
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }
}
