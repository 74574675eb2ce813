/**
 * The web console's static files at `/console` on the HTTP port (docs/console.md).
 * They hold no data: every page calls the JSON API under /v1 with the token
 * its user logged in with, so they are served without a token, as a login
 * page must be. Built by `npm run build` (scripts/build-packages.mjs); nothing
 * is built at run time.
 *
 * `index.html` is revalidated on each load (`no-cache` with an ETag); every
 * other file carries a hash of its content in its name and is kept a year
 * (`immutable`).
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HttpRoute } from './http.js';

export const CONSOLE_PREFIX = '/console';
/** Largest file the console ships (the chart library and the pages are ~100 KiB). */
const MAX_ASSET_BYTES = 4 * 1024 * 1024;

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/**
 * The pages load their own script and style only, and talk to this origin only.
 * `style-src 'unsafe-inline'` is absent: the chart library sets styles through
 * the DOM, which a policy does not restrict.
 */
const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

interface Asset {
  readonly body: Buffer;
  readonly contentType: string;
  readonly etag: string;
  readonly immutable: boolean;
}

/**
 * Where the built files are, by how this code runs: the published `fermata`
 * bundle (`packages/cli/dist/fermata.js`) has them in `console/` beside it;
 * the workspace's sources and `tsc` output (`packages/broker/{src,dist}/server/`,
 * the container image) find the console package's `dist/`.
 */
export function consoleAssetsDir(): string | undefined {
  const candidates = [
    fileURLToPath(new URL('./console/', import.meta.url)),
    fileURLToPath(new URL('../../../console/dist/', import.meta.url)),
  ];
  return candidates.find((dir) => existsSync(join(dir, 'index.html')));
}

function loadAssets(dir: string): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  for (const name of readdirSync(dir)) {
    const contentType = CONTENT_TYPES[extname(name)];
    if (contentType === undefined) continue;
    const body = readFileSync(join(dir, name));
    if (body.length > MAX_ASSET_BYTES) {
      throw new Error(`console asset ${name} is ${body.length} bytes, over ${MAX_ASSET_BYTES}`);
    }
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
    assets.set(name, { body, contentType, etag, immutable: name !== 'index.html' });
  }
  return assets;
}

/**
 * The `/console` route. `dir` holds the built files (`consoleAssetsDir()`);
 * they are read once, at start. Without them every path answers 404 saying so.
 */
export function createConsoleRoute(dir: string | undefined): HttpRoute {
  const assets = dir === undefined ? undefined : loadAssets(dir);
  return {
    prefix: CONSOLE_PREFIX,
    handle: async (req, res) => serve(req, res, assets),
  };
}

function serve(req: IncomingMessage, res: ServerResponse, assets: Map<string, Asset> | undefined): void {
  const path = new URL(req.url ?? '/', 'http://localhost').pathname;
  if (path === CONSOLE_PREFIX) {
    res.writeHead(308, { location: `${CONSOLE_PREFIX}/`, 'content-length': 0 });
    res.end();
    return;
  }
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    plain(res, req, 405, `method ${req.method} not allowed: the console is read with GET`, {
      allow: 'GET, HEAD',
    });
    return;
  }
  if (assets === undefined) {
    plain(res, req, 404, 'the console is not built: run `npm run build`');
    return;
  }
  const name = path.slice(CONSOLE_PREFIX.length + 1) || 'index.html';
  // Only the names of the built files are served: no path walks anywhere else.
  const asset = assets.get(name);
  if (asset === undefined) {
    plain(res, req, 404, `no such console file ${path}`);
    return;
  }
  const headers: Record<string, string | number> = {
    'content-type': asset.contentType,
    etag: asset.etag,
    'cache-control': asset.immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    ...SECURITY_HEADERS,
  };
  if (req.headers['if-none-match'] === asset.etag) {
    res.writeHead(304, headers);
    res.end();
    return;
  }
  res.writeHead(200, { ...headers, 'content-length': asset.body.length });
  res.end(req.method === 'HEAD' ? undefined : asset.body);
}

function plain(
  res: ServerResponse,
  req: IncomingMessage,
  status: number,
  text: string,
  extra: Record<string, string> = {},
): void {
  const body = `${text}\n`;
  res.writeHead(status, {
    'content-type': 'text/plain; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
    ...extra,
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}
