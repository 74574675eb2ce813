/**
 * The headless browser of the console's browser tests and benchmark: Debian's
 * `chromium`, driven by playwright-core. `FERMATA_CHROMIUM` names it, else
 * `chromium` on the PATH (.ci/run installs it).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export interface ChromiumLookup {
  /** The executable ('' when none was found). */
  readonly path: string;
  /** Why there is none ('' when there is one). */
  readonly missing: string;
}

export function findChromium(): ChromiumLookup {
  const named = process.env['FERMATA_CHROMIUM'];
  if (named) {
    return { path: named, missing: existsSync(named) ? '' : `no browser at FERMATA_CHROMIUM=${named}` };
  }
  const found = spawnSync('sh', ['-c', 'command -v chromium'], { encoding: 'utf8' });
  const path = found.status === 0 ? found.stdout.trim() : '';
  return {
    path,
    missing: path === '' ? 'no chromium on the PATH (apt-get install chromium, or set FERMATA_CHROMIUM)' : '',
  };
}

/** Chromium's arguments here: root in a container has no user namespaces for its sandbox. */
export const CHROMIUM_ARGS: readonly string[] = ['--no-sandbox'];
