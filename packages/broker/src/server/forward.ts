/**
 * A follower forwards what a client sends it to the leader, unary calls and
 * streams alike, so a client that reaches one node (through a port-forward, a
 * load balancer, an ingress) works. The bytes are passed on as they came and
 * the leader's answers come back as the leader wrote them (statuses and their
 * metadata included): the follower decodes nothing twice.
 *
 * Not forwarded: calls marked `fermata-direct` (the SDK's direct path asks to
 * be redirected, so it learns the leader and goes there itself), calls a node
 * already forwarded (`fermata-forwarded-by`: no loops between two nodes that
 * disagree), calls while no leader is known, GetClusterInfo (any node
 * answers) and requests that do not decode. Those reach the node's own
 * handlers, which answer as before (NotLeader with the leader's address).
 */
import { readFileSync } from 'node:fs';
import * as grpc from '@grpc/grpc-js';
import { LimitError } from '../state/model/errors.js';
import type { FermataConfig } from './config.js';
import type { ServerContext } from './context.js';
import { UndecodableRequest } from './decode-guard.js';

/** Metadata key a client sets to be redirected (NotLeader) rather than forwarded. */
export const DIRECT_METADATA_KEY = 'fermata-direct';
/** Metadata key a forwarding node adds (its id): the receiver answers itself. */
export const FORWARDED_BY_METADATA_KEY = 'fermata-forwarded-by';
/** Methods every node answers itself. */
const LOCAL_METHODS = new Set(['/fermata.v1.Cluster/GetClusterInfo']);
/** Streams one forwarding connection to the leader carries (below the leader's limits.maxStreamsPerConnection, 100). */
export const MAX_STREAMS_PER_FORWARD_CONNECTION = 80;
/** Forwarding connections one node opens to the leader (`maxForwardConnections`). */
export const MAX_FORWARD_CONNECTIONS = 64;

/** The raw bytes each decoded request came from (the forwarded call sends them as they were). */
const RAW = new WeakMap<object, Buffer>();

interface MethodDefinition {
  readonly path: string;
  readonly requestStream: boolean;
  readonly responseStream: boolean;
  readonly requestDeserialize: (bytes: Buffer) => unknown;
  readonly responseSerialize: (value: never) => Buffer;
}

const identity = (b: Buffer): Buffer => b;

/** One connection to the leader's client port, and how many forwarded streams it carries. */
interface Link {
  readonly client: grpc.Client;
  streams: number;
}

/** Connections to the leader's client port, opened as forwarded calls need them. */
export class Forwarder {
  private address: string | undefined;
  private links: Link[] = [];
  private readonly credentials: grpc.ChannelCredentials;

  constructor(
    private readonly ctx: ServerContext,
    config: FermataConfig,
  ) {
    this.credentials = forwardCredentials(config);
  }

  /** The leader's client address to forward a call with `metadata` to, or undefined to answer it here. */
  target(path: string, metadata: grpc.Metadata): string | undefined {
    const { ctx } = this;
    if (ctx.stopping || LOCAL_METHODS.has(path) || ctx.node.isLeader()) return undefined;
    if (metadata.get(DIRECT_METADATA_KEY).length > 0 || metadata.get(FORWARDED_BY_METADATA_KEY).length > 0)
      return undefined;
    const s = ctx.node.status();
    if (!s.leader || s.leader === ctx.node.id || !s.leaderAddress) return undefined;
    return s.leaderAddress;
  }

