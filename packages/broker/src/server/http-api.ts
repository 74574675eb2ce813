/**
 * The JSON API on each node's HTTP port (docs/api.md, "HTTP API"), under
 * `/v1/`:
 *
 *   POST   /v1/rpc/{Service}/{Method}                  any unary method, protobuf JSON in and out
 *   POST   /v1/topics/{topic}/messages                 publish one message: body = payload, headers say the rest
 *   POST   /v1/topics/{topic}/messages:batch           publish a JSON batch, atomically
 *   DELETE /v1/topics/{topic}/(messages/{id}|keys/{key})              cancel
 *   POST   /v1/topics/{topic}/(messages/{id}|keys/{key})/reschedule   reschedule
 *
 * Every call runs through LocalCaller: the gRPC permission table, handler and
 * forwarding to the leader, so a request is answered once committed, exactly
 * as the gRPC call would be, and refused with the same status.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type pb, suggestNames, v1 } from '@fermata/protocol';
import {
  JsonFieldError,
  jsonToMessageBytes,
  messageBytesToJson,
  serviceMethods,
} from '@fermata/protocol/json';
import * as grpc from '@grpc/grpc-js';
import { ValidationError } from '../state/model/errors.js';
import type { Limits } from '../state/model/limits.js';
import { ConfigError } from './config.js';
import type { HttpRoute } from './http.js';
import {
  apiStatusOf,
  BodyBudget,
  callMetadata,
  closeUnread,
  drainUnread,
  parseJson,
  pathOf,
  RouteError,
  readBody,
  refusal,
  refuseBody,
  sendError,
  sendJson,
} from './http-api-io.js';
import {
  type FieldRenamer,
  IDEMPOTENCY_HEADER,
  MESSAGE_HEADERS,
  outcomeJson,
  pathSegment,
  publishedJson,
  publishFromBatch,
  publishFromHeaders,
  rescheduleFromHeaders,
  targetOf,
} from './http-messages.js';
import { CallStatusError, type LocalCaller } from './local-call.js';

export const API_PREFIX = '/v1';
/** How long an HTTP API call may run before it is 504: the SDK's default deadline. */
export const HTTP_CALL_DEADLINE_MS = 30_000;
/** The client services the generic call reaches (Raft is the peers'). */
const SERVICES = ['Broker', 'Admin', 'Schedules', 'Cluster', 'Backup'] as const;
const MIB = 1024 * 1024;
const PUBLISH = '/fermata.v1.Broker/Publish';

/**
 * The bound on a JSON body (`maxJsonBodyBytes`): a batch of
 * `limits.maxBatchPayloadBytes` of payload in base64, plus the 4 MiB of room
 * the gRPC port grants a request beyond its payloads.
 */
export function maxJsonBodyBytes(limits: Pick<Limits, 'maxBatchPayloadBytes'>): number {
  return Math.ceil(limits.maxBatchPayloadBytes / 3) * 4 + 4 * MIB;
}

export interface HttpApiOptions {
  readonly caller: LocalCaller;
  readonly limits: Pick<Limits, 'maxPayloadBytes' | 'maxBatchPayloadBytes'> & { maxHttpBodyBytes: number };
  /** Maps an error to its gRPC status (context.ts `grpcError`: the one mapping). */
  readonly toGrpc: (err: unknown) => grpc.ServerErrorResponse;
  /**
   * Origins besides the node's own whose browser pages may call the API
   * (`http.allowedOrigins`: `https://console.example.com`; `*` = any).
   */
  readonly allowedOrigins?: readonly string[];
  /** Why the API is closed (`httpApiClosedReason`): every request is 403 with it. */
  readonly closedReason?: string;
  /** Counts each answered request (`fermata_http_api_requests_total`). */
  readonly onAnswered?: (route: ApiRoute, status: number) => void;
}

/** What a request asked for, as the metrics count it. */
export type ApiRoute = 'publish' | 'batch' | 'cancel' | 'reschedule' | 'rpc' | 'other';

function routeOf(req: IncomingMessage): ApiRoute {
  const path = pathOf(req);
  if (path.startsWith('/v1/rpc/')) return 'rpc';
  if (/^\/v1\/topics\/[^/]+\/messages$/.test(path)) return 'publish';
  if (path.endsWith('/messages:batch')) return 'batch';
  if (path.endsWith('/reschedule')) return 'reschedule';
  return /^\/v1\/topics\/[^/]+\/(messages|keys)\/[^/]+$/.test(path) ? 'cancel' : 'other';
}

interface Call {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  /** Sets how errors name fields, once the request's form is known. */
  rename: FieldRenamer;
  metadata: grpc.Metadata;
  readonly origin: { peer: string; signal: AbortSignal };
}

const TOPIC_PATH = /^\/v1\/topics\/([^/]+)\/(.+)$/;

