/**
 * Network faults between real processes on one machine: each node's outbound
 * peer connections go through an HTTP CONNECT proxy of its own (the node runs
 * with `grpc_proxy` pointing at it; grpc-js honours it), which knows the
 * sender and, from the target address, the receiver. Cutting the link a->b
 * closes a's open tunnels to b and refuses new ones until healed: what a
 * firewall rule dropping a's packets to b would do, one direction at a time.
 * Client traffic (the SDK to the nodes) does not pass through them.
 */
import { createServer, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';

interface Tunnel {
  readonly to: string;
  readonly sockets: readonly Socket[];
}

class NodeProxy {
  readonly tunnels = new Set<Tunnel>();
  private constructor(
    readonly from: string,
    readonly server: Server,
    readonly port: number,
  ) {}

  static async start(from: string, links: LinkProxies): Promise<NodeProxy> {
    const server = createServer((_req, res) => res.writeHead(405).end('CONNECT only\n'));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const proxy = new NodeProxy(from, server, (server.address() as { port: number }).port);
    server.on('connect', (req, client: Socket, head: Buffer) => {
      client.on('error', () => client.destroy());
      const m = /^\[?([^\]]+?)\]?:(\d+)$/.exec(req.url ?? '');
      const to = m ? links.nodeAt(Number(m[2])) : undefined;
      if (!m || to === undefined || links.isCut(from, to)) {
        links.counts.refused++;
        client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
        return;
      }
      const upstream = connect(Number(m[2]), m[1] as string);
      const tunnel: Tunnel = { to, sockets: [client, upstream] };
      proxy.tunnels.add(tunnel);
      const close = () => {
        proxy.tunnels.delete(tunnel);
        client.destroy();
        upstream.destroy();
      };
      upstream.once('connect', () => {
        links.counts.tunnels++;
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        if (head.length > 0) upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      });
      upstream.on('error', close);
      client.once('close', close);
      upstream.once('close', close);
    });
    return proxy;
  }
}

export class LinkProxies {
  private readonly proxies = new Map<string, NodeProxy>();
  /** Peer port -> node id. */
  private readonly peers = new Map<number, string>();
  /** Cut links, `from>to`. */
  private readonly cuts = new Set<string>();
  readonly counts = { tunnels: 0, refused: 0 };

  /** Starts the proxy of node `id` (whose peer port is `peerPort`); returns its `grpc_proxy` URL. */
  async add(id: string, peerPort: number): Promise<string> {
    this.peers.set(peerPort, id);
    let p = this.proxies.get(id);
    if (!p) {
      p = await NodeProxy.start(id, this);
      this.proxies.set(id, p);
    }
    return `http://127.0.0.1:${p.port}`;
  }

  nodeAt(peerPort: number): string | undefined {
    return this.peers.get(peerPort);
  }

  isCut(from: string, to: string): boolean {
    return this.cuts.has(`${from}>${to}`);
  }

  /** Cuts from->to: its open tunnels close, new ones are refused. */
  cut(from: string, to: string): void {
    this.cuts.add(`${from}>${to}`);
    const p = this.proxies.get(from);
    if (!p) return;
    for (const t of [...p.tunnels]) {
      if (t.to !== to) continue;
      p.tunnels.delete(t);
      for (const s of t.sockets) s.destroy();
    }
  }

  heal(from: string, to: string): void {
    this.cuts.delete(`${from}>${to}`);
  }

  /** Cut links, as `from>to`. */
  get cutLinks(): readonly string[] {
    return [...this.cuts];
  }

  healAll(): void {
    this.cuts.clear();
  }

  async close(): Promise<void> {
    await Promise.all(
      [...this.proxies.values()].map(
        (p) =>
          new Promise<void>((resolve) => {
            for (const t of p.tunnels) for (const s of t.sockets) s.destroy();
            p.server.close(() => resolve());
          }),
      ),
    );
  }
}