  /** A connection to `address` with room for one more stream (`stream`), counted until `done()`. */
  link(address: string, stream: boolean): { client: grpc.Client; done: () => void } {
    if (address !== this.address) this.closeLinks(address);
    let link = this.links.find((l) => !stream || l.streams < MAX_STREAMS_PER_FORWARD_CONNECTION);
    if (!link) {
      if (this.links.length >= MAX_FORWARD_CONNECTIONS) {
        throw new LimitError(
          'maxForwardConnections',
          MAX_FORWARD_CONNECTIONS,
          this.links.length + 1,
          'forwarded streams',
        );
      }
      link = {
        client: new grpc.Client(address, this.credentials, {
          // Each link its own HTTP/2 connection: the leader bounds the streams of one.
          'grpc.use_local_subchannel_pool': 1,
        }),
        streams: 0,
      };
      this.links.push(link);
    }
    const l = link;
    if (stream) l.streams++;
    let counted = stream;
    return {
      client: l.client,
      done: () => {
        if (counted) l.streams--;
        counted = false;
      },
    };
  }

  private closeLinks(address: string): void {
    for (const l of this.links) l.client.close();
    this.links = [];
    this.address = address;
  }

  close(): void {
    for (const l of this.links) l.client.close();
    this.links = [];
  }
}

/** How a forwarding node reaches the leader's client port: as the client port itself is served. */
function forwardCredentials(config: FermataConfig): grpc.ChannelCredentials {
  const tls = config.client.tls;
  if (!tls.certFile) return grpc.credentials.createInsecure();
  const ca = tls.caFile ? readFileSync(tls.caFile) : null;
  // With mutual TLS the node presents its own certificate as a client's.
  const key = tls.requireClientCert ? readFileSync(tls.keyFile) : null;
  const cert = tls.requireClientCert ? readFileSync(tls.certFile) : null;
  return grpc.credentials.createSsl(ca, key, cert);
}

/** The metadata a forwarded call carries: the client's, and who forwarded it. */
function forwardedMetadata(ctx: ServerContext, incoming: grpc.Metadata): grpc.Metadata {
  const md = incoming.clone();
  md.remove('user-agent');
  md.set(FORWARDED_BY_METADATA_KEY, ctx.node.id);
  return md;
}

function deadlineOf(call: { getDeadline(): grpc.Deadline }): grpc.Deadline {
  const d = call.getDeadline();
  return d instanceof Date || (typeof d === 'number' && Number.isFinite(d)) ? d : Number.POSITIVE_INFINITY;
}

/** A gRPC status to end the client's call with, from what the leader's call failed with. */
function statusOf(err: unknown): Partial<grpc.StatusObject> {
  const e = err as Partial<grpc.ServiceError>;
  return {
    code: e.code ?? grpc.status.UNAVAILABLE,
    details: e.details ?? (err instanceof Error ? err.message : String(err)),
    metadata: e.metadata ?? new grpc.Metadata(),
  };
}

type Handlers = Record<string, grpc.UntypedHandleCall>;

/**
 * A service definition and its handlers that forward to the leader when this
 * node does not lead (see the module comment). The definition keeps each
 * request's raw bytes and lets the leader's raw answers through.
 */
export function forwarding<D extends { readonly [method: string]: MethodDefinition }, H>(
  ctx: ServerContext,
  forwarder: Forwarder,
  definition: D,
  handlers: H,
): [D, H] {
  const def: Record<string, MethodDefinition> = {};
  const out: Handlers = { ...(handlers as Handlers) };
  for (const [name, m] of Object.entries(definition)) {
    def[name] = {
      ...m,
      requestDeserialize: (bytes: Buffer) => {
        const v = m.requestDeserialize(bytes);
        if (typeof v === 'object' && v !== null && !(v instanceof UndecodableRequest)) RAW.set(v, bytes);
        return v;
      },
      // A forwarded answer is the leader's bytes already.
      responseSerialize: ((v: unknown) =>
        Buffer.isBuffer(v) ? v : m.responseSerialize(v as never)) as never,
    };
    const local = (handlers as Handlers)[name];
    if (!local || LOCAL_METHODS.has(m.path)) continue;
    if (!m.requestStream && !m.responseStream) {
      const own = local as grpc.handleUnaryCall<unknown, unknown>;
      out[name] = ((call: grpc.ServerUnaryCall<unknown, unknown>, callback: grpc.sendUnaryData<unknown>) => {
        const to = forwarder.target(m.path, call.metadata);
        const raw =
          typeof call.request === 'object' && call.request !== null ? RAW.get(call.request) : undefined;
        if (to === undefined || raw === undefined) return own(call, callback);
        forwardUnary(ctx, forwarder, to, m.path, raw, call, callback);
      }) as grpc.UntypedHandleCall;
    } else if (m.requestStream && m.responseStream) {
      const own = local as grpc.handleBidiStreamingCall<unknown, unknown>;
      out[name] = ((call: grpc.ServerDuplexStream<unknown, unknown>) => {
        const to = forwarder.target(m.path, call.metadata);
        if (to === undefined) return own(call);
        forwardBidi(ctx, forwarder, to, m.path, call);
      }) as grpc.UntypedHandleCall;
    }
  }
  return [def as unknown as D, out as H];
}

