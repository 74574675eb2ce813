/**
 * A local HTTP endpoint for push tests: records each request and answers as
 * `answer` says, or, `silent`, accepts the connection and the request and
 * never answers (a blackholed endpoint).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  readonly headers: IncomingMessage['headers'];
  readonly body: Buffer;
  readonly atMs: number;
  /** When the request's connection closed unanswered (`silent`), 0 until then. */
  closedAtMs: number;
}

export class Receiver {
  readonly got: Received[] = [];
  /** Status of each answer; the request is held unanswered when `silent`. */
  answer: (r: Received) => number = () => 200;
  silent = false;
  /** Holds such a request unanswered while the others are answered. */
  holdIf: (r: Received) => boolean = () => false;
  private readonly server: Server;
  private readonly held = new Set<ServerResponse>();
  url = '';

  constructor() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const r: Received = {
          headers: req.headers,
          body: Buffer.concat(chunks),
          atMs: Date.now(),
          closedAtMs: 0,
        };
        this.got.push(r);
        if (this.silent || this.holdIf(r)) {
          this.held.add(res);
          res.on('close', () => {
            this.held.delete(res);
            r.closedAtMs = Date.now();
          });
          return;
        }
        res.writeHead(this.answer(r));
        res.end('ok');
      });
    });
  }

  async listen(): Promise<this> {
    await new Promise<void>((done) => this.server.listen(0, '127.0.0.1', done));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
    return this;
  }

  /** Requests for message `id` (its Fermata-Message-Id). */
  of(id: bigint | string): Received[] {
    return this.got.filter((r) => r.headers['fermata-message-id'] === String(id));
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((done) => this.server.close(() => done()));
  }
}
