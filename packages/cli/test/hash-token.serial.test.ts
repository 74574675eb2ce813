import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { parseTokenFile, TokenTable } from '@fermata/broker';
import { fermataArgv } from '@fermata/test-cluster';
import * as grpc from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';

const REPO = join(import.meta.dirname, '../../..');
const cli = (args: string[], input?: string) =>
  spawnSync(process.execPath, fermataArgv(args), { cwd: REPO, encoding: 'utf8', input, timeout: 60_000 });

describe('fermata hash-token', () => {
  it('a generated token and its hash, put in a token file, authenticate that token and no other', () => {
    const r = cli(['hash-token', '--generate', '--json']);
    expect(r.status, r.stderr).toBe(0);
    const { token, sha256 } = JSON.parse(r.stdout) as { token: string; sha256: string };
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    const table = new TokenTable(
      parseTokenFile(`tokens:\n  - {name: app, sha256: ${sha256}, publish: ["*"]}\n`, 'f'),
    );
    const md = (t: string) => {
      const m = new grpc.Metadata();
      m.set('authorization', `Bearer ${t}`);
      return m;
    };
    expect(table.authenticate(md(token))).toHaveProperty('name', 'app');
    expect(table.authenticate(md(`${token}x`))).toHaveProperty('code', grpc.status.UNAUTHENTICATED);
  });

  it('hashes a token given as argument or on stdin the same way', () => {
    const a = cli(['hash-token', 's3cret-token']);
    const b = cli(['hash-token'], 's3cret-token\n');
    expect(a.stdout).toBe(`${createHash('sha256').update('s3cret-token').digest('hex')}\n`);
    expect(b.stdout).toBe(a.stdout);
  });
});
