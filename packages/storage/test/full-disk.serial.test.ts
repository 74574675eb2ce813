// The LevelDB store on a real full disk: a tmpfs of a few MiB this test mounts (it needs
// root and mount(2): CAP_SYS_ADMIN; elsewhere it says why it skips). LevelDB reports a full
// disk as an IO error naming the file, and keeps a failed flush's error for every later
// write; the store turns it into a NoSpaceError (code ENOSPC) and opens the database again
// before the next write, so it takes writes again by itself once there is room.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NoSpaceError, openStore } from '../src/index.js';

const MOUNT = mkdtempSync(join(tmpdir(), 'fermata-full-store-'));
const mountProblem = (() => {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=16m', 'tmpfs', MOUNT], { stdio: 'pipe' });
    return undefined;
  } catch (err) {
    return `cannot mount a tmpfs (needs root and CAP_SYS_ADMIN): ${String((err as { stderr?: unknown }).stderr ?? err).trim()}`;
  }
})();

afterAll(() => {
  if (mountProblem === undefined) execFileSync('umount', [MOUNT]);
  rmSync(MOUNT, { recursive: true, force: true });
});

const key = (i: number) => new TextEncoder().encode(`k${String(i).padStart(6, '0')}`);

// FERMATA_TEST_REQUIRE_MOUNT=1 (CI, as root) makes a failed mount a failure instead of a skip.
const skip = mountProblem !== undefined && process.env['FERMATA_TEST_REQUIRE_MOUNT'] !== '1';

describe.skipIf(skip)(
  `a full disk under the leveldb store${skip ? ` (skipped: ${mountProblem})` : ''}`,
  () => {
    it('refuses batches with NoSpaceError naming the path and writing nothing of them; takes writes again once there is room; keeps every batch it accepted', async () => {
      if (mountProblem !== undefined) throw new Error(`FERMATA_TEST_REQUIRE_MOUNT=1 but ${mountProblem}`);
      const path = join(MOUNT, 'state');
      mkdirSync(path);
      const filler = join(MOUNT, 'filler');
      writeFileSync(filler, Buffer.alloc(10 * 1024 * 1024));
      const store = await openStore({ engine: 'leveldb', path });
      const accepted: number[] = [];
      const refused: unknown[] = [];
      let i = 0;
      const write = async (n: number) => {
        for (let k = 0; k < n; k++, i++) {
          // Random 64 KiB values: LevelDB compresses, so zeros would never fill anything.
          try {
            await store.batch([{ type: 'put', key: key(i), value: randomBytes(64 * 1024) }], { sync: false });
            accepted.push(i);
          } catch (err) {
            refused.push(err);
          }
        }
      };
      await write(150);
      expect(refused.length).toBeGreaterThan(0);
      const first = refused[0] as NoSpaceError;
      expect(first).toBeInstanceOf(NoSpaceError);
      expect(first.code).toBe('ENOSPC');
      expect(first.message).toMatch(
        new RegExp(`^the store's disk is full \\(${path}\\): .*No space left on device`),
      );

      // Room again: the next writes go through (the store opens the database again first).
      rmSync(filler);
      const before = accepted.length;
      await write(10);
      expect(accepted.length).toBe(before + 10);

      const check = async (s: Awaited<ReturnType<typeof openStore>>) => {
        const present = new Set<number>();
        for (let j = 0; j < i; j++) if ((await s.get(key(j))) !== undefined) present.add(j);
        expect([...present].sort((a, b) => a - b)).toEqual(accepted);
      };
      await check(store);
      await store.close();
      const again = await openStore({ engine: 'leveldb', path });
      await check(again);
      await again.close();
    });
  },
);
