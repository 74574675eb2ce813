import { type ClientHttp2Session, type ClientHttp2Stream, constants as h2 } from 'node:http2';
import { type pb, type RaftClient, v1 } from '@fermata/protocol';
import type { Message, NodeId } from '../types.js';
import { messageBytes, messageToWire } from './codec.js';
import type { Logger } from './logger.js';

export interface PeerStreamLimits {
  /** Most messages queued for one peer; beyond it the oldest are dropped (Raft tolerates loss). */
  readonly maxQueuedMessages: number;
  /** Most entry bytes in one stream write. */
  readonly maxBatchBytes: number;
  /** Largest gRPC message the peer accepts; a batch encoded larger is dropped (Raft sends again). */
  readonly maxMessageBytes: number;
  readonly minBackoffMs: number;
  readonly maxBackoffMs: number;
}

export interface PeerStreamStats {
  connected: boolean;
  queued: number;
  batchesSent: number;
  messagesSent: number;
  messagesDropped: number;
  reconnects: number;
}

/** How to reach a peer's port: a new HTTP/2 connection (TLS or not, peer-dial.ts), and the headers every call carries. */
export interface PeerDialer {
  /** A new session, possibly still connecting; rejects when it cannot even be started (a proxy refused). */
  connect(): Promise<ClientHttp2Session>;
  /** Extra request headers (the cluster secret). */
  readonly headers: Readonly<Record<string, string>>;
}

/** The gRPC method this stream calls (proto/fermata/v1/raft.proto). */
export const SEND_MESSAGES_PATH = '/fermata.v1.Raft/SendMessages';
/** Keepalive: a PING on the connection this often... */
export const PEER_KEEPALIVE_MS = 10_000;
/** ...and the connection is dropped when its answer takes longer than this. */
export const PEER_KEEPALIVE_TIMEOUT_MS = 5_000;
/**
 * A connection (TCP, a proxy's tunnel, the TLS handshake, HTTP/2's preface)
 * not made within this long is given up and dialled again: a peer whose host
 * drops packets would otherwise hold the dial for the kernel's SYN retries
 * (about two minutes) and be noticed up to a minute late when it returns.
 */
export const PEER_CONNECT_TIMEOUT_MS = 5_000;

const GRPC_PERMISSION_DENIED = 7;
const GRPC_UNAUTHENTICATED = 16;

/**
 * The one long-lived `SendMessages` stream to one peer, spoken as gRPC over
 * node:http2 directly: the same bytes on the wire as a grpc-js client's (a
 * POST to `SEND_MESSAGES_PATH`, `application/grpc`, each batch one
 * length-prefixed `RaftBatch`), without grpc-js's per-message layers (call
 * stack, retry buffer, interceptors, stream wrappers), which cost a round
 * trip between two nodes about as much CPU again as HTTP/2 itself.
 * Everything queued for the peer when the stream is writable goes out as one
 * batch. While the peer is down, messages wait in a bounded queue (oldest
 * dropped first) and the stream is re-opened with exponential backoff, so a
 * dead peer costs the others nothing.
 */
