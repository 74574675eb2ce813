/**
 * The console's static files on the HTTP port: served by name only, the page
 * revalidated and the hashed files kept, no token needed (they hold no data),
 * and a node without a built console says how to build it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConsoleRoute } from '../src/server/console-route.js';
import { type HttpServerHandle, startHttpServer } from '../src/server/http.js';
import { BrokerMetrics } from '../src/server/metrics.js';
import type { NodeStatus } from '../src/server/readiness.js';
import { httpGet as get } from './http-support.js';

const status: NodeStatus = {
  nodeId: 'n1',
  clusterId: 'test',
  role: 'leader',
  term: 1,
  leaderId: 'n1',
  leaderAddress: '127.0.0.1:7400',
  commit: 1,
  applied: 1,
};

async function serve(dir: string | undefined): Promise<HttpServerHandle> {
  return startHttpServer({
    listenAddress: '127.0.0.1:0',
    status: () => status,
    registry: new BrokerMetrics().registry,
    readyMaxLagEntries: 100,
    // Tokens on for the status page: the console's files must not need one.
    authorize: () => ({ status: 401, error: 'missing bearer token' }),
    routes: [createConsoleRoute(dir)],
  });
}

describe('the console route', () => {
  let dir: string;
  let built: HttpServerHandle;
  let unbuilt: HttpServerHandle;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fermata-console-'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><script src="main-ABC.js"></script>');
    writeFileSync(join(dir, 'main-ABC.js'), 'console.log(1)');
    writeFileSync(join(dir, 'notes.txt'), 'not a console file type');
    built = await serve(dir);
    unbuilt = await serve(undefined);
  });

  afterAll(async () => {
    await built?.close();
    await unbuilt?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves the page without a token, revalidated each load, under a strict content policy', async () => {
    const r = await get(built.port, '/console/');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(r.headers['cache-control']).toBe('no-cache');
    expect(r.headers['content-security-policy']).toContain("script-src 'self'");
    expect(r.body).toContain('main-ABC.js');
    const again = await get(built.port, '/console/', { 'if-none-match': String(r.headers.etag) });
    expect(again.status).toBe(304);
    expect(again.body).toBe('');
  });

  it('lets browsers keep the hashed files a year', async () => {
    const r = await get(built.port, '/console/main-ABC.js');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(r.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(r.body).toBe('console.log(1)');
  });

  it('sends /console to /console/, where the page’s relative links resolve', async () => {
    const r = await get(built.port, '/console');
    expect(r.status).toBe(308);
    expect(r.headers.location).toBe('/console/');
  });

  it('serves only the built files by name: no other type, no path out of the folder', async () => {
    for (const path of [
      '/console/notes.txt',
      '/console/..%2f..%2fpackage.json',
      '/console/x%2fmain-ABC.js',
    ]) {
      const r = await get(built.port, path);
      expect(r.status, path).toBe(404);
    }
    const r = await get(built.port, '/console/nope.js');
    expect(r.body).toBe('no such console file /console/nope.js\n');
  });

  it('is read with GET', async () => {
    const r = await get(built.port, '/console/', {}, 'POST');
    expect(r.status).toBe(405);
    expect(r.headers.allow).toBe('GET, HEAD');
  });

  it('says how to build the console when a node has none', async () => {
    const r = await get(unbuilt.port, '/console/');
    expect(r.status).toBe(404);
    expect(r.body).toBe('the console is not built: run `npm run build`\n');
  });
});