function forwardUnary(
  ctx: ServerContext,
  forwarder: Forwarder,
  to: string,
  path: string,
  raw: Buffer,
  call: grpc.ServerUnaryCall<unknown, unknown>,
  callback: grpc.sendUnaryData<unknown>,
): void {
  let link: { client: grpc.Client; done: () => void };
  try {
    link = forwarder.link(to, false);
  } catch (err) {
    callback(statusOf(err) as grpc.ServerErrorResponse);
    return;
  }
  ctx.metrics.forwardedCalls.inc({ kind: 'unary' });
  const upstream = link.client.makeUnaryRequest(
    path,
    identity,
    identity,
    raw,
    forwardedMetadata(ctx, call.metadata),
    { deadline: deadlineOf(call) },
    (err, res) => {
      link.done();
      if (err) callback(statusOf(err) as grpc.ServerErrorResponse);
      else callback(null, res);
    },
  );
  call.on('cancelled', () => upstream.cancel());
}

function forwardBidi(
  ctx: ServerContext,
  forwarder: Forwarder,
  to: string,
  path: string,
  call: grpc.ServerDuplexStream<unknown, unknown>,
): void {
  let link: { client: grpc.Client; done: () => void };
  try {
    link = forwarder.link(to, true);
  } catch (err) {
    call.emit('error', statusOf(err));
    return;
  }
  ctx.metrics.forwardedCalls.inc({ kind: 'stream' });
  const upstream = link.client.makeBidiStreamRequest(
    path,
    identity,
    identity,
    forwardedMetadata(ctx, call.metadata),
    {
      deadline: deadlineOf(call),
    },
  );
  let finished = false;
  const finish = (): void => {
    if (finished) return;
    finished = true;
    link.done();
  };
  // Client -> leader, as the bytes came; HTTP/2 flow control holds each side when the other lags.
  call.on('data', (req: unknown) => {
    const raw = typeof req === 'object' && req !== null ? RAW.get(req) : undefined;
    if (raw === undefined) {
      // Undecodable: the leader would refuse it too; end here with the reason.
      finish();
      upstream.cancel();
      call.emit('error', { code: grpc.status.INVALID_ARGUMENT, details: 'request: could not be decoded' });
      return;
    }
    if (!upstream.write(raw)) call.pause();
  });
  upstream.on('drain', () => call.resume());
  call.on('end', () => upstream.end());
  // Leader -> client.
  upstream.on('data', (res: Buffer) => {
    if (call.writableEnded || call.destroyed) return;
    if (!call.write(res)) upstream.pause();
  });
  call.on('drain', () => upstream.resume());
  upstream.on('error', (err) => {
    finish();
    if (!call.writableEnded && !call.destroyed) call.emit('error', statusOf(err));
  });
  upstream.on('status', (s: grpc.StatusObject) => {
    finish();
    if (s.code === grpc.status.OK && !call.writableEnded) call.end(s.metadata);
  });
  const cancel = (): void => {
    finish();
    upstream.cancel();
  };
  call.on('cancelled', cancel);
  call.on('close', cancel);
}