/** The media type of a JSON body; an empty body needs none. */
function expectJson(req: IncomingMessage): void {
  const length = req.headers['content-length'];
  const body = (length !== undefined && length !== '0') || req.headers['transfer-encoding'] !== undefined;
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (body && type !== 'application/json') {
    throw new ValidationError(
      'Content-Type',
      `must be application/json for a JSON body, got ${type === '' ? 'none' : JSON.stringify(type)} (curl: -H 'Content-Type: application/json')`,
    );
  }
}

/**
 * Refuses a request a browser sends from a page of another origin
 * (cross-site request forgery: a page may POST a form or a body-less request
 * to any address, without asking first): an `Origin` that is not this node's
 * own host:port (`Host`) nor allowed, or, without `Origin`, a
 * `Sec-Fetch-Site` other than `same-origin` or `none`. Clients other than
 * browsers send neither.
 */
function checkOrigin(req: IncomingMessage, allowed: readonly string[]): void {
  if (allowed.includes('*')) return;
  const origin = req.headers.origin;
  if (origin !== undefined) {
    if (allowed.includes(origin.toLowerCase()) || hostOf(origin) === req.headers.host?.toLowerCase()) return;
    throw refusal(
      grpc.status.PERMISSION_DENIED,
      'Origin',
      `${JSON.stringify(origin)} is not this node's origin (${req.headers.host ?? 'no Host'}): pages of another origin may call the API only when listed in http.allowedOrigins`,
    );
  }
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') {
    throw refusal(
      grpc.status.PERMISSION_DENIED,
      'Sec-Fetch-Site',
      `${JSON.stringify(site)}: a page of another origin may not call the API (a page's Origin must be listed in http.allowedOrigins)`,
    );
  }
}

/** `host:port` of an origin (`http://a:7402` -> `a:7402`), '' when it is not a URL (`null`). */
function hostOf(origin: string): string {
  try {
    return new URL(origin).host;
  } catch {
    return '';
  }
}

function expectMethod(req: IncomingMessage, method: 'POST' | 'DELETE'): void {
  if (req.method !== method) throw new RouteError(405, `${pathOf(req)} takes ${method}`, method);
}

