/**
 * The client port's listening socket, in front of the gRPC server: it counts
 * open connections and closes any beyond `maxConnections` at once, before a
 * TLS handshake or an HTTP/2 session costs anything. Accepted connections are
 * handed to grpc-js (`createConnectionInjector`), which does TLS, HTTP/2 and
 * the calls exactly as for a port it bound itself.
 *
 * A connection is *pending* until it makes its first authenticated call
 * (`markAuthenticated`, from the auth interceptor; any call when
 * authentication is off). Pending connections are what an attacker without a
 * token can hold, so they are bounded three ways: each is closed when it is
 * still pending `handshakeTimeoutMs` after it arrived; at most
 * `maxPendingPerAddress` come from one source address (more are closed on
 * arrival); and at most `maxPending` exist at once, a new arrival closing the
 * oldest pending one, so that a client with a token always gets the time to
 * present it. Authenticated connections count only against `maxConnections`.
 */
import { createServer, type Server, type Socket } from 'node:net';
import type * as grpc from '@grpc/grpc-js';
import { ConfigError, parseAddress } from './config.js';

export interface ClientListenerLog {
  warn(fields: object, message: string): void;
}

export interface ClientListenerOptions {
  /** Most connections open at once; more are closed on arrival. */
  readonly maxConnections: number;
  /** Most pending (not yet authenticated) connections at once; a new one closes the oldest. */
  readonly maxPending?: number;
  /** Most pending connections from one source address; more are closed on arrival. */
  readonly maxPendingPerAddress?: number;
  /** A connection still pending this long after it arrived is closed (0 = never). */
  readonly handshakeTimeoutMs?: number;
  readonly log?: ClientListenerLog;
  /** At most one "connection refused" line per this many ms and reason. */
  readonly logEveryMs?: number;
}

/** Why a connection was closed by the listener (the keys of `ClientListener.closed`). */
export type CloseReason = 'maxConnections' | 'maxPendingPerAddress' | 'maxPending' | 'handshakeTimeoutMs';

interface Pending {
  readonly socket: Socket;
  readonly address: string;
  readonly timer: NodeJS.Timeout | undefined;
}

/** `host:port` as grpc-js reports a call's peer (`call.getPeer()`). */
function peerKey(address: string | undefined, port: number | undefined): string {
  return `${address ?? ''}:${port ?? 0}`;
}

export class ClientListener {
  connections = 0;
  /** Connections closed by the listener, per limit. */
  readonly closed: Record<CloseReason, number> = {
    maxConnections: 0,
    maxPendingPerAddress: 0,
    maxPending: 0,
    handshakeTimeoutMs: 0,
  };
  private readonly lastLogMs = new Map<CloseReason, number>();
  private readonly sockets = new Set<Socket>();
  /** Pending connections by peer key, oldest first (a Map keeps insertion order). */
  private readonly pending = new Map<string, Pending>();
  /** Pending connections per source address. */
  private readonly pendingPerAddress = new Map<string, number>();

  private constructor(
    private readonly net: Server,
    readonly port: number,
    private readonly options: ClientListenerOptions,
  ) {}

  /** Listens on `address` (host:port, port 0 picks one) and feeds accepted connections to `server`. */
  static async listen(
    server: grpc.Server,
    address: string,
    credentials: grpc.ServerCredentials,
    options: ClientListenerOptions,
  ): Promise<ClientListener> {
    const parsed = parseAddress(address);
    if (!parsed) throw new ConfigError([`client listen address ${JSON.stringify(address)} is not host:port`]);
    const injector = server.createConnectionInjector(credentials);
    let self: ClientListener | undefined;
    const net = createServer((socket) => self?.accept(socket, injector));
    await new Promise<void>((resolve, reject) => {
      net.once('error', reject);
      net.listen({ host: parsed.host, port: parsed.port }, () => {
        net.off('error', reject);
        resolve();
      });
    });
    self = new ClientListener(net, (net.address() as { port: number }).port, options);
    return self;
  }

  /** Connections closed by the listener, all limits together. */
  get refused(): number {
    return Object.values(this.closed).reduce((a, b) => a + b, 0);
  }

