import { mkdtemp, open, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LevelStore, openStore } from '@fermata/storage';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig, stateStoreOptions } from '../src/server/config.js';
import { Harness } from './state-harness.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

/** A LevelDB varint at `at` in `b`: its value and the offset after it. */
function varint(b: Uint8Array, at: number): [number, number] {
  let value = 0;
  for (let shift = 0; ; shift += 7) {
    const byte = b[at++]!;
    value += (byte & 0x7f) * 2 ** shift;
    if (byte < 0x80) return [value, at];
  }
}

/**
 * The bytes of every table's index block in `dir`, as stored: LevelDB keeps
 * the index of each open table in memory (decompressed, ~2.5 times this).
 * A table ends with a 48-byte footer: the metaindex block's handle, then the
 * index block's (offset and size, varints).
 */
async function tableIndexBytes(dir: string): Promise<{ tables: number; indexBytes: number }> {
  let tables = 0;
  let indexBytes = 0;
  for (const name of await readdir(dir)) {
    if (!name.endsWith('.ldb')) continue;
    const file = await open(join(dir, name), 'r');
    try {
      const { size } = await file.stat();
      const footer = new Uint8Array(48);
      await file.read(footer, 0, 48, size - 48);
      let at = varint(footer, 0)[1];
      at = varint(footer, at)[1];
      at = varint(footer, at)[1];
      indexBytes += varint(footer, at)[0];
      tables++;
    } finally {
      await file.close();
    }
  }
  return { tables, indexBytes };
}

describe("the state store's tables", () => {
  it('index the queue entries of a node (the defaults of storage.*) in under half a byte per message', async () => {
    const path = await mkdtemp(join(tmpdir(), 'fermata-store-tables-'));
    dirs.push(path);
    const store = await openStore(stateStoreOptions(loadConfig({ env: {} }).storage, path));
    try {
      const h = await Harness.create({ store });
      await h.ok({ kind: 'create-topic', name: 't' });
      // The scale benchmark's messages: 256 bytes each, due in a day, one record per message.
      const payload = new Uint8Array(256).fill(0x61);
      const messages = 40_000;
      for (let at = 0; at < messages; at += 1_000) {
        await h.publish(
          ...Array.from({ length: 1_000 }, () => ({ topic: 't', payload, delayMs: 86_400_000 })),
        );
      }
      // Writes the memtable out as tables (classic-level's compactRange, which abstract-level's type lacks).
      const db = (store as LevelStore).db as unknown as {
        compactRange(a: Uint8Array, b: Uint8Array): Promise<void>;
      };
      await db.compactRange(Uint8Array.of(0), Uint8Array.of(0xff));
      const { tables, indexBytes } = await tableIndexBytes(path);
      expect(tables).toBeGreaterThan(0);
      // 4 KiB blocks (LevelDB's default) index each ~12 messages with a whole 25-byte queue key:
      // ~1.3 bytes per message stored, ~3.4 held in memory (34 MB at 10,000,000 pending).
      expect(indexBytes / messages).toBeLessThan(0.5);
    } finally {
      await store.close();
    }
  });
});
