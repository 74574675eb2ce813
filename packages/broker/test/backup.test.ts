// The backup file (written, read back, damaged), the record counter of a
// backup's progress, and the restore's rules for the data directory it seeds.

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SnapshotFiles } from '@fermata/raft';
import { afterAll, describe, expect, it } from 'vitest';
import {
  BACKUP_FORMAT_VERSION,
  BackupFileError,
  type BackupInfo,
  BackupWriter,
  FrameCounter,
  openBackup,
  RESTORE_TERM,
  RESTORED_MARKER_FILE,
  RestoreError,
  restoreDataDir,
} from '../src/backup/index.js';
import { Harness } from './state-harness.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
function tmp(): string {
  const d = mkdtempSync(join(tmpdir(), 'fermata-backup-test-'));
  dirs.push(d);
  return d;
}

/** A state snapshot stream of a state machine holding `n` messages of one topic. */
async function stateSnapshot(
  n: number,
  inlineBodies = true,
): Promise<{ index: number; chunks: Uint8Array[] }> {
  const h = await Harness.create({ limits: { snapshotChunkBytes: 4096 } });
  h.inlineBodies = inlineBodies;
  await h.ok({ kind: 'create-topic', name: 't', settings: {} });
  for (let i = 0; i < n; i += 50) {
    await h.publish(
      ...Array.from({ length: Math.min(50, n - i) }, (_, j) => ({
        topic: 't',
        payload: Buffer.from(`m${i + j}`.repeat(20)),
        headers: {},
        key: '',
        delayMs: 1000 * (i + j),
        deliverAtMs: 0,
        ttlMs: 0,
      })),
    );
  }
  const snap = await h.sm.snapshot();
  const chunks: Uint8Array[] = [];
  for await (const c of snap.chunks) chunks.push(Buffer.from(c));
  return { index: snap.index, chunks };
}

function info(index: number): BackupInfo {
  return {
    formatVersion: BACKUP_FORMAT_VERSION,
    clusterId: 'old',
    nodeId: 'n1',
    term: 7,
    appliedIndex: index,
    takenAtMs: 1_700_000_000_000,
    queueEntries: 0,
  };
}

async function writeBackup(path: string, index: number, chunks: Uint8Array[]): Promise<string> {
  const w = await BackupWriter.create(path, info(index));
  const hash = createHash('sha256');
  let bytes = 0;
  for (const c of chunks) {
    hash.update(c);
    bytes += c.length;
    await w.data(c);
  }
  const sha256 = hash.digest('hex');
  await w.finish({ dataBytes: bytes, records: 0, messages: 0, sha256 });
  return sha256;
}

describe('the backup file', () => {
  it('reads back what was written, and refuses a damaged or truncated copy naming what is wrong', async () => {
    const { index, chunks } = await stateSnapshot(300);
    const dir = tmp();
    const path = join(dir, 'b.fmbk');
    const sha256 = await writeBackup(path, index, chunks);
    expect(existsSync(`${path}.partial`)).toBe(false);
    const r = await openBackup(path);
    expect(r.info).toEqual(info(index));
    expect(r.totals.sha256).toBe(sha256);
    const back: Uint8Array[] = [];
    for await (const c of r.chunks()) back.push(c);
    expect(Buffer.concat(back).equals(Buffer.concat(chunks))).toBe(true);

    const bytes = readFileSync(path);
    const flipped = Buffer.from(bytes);
    flipped[Math.floor(bytes.length / 2)]! ^= 0x40;
    writeFileSync(join(dir, 'flipped'), flipped);
    await expect(openBackup(join(dir, 'flipped'))).rejects.toThrow(/does not match its sha256/);
    writeFileSync(join(dir, 'short'), bytes.subarray(0, bytes.length - 10));
    await expect(openBackup(join(dir, 'short'))).rejects.toThrow(BackupFileError);
    writeFileSync(join(dir, 'other'), 'not a backup at all, just text');
    await expect(openBackup(join(dir, 'other'))).rejects.toThrow(/not a Fermata backup/);
  });

  it('is not renamed into place when the data differs from what the leader sent', async () => {
    const dir = tmp();
    const path = join(dir, 'b.fmbk');
    const w = await BackupWriter.create(path, info(5));
    await w.data(Buffer.from('FMSNAP01'));
    await expect(w.finish({ dataBytes: 8, records: 0, messages: 0, sha256: '0'.repeat(64) })).rejects.toThrow(
      /the leader sent/,
    );
    expect(existsSync(path)).toBe(false);
    expect(existsSync(`${path}.partial`)).toBe(false);
  });
});

