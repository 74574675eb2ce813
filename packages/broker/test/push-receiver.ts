/**
 * A local HTTP or HTTPS endpoint for push tests: records each request and
 * answers as `answer` says, or, `silent` (or `holdIf` for that request),
 * accepts the connection and the request and never answers (a blackholed
 * endpoint).
 */
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';

export interface Received {
  readonly headers: IncomingMessage['headers'];
  readonly body: Buffer;
  readonly atMs: number;
  /** When the receiver wrote its answer, 0 until then. */
  answeredAtMs: number;
  /** When the request's connection closed unanswered (held), 0 until then. */
  closedAtMs: number;
}

/** How a receiver answers one request: status, headers, and how long it waits first. */
export type Answer = { status: number; headers?: Record<string, string>; delayMs?: number };

export class Receiver {
  readonly got: Received[] = [];
  inFlight = 0;
  maxInFlight = 0;
  /** How to answer the n-th request (from 1). */
  answer: (r: Received, n: number) => Answer = () => ({ status: 200 });
  /** Every request is held unanswered. */
  silent = false;
  /** Holds such a request unanswered while the others are answered. */
  holdIf: (r: Received) => boolean = () => false;
  private server: ReturnType<typeof createHttpServer> | undefined;
  url = '';

  async listen(tls?: { cert: string; key: string }, port = 0): Promise<this> {
    const handler = (req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const r: Received = {
          headers: req.headers,
          body: Buffer.concat(chunks),
          atMs: Date.now(),
          answeredAtMs: 0,
          closedAtMs: 0,
        };
        this.got.push(r);
        this.inFlight++;
        this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
        if (this.silent || this.holdIf(r)) {
          res.on('close', () => {
            this.inFlight--;
            r.closedAtMs = Date.now();
          });
          return;
        }
        const a = this.answer(r, this.got.length);
        setTimeout(() => {
          this.inFlight--;
          r.answeredAtMs = Date.now();
          res.writeHead(a.status, a.headers ?? {});
          res.end(a.status >= 300 ? `failed with ${a.status}` : 'ok');
        }, a.delayMs ?? 0);
      });
    };
    this.server = tls
      ? createHttpsServer({ cert: readFileSync(tls.cert), key: readFileSync(tls.key) }, handler)
      : createHttpServer(handler);
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    const bound = (this.server.address() as AddressInfo).port;
    this.url = `${tls ? 'https://localhost' : 'http://127.0.0.1'}:${bound}/hook`;
    return this;
  }

  /** Requests for message `id` (its Fermata-Message-Id). */
  of(id: bigint | string): Received[] {
    return this.got.filter((r) => r.headers['fermata-message-id'] === String(id));
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}
