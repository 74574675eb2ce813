/**
 * The peer port's server: gRPC's two client-streaming methods of
 * `fermata.v1.Raft` spoken over node:http2 directly (the same bytes on the
 * wire as grpc-js's server: POST `/fermata.v1.Raft/<Method>`,
 * `application/grpc`, length-prefixed messages, `grpc-status` in trailers),
 * without grpc-js's per-message layers (interceptor chain, promise per
 * message, stream wrappers), which cost a round trip between two nodes about
 * as much CPU again as HTTP/2 itself. Only what the peer port needs: no
 * compression, no deadlines, one response message.
 */
import type { IncomingHttpHeaders } from 'node:http';
import {
  createSecureServer,
  createServer,
  type Http2Server,
  type Http2Session,
  constants as h2,
  type SecureServerOptions,
  type ServerHttp2Stream,
} from 'node:http2';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { PeerAuthContext } from './tls.js';

/** gRPC status codes the peer port answers with (grpc/doc/statuscodes.md). */
export const GrpcStatus = {
  OK: 0,
  CANCELLED: 1,
  INVALID_ARGUMENT: 3,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  INTERNAL: 13,
  UNIMPLEMENTED: 12,
  UNAUTHENTICATED: 16,
} as const;

export interface CallStatus {
  readonly code: number;
  readonly details: string;
}

/** What a method handler sees of one call: the decoded requests and how to answer. */
export interface PeerCall<Req> {
  /** The request headers (gRPC metadata). */
  readonly metadata: IncomingHttpHeaders;
  /** With TLS, the verified client certificate (grpc-js's `AuthContext`); empty otherwise. */
  getAuthContext(): PeerAuthContext;
  /** Sends the response headers: the call is accepted. */
  sendMetadata(): void;
  /** Stops handing over requests until `resume` (the HTTP/2 window then holds the sender). */
  pause(): void;
  resume(): void;
  /** Each request, decoded, in order. */
  onMessage(listener: (request: Req) => void): void;
  /** The sender half-closed the call. */
  onEnd(listener: () => void): void;
  /** The call ended without a status from us (reset, connection lost). */
  onCancel(listener: () => void): void;
  /** Ends the call: OK with `response` (the encoded response message), or `status`. Once. */
  finish(status: CallStatus | null, response?: Uint8Array): void;
}

export interface PeerMethod<Req> {
  readonly decode: (bytes: Uint8Array) => Req;
  readonly handle: (call: PeerCall<Req>) => void;
}

/** A method as the server keeps it: whatever its request type, it starts calls. */
export interface RegisteredMethod {
  start(stream: ServerHttp2Stream, headers: IncomingHttpHeaders, maxMessageBytes: number): void;
}

export function peerMethod<Req>(method: PeerMethod<Req>): RegisteredMethod {
  return {
    start: (stream, headers, maxMessageBytes) =>
      new ServerCall(stream, headers, method, maxMessageBytes).start(),
  };
}

export interface PeerServerOptions {
  /** TLS (client certificates required); plaintext when absent. */
  readonly tls?: SecureServerOptions & { onChange(listener: (options: SecureServerOptions) => void): void };
  /** Largest request message accepted (gRPC's max receive message length). */
  readonly maxReceiveMessageBytes: number;
  /** The receive windows of each connection and stream. */
  readonly windowBytes: number;
  /** By path (`/package.Service/Method`). */
  readonly methods: Readonly<Record<string, RegisteredMethod>>;
}

const RESPONSE_HEADERS = {
  [h2.HTTP2_HEADER_STATUS]: 200,
  [h2.HTTP2_HEADER_CONTENT_TYPE]: 'application/grpc+proto',
} as const;

/** A gRPC server on node:http2 for the peer port's client-streaming methods. */
export class PeerServer {
  private readonly server: Http2Server;
  private readonly sessions = new Set<Http2Session>();

