/**
 * gRPC over a bare HTTP/2 connection (node:http2), for fuzzers: any bytes can
 * be sent as a request body, any length prefix and any headers, and the test
 * sees exactly how the server ended the stream (a grpc-status, an HTTP/2
 * reset, a closed connection) instead of what a client library makes of it.
 */
import { type ClientHttp2Session, connect, constants } from 'node:http2';

/** One gRPC message frame: compressed flag, 4-byte big-endian length (or `length` as given), the bytes. */
export function grpcFrame(
  message: Uint8Array,
  options: { length?: number; compressed?: boolean } = {},
): Buffer {
  const head = Buffer.alloc(5);
  head[0] = options.compressed ? 1 : 0;
  head.writeUInt32BE((options.length ?? message.length) >>> 0, 1);
  return Buffer.concat([head, message]);
}

export interface RawOutcome {
  /** grpc-status from the trailers (or a trailers-only response); undefined when there was none. */
  readonly status: number | undefined;
  readonly message: string;
  /** HTTP :status of the response headers. */
  readonly httpStatus: number | undefined;
  /** The stream was reset or the connection closed without a grpc-status. */
  readonly aborted: boolean;
  /** Response body bytes (framed messages). */
  readonly bodyBytes: number;
}

export interface RawCallOptions {
  readonly headers?: Record<string, string | string[]>;
  /** The call fails the test after this long without an end (a hung server is a bug). */
  readonly timeoutMs?: number;
  /** Write the body and then leave the stream open (do not half-close). */
  readonly keepOpen?: boolean;
}

/** A reusable HTTP/2 connection to a gRPC server; reconnects after the server drops it. */
export class RawGrpcConnection {
  private session: ClientHttp2Session | undefined;
  sessionsOpened = 0;

  constructor(readonly address: string) {}

  private open(): ClientHttp2Session {
    if (this.session && !this.session.closed && !this.session.destroyed) return this.session;
    const s = connect(`http://${this.address}`);
    s.on('error', () => undefined);
    // A connection the server is closing takes no new streams: the next call opens another.
    s.on('goaway', () => {
      if (this.session === s) this.session = undefined;
    });
    s.on('close', () => {
      if (this.session === s) this.session = undefined;
    });
    this.session = s;
    this.sessionsOpened++;
    return s;
  }

  /** Sends one request with `body` as its raw DATA and resolves with how the server ended it. */
  call(path: string, body: Buffer, options: RawCallOptions = {}): Promise<RawOutcome> {
    const session = this.open();
    const timeoutMs = options.timeoutMs ?? 10_000;
    return new Promise<RawOutcome>((resolve, reject) => {
      let status: number | undefined;
      let message = '';
      let httpStatus: number | undefined;
      let bodyBytes = 0;
      let done = false;
      const readStatus = (h: Record<string, unknown>) => {
        if (h['grpc-status'] !== undefined) status = Number(h['grpc-status']);
        if (typeof h['grpc-message'] === 'string') message = decodeURIComponent(h['grpc-message']);
      };
      const req = session.request({
        ':method': 'POST',
        ':path': path,
        'content-type': 'application/grpc',
        te: 'trailers',
        ...options.headers,
      });
      const timer = setTimeout(() => {
        if (done) return;
        done = true;
        req.close(constants.NGHTTP2_CANCEL);
        reject(
          new Error(`${path}: no end within ${timeoutMs} ms (status ${status}, ${bodyBytes} body bytes)`),
        );
      }, timeoutMs);
      req.on('response', (h) => {
        httpStatus = Number(h[':status']);
        readStatus(h);
      });
      req.on('trailers', (h) => readStatus(h));
      req.on('data', (d: Buffer) => {
        bodyBytes += d.length;
      });
      req.on('error', () => undefined);
      req.on('close', () => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        resolve({ status, message, httpStatus, aborted: status === undefined, bodyBytes });
      });
      if (body.length > 0) req.write(body);
      if (!options.keepOpen) req.end();
    });
  }

  close(): void {
    this.session?.destroy();
    this.session = undefined;
  }
}
