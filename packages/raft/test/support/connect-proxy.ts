/**
 * An HTTP CONNECT proxy on loopback for transport tests: it tunnels to the
 * target a CONNECT names, counts the tunnels, and while `refusing` answers
 * 502 and closes the tunnels it holds (a cut link, as a firewall would make
 * it).
 */
import { createServer } from 'node:http';
import { connect, type Socket } from 'node:net';

export interface TestProxy {
  /** `http://127.0.0.1:<port>`, for `grpc_proxy`. */
  readonly url: string;
  /** The targets of the tunnels opened, in order. */
  readonly tunnels: string[];
  /** Refuse new tunnels and close the open ones (true), or let them through again (false). */
  refuse(refusing: boolean): void;
  close(): Promise<void>;
}

export async function startTestProxy(): Promise<TestProxy> {
  const open = new Set<Socket>();
  const tunnels: string[] = [];
  let refusing = false;
  const server = createServer((_req, res) => res.writeHead(405).end());
  server.on('connect', (req, client: Socket, head: Buffer) => {
    client.on('error', () => client.destroy());
    const target = req.url ?? '';
    const i = target.lastIndexOf(':');
    if (refusing || i < 0) {
      client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
      return;
    }
    const upstream = connect(Number(target.slice(i + 1)), target.slice(0, i).replace(/^\[(.*)\]$/, '$1'));
    for (const s of [client, upstream]) {
      open.add(s);
      s.once('close', () => open.delete(s));
    }
    upstream.on('error', () => client.destroy());
    upstream.once('close', () => client.destroy());
    client.once('close', () => upstream.destroy());
    upstream.once('connect', () => {
      tunnels.push(target);
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    tunnels,
    refuse(on) {
      refusing = on;
      if (on) for (const s of open) s.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of open) s.destroy();
        server.close(() => resolve());
      }),
  };
}