  constructor(private readonly options: PeerServerOptions) {
    // As grpc-js's server: headers of any size out, no session memory limit, no idle timeout.
    const common = {
      maxSendHeaderBlockLength: Number.MAX_SAFE_INTEGER,
      maxSessionMemory: Number.MAX_SAFE_INTEGER,
    };
    const tls = options.tls;
    if (tls) {
      const { onChange, ...secure } = tls;
      const server = createSecureServer({ ...common, ...secure });
      server.on('secureConnection', (socket: TLSSocket) => socket.on('error', () => undefined));
      onChange((next) => server.setSecureContext(next));
      this.server = server as unknown as Http2Server;
    } else {
      this.server = createServer(common);
    }
    this.server.setTimeout(0);
    this.server.on('session', (session: Http2Session) => {
      this.sessions.add(session);
      session.on('error', () => undefined);
      session.once('close', () => this.sessions.delete(session));
      session.setLocalWindowSize(options.windowBytes);
      session.settings({ initialWindowSize: options.windowBytes });
    });
    this.server.on('stream', (stream, headers) => this.onStream(stream, headers));
  }

  /** Listens on `host:port` (port 0 picks one); resolves with the bound port. */
  listen(host: string, port: number): Promise<number> {
    return new Promise((resolve, reject) => {
      const onError = (error: Error) => reject(error);
      this.server.once('error', onError);
      this.server.listen(port, host, () => {
        this.server.off('error', onError);
        resolve((this.server.address() as AddressInfo).port);
      });
    });
  }

  /** Stops listening and drops every connection at once. */
  close(): void {
    this.server.close();
    for (const session of this.sessions) session.destroy();
    this.sessions.clear();
  }

  private onStream(stream: ServerHttp2Stream, headers: IncomingHttpHeaders): void {
    stream.on('error', () => undefined);
    const contentType = headers[h2.HTTP2_HEADER_CONTENT_TYPE];
    if (typeof contentType !== 'string' || !contentType.startsWith('application/grpc')) {
      stream.respond(
        { [h2.HTTP2_HEADER_STATUS]: h2.HTTP_STATUS_UNSUPPORTED_MEDIA_TYPE },
        { endStream: true },
      );
      return;
    }
    const path = String(headers[h2.HTTP2_HEADER_PATH] ?? '');
    const method = Object.hasOwn(this.options.methods, path) ? this.options.methods[path] : undefined;
    if (!method) {
      trailersOnly(stream, {
        code: GrpcStatus.UNIMPLEMENTED,
        details: `The server does not implement the method ${path}`,
      });
      return;
    }
    method.start(stream, headers, this.options.maxReceiveMessageBytes);
  }
}

function statusHeaders(status: CallStatus): Record<string, string | number> {
  return { 'grpc-status': status.code, 'grpc-message': encodeURI(status.details) };
}

function trailersOnly(stream: ServerHttp2Stream, status: CallStatus): void {
  if (stream.destroyed || stream.headersSent) return;
  stream.respond({ ...RESPONSE_HEADERS, ...statusHeaders(status) }, { endStream: true });
}

/** One call: splits the request body into gRPC messages and answers once. */
class ServerCall<Req> implements PeerCall<Req> {
  /** Bytes of a message not yet whole, as they came (joined once, when the message is). */
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** How many bytes the next step needs: a prefix (5), or a prefix and its message. */
  private needBytes = 5;
  private readonly ready: Req[] = [];
  private paused = false;
  private ended = false;
  private finished = false;
  private messageListener: (request: Req) => void = () => undefined;
  private endListener: () => void = () => undefined;
  private cancelListener: () => void = () => undefined;

  constructor(
    private readonly stream: ServerHttp2Stream,
    readonly metadata: IncomingHttpHeaders,
    private readonly method: PeerMethod<Req>,
    private readonly maxMessageBytes: number,
  ) {}

  start(): void {
    this.method.handle(this);
    if (this.finished) return;
    this.stream.on('data', (chunk: Buffer) => this.onData(chunk));
    this.stream.on('end', () => {
      this.ended = true;
      this.deliver();
    });
    this.stream.on('close', () => {
      if (this.finished) return;
      this.finished = true;
      this.cancelListener();
    });
  }

