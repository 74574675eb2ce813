/**
 * A small real file system for the full-disk tests: a tmpfs with a size
 * limit, mounted by the test (root with CAP_SYS_ADMIN: CI runs as root; an
 * unprivileged container cannot). `mountProblem` says why it cannot be
 * mounted here; with FERMATA_TEST_REQUIRE_MOUNT=1 (CI) that is a failure of
 * the test rather than a skip.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export const mountRequired = (): boolean => process.env['FERMATA_TEST_REQUIRE_MOUNT'] === '1';

export class SmallDisk {
  private constructor(readonly dir: string) {}

  /** Mounts a tmpfs of `sizeMiB` at `dir` (created). Throws with the reason when it cannot. */
  static mount(dir: string, sizeMiB: number): SmallDisk {
    mkdirSync(dir, { recursive: true });
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMiB}m`, 'tmpfs', dir], { stdio: 'pipe' });
    } catch (err) {
      const detail = String((err as { stderr?: unknown }).stderr ?? err).trim();
      throw new Error(
        `cannot mount a ${sizeMiB} MiB tmpfs at ${dir} (needs root with CAP_SYS_ADMIN): ${detail}`,
      );
    }
    return new SmallDisk(dir);
  }

  /** Why a tmpfs cannot be mounted here (undefined when it can): mounts and unmounts one. */
  static problem(dir: string): string | undefined {
    try {
      SmallDisk.mount(dir, 1).unmount();
      return undefined;
    } catch (err) {
      return (err as Error).message;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  private get filler(): string {
    return join(this.dir, 'filler');
  }

  /** Takes every byte left (a file written until ENOSPC); returns the bytes taken. */
  fill(): number {
    const fd = openSync(this.filler, 'a');
    const chunk = Buffer.alloc(64 * 1024, 0x5a);
    let taken = 0;
    try {
      for (;;) taken += writeSync(fd, chunk);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
    } finally {
      closeSync(fd);
    }
    return taken;
  }

  /** Gives back what `fill` took. */
  free(): void {
    rmSync(this.filler, { force: true });
  }

  unmount(): void {
    execFileSync('umount', ['-l', this.dir], { stdio: 'pipe' });
  }
}
