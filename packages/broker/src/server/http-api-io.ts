/**
 * The HTTP API's edges: request bodies read with a bound, and answers, with
 * every error as `{"code", "field", "message"}` (plus `limit` when one was
 * hit) under the HTTP status a user expects for its gRPC status. The status
 * comes from the one mapping of errors to gRPC statuses (grpc-status.ts), so
 * HTTP and gRPC refuse alike.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { invariant } from '@fermata/base';
import * as grpc from '@grpc/grpc-js';
import { LimitError, ValidationError } from '../state/model/errors.js';
import {
  FIELD_METADATA_KEY,
  LEADER_ID_METADATA_KEY,
  LEADER_METADATA_KEY,
  LIMIT_METADATA_KEY,
} from './grpc-status.js';
import { CallStatusError } from './local-call.js';

/** Seconds a client is asked to wait before retrying a 503 or 429 (`Retry-After`). */
export const RETRY_AFTER_SECONDS = 1;

/**
 * Limits on the size of what a request carries: exceeding one is `413`. Other
 * RESOURCE_EXHAUSTED limits are the server's load or state (queues, rates,
 * disk, streams): `429`.
 */
const REQUEST_SIZE_LIMITS: ReadonlySet<string> = new Set([
  'maxPayloadBytes',
  'maxBatchPayloadBytes',
  'maxBatchMessages',
  'maxHeadersBytes',
  'maxHeaderCount',
  'maxKeyBytes',
  'maxTagsPerCommand',
  'maxNackErrorBytes',
  'maxJsonBodyBytes',
]);

/** The JSON body of an error answer. */
export interface ApiErrorBody {
  /** The gRPC status name: `INVALID_ARGUMENT`, `PERMISSION_DENIED`, ... */
  readonly code: string;
  /** The offending field, header or path part; '' when none. */
  readonly field: string;
  readonly message: string;
  /** The limit hit, when one was (`maxPayloadBytes`). */
  readonly limit?: string;
}

/** A gRPC status as the API sees it, whoever produced it (this node, the leader, the auth check). */
export interface ApiStatus {
  readonly code: grpc.status;
  readonly message: string;
  readonly field: string;
  readonly limit: string;
  /** The status names the leader (`fermata-leader`): "not the leader", which a retry may pass. */
  readonly notLeader: boolean;
}

/** `err` as a status: a call's status as it came, anything else through `toGrpc` (context.ts `grpcError`). */
export function apiStatusOf(err: unknown, toGrpc: (err: unknown) => grpc.ServerErrorResponse): ApiStatus {
  const s = err instanceof CallStatusError ? err : toGrpc(err);
  const meta = (key: string): string => {
    const v = s.metadata?.get(key)[0];
    return typeof v === 'string' ? v : '';
  };
  return {
    code: s.code ?? grpc.status.UNKNOWN,
    message: s.details ?? '',
    field: meta(FIELD_METADATA_KEY),
    limit: meta(LIMIT_METADATA_KEY),
    notLeader: [LEADER_METADATA_KEY, LEADER_ID_METADATA_KEY].some(
      (key) => (s.metadata?.get(key).length ?? 0) > 0,
    ),
  };
}

/**
 * The HTTP status of a gRPC status: by its code, the limit for
 * RESOURCE_EXHAUSTED, and 503 for "not the leader" whatever its code
 * (clients retry a 503, not a 409).
 */
export function httpStatusOf(status: Pick<ApiStatus, 'code' | 'limit' | 'notLeader'>): number {
  if (status.notLeader && status.code !== grpc.status.OK) return 503;
  switch (status.code) {
    case grpc.status.OK:
      return 200;
    case grpc.status.INVALID_ARGUMENT:
    case grpc.status.OUT_OF_RANGE:
      return 400;
    case grpc.status.UNAUTHENTICATED:
      return 401;
    case grpc.status.PERMISSION_DENIED:
      return 403;
    case grpc.status.NOT_FOUND:
      return 404;
    case grpc.status.ALREADY_EXISTS:
    case grpc.status.ABORTED:
    case grpc.status.FAILED_PRECONDITION:
      return 409;
    case grpc.status.RESOURCE_EXHAUSTED:
      return REQUEST_SIZE_LIMITS.has(status.limit) ? 413 : 429;
    case grpc.status.CANCELLED:
      return 499;
    case grpc.status.UNIMPLEMENTED:
      return 501;
    case grpc.status.UNAVAILABLE:
      return 503;
    case grpc.status.DEADLINE_EXCEEDED:
      return 504;
    default:
      return 500;
  }
}

