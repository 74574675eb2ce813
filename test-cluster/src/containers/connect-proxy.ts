/**
 * An HTTP CONNECT proxy that stands in for the cluster's DNS, the way
 * `kubectl port-forward` stands in for it on a laptop: the nodes advertise
 * their in-cluster names (fermata-0.fermata-peers...), which the host cannot
 * resolve, so the test process's gRPC channels (grpc-js honours `grpc_proxy`)
 * tunnel through here to the port Docker published for that node.
 */
import { createServer, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';

export interface ConnectProxy {
  /** `http://127.0.0.1:<port>`, for `grpc_proxy`. */
  readonly url: string;
  /** CONNECTs answered, refused (no route) and failed (upstream error). */
  readonly counts: { tunnels: number; refused: number; failed: number };
  close(): Promise<void>;
}

/** `route(host, port)` names the local target, or undefined to refuse the tunnel (502). */
export async function startConnectProxy(
  route: (host: string, port: number) => { host: string; port: number } | undefined,
): Promise<ConnectProxy> {
  const sockets = new Set<Socket>();
  const counts = { tunnels: 0, refused: 0, failed: 0 };
  const server: Server = createServer((_req, res) => {
    res.writeHead(405).end('CONNECT only\n');
  });
  const track = (s: Socket) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  };
  server.on('connect', (req, client: Socket, head: Buffer) => {
    track(client);
    client.on('error', () => client.destroy());
    const m = /^\[?([^\]]+?)\]?:(\d+)$/.exec(req.url ?? '');
    const target = m ? route(m[1] as string, Number(m[2])) : undefined;
    if (target === undefined) {
      counts.refused++;
      client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
      return;
    }
    const upstream = connect(target.port, target.host);
    track(upstream);
    upstream.once('connect', () => {
      counts.tunnels++;
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => {
      counts.failed++;
      upstream.destroy();
      client.destroy();
    });
    client.once('close', () => upstream.destroy());
    upstream.once('close', () => client.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    counts,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