export class PeerStream {
  readonly stats: PeerStreamStats = {
    connected: false,
    queued: 0,
    batchesSent: 0,
    messagesSent: 0,
    messagesDropped: 0,
    reconnects: 0,
  };
  private queue: Message[] = [];
  private head = 0;
  private session: ClientHttp2Session | undefined;
  /** A dial under way (a proxy's tunnel being opened): no second one starts meanwhile. */
  private dialing = false;
  private keepalive: NodeJS.Timeout | undefined;
  private call: ClientHttp2Stream | undefined;
  private writable = false;
  private flushScheduled = false;
  private backoffMs: number;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    readonly peer: NodeId,
    readonly address: string,
    /** A grpc-js client for this peer's other calls (snapshot transfers); it connects on first use. */
    readonly client: RaftClient,
    private readonly dialer: PeerDialer,
    private readonly self: {
      readonly id: NodeId;
      readonly clusterId: string;
      readonly address?: string;
      /** This node's wall clock: a message stamped with one (`wallTimeMs`) is stamped again as it leaves. */
      readonly wallNowMs?: () => number;
    },
    private readonly limits: PeerStreamLimits,
    private readonly onUnreachable: (peer: NodeId) => void,
    private readonly log: Logger,
  ) {
    this.backoffMs = limits.minBackoffMs;
  }

  enqueue(message: Message): void {
    if (this.closed) return;
    this.queue.push(message);
    if (this.queue.length - this.head > this.limits.maxQueuedMessages) {
      this.head++;
      this.stats.messagesDropped++;
      this.onUnreachable(this.peer);
    }
    this.stats.queued = this.queue.length - this.head;
    this.scheduleFlush();
  }

  close(): void {
    this.closed = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    // Half-closing ends the call OK on the server.
    this.call?.end();
    this.call = undefined;
    this.queue = [];
    this.head = 0;
    const session = this.session;
    this.dropSession();
    if (session) {
      // Closes once the half-closed call ends; never keeps the process alive, nor lingers on a dead peer.
      session.close();
      session.unref();
      setTimeout(() => session.destroy(), PEER_KEEPALIVE_TIMEOUT_MS).unref();
    }
    this.client.close();
  }

  private scheduleFlush(): void {
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    // setImmediate, not a microtask: every message the driver sends in this
    // turn of the event loop joins the same write.
    setImmediate(() => {
      this.flushScheduled = false;
      this.flush();
    });
  }

  private flush(): void {
    if (this.closed) return;
    if (!this.call) {
      if (!this.reconnectTimer) this.open();
      return;
    }
    while (this.writable && this.head < this.queue.length) {
      const batch: Message[] = [];
      let bytes = 0;
      while (this.head < this.queue.length) {
        const m = this.queue[this.head] as Message;
        const size = messageBytes(m);
        if (batch.length > 0 && bytes + size > this.limits.maxBatchBytes) break;
        batch.push(m);
        bytes += size;
        this.head++;
      }
      const frame = this.frame(batch);
      if (frame === undefined) continue;
      this.stats.batchesSent++;
      this.stats.messagesSent += batch.length;
      if (!this.call.write(frame)) {
        this.writable = false;
        const call = this.call;
        call.once('drain', () => {
          if (this.call !== call) return;
          this.writable = true;
          this.flush();
        });
      }
    }
    if (this.head === this.queue.length) {
      this.queue = [];
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    this.stats.queued = this.queue.length - this.head;
  }

  /** One gRPC message: the compressed flag (0), the length (4 bytes, big-endian), the `RaftBatch`. */
  private frame(batch: readonly Message[]): Buffer | undefined {
    const body = v1.RaftBatch.encode({
      clusterId: this.self.clusterId,
      from: this.self.id,
      ...(this.self.address ? { fromAddress: this.self.address } : {}),
      messages: batch.map((m) => messageToWire(this.stamped(m)) as pb.RaftMessage),
    }).finish();
    if (body.length > this.limits.maxMessageBytes) {
      this.log.warn(
        { peer: this.peer, bytes: body.length, limit: this.limits.maxMessageBytes },
        'raft batch larger than the peer accepts (maxReceiveMessageBytes), dropped',
      );
      this.stats.messagesDropped += batch.length;
      this.onUnreachable(this.peer);
      return undefined;
    }
    const frame = Buffer.allocUnsafe(5 + body.length);
    frame[0] = 0;
    frame.writeUInt32BE(body.length, 1);
    frame.set(body, 5);
    return frame;
  }

  /**
   * A vote request (or a refusal for the clock) carries the time it leaves, not
   * the time it was queued: one that waited here for a peer that was down would
   * otherwise look like a clock that far behind (node/vote-clock.ts).
   */
  private stamped(m: Message): Message {
    const now = this.self.wallNowMs;
    return m.wallTimeMs && now ? { ...m, wallTimeMs: now() } : m;
  }

  /** Takes a new connection to the peer as the one its calls go on. */
  private adopt(session: ClientHttp2Session): void {
    session.on('error', (error: Error) => {
      this.log.debug(
        { peer: this.peer, address: this.address, err: String(error) },
        'raft peer connection error',
      );
    });
    const connectTimer = setTimeout(() => {
      session.destroy(new Error(`no connection to ${this.address} within ${PEER_CONNECT_TIMEOUT_MS} ms`));
    }, PEER_CONNECT_TIMEOUT_MS);
    connectTimer.unref();
    // A connection the server is closing takes no new streams; the next open dials again.
    session.on('goaway', () => {
      if (this.session === session) this.dropSession();
    });
    session.on('close', () => {
      clearTimeout(connectTimer);
      if (this.session === session) this.dropSession();
    });
    // The peer's first SETTINGS: it answered at every layer.
    session.once('remoteSettings', () => clearTimeout(connectTimer));
    session.once('connect', () => {
      if (this.session !== session) return;
      this.keepalive = setInterval(() => this.ping(session), PEER_KEEPALIVE_MS);
      this.keepalive.unref();
    });
    this.session = session;
  }

  private ping(session: ClientHttp2Session): void {
    if (session.destroyed || session.closed) return;
    const timer = setTimeout(() => session.destroy(), PEER_KEEPALIVE_TIMEOUT_MS);
    timer.unref();
    const sent = session.ping((error) => {
      clearTimeout(timer);
      if (error) session.destroy();
    });
    if (!sent) clearTimeout(timer);
  }

  private dropSession(): void {
    if (this.keepalive) clearInterval(this.keepalive);
    this.keepalive = undefined;
    this.session = undefined;
  }

  /** Opens the stream on the connection to the peer, dialling one when there is none (or it is going away). */
  private open(): void {
    const session = this.session;
    if (session && !session.closed && !session.destroyed) {
      this.request(session);
      return;
    }
    if (this.dialing) return;
    this.dialing = true;
    this.dialer.connect().then(
      (dialed) => {
        this.dialing = false;
        if (this.closed) {
          dialed.destroy();
          return;
        }
        this.adopt(dialed);
        this.request(dialed);
      },
      (error: unknown) => {
        this.dialing = false;
        if (this.closed) return;
        this.log.debug(
          { peer: this.peer, address: this.address, err: String(error) },
          'raft peer not dialled',
        );
        this.ended();
      },
    );
  }

  private request(session: ClientHttp2Session): void {
    let call: ClientHttp2Stream;
    try {
      call = session.request(
        {
          [h2.HTTP2_HEADER_METHOD]: 'POST',
          [h2.HTTP2_HEADER_PATH]: SEND_MESSAGES_PATH,
          [h2.HTTP2_HEADER_CONTENT_TYPE]: 'application/grpc',
          [h2.HTTP2_HEADER_TE]: 'trailers',
          ...this.dialer.headers,
        },
        { endStream: false },
      );
    } catch (error) {
      // The connection was closing under us: as a stream that ended at once.
      this.log.debug({ peer: this.peer, err: String(error) }, 'raft peer stream not opened');
      this.dropSession();
      this.ended();
      return;
    }
    let status: number | undefined;
    let details = '';
    // A status (in trailers, or a trailers-only response) ends the call: close our side too.
    const readStatus = (headers: Record<string, unknown>) => {
      if (headers['grpc-status'] === undefined) return;
      status = Number(headers['grpc-status']);
      const message = headers['grpc-message'];
      details = typeof message === 'string' ? safeDecode(message) : '';
      call.close();
    };
    // The server sends its headers as soon as it accepted the stream: only
    // then is the peer known to be up, and the backoff starts over.
    // Nothing is written until then: messages written into a stream that never
    // connects are lost, while queued ones survive (the newest, up to the limit).
    call.on('response', (headers) => {
      readStatus(headers);
      if (status === undefined && Number(headers[h2.HTTP2_HEADER_STATUS]) !== 200) {
        // Not a gRPC server's answer (another service at that address): as a stream that failed.
        details = `HTTP ${String(headers[h2.HTTP2_HEADER_STATUS])} from the peer port`;
        call.close();
        return;
      }
      if (this.call !== call || status !== undefined) return; // a refusal without a body
      this.stats.connected = true;
      this.backoffMs = this.limits.minBackoffMs;
      this.writable = true;
      this.flush();
    });
    call.on('trailers', (headers) => readStatus(headers));
    // An answer that ended without a status leaves nobody reading what we would write.
    call.on('end', () => {
      if (status === undefined) call.close();
    });
    call.on('error', () => undefined);
    call.on('close', () => {
      if (this.call !== call) return;
      this.call = undefined;
      this.writable = false;
      this.stats.connected = false;
      if (this.closed) return;
      const refused = status === GRPC_PERMISSION_DENIED || status === GRPC_UNAUTHENTICATED;
      if (status !== 0 || call.rstCode !== h2.NGHTTP2_NO_ERROR) {
        // Refused (another cluster, not a member, wrong secret or certificate): retrying fast cannot help.
        this.log[refused ? 'warn' : 'debug'](
          { peer: this.peer, address: this.address, code: status, rst: call.rstCode, details },
          'raft peer stream ended',
        );
      }
      if (refused) this.backoffMs = this.limits.maxBackoffMs;
      this.ended();
    });
    // The answer (an empty RaftBatchResponse) is not needed: let it flow.
    call.resume();
    this.call = call;
    this.writable = false;
  }

  /** After the stream ended: whatever was written into it may be lost, so Raft probes again; reopen later. */
  private ended(): void {
    this.onUnreachable(this.peer);
    this.stats.reconnects++;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      this.flush();
      // Keep a stream open even with nothing to send, so a restarted peer is
      // reconnected before the next heartbeat needs it.
      if (!this.call && !this.closed && !this.reconnectTimer) this.open();
    }, this.backoffMs);
    this.backoffMs = Math.min(this.backoffMs * 2, this.limits.maxBackoffMs);
  }
}

/** grpc-message is percent-encoded; a malformed one is shown as it came. */
function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