/** Writes `status` as an error answer. `rename` turns the field's name into what the request called it. */
export function sendError(
  res: ServerResponse,
  status: ApiStatus,
  rename: (field: string) => string = (f) => f,
): void {
  const field = status.field === '' ? '' : rename(status.field);
  // The message starts with the field as the server named it; say it as the request did.
  const message =
    status.field !== '' && status.message.startsWith(`${status.field}: `)
      ? `${field}: ${status.message.slice(status.field.length + 2)}`
      : status.message;
  const http = httpStatusOf(status);
  const headers: Record<string, string> = {};
  if (http === 503 || http === 429) headers['retry-after'] = String(RETRY_AFTER_SECONDS);
  if (http === 401) headers['www-authenticate'] = 'Bearer realm="fermata"';
  const body: ApiErrorBody = {
    code: grpc.status[status.code] ?? 'UNKNOWN',
    field,
    message,
    ...(status.limit !== '' ? { limit: status.limit } : {}),
  };
  sendJson(res, http, body, headers);
}

/** Writes a JSON answer. */
export function sendJson(
  res: ServerResponse,
  status: number,
  value: unknown,
  headers: Readonly<Record<string, string>> = {},
): void {
  const body = `${JSON.stringify(value)}\n`;
  res.writeHead(status, {
    ...headers,
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
  });
  res.end(body);
}

/**
 * The bytes of request bodies a node holds at once (`limits.maxHttpBodyBytes`):
 * each request takes its bytes as they come (its declared length at once)
 * and gives them back when it is answered.
 */
export class BodyBudget {
  private held = 0;
  /** What each request not yet answered holds. */
  private readonly taken = new WeakMap<ServerResponse, number>();
  constructor(readonly maxBytes: number) {}

  /** Takes `bytes` for the request `res` answers, or throws LimitError (nothing taken). */
  take(res: ServerResponse, bytes: number): void {
    if (this.held + bytes > this.maxBytes)
      throw new LimitError('maxHttpBodyBytes', this.maxBytes, this.held + bytes, 'body');
    this.held += bytes;
    const before = this.taken.get(res);
    this.taken.set(res, (before ?? 0) + bytes);
    if (before !== undefined) return;
    // Answered, or its connection gone: what it held is free again.
    res.once('close', () => {
      this.held -= this.taken.get(res) ?? 0;
      this.taken.delete(res);
      invariant(this.held >= 0, () => `HTTP body budget gave back more than it took: held ${this.held}`);
    });
  }
}

/**
 * The request's body, at most `maxBytes` (`limit` names the bound), its bytes
 * taken from `budget`: a larger body is refused (LimitError on field `body`)
 * as soon as its length is known or its bytes pass the bound, and the rest is
 * never read into memory (`drainUnread`, `closeUnread`).
 */
export function readBody(
  req: IncomingMessage,
  res: ServerResponse,
  budget: BodyBudget,
  maxBytes: number,
  limit: string,
): Promise<Buffer> {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > maxBytes) {
    return Promise.reject(new LimitError(limit, maxBytes, Number(declared), 'body'));
  }
  const known = declared !== undefined && Number.isSafeInteger(Number(declared));
  try {
    if (known) budget.take(res, Number(declared));
  } catch (err) {
    return Promise.reject(err);
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const done = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('close', onClose);
    };
    const onData = (chunk: Buffer) => {
      total += chunk.length;
      try {
        if (total > maxBytes) throw new LimitError(limit, maxBytes, total, 'body');
        if (!known) budget.take(res, chunk.length);
      } catch (err) {
        done();
        req.pause();
        reject(err);
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      done();
      resolve(Buffer.concat(chunks, total));
    };
    const onClose = () => {
      done();
      reject(new ValidationError('body', 'the request ended before its body did'));
    };
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('close', onClose);
  });
}

