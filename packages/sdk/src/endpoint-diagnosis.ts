import { request } from 'node:http';
import { status } from '@grpc/grpc-js';
import type { FermataError } from './errors.js';

/**
 * Why an endpoint is no Fermata client port the client could use, in words
 * that name the fix: gRPC says "Protocol error" for a node's HTTP port and
 * "Name resolution failed" for a URL. What gRPC's error leaves open is
 * settled by asking the endpoint over HTTP/1.1 (a node's HTTP port answers
 * `/livez`, and its status page names the node's client address).
 */
export async function diagnoseEndpoint(
  endpoint: string,
  error: FermataError | undefined,
  waitedMs: number,
  probeTimeoutMs: number,
): Promise<string> {
  if (error === undefined) return 'it answered, but named no leader';
  const details = error.details;
  if (error.code === status.DEADLINE_EXCEEDED) return `no answer within ${waitedMs} ms (timed out)`;
  if (/ECONNREFUSED/.test(details)) return 'connection refused (nothing listens on that port)';
  if (/ENOTFOUND|EAI_AGAIN|Name resolution failed/.test(details)) return 'host name not found';
  if (/ETIMEDOUT|EHOSTUNREACH|ENETUNREACH/.test(details)) return `no route or no answer (${details})`;
  if (error.code === status.UNIMPLEMENTED && /does not implement/.test(details)) {
    return `a gRPC server without Fermata's client API: ${portHint(endpoint, 'peer')}`;
  }
  const http = await probeHttp(endpoint, probeTimeoutMs);
  if (http !== undefined) return http;
  return details;
}

/** The client port of a node whose `kind` port `endpoint` is, by the default layout (client P, peer P+1, HTTP P+2). */
function portHint(endpoint: string, kind: 'peer' | 'http'): string {
  const m = /^(.*):(\d+)$/.exec(endpoint);
  const offset = kind === 'peer' ? 1 : 2;
  const name = kind === 'peer' ? 'a Fermata peer (Raft) port' : 'the HTTP port of a Fermata node';
  if (!m) return `${name}? use the node's client port`;
  const port = Number(m[2]) - offset;
  return `${name}? use the client port, ${m[1]}:${port} in the default layout (client P, peer P+1, HTTP P+2)`;
}

interface StatusView {
  nodeId?: string;
  members?: { id?: string; clientAddress?: string }[];
}

/** What an HTTP/1.1 server at `endpoint` is, if one answers. */
async function probeHttp(endpoint: string, timeoutMs: number): Promise<string | undefined> {
  const live = await get(endpoint, '/livez', timeoutMs);
  if (live === undefined) return undefined;
  if (live.status !== 200 || !/"live"\s*:\s*true/.test(live.body)) {
    return `an HTTP/1.1 server (it answered ${live.status}), not a Fermata client port`;
  }
  const page = await get(endpoint, '/', timeoutMs);
  try {
    const view = JSON.parse(page?.body ?? '') as StatusView;
    const self = view.members?.find((m) => m.id === view.nodeId)?.clientAddress;
    if (view.nodeId && self) {
      return `the HTTP port of Fermata node ${view.nodeId}, not its client port: use ${self}`;
    }
  } catch {
    // A status page behind authentication (401) or not JSON: the layout says where to look.
  }
  return `not a client port: ${portHint(endpoint, 'http')}`;
}

function get(
  endpoint: string,
  path: string,
  timeoutMs: number,
): Promise<{ status: number; body: string } | undefined> {
  const m = /^\[?([^\]]*?)\]?:(\d+)$/.exec(endpoint);
  if (!m) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const req = request(
      { host: m[1], port: Number(m[2]), path, method: 'GET', timeout: timeoutMs, agent: false },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          if (body.length < 64 * 1024) body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        res.on('error', () => resolve(undefined));
      },
    );
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(undefined));
    req.end();
  });
}
