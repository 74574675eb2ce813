import { connect } from 'node:http2';
import * as grpc from '@grpc/grpc-js';
import { afterEach, describe, expect, it } from 'vitest';
import { FLOW_CONTROL_WINDOW_BYTES, widenServerFlowControl } from '../src/index.js';

const HTTP2_DEFAULT_WINDOW = 65_535;

describe('HTTP/2 flow-control windows', () => {
  const cleanup: Array<() => void> = [];
  afterEach(() => {
    for (const fn of cleanup.splice(0)) fn();
  });

  /** A bare HTTP/2 client's view of a bound gRPC server: its stream window setting and its connection window. */
  const windowsOf = async (widen: boolean) => {
    const server = new grpc.Server();
    cleanup.push(() => server.forceShutdown());
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (e, p) =>
        e ? reject(e) : resolve(p),
      ),
    );
    if (widen) widenServerFlowControl(server);
    const client = connect(`http://127.0.0.1:${port}`);
    client.on('error', () => undefined);
    cleanup.push(() => client.destroy());
    // The server sends its SETTINGS at once and the widened ones right after: wait until they settle.
    let stream = 0;
    client.on('remoteSettings', (s) => {
      stream = s.initialWindowSize ?? 0;
    });
    const deadline = Date.now() + 5_000;
    while ((widen ? stream !== FLOW_CONTROL_WINDOW_BYTES : stream === 0) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 10));
    }
    await new Promise((r) => setTimeout(r, 50));
    return { stream, connection: client.state.remoteWindowSize };
  };

  it('a widened server lets a peer send 16 MiB per stream and per connection before it must wait', async () => {
    expect(await windowsOf(true)).toEqual({
      stream: FLOW_CONTROL_WINDOW_BYTES,
      connection: FLOW_CONTROL_WINDOW_BYTES,
    });
  });

  it("without it grpc-js's server keeps HTTP/2's 64 KiB windows", async () => {
    expect(await windowsOf(false)).toEqual({
      stream: HTTP2_DEFAULT_WINDOW,
      connection: HTTP2_DEFAULT_WINDOW,
    });
  });
});
