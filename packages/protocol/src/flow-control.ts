import type { Http2Server, Http2Session } from 'node:http2';
import type * as grpc from '@grpc/grpc-js';

/**
 * HTTP/2 receive window of this process's connections and streams: how many
 * bytes a peer may send before it must wait for this process to read and
 * answer with WINDOW_UPDATE. HTTP/2's default, 65,535 bytes, is smaller than
 * one Raft entry of 1,000 messages (~300 KB) or one delivery batch, so every
 * such message waited for several round trips through the receiver's event
 * loop, which is busy applying. Memory is still bounded: a window is credit,
 * not a buffer allocated up front, and a reader that stops reading stops
 * granting it.
 */
export const FLOW_CONTROL_WINDOW_BYTES = 16 * 1024 * 1024;

/** Client channel option: the receive window of the channel's connection and streams. */
export const clientFlowControlOptions = {
  'grpc-node.flow_control_window': FLOW_CONTROL_WINDOW_BYTES,
} as const;

/**
 * Widens the receive window of every connection a bound gRPC server accepts
 * from now on. grpc-js 1.14 has no server option for it, so this reaches its
 * HTTP/2 servers (`http2Servers`, pinned version) and sets each new session's
 * window and initial stream window. Call after `bindAsync` resolved.
 */
export function widenServerFlowControl(server: grpc.Server, bytes = FLOW_CONTROL_WINDOW_BYTES): void {
  const servers = (server as unknown as { http2Servers?: Map<Http2Server, unknown> }).http2Servers;
  if (!(servers instanceof Map))
    throw new Error('grpc-js Server has no http2Servers map: check the pinned version');
  for (const http2Server of servers.keys()) {
    http2Server.on('session', (session: Http2Session) => {
      session.setLocalWindowSize(bytes);
      session.settings({ initialWindowSize: Math.min(bytes, 2 ** 31 - 1) });
    });
  }
}
