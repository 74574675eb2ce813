import { connect } from 'node:http2';
import { createServer, type Server } from 'node:net';
import * as grpc from '@grpc/grpc-js';
import { afterEach, describe, expect, it } from 'vitest';
import { FLOW_CONTROL_WINDOW_BYTES, widenServerFlowControl } from '../src/index.js';

const HTTP2_DEFAULT_WINDOW = 65_535;
const MIB = 1024 * 1024;

describe('HTTP/2 flow-control windows', () => {
  const cleanup: Array<() => void> = [];
  afterEach(() => {
    for (const fn of cleanup.splice(0)) fn();
  });

  const bound = async (server: grpc.Server) =>
    new Promise<number>((resolve, reject) =>
      server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (e, p) =>
        e ? reject(e) : resolve(p),
      ),
    );

  /** Connections fed to the server through a connection injector, as the broker's client port does. */
  const injected = async (server: grpc.Server) => {
    const injector = server.createConnectionInjector(grpc.ServerCredentials.createInsecure());
    const net: Server = createServer((socket) => injector.injectConnection(socket));
    cleanup.push(() => net.close());
    await new Promise<void>((resolve) => net.listen(0, '127.0.0.1', resolve));
    return (net.address() as { port: number }).port;
  };

  /** A bare HTTP/2 client's view of the server: the stream window it may use and its connection window. */
  const windowsAt = async (port: number, expectStream: number) => {
    const client = connect(`http://127.0.0.1:${port}`);
    client.on('error', () => undefined);
    cleanup.push(() => client.destroy());
    // The server sends its SETTINGS at once and the widened ones right after: wait for them.
    let stream = 0;
    client.on('remoteSettings', (s) => {
      stream = s.initialWindowSize ?? 0;
    });
    const deadline = Date.now() + 5_000;
    while (stream !== expectStream && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, 50));
    return { stream, connection: client.state.remoteWindowSize };
  };

  const newServer = () => {
    const server = new grpc.Server();
    cleanup.push(() => server.forceShutdown());
    return server;
  };

  it('a widened bound server lets a peer send 16 MiB per stream and per connection before it must wait', async () => {
    const server = newServer();
    const port = await bound(server);
    widenServerFlowControl(server);
    expect(await windowsAt(port, FLOW_CONTROL_WINDOW_BYTES)).toEqual({
      stream: FLOW_CONTROL_WINDOW_BYTES,
      connection: FLOW_CONTROL_WINDOW_BYTES,
    });
  });

  it('connections through a connection injector get the windows asked for (the client port: 1 MiB streams)', async () => {
    const server = newServer();
    const port = await injected(server);
    widenServerFlowControl(server, { streamBytes: MIB });
    expect(await windowsAt(port, MIB)).toEqual({ stream: MIB, connection: FLOW_CONTROL_WINDOW_BYTES });
  });

  it("without it grpc-js's server keeps HTTP/2's 64 KiB windows", async () => {
    const server = newServer();
    const port = await bound(server);
    expect(await windowsAt(port, HTTP2_DEFAULT_WINDOW)).toEqual({
      stream: HTTP2_DEFAULT_WINDOW,
      connection: HTTP2_DEFAULT_WINDOW,
    });
  });

  it('refuses a server that has no HTTP/2 server yet (called before binding, it would widen nothing)', () => {
    expect(() => widenServerFlowControl(newServer())).toThrow(/not bound yet/);
  });
});
