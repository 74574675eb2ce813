import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  CLUSTER_ID_FILE,
  ClusterIdentityError,
  ensureClusterIdentity,
} from '../src/server/cluster-identity.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('cluster identity of a data directory', () => {
  it('the first start records the cluster id; the same id starts again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fermata-cid-'));
    dirs.push(dir);
    expect(await ensureClusterIdentity(dir, 'prod-eu')).toBe('recorded');
    expect(readFileSync(join(dir, CLUSTER_ID_FILE), 'utf8')).toBe('prod-eu\n');
    expect(await ensureClusterIdentity(dir, 'prod-eu')).toBe('matches');
  });

  it('a start with another cluster id is refused, naming both ids', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fermata-cid-'));
    dirs.push(dir);
    await ensureClusterIdentity(dir, 'prod-eu');
    const attempt = ensureClusterIdentity(dir, 'staging');
    await expect(attempt).rejects.toBeInstanceOf(ClusterIdentityError);
    await expect(ensureClusterIdentity(dir, 'staging')).rejects.toThrow(
      /belongs to cluster "prod-eu" .* but clusterId is "staging"/,
    );
  });
});
