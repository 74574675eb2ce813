/**
 * `scripts/release` when a Docker engine answers but the image cannot be
 * built (the engine cannot pull the base image, as behind a registry it
 * cannot reach): the tarballs are packed, it says why there is no image, and
 * it exits 0 (1 with --require-image). The engine is a stand-in `docker` on
 * PATH that answers `docker version` and fails a build as a pull failure does.
 */
import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '..');
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function release(args: string[]): Promise<{ code: number; stderr: string; out: string }> {
  const bin = mkdtempSync(join(tmpdir(), 'fermata-fake-docker-'));
  const out = mkdtempSync(join(tmpdir(), 'fermata-release-'));
  dirs.push(bin, out);
  writeFileSync(
    join(bin, 'docker'),
    `#!/bin/sh
case "$1" in
  version) echo "Server: Docker Engine (stand-in)"; exit 0 ;;
  *) echo "ERROR: failed to solve: node:20-bookworm-slim: failed to resolve source metadata for docker.io/library/node:20-bookworm-slim: pull access denied" >&2; exit 1 ;;
esac
`,
  );
  chmodSync(join(bin, 'docker'), 0o755);
  return new Promise((done) => {
    execFile(
      join(ROOT, 'scripts/release'),
      ['--out', out, ...args],
      { cwd: ROOT, env: { ...process.env, PATH: `${bin}:${process.env['PATH']}` }, maxBuffer: 64 << 20 },
      (err, _stdout, stderr) => done({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stderr, out }),
    );
  });
}

describe('scripts/release with an engine that cannot build the image', () => {
  it('packs the tarballs, says why there is no image, and exits 0; --require-image exits 1', {
    timeout: 600_000,
  }, async () => {
    const r = await release([]);
    expect(r.stderr).toContain('NO IMAGE: a Docker engine answers, but building the image failed');
    expect(r.stderr).toContain('pull access denied');
    expect(r.stderr).toContain('or pass --no-image');
    expect(r.code, r.stderr).toBe(0);
    const files = readdirSync(r.out).sort();
    expect(files.filter((f) => f.endsWith('.tgz'))).toEqual([
      expect.stringMatching(/^fermata-cli-\d+\.\d+\.\d+\.tgz$/),
      expect.stringMatching(/^fermata-sdk-\d+\.\d+\.\d+\.tgz$/),
    ]);
    expect(files).toContain('SHA256SUMS');
    expect(files.some((f) => f.startsWith('fermata-image-'))).toBe(false);

    const required = await release(['--require-image']);
    expect(required.code).toBe(1);
    expect(required.stderr).toContain('NO IMAGE');
  });
});
