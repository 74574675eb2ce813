import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../src/log/atomic-file.js';
import { CorruptionError } from '../src/log/errors.js';
import { EMPTY_HARD_STATE, HardStateFile, mustPersist } from '../src/log/hard-state.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'fermata-hs-'));
  dirs.push(dir);
  return dir;
}

class SimulatedCrash extends Error {}

describe('HardStateFile', () => {
  it('a fresh node has term 0, no vote and commit 0', () => {
    expect(HardStateFile.open(tempDir()).get()).toEqual(EMPTY_HARD_STATE);
  });

  it('a saved hard state is what the next open reads', async () => {
    const dir = tempDir();
    const file = HardStateFile.open(dir);
    await file.save({ term: 3, vote: 'n2', commit: 17 });
    await file.save({ term: 4, vote: '', commit: 20 });
    expect(HardStateFile.open(dir).get()).toEqual({ term: 4, vote: '', commit: 20 });
  });

  it('a crash between writing the temporary file and the rename leaves the old state, and the leftover is removed', async () => {
    const dir = tempDir();
    const file = HardStateFile.open(dir);
    await file.save({ term: 5, vote: 'n1', commit: 9 });
    const crash = file.save(
      { term: 6, vote: 'n3', commit: 9 },
      {
        beforeRename: () => {
          throw new SimulatedCrash();
        },
      },
    );
    await expect(crash).rejects.toBeInstanceOf(SimulatedCrash);
    expect(readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toHaveLength(1);
    const reopened = HardStateFile.open(dir);
    expect(reopened.get()).toEqual({ term: 5, vote: 'n1', commit: 9 });
    expect(readdirSync(dir)).toEqual(['hard-state']);
  });

  it('a damaged hard state file is a CorruptionError, never a default state', async () => {
    const dir = tempDir();
    await HardStateFile.open(dir).save({ term: 2, vote: 'n1', commit: 1 });
    const path = join(dir, 'hard-state');
    const bytes = readFileSync(path);
    bytes[bytes.length - 3]! ^= 0x10;
    writeFileSync(path, bytes);
    expect(() => HardStateFile.open(dir)).toThrow(CorruptionError);
    expect(() => HardStateFile.open(dir)).toThrow(path);
  });

  it('the term never goes backwards', async () => {
    const file = HardStateFile.open(tempDir());
    await file.save({ term: 3, vote: '', commit: 0 });
    expect(() => file.save({ term: 2, vote: '', commit: 0 })).toThrow(/term went backwards: 3 -> 2/);
  });

  it('only term and vote changes must be persisted before answering', () => {
    expect(mustPersist({ term: 1, vote: 'a', commit: 1 }, { term: 1, vote: 'a', commit: 5 })).toBe(false);
    expect(mustPersist({ term: 1, vote: '', commit: 1 }, { term: 1, vote: 'a', commit: 1 })).toBe(true);
    expect(mustPersist({ term: 1, vote: 'a', commit: 1 }, { term: 2, vote: '', commit: 1 })).toBe(true);
  });
});

describe('writeFileAtomic', () => {
  it('replaces the whole file, and a crash before the rename keeps the old contents', async () => {
    const path = join(tempDir(), 'f');
    await writeFileAtomic(path, Buffer.from('old'));
    await writeFileAtomic(path, Buffer.from('new contents'));
    expect(readFileSync(path, 'utf8')).toBe('new contents');
    await expect(
      writeFileAtomic(path, Buffer.from('lost'), {
        beforeRename: () => {
          throw new SimulatedCrash();
        },
      }),
    ).rejects.toBeInstanceOf(SimulatedCrash);
    expect(readFileSync(path, 'utf8')).toBe('new contents');
  });
});