describe('the record counter of a backup', () => {
  it('counts every record and message however the stream is cut: body records, and entries that carry their body', async () => {
    for (const inlineBodies of [true, false]) {
      const { chunks } = await stateSnapshot(120, inlineBodies);
      const whole = Buffer.concat(chunks);
      const reference = new FrameCounter();
      reference.push(whole);
      // One per message: its entry that carries its body, or its body record beside its entry.
      expect(reference.messages).toBe(120);
      expect(reference.records).toBeGreaterThan(inlineBodies ? 120 : 240);
      for (const size of [1, 3, 7, 64, 1000]) {
        const c = new FrameCounter();
        for (let at = 0; at < whole.length; at += size) c.push(whole.subarray(at, at + size));
        expect({ records: c.records, messages: c.messages }).toEqual({
          records: reference.records,
          messages: reference.messages,
        });
      }
    }
  });
});

describe('restoring into a data directory', () => {
  const members = [
    { id: 'a', peerAddress: '127.0.0.1:1', clientAddress: '127.0.0.1:2' },
    { id: 'b', peerAddress: '127.0.0.1:3', clientAddress: '127.0.0.1:4' },
  ];

  it('seeds the Raft snapshot at the backup index and term RESTORE_TERM with the new voters, once', async () => {
    const { index, chunks } = await stateSnapshot(10);
    const dir = tmp();
    const from = join(dir, 'b.fmbk');
    await writeBackup(from, index, chunks);
    const dataDir = join(dir, 'a');
    const r = await restoreDataDir({ from, dataDir, clusterId: 'new', nodeId: 'a', members });
    expect(r.alreadyRestored).toBe(false);
    const latest = await new SnapshotFiles(join(dataDir, 'raft', 'snapshot')).latest();
    expect(latest?.meta).toEqual({ index, term: RESTORE_TERM, conf: { voters: ['a', 'b'], learners: [] } });
    expect(readFileSync(join(dataDir, 'cluster-id'), 'utf8').trim()).toBe('new');
    expect(existsSync(join(dataDir, RESTORED_MARKER_FILE))).toBe(true);
    // Again with the same backup and cluster: nothing to do.
    const again = await restoreDataDir({ from, dataDir, clusterId: 'new', nodeId: 'a', members });
    expect(again.alreadyRestored).toBe(true);
    // Another cluster id over it: refused.
    await expect(restoreDataDir({ from, dataDir, clusterId: 'newer', nodeId: 'a', members })).rejects.toThrow(
      /already holds a restore/,
    );
  });

  it('refuses the backup’s own cluster id, a node that is no member, and a directory with data', async () => {
    const { index, chunks } = await stateSnapshot(1);
    const dir = tmp();
    const from = join(dir, 'b.fmbk');
    await writeBackup(from, index, chunks);
    await expect(
      restoreDataDir({ from, dataDir: join(dir, 'x'), clusterId: 'old', nodeId: 'a', members }),
    ).rejects.toThrow(RestoreError);
    await expect(
      restoreDataDir({ from, dataDir: join(dir, 'x'), clusterId: 'new', nodeId: 'c', members }),
    ).rejects.toThrow(/not one of the new cluster's members/);
    const used = join(dir, 'used');
    mkdirSync(join(used, 'raft'), { recursive: true });
    await expect(
      restoreDataDir({ from, dataDir: used, clusterId: 'new', nodeId: 'a', members }),
    ).rejects.toThrow(/is not empty/);
    // What a fresh ext4 volume holds is no data.
    const fresh = join(dir, 'fresh');
    mkdirSync(join(fresh, 'lost+found'), { recursive: true });
    await restoreDataDir({ from, dataDir: fresh, clusterId: 'new', nodeId: 'a', members });
  });

  it('starts over after an interrupted restore', async () => {
    const { index, chunks } = await stateSnapshot(1);
    const dir = tmp();
    const from = join(dir, 'b.fmbk');
    await writeBackup(from, index, chunks);
    const dataDir = join(dir, 'a');
    mkdirSync(join(dataDir, 'raft', 'snapshot'), { recursive: true });
    writeFileSync(join(dataDir, '.restore-in-progress'), 'x');
    writeFileSync(join(dataDir, 'raft', 'snapshot', 'junk'), 'half a snapshot');
    const r = await restoreDataDir({ from, dataDir, clusterId: 'new', nodeId: 'a', members });
    expect(r.alreadyRestored).toBe(false);
    expect(existsSync(join(dataDir, 'raft', 'snapshot', 'junk'))).toBe(false);
    expect(existsSync(join(dataDir, '.restore-in-progress'))).toBe(false);
  });
});
