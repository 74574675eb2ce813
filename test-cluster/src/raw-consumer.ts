/** Raw protocol clients for tests that need to misbehave where a library would not. */
import { type ClientHttp2Stream, constants as h2, connect as http2Connect } from 'node:http2';
import { pb } from '@fermata/protocol';

/** gRPC's length-prefixed message framing. */
export function frame(bytes: Uint8Array): Buffer {
  const out = Buffer.alloc(5 + bytes.length);
  out.writeUInt32BE(bytes.length, 1);
  out.set(bytes, 5);
  return out;
}

/**
 * A consumer speaking the Consume protocol over bare HTTP/2 (no gRPC library,
 * no SDK), with Node's default 64 KiB receive windows: while it is paused it
 * reads nothing, and HTTP/2 flow control stops the leader's writes.
 */
export function rawConsumer(address: string, token: string | undefined, subscribe: pb.ISubscribe) {
  const session = http2Connect(`http://${address}`);
  session.on('error', () => undefined);
  const stream: ClientHttp2Stream = session.request({
    ':method': 'POST',
    ':path': '/fermata.v1.Broker/Consume',
    'content-type': 'application/grpc',
    te: 'trailers',
    ...(token ? { authorization: `Bearer ${token}` } : {}),
  });
  stream.on('error', () => undefined);
  const responses: pb.ConsumeResponse[] = [];
  let buffered = Buffer.alloc(0);
  stream.on('data', (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    while (buffered.length >= 5 && buffered.length >= 5 + buffered.readUInt32BE(1)) {
      const n = buffered.readUInt32BE(1);
      responses.push(pb.ConsumeResponse.decode(buffered.subarray(5, 5 + n)));
      buffered = buffered.subarray(5 + n);
    }
  });
  stream.write(frame(pb.ConsumeRequest.encode({ subscribe }).finish()));
  return {
    responses,
    stream,
    deliveries: () => responses.flatMap((r) => r.deliveries?.deliveries ?? []),
    close: () => {
      stream.close(h2.NGHTTP2_CANCEL);
      session.close();
    },
  };
}