/** How long a refusal reads and drops the rest of a body at most, and how long it waits for more bytes. */
export const LINGER_MAX_MS = 5_000;
export const LINGER_IDLE_MS = 1_000;

/**
 * Reads and drops the rest of a refused request's body before the answer
 * goes out, as nginx's lingering close does: a client still sending its body
 * then reads the answer, where a connection closed under its writes gives it
 * a broken pipe and no answer. Bounded in time, not bytes: at most
 * LINGER_MAX_MS, and only while bytes keep coming (LINGER_IDLE_MS); then the
 * answer goes out and the connection closes (`closeUnread`).
 */
export function drainUnread(req: IncomingMessage): Promise<void> {
  if (req.complete || req.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    let idle: NodeJS.Timeout | undefined;
    const finish = () => {
      clearTimeout(max);
      clearTimeout(idle);
      req.off('data', onData);
      req.off('end', finish);
      req.off('close', finish);
      req.pause();
      resolve();
    };
    const onData = () => {
      clearTimeout(idle);
      idle = setTimeout(finish, LINGER_IDLE_MS);
    };
    const max = setTimeout(finish, LINGER_MAX_MS);
    onData();
    req.on('data', onData);
    req.once('end', finish);
    req.once('close', finish);
    req.resume();
  });
}

/**
 * Answers a request whose body was not read to its end (`drainUnread` gave
 * up on it) without reading the rest: the connection closes after the
 * answer.
 */
export function closeUnread(req: IncomingMessage, res: ServerResponse): void {
  if (req.complete) return;
  res.shouldKeepAlive = false;
  res.once('finish', () => req.destroy());
}

/** Refuses a body on a request that takes none. */
export function refuseBody(req: IncomingMessage): void {
  const length = req.headers['content-length'];
  if ((length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined) {
    throw new ValidationError('body', `${req.method} ${pathOf(req)} takes no body`);
  }
}

export function pathOf(req: IncomingMessage): string {
  return new URL(req.url ?? '/', 'http://localhost').pathname;
}

/** The body parsed as JSON; malformed JSON is INVALID_ARGUMENT on `body` with the parser's reason. */
export function parseJson(body: Buffer): unknown {
  if (body.length === 0) throw new ValidationError('body', 'is empty: send a JSON object');
  try {
    return JSON.parse(body.toString('utf8'));
  } catch (err) {
    throw new ValidationError('body', `is not valid JSON: ${(err as Error).message}`);
  }
}

/** What a gRPC metadata value may hold (grpc-js refuses anything else), and so every token. */
const METADATA_TEXT = /^[ -~]*$/;

/**
 * The request's metadata for a call: its `authorization`, as gRPC metadata
 * carries it. A value gRPC could not carry is UNAUTHENTICATED; the value is
 * never echoed or logged (it may be most of a token).
 */
export function callMetadata(req: IncomingMessage): grpc.Metadata {
  const md = new grpc.Metadata();
  const auth = req.headers.authorization;
  if (auth === undefined) return md;
  if (!METADATA_TEXT.test(auth)) {
    throw refusal(
      grpc.status.UNAUTHENTICATED,
      'Authorization',
      'holds a character outside printable ASCII, which no token has',
    );
  }
  md.set('authorization', auth);
  return md;
}

/** A refusal of the request itself (not of a call), as a call's status naming `field`. */
export function refusal(code: grpc.status, field: string, reason: string): CallStatusError {
  const metadata = new grpc.Metadata();
  metadata.set(FIELD_METADATA_KEY, field);
  return new CallStatusError(code, `${field}: ${reason}`, metadata);
}

/** Raised for a request the API has no answer for: no such path (404) or method (405). */
export class RouteError extends Error {
  override readonly name = 'RouteError';
  constructor(
    readonly status: 404 | 405,
    message: string,
    readonly allow?: string,
  ) {
    super(message);
  }
}