  /** Connections that have not yet made an authenticated call. */
  get pendingCount(): number {
    return this.pending.size;
  }

  private accept(socket: Socket, injector: grpc.ConnectionInjector): void {
    const { maxConnections, maxPending, maxPendingPerAddress, handshakeTimeoutMs } = this.options;
    if (this.connections >= maxConnections) {
      this.refuse(socket, 'maxConnections', maxConnections);
      return;
    }
    const address = socket.remoteAddress ?? '';
    const fromAddress = this.pendingPerAddress.get(address) ?? 0;
    if (maxPendingPerAddress !== undefined && fromAddress >= maxPendingPerAddress) {
      this.refuse(socket, 'maxPendingPerAddress', maxPendingPerAddress);
      return;
    }
    if (maxPending !== undefined && this.pending.size >= maxPending) {
      const oldest = this.pending.values().next().value;
      if (oldest) this.refuse(oldest.socket, 'maxPending', maxPending);
    }
    this.connections++;
    this.sockets.add(socket);
    const key = peerKey(socket.remoteAddress, socket.remotePort);
    const timer =
      handshakeTimeoutMs !== undefined && handshakeTimeoutMs > 0
        ? setTimeout(() => this.refuse(socket, 'handshakeTimeoutMs', handshakeTimeoutMs), handshakeTimeoutMs)
        : undefined;
    timer?.unref();
    this.pending.set(key, { socket, address, timer });
    this.pendingPerAddress.set(address, fromAddress + 1);
    socket.once('close', () => {
      this.connections--;
      this.sockets.delete(socket);
      this.settle(key);
    });
    socket.on('error', () => undefined);
    injector.injectConnection(socket);
  }

  /**
   * The connection of `peer` (as `call.getPeer()` gives it) made an
   * authenticated call: it is no longer pending.
   */
  markAuthenticated(peer: string): void {
    this.settle(peer);
  }

  private settle(key: string): void {
    const p = this.pending.get(key);
    if (!p) return;
    this.pending.delete(key);
    if (p.timer) clearTimeout(p.timer);
    const n = (this.pendingPerAddress.get(p.address) ?? 1) - 1;
    if (n > 0) this.pendingPerAddress.set(p.address, n);
    else this.pendingPerAddress.delete(p.address);
  }

  private refuse(socket: Socket, reason: CloseReason, limit: number): void {
    this.closed[reason]++;
    // Refused on arrival, the socket is still ours to close; a pending one belongs to its HTTP/2 session.
    if (reason === 'maxConnections' || reason === 'maxPendingPerAddress') socket.destroy();
    else closeNow(socket);
    const now = Date.now();
    if (now - (this.lastLogMs.get(reason) ?? 0) < (this.options.logEveryMs ?? 10_000)) return;
    this.lastLogMs.set(reason, now);
    const what =
      reason === 'handshakeTimeoutMs'
        ? `no authenticated call within limits.${reason} (${limit})`
        : `limits.${reason} (${limit}) reached`;
    this.options.log?.warn(
      { limit: reason, max: limit, closed: this.closed[reason] },
      `client connection ${reason === 'maxConnections' || reason === 'maxPendingPerAddress' ? 'refused' : 'closed'}: ${what}`,
    );
  }

  /** Stops accepting; open connections are left to the gRPC server's shutdown. */
  close(): Promise<void> {
    for (const p of this.pending.values()) if (p.timer) clearTimeout(p.timer);
    return new Promise((resolve) => this.net.close(() => resolve()));
  }

  /** Destroys every connection still open (after the gRPC server's shutdown gave up on them). */
  destroyAll(): void {
    for (const s of this.sockets) closeNow(s);
  }
}

/**
 * Closes a connection at once. Once an HTTP/2 session has taken a plaintext
 * socket over, `destroy()` leaves its TCP connection open; a reset closes it.
 */
function closeNow(socket: Socket): void {
  if (socket.destroyed) return;
  socket.on('error', () => undefined);
  socket.resetAndDestroy();
}
