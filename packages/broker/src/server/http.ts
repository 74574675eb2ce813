/**
 * The operations HTTP endpoint, on its own port: /metrics (Prometheus text),
 * /livez, /readyz and a status page at /. It sees the node only through a
 * `status()` provider and a metrics registry. With `authorize` set (http.auth),
 * the status page and /metrics answer only a request carrying a token allowed
 * to monitor: they name the cluster, its members' addresses and every topic
 * and group. /livez and /readyz stay open: kubelet probes carry no token, and
 * they tell only whether this node is alive and ready. Other parts (the JSON
 * API under /v1) are served on the same port as `routes`, with their own auth.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { ConfigError, parseAddress } from './config.js';
import { type NodeStatus, readinessOf } from './readiness.js';

export interface HttpServerOptions {
  /** host:port; port 0 picks a free one (see `HttpServerHandle.port`). */
  listenAddress: string;
  status: () => NodeStatus;
  registry: Registry;
  /** `http.readyMaxLagEntries`. */
  readyMaxLagEntries: number;
  /** `http.readyMaxApplyMs` (default: no bound). */
  readyMaxApplyMs?: number;
  /**
   * Checks the `authorization` header of a request for `/` or `/metrics`:
   * undefined lets it through, else 401 (no or unknown token) or 403.
   */
  authorize?: (header: string | undefined) => HttpAuthFailure | undefined;
  /** Served before the paths above, each under its prefix, with its own methods and auth (the JSON API). */
  routes?: readonly HttpRoute[];
  logger?: Logger;
}

/** `prefix` and the paths under it (`/v1`: `/v1/...`), answered by `handle` whatever the method. */
export interface HttpRoute {
  readonly prefix: string;
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
}

export interface HttpAuthFailure {
  readonly status: 401 | 403;
  readonly error: string;
}

/** Paths that never need a token: the probes. */
const OPEN_PATHS = new Set(['/livez', '/readyz']);

export interface HttpServerHandle {
  /** host:port actually bound. */
  readonly address: string;
  readonly port: number;
  /** Stops listening and closes open connections. */
  close(): Promise<void>;
}

export async function startHttpServer(options: HttpServerOptions): Promise<HttpServerHandle> {
  const parsed = parseAddress(options.listenAddress);
  if (parsed === undefined)
    throw new ConfigError([`http listen address ${JSON.stringify(options.listenAddress)} is not host:port`]);
  const server = createServer((req, res) => {
    handle(req, res, options).catch((err: unknown) => {
      options.logger?.error({ err, url: req.url }, 'http handler failed');
      if (!res.headersSent) send(res, req, 500, 'application/json', json({ error: 'internal error' }));
      else res.destroy();
    });
  });
  // Scrapes and probes are short; a slow client must not pin a socket forever.
  server.requestTimeout = 10_000;
  server.headersTimeout = 5_000;
  await listen(server, parsed.port, parsed.host);
  const bound = server.address() as AddressInfo;
  const host = bound.family === 'IPv6' ? `[${bound.address}]` : bound.address;
  return {
    address: `${host}:${bound.port}`,
    port: bound.port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      }),
  };
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

async function handle(req: IncomingMessage, res: ServerResponse, options: HttpServerOptions): Promise<void> {
  const path = new URL(req.url ?? '/', 'http://localhost').pathname;
  const route = options.routes?.find((r) => path === r.prefix || path.startsWith(`${r.prefix}/`));
  if (route) return route.handle(req, res);
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.setHeader('allow', 'GET, HEAD');
    send(res, req, 405, 'application/json', json({ error: `method ${req.method} not allowed` }));
    return;
  }
  const failure = OPEN_PATHS.has(path) ? undefined : options.authorize?.(req.headers.authorization);
  if (failure) {
    if (failure.status === 401) res.setHeader('www-authenticate', 'Bearer realm="fermata"');
    send(res, req, failure.status, 'application/json', json({ error: failure.error }));
    return;
  }
  switch (path) {
    case '/metrics': {
      const body = await options.registry.metrics();
      send(res, req, 200, options.registry.contentType, body);
      return;
    }
    case '/livez':
      // Answering at all is the proof: the event loop runs and the process serves.
      send(res, req, 200, 'application/json', json({ live: true }));
      return;
    case '/readyz': {
      const r = readinessOf(options.status, options.readyMaxLagEntries, options.readyMaxApplyMs);
      send(res, req, r.ready ? 200 : 503, 'application/json', json(r));
      return;
    }
    case '/': {
      const status = options.status();
      const r = readinessOf(() => status, options.readyMaxLagEntries, options.readyMaxApplyMs);
      const view = { ...status, ready: r.ready, ...(r.ready ? {} : { notReadyReason: r.reason }) };
      if ((req.headers.accept ?? '').includes('text/html')) {
        send(res, req, 200, 'text/html; charset=utf-8', statusPage(view));
      } else {
        send(res, req, 200, 'application/json', json(view));
      }
      return;
    }
    default:
      send(res, req, 404, 'application/json', json({ error: `no such path ${path}` }));
  }
}

function send(
  res: ServerResponse,
  req: IncomingMessage,
  code: number,
  contentType: string,
  body: string,
): void {
  res.writeHead(code, {
    'content-type': contentType,
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}

const json = (v: unknown) => `${JSON.stringify(v)}\n`;

function escapeHtml(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );
}

function statusPage(view: NodeStatus & { ready: boolean; notReadyReason?: string }): string {
  const row = (k: string, v: string) => `<tr><th>${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`;
  const members = (view.members ?? [])
    .map(
      (m) =>
        `<tr><td>${escapeHtml(m.id)}</td><td>${escapeHtml(m.role ?? '')}</td><td>${escapeHtml(m.clientAddress)}</td><td>${escapeHtml(m.peerAddress)}</td></tr>`,
    )
    .join('');
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>fermata ${escapeHtml(view.nodeId)}</title>
<style>body{font-family:sans-serif;margin:2em}th{text-align:left;padding-right:1em}td{padding-right:1em}</style></head>
<body><h1>fermata node ${escapeHtml(view.nodeId)}</h1>
<table>
${row('cluster', view.clusterId ?? '')}
${row('role', view.role)}
${row('term', String(view.term))}
${row('leader', view.leaderId === '' ? '(none known)' : `${view.leaderId} at ${view.leaderAddress || '(address unknown)'}`)}
${row('commit index', String(view.commit))}
${row('applied index', String(view.applied))}
${row('ready', view.ready ? 'yes' : `no: ${view.notReadyReason ?? ''}`)}
</table>
${members === '' ? '' : `<h2>members</h2><table><tr><th>id</th><th>role</th><th>client</th><th>peer</th></tr>${members}</table>`}
<p><a href="/metrics">/metrics</a> · <a href="/readyz">/readyz</a> · <a href="/livez">/livez</a></p>
</body></html>
`;
}