export function createHttpApi(options: HttpApiOptions): HttpRoute {
  const { caller, limits } = options;
  const jsonBound = maxJsonBodyBytes(limits);
  // Below one request's bound, a request that fits its bound would be 429 forever.
  if (limits.maxHttpBodyBytes < jsonBound) {
    throw new ConfigError([
      `limits.maxHttpBodyBytes (${limits.maxHttpBodyBytes}) must be at least maxJsonBodyBytes (${jsonBound}: limits.maxBatchPayloadBytes in base64 plus 4 MiB), the largest body of one request`,
    ]);
  }
  const budget = new BodyBudget(limits.maxHttpBodyBytes);
  const allowedOrigins = options.allowedOrigins ?? [];

  async function rpc(c: Call, service: string, method: string): Promise<void> {
    expectMethod(c.req, 'POST');
    const name = service.startsWith('fermata.v1.') ? service.slice('fermata.v1.'.length) : service;
    const methods = (SERVICES as readonly string[]).includes(name) ? serviceMethods(name) : undefined;
    if (!methods) {
      throw new RouteError(404, `no service "${service}"${suggestNames(name, SERVICES, 'services')}`);
    }
    const m = methods.get(method);
    if (!m || !caller.has(m.path)) {
      throw new RouteError(
        404,
        `no method "${method}" in ${name}${suggestNames(method, [...methods.keys()], 'methods')}`,
      );
    }
    if (m.requestStream || m.responseStream) {
      throw refusal(
        grpc.status.UNIMPLEMENTED,
        'method',
        `${name}/${method} is a streaming method: call it over gRPC (the HTTP API carries unary calls)`,
      );
    }
    caller.admit(m.path, c.metadata, c.origin);
    if (c.req.headers['idempotency-key'] !== undefined) {
      // Dropped in silence, a retry would publish twice.
      throw new ValidationError(
        IDEMPOTENCY_HEADER,
        "is not read by /v1/rpc: set the request's idempotencyKey field",
      );
    }
    expectJson(c.req);
    const body = await readBody(c.req, c.res, budget, jsonBound, 'maxJsonBodyBytes');
    const json = body.length === 0 ? {} : parseJson(body);
    let request: Uint8Array;
    try {
      request = jsonToMessageBytes(m.requestType, json);
    } catch (err) {
      if (err instanceof JsonFieldError) throw new ValidationError(err.field || 'body', err.reason);
      throw err;
    }
    const answer = await caller.call(m.path, request, c.metadata, c.origin);
    sendJson(c.res, 200, messageBytesToJson(m.responseType, answer));
  }

  async function publish(c: Call, topic: string, batch: boolean): Promise<void> {
    expectMethod(c.req, 'POST');
    caller.admit(PUBLISH, c.metadata, c.origin);
    let request: pb.PublishRequest.$Properties;
    if (batch) {
      expectJson(c.req);
      const body = parseJson(await readBody(c.req, c.res, budget, jsonBound, 'maxJsonBodyBytes'));
      const form = publishFromBatch(topic, body, c.req.headersDistinct);
      c.rename = form.rename;
      request = form.request;
    } else {
      const form = publishFromHeaders(topic, c.req.headers, c.req.headersDistinct);
      c.rename = form.rename;
      request = form.request(await readBody(c.req, c.res, budget, limits.maxPayloadBytes, 'maxPayloadBytes'));
    }
    const answer = await caller.call(
      PUBLISH,
      v1.PublishRequest.encode(request).finish(),
      c.metadata,
      c.origin,
    );
    const results = publishedJson(v1.PublishResponse.decode(answer));
    sendJson(c.res, 200, batch ? { results } : results[0]);
  }

  async function settle(c: Call, topic: string, kind: 'messages' | 'keys', target: string, rest: string) {
    const reschedule = rest === '/reschedule';
    if (rest !== '' && !reschedule) throw new RouteError(404, `no such path ${pathOf(c.req)}`);
    expectMethod(c.req, reschedule ? 'POST' : 'DELETE');
    const path = `/fermata.v1.Broker/${reschedule ? 'Reschedule' : 'Cancel'}`;
    caller.admit(path, c.metadata, c.origin);
    refuseBody(c.req);
    const named = targetOf(kind, target);
    const label = 'key' in named ? `the message with key "${named.key}"` : `message ${target}`;
    const field = 'key' in named ? 'key' : 'id';
    const common = { topic, ...named };
    if (reschedule)
      c.rename = (f) =>
        ({ delay_ms: MESSAGE_HEADERS.delay, deliver_at_ms: MESSAGE_HEADERS.deliverAt })[f] ?? f;
    const request = reschedule
      ? v1.RescheduleRequest.encode({ ...common, ...rescheduleFromHeaders(c.req.headersDistinct) }).finish()
      : v1.CancelRequest.encode(common).finish();
    const answer = await caller.call(path, request, c.metadata, c.origin);
    const outcome = reschedule
      ? outcomeJson('reschedule', v1.RescheduleResponse.decode(answer), label, field)
      : outcomeJson('cancel', v1.CancelResponse.decode(answer), label, field);
    sendJson(c.res, outcome.status, outcome.body);
  }

  async function route(c: Call): Promise<void> {
    if (options.closedReason !== undefined)
      throw new CallStatusError(grpc.status.PERMISSION_DENIED, options.closedReason);
    checkOrigin(c.req, allowedOrigins);
    c.metadata = callMetadata(c.req);
    const path = pathOf(c.req);
    const rpcPath = /^\/v1\/rpc\/([^/]+)\/([^/]+)$/.exec(path);
    if (rpcPath) return rpc(c, rpcPath[1] as string, rpcPath[2] as string);
    const topicPath = TOPIC_PATH.exec(path);
    if (topicPath) {
      const topic = pathSegment(topicPath[1] as string, 'topic');
      const rest = topicPath[2] as string;
      if (rest === 'messages' || rest === 'messages:batch') return publish(c, topic, rest !== 'messages');
      const one = /^(messages|keys)\/([^/]+)(\/[^/]+)?$/.exec(rest);
      if (one) return settle(c, topic, one[1] as 'messages' | 'keys', one[2] as string, one[3] ?? '');
    }
    throw new RouteError(404, `no such path ${path}`);
  }

  return {
    prefix: API_PREFIX,
    handle: async (req, res) => {
      const abort = new AbortController();
      const onAnswered = options.onAnswered;
      if (onAnswered) res.once('finish', () => onAnswered(routeOf(req), res.statusCode));
      res.once('close', () => {
        if (!res.writableFinished) abort.abort();
      });
      const c: Call = {
        req,
        res,
        rename: (f) => f,
        metadata: new grpc.Metadata(),
        origin: { peer: `http:${req.socket.remoteAddress}:${req.socket.remotePort}`, signal: abort.signal },
      };
      try {
        await route(c);
      } catch (err) {
        if (res.headersSent) {
          res.destroy();
          return;
        }
        await drainUnread(req);
        closeUnread(req, res);
        if (err instanceof RouteError) {
          if (err.allow) res.setHeader('allow', err.allow);
          sendJson(res, err.status, {
            code: err.status === 404 ? 'NOT_FOUND' : 'UNIMPLEMENTED',
            field: err.status === 404 ? 'path' : 'method',
            message: err.message,
          });
          return;
        }
        sendError(res, apiStatusOf(err, options.toGrpc), c.rename);
      }
    },
  };
}
