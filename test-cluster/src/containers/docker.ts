/**
 * Docker for the container tests: is an engine there (and if not, why), and
 * the image the tests run, built from the same Dockerfile users get on top of
 * a base made from this machine's node binary (nothing can be pulled here).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The repository root (this file is test-cluster/src/containers/docker.ts). */
export const REPO_ROOT = resolve(import.meta.dirname, '../../..');
/** Image tags the tests build and run. */
export const BASE_IMAGE = 'fermata-node-base:local';
export const TEST_IMAGE = 'fermata:test';
/** Building both images: npm ci of the runtime dependencies dominates. */
export const IMAGE_BUILD_TIMEOUT_MS = 5 * 60_000;
/** How long the engine may take to answer `docker version`. */
const ENGINE_PROBE_TIMEOUT_MS = 10_000;

export type DockerAvailability =
  | { readonly available: true }
  | { readonly available: false; readonly reason: string };

/** The container tests must run (CI): a missing engine is then a failure, not a skip. */
export const dockerRequired = (): boolean => process.env['FERMATA_REQUIRE_DOCKER'] === '1';

/** Whether a Docker engine answers, asking the CLI (which the image scripts need anyway). */
export async function dockerAvailability(): Promise<DockerAvailability> {
  try {
    await run('docker', ['version', '--format', '{{.Server.Version}}'], { timeout: ENGINE_PROBE_TIMEOUT_MS });
    return { available: true };
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { stderr?: string };
    if (e.code === 'ENOENT') return { available: false, reason: 'the docker CLI is not installed' };
    const detail = (e.stderr ?? e.message).trim().split('\n')[0] ?? '';
    return { available: false, reason: `the Docker engine does not answer (${detail})` };
  }
}

/**
 * Builds the base image (host node binary) and the production image from
 * deploy/Dockerfile; the packages' dist/ is built first when missing.
 */
export async function buildTestImage(): Promise<string> {
  const opts = { cwd: REPO_ROOT, timeout: IMAGE_BUILD_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 };
  if (!existsSync(join(REPO_ROOT, 'packages/cli/dist/main.js')))
    await run('npm', ['run', '--silent', 'build'], opts);
  await run(join(REPO_ROOT, 'scripts/build-base-image.sh'), [BASE_IMAGE], opts);
  await run(join(REPO_ROOT, 'scripts/build-image.sh'), ['--base', BASE_IMAGE, '--tag', TEST_IMAGE], opts);
  return TEST_IMAGE;
}
