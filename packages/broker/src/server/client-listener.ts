/**
 * The client port's listening socket, in front of the gRPC server: it counts
 * open connections and closes any beyond `maxConnections` at once, before a
 * TLS handshake or an HTTP/2 session costs anything. Accepted connections are
 * handed to grpc-js (`createConnectionInjector`), which does TLS, HTTP/2 and
 * the calls exactly as for a port it bound itself.
 */
import { createServer, type Server, type Socket } from 'node:net';
import type * as grpc from '@grpc/grpc-js';
import { parseAddress } from './config.js';

export interface ClientListenerLog {
  warn(fields: object, message: string): void;
}

export interface ClientListenerOptions {
  /** Most connections open at once; more are closed on arrival. */
  readonly maxConnections: number;
  readonly log?: ClientListenerLog;
  /** At most one "connection refused" line per this many ms. */
  readonly logEveryMs?: number;
}

export class ClientListener {
  connections = 0;
  refused = 0;
  private lastLogMs = 0;
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly net: Server,
    readonly port: number,
  ) {}

  /** Listens on `address` (host:port, port 0 picks one) and feeds accepted connections to `server`. */
  static async listen(
    server: grpc.Server,
    address: string,
    credentials: grpc.ServerCredentials,
    options: ClientListenerOptions,
  ): Promise<ClientListener> {
    const parsed = parseAddress(address);
    if (!parsed) throw new Error(`client listen address ${JSON.stringify(address)} is not host:port`);
    const injector = server.createConnectionInjector(credentials);
    let self: ClientListener | undefined;
    const net = createServer((socket) => self?.accept(socket, injector, options));
    await new Promise<void>((resolve, reject) => {
      net.once('error', reject);
      net.listen({ host: parsed.host, port: parsed.port }, () => {
        net.off('error', reject);
        resolve();
      });
    });
    self = new ClientListener(net, (net.address() as { port: number }).port);
    return self;
  }

  private accept(socket: Socket, injector: grpc.ConnectionInjector, options: ClientListenerOptions): void {
    if (this.connections >= options.maxConnections) {
      this.refused++;
      socket.destroy();
      const now = Date.now();
      if (now - this.lastLogMs >= (options.logEveryMs ?? 10_000)) {
        this.lastLogMs = now;
        options.log?.warn(
          { limit: 'maxConnections', max: options.maxConnections, refused: this.refused },
          `client connection refused: limits.maxConnections (${options.maxConnections}) reached`,
        );
      }
      return;
    }
    this.connections++;
    this.sockets.add(socket);
    socket.once('close', () => {
      this.connections--;
      this.sockets.delete(socket);
    });
    socket.on('error', () => undefined);
    injector.injectConnection(socket);
  }

  /** Stops accepting; open connections are left to the gRPC server's shutdown. */
  close(): Promise<void> {
    return new Promise((resolve) => this.net.close(() => resolve()));
  }

  /** Destroys every connection still open (after the gRPC server's shutdown gave up on them). */
  destroyAll(): void {
    for (const s of this.sockets) s.destroy();
  }
}