  getAuthContext(): PeerAuthContext {
    const socket = this.stream.session?.socket as TLSSocket | undefined;
    if (socket?.encrypted !== true || !socket.authorized) return {};
    const cert = socket.getPeerCertificate();
    return { transportSecurityType: 'ssl', ...(cert.raw ? { sslPeerCertificate: cert } : {}) };
  }

  sendMetadata(): void {
    if (this.finished || this.stream.headersSent || this.stream.destroyed) return;
    this.stream.respond(RESPONSE_HEADERS, { waitForTrailers: true });
  }

  pause(): void {
    this.paused = true;
    this.stream.pause();
  }

  resume(): void {
    this.paused = false;
    this.stream.resume();
    this.deliver();
  }

  onMessage(listener: (request: Req) => void): void {
    this.messageListener = listener;
  }

  onEnd(listener: () => void): void {
    this.endListener = listener;
  }

  onCancel(listener: () => void): void {
    this.cancelListener = listener;
  }

  finish(status: CallStatus | null, response?: Uint8Array): void {
    if (this.finished) return;
    this.finished = true;
    const stream = this.stream;
    if (stream.destroyed) return;
    // What the sender writes after the answer is read and dropped: a call paused here (a
    // snapshot chunk on its way to disk) would otherwise hold a stream window of it, and the
    // sender's end behind it, for as long as the connection lives. (One never read is
    // closed by node:http2 itself once answered.)
    if (this.paused) {
      this.paused = false;
      stream.resume();
    }
    const end: CallStatus = status ?? { code: GrpcStatus.OK, details: '' };
    if (!stream.headersSent) {
      if (status) {
        trailersOnly(stream, status);
        return;
      }
      stream.respond(RESPONSE_HEADERS, { waitForTrailers: true });
    }
    stream.once('wantTrailers', () => stream.sendTrailers(statusHeaders(end)));
    if (!status && response) stream.write(frame(response));
    stream.end();
  }

  private onData(chunk: Buffer): void {
    if (this.finished) return;
    if (this.pendingBytes + chunk.length < this.needBytes) {
      this.pending.push(Buffer.from(chunk));
      this.pendingBytes += chunk.length;
      return;
    }
    let buf =
      this.pending.length > 0
        ? Buffer.concat([...this.pending, chunk], this.pendingBytes + chunk.length)
        : chunk;
    this.pending = [];
    this.pendingBytes = 0;
    this.needBytes = 5;
    while (buf.length >= 5) {
      const length = buf.readUInt32BE(1);
      if (length > this.maxMessageBytes) {
        this.finish({
          code: GrpcStatus.RESOURCE_EXHAUSTED,
          details: `Received message larger than max (${length} vs. ${this.maxMessageBytes})`,
        });
        return;
      }
      if (buf.length < 5 + length) {
        this.needBytes = 5 + length;
        break;
      }
      if (buf[0] !== 0) {
        this.finish({
          code: GrpcStatus.UNIMPLEMENTED,
          details: 'Received a compressed message: the peer port takes none',
        });
        return;
      }
      const body = buf.subarray(5, 5 + length);
      buf = buf.subarray(5 + length);
      let request: Req;
      try {
        request = this.method.decode(body);
      } catch (error) {
        this.finish({ code: GrpcStatus.INTERNAL, details: `Error deserializing request: ${String(error)}` });
        return;
      }
      this.ready.push(request);
    }
    if (buf.length > 0) {
      this.pending.push(Buffer.from(buf));
      this.pendingBytes = buf.length;
    }
    this.deliver();
  }

  private deliver(): void {
    while (!this.paused && !this.finished && this.ready.length > 0) {
      this.messageListener(this.ready.shift() as Req);
    }
    if (this.ended && !this.paused && !this.finished && this.ready.length === 0) {
      this.ended = false;
      this.endListener();
    }
  }
}

function frame(message: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(5 + message.length);
  out[0] = 0;
  out.writeUInt32BE(message.length, 1);
  out.set(message, 5);
  return out;
}
