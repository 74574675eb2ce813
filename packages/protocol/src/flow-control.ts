import type { Http2Server, Http2Session } from 'node:http2';
import type * as grpc from '@grpc/grpc-js';

/**
 * HTTP/2 receive window of the connections and streams between nodes and of
 * the SDK's channels: how many bytes a peer may send before it must wait for
 * this process to read and answer with WINDOW_UPDATE. HTTP/2's default,
 * 65,535 bytes, is smaller than one Raft entry of 1,000 messages (~300 KB) or
 * one delivery batch, so every such message waited for several round trips
 * through the receiver's event loop, which is busy applying.
 */
export const FLOW_CONTROL_WINDOW_BYTES = 16 * 1024 * 1024;

/**
 * Stream receive window of the client port. grpc-js pauses the HTTP/2 stream of
 * a handler that stops reading, so a stream's window is what a client may make
 * the server buffer on it (Node grants connection credit back as data
 * arrives: the stream window is the bound, times the streams of a connection).
 * 1 MiB still takes a client batch of 1,000 messages at once.
 */
export const CLIENT_PORT_STREAM_WINDOW_BYTES = 1024 * 1024;

/** Client channel option: the receive window of the channel's connection and streams. */
export const clientFlowControlOptions = {
  'grpc-node.flow_control_window': FLOW_CONTROL_WINDOW_BYTES,
} as const;

/**
 * Widens the receive windows of every connection a gRPC server accepts from
 * now on: `streamBytes` per stream (SETTINGS_INITIAL_WINDOW_SIZE) and
 * `connectionBytes` for the connection. grpc-js 1.14 has no server option for
 * either, so this reaches its HTTP/2 servers (`http2Servers`, pinned version).
 * Call right after `bindAsync` or `createConnectionInjector`, before a
 * connection can arrive; throws when the server has no HTTP/2 server yet.
 */
export function widenServerFlowControl(
  server: grpc.Server,
  { streamBytes = FLOW_CONTROL_WINDOW_BYTES, connectionBytes = FLOW_CONTROL_WINDOW_BYTES } = {},
): void {
  const servers = (server as unknown as { http2Servers?: Map<Http2Server, unknown> }).http2Servers;
  // Programming errors at this API's boundary: a grpc-js other than the pinned one, or a call before bind.
  if (!(servers instanceof Map))
    throw new Error('grpc-js Server has no http2Servers map: check the pinned version'); // boundary: pinned grpc-js
  if (servers.size === 0) throw new Error('widenServerFlowControl: the server is not bound yet'); // boundary: call after bindAsync
  for (const http2Server of servers.keys()) {
    http2Server.on('session', (session: Http2Session) => {
      session.setLocalWindowSize(connectionBytes);
      session.settings({ initialWindowSize: streamBytes });
    });
  }
}
