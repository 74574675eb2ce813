/**
 * How a node reaches a peer's port for its message stream: a TCP connection,
 * direct or through an HTTP CONNECT proxy, with TLS on top when peer TLS is
 * on, and HTTP/2 over that. The proxy is the one a gRPC client would use (the
 * snapshot transfers, still on grpc-js, take it too): `grpc_proxy`, else
 * `https_proxy`, else `http_proxy` (an `http://` URL, credentials allowed),
 * unless the peer's host is listed in `no_grpc_proxy`, else `no_proxy` (host
 * suffixes or IPv4 CIDR ranges, comma-separated).
 */
import { request } from 'node:http';
import {
  type ClientHttp2Session,
  connect as connectHttp2,
  type SecureClientSessionOptions,
} from 'node:http2';
import { isIP, isIPv4, connect as netConnect, type Socket } from 'node:net';
import { type ConnectionOptions, connect as tlsConnect } from 'node:tls';

/** An HTTP CONNECT proxy. */
export interface PeerProxy {
  /** host:port of the proxy. */
  readonly address: string;
  /** `user:password` for Proxy-Authorization (Basic), when the URL carried them. */
  readonly credentials?: string;
}

/**
 * The proxy for connections to `address` (host:port) under `env`, or
 * undefined for a direct connection. The rules are grpc-js's (http_proxy.ts),
 * so that a peer's messages and its snapshots take the same path.
 */
export function peerProxyFor(
  address: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): PeerProxy | undefined {
  const raw = env['grpc_proxy'] || env['https_proxy'] || env['http_proxy'];
  if (!raw) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:') return undefined;
  const host = hostOf(address);
  const noProxy = env['no_grpc_proxy'] || env['no_proxy'] || '';
  for (const entry of noProxy.split(',')) {
    if (entry === '') continue;
    const range = parseCidr(entry);
    if (range && isIPv4(host) ? inRange(range, host) : host.endsWith(entry)) return undefined;
  }
  const user = url.username ? decodeURIComponent(url.username) : '';
  const password = url.password ? decodeURIComponent(url.password) : '';
  return {
    address: `${url.hostname}:${url.port || '80'}`,
    ...(user ? { credentials: password ? `${user}:${password}` : user } : {}),
  };
}

export interface PeerDialOptions {
  /** host:port of the peer's port. */
  readonly address: string;
  /** TLS to the peer (certificates, CA, identity check); plaintext when absent. */
  readonly tls?: ConnectionOptions;
  readonly proxy?: PeerProxy;
  /** HTTP/2 settings sent to the peer. */
  readonly settings: NonNullable<SecureClientSessionOptions['settings']>;
  /** A proxy that has not opened its tunnel within this long is given up (the session's own connect is timed by the caller). */
  readonly connectTimeoutMs: number;
}

/**
 * A new HTTP/2 session to the peer. It may still be connecting when it is
 * returned (requests wait for it); a failure shows as its `error` and
 * `close`. Rejects only when the proxy refuses or does not answer.
 */
export async function dialPeer(options: PeerDialOptions): Promise<ClientHttp2Session> {
  const { address, tls, proxy } = options;
  const host = hostOf(address);
  const port = Number(address.slice(address.lastIndexOf(':') + 1));
  const tunnel = proxy ? await connectThroughProxy(proxy, address, options.connectTimeoutMs) : undefined;
  const authority = `${tls ? 'https' : 'http'}://${address}`;
  let socket: Socket;
  if (tls) {
    socket = tlsConnect({
      ...tls,
      ...(tunnel ? { socket: tunnel } : { host, port }),
      ALPNProtocols: ['h2'],
      // SNI carries host names only (RFC 6066); the identity check does not read it.
      ...(isIP(host) === 0 ? { servername: host } : {}),
    });
  } else {
    socket = tunnel ?? netConnect({ host, port });
  }
  return connectHttp2(authority, { settings: options.settings, createConnection: () => socket });
}

/** A TCP connection to `target` (host:port) tunnelled through `proxy` by HTTP CONNECT. */
function connectThroughProxy(proxy: PeerProxy, target: string, timeoutMs: number): Promise<Socket> {
  const i = proxy.address.lastIndexOf(':');
  return new Promise((resolve, reject) => {
    const req = request({
      method: 'CONNECT',
      host: proxy.address.slice(0, i).replace(/^\[(.*)\]$/, '$1'),
      port: Number(proxy.address.slice(i + 1)),
      path: target,
      headers: {
        Host: target,
        ...(proxy.credentials
          ? { 'Proxy-Authorization': `Basic ${Buffer.from(proxy.credentials).toString('base64')}` }
          : {}),
      },
    });
    const timer = setTimeout(() => {
      req.destroy(
        new Error(`the proxy at ${proxy.address} opened no tunnel to ${target} within ${timeoutMs} ms`),
      );
    }, timeoutMs);
    timer.unref();
    req.once('connect', (res, socket, head) => {
      clearTimeout(timer);
      if (res.statusCode !== 200) {
        socket.destroy();
        reject(
          new Error(`the proxy at ${proxy.address} refused a tunnel to ${target}: HTTP ${res.statusCode}`),
        );
        return;
      }
      // Bytes the proxy sent past its answer are the peer's.
      if (head.length > 0) socket.unshift(head);
      resolve(socket);
    });
    req.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    req.end();
  });
}

function hostOf(address: string): string {
  const i = address.lastIndexOf(':');
  return (i < 0 ? address : address.slice(0, i)).replace(/^\[(.*)\]$/, '$1');
}

function parseCidr(entry: string): { ip: number; prefix: number } | undefined {
  const [ip, bits, extra] = entry.split('/');
  if (ip === undefined || bits === undefined || extra !== undefined || !isIPv4(ip)) return undefined;
  const prefix = Number(bits);
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > 32) return undefined;
  return { ip: ipv4ToInt(ip), prefix };
}

function inRange(range: { ip: number; prefix: number }, host: string): boolean {
  const mask = range.prefix === 0 ? 0 : -1 << (32 - range.prefix);
  return (ipv4ToInt(host) & mask) === (range.ip & mask);
}

function ipv4ToInt(ip: string): number {
  return ip.split('.').reduce((n, octet) => (n << 8) + Number(octet), 0);
}
