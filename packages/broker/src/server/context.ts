import { NotLeaderError, type RaftNode } from '@fermata/raft';
import type * as grpc from '@grpc/grpc-js';
import type { Logger } from 'pino';
import type { Dispatcher } from '../leader/dispatcher/dispatcher.js';
import type { ScheduleMaterializer } from '../leader/materializer.js';
import type { Proposer } from '../leader/proposer.js';
import type { Purger } from '../leader/purger.js';
import type { EndpointPolicy } from '../leader/push/endpoint-policy.js';
import type { PushFilesPolicy } from '../leader/push/files-policy.js';
import type { Pusher } from '../leader/push/pusher.js';
import { ValidationError } from '../state/model/errors.js';
import type { BrokerReader } from '../state/read/reader.js';
import type { BrokerStateMachine } from '../state/state-machine.js';
import { isAuthFailure, type TokenTable } from './auth.js';
import type { FermataConfig } from './config.js';
import type { ConsumeBuffer } from './consume-buffer.js';
import { checkDecoded } from './decode-guard.js';
import { toErrorStatus, toGrpcStatus } from './grpc-status.js';
import type { BrokerMetrics } from './metrics.js';
import type { TokenLimits } from './token-limits.js';

/** What every RPC handler needs: the node, the state, and the leader-only parts. */
export interface ServerContext {
  readonly config: FermataConfig;
  readonly node: RaftNode;
  readonly sm: BrokerStateMachine;
  readonly reader: BrokerReader;
  readonly proposer: Proposer;
  readonly dispatcher: Dispatcher;
  /** The leader's schedule materialiser (its metrics; started and stopped with leadership). */
  readonly materializer?: ScheduleMaterializer;
  /** The leader's purger: removes deleted topics' and groups' records in steps. */
  readonly purger: Purger;
  /** What the node holds for all consume streams together (absent: no bound, a simulation). */
  readonly consumeBuffer?: ConsumeBuffer;
  /** Per-token limits (absent without tokens). */
  readonly tokenLimits?: TokenLimits;
  readonly metrics: BrokerMetrics;
  readonly log: Logger;
  /** True once shutdown began: new calls are refused. */
  stopping: boolean;
  /** The tokens in force (auth.tokensFile); absent or empty = authentication off. */
  readonly tokens?: () => TokenTable;
  /** Where push groups may send requests (push.allowedEndpoints). */
  readonly pushPolicy: EndpointPolicy;
  /** Which files push groups may name (push.filesDir). */
  readonly pushFiles: PushFilesPolicy;
  /** The leader's pusher (push groups' requests); set once the context is built. */
  pusher?: Pusher;
}

/**
 * Whether the caller of a call with `metadata` may see `topic` listed: with
 * authentication on, only a topic its token holds `admin` or `read` on.
 */
export function topicFilter(ctx: ServerContext, metadata: grpc.Metadata): (topic: string) => boolean {
  const table = ctx.tokens?.();
  if (!table?.enabled) return () => true;
  const who = table.authenticate(metadata);
  // The interceptor let the call in, so the token was valid a moment ago; revoked since: nothing.
  if (isAuthFailure(who)) return () => false;
  return (topic) => who.can('admin', topic) || who.can('read', topic);
}

/**
 * Whether the caller holds `admin` on `topic` (everyone, with authentication
 * off): what a push group's header values need to be shown, since they may
 * carry the endpoint's credentials.
 */
export function adminOf(ctx: ServerContext, metadata: grpc.Metadata): (topic: string) => boolean {
  const table = ctx.tokens?.();
  if (!table?.enabled) return () => true;
  const who = table.authenticate(metadata);
  if (isAuthFailure(who)) return () => false;
  return (topic) => who.can('admin', topic);
}

/** The name of the token that made a call ('' with authentication off, or when it is no longer known). */
export function callerName(ctx: ServerContext, metadata: grpc.Metadata): string {
  const table = ctx.tokens?.();
  if (!table?.enabled) return '';
  const who = table.authenticate(metadata);
  return isAuthFailure(who) ? '' : who.name;
}

/** This node does not lead: `leader` ('' = unknown) at its client `address`. */
export function notLeaderError(leader: string, address: string): NotLeaderError {
  return new NotLeaderError(
    leader,
    leader ? `not leader; leader is ${leader} at ${address}` : 'not leader; no leader is known',
    { client: address, peer: '' },
  );
}

/** Throws NotLeaderError (-> FAILED_PRECONDITION with the leader's address) unless this node leads. */
export function requireLeader(ctx: ServerContext): void {
  if (ctx.node.isLeader() && !ctx.stopping) return;
  const s = ctx.node.status();
  const leader = s.leader === ctx.node.id ? '' : s.leader;
  throw notLeaderError(leader, leader ? s.leaderAddress : '');
}

/**
 * A linearizable read: on the leader, after a ReadIndex round confirmed that
 * nothing newer was committed elsewhere.
 */
export async function linearizable(ctx: ServerContext): Promise<void> {
  requireLeader(ctx);
  await ctx.node.readIndex();
}

export function grpcError(ctx: ServerContext, err: unknown): grpc.ServerErrorResponse {
  return toGrpcStatus(err, {
    leaderAddress: (id) => ctx.node.memberAddresses(id)?.clientAddress,
    onInternal: (cause, ref) => ctx.log.error({ err: cause, ref }, 'internal error'),
  });
}

/** The same mapping as an in-stream `ErrorStatus` (a refused batch or settle inside a stream). */
export function errorStatus(ctx: ServerContext, err: unknown): ReturnType<typeof toErrorStatus> {
  return toErrorStatus(err, {
    leaderAddress: (id) => ctx.node.memberAddresses(id)?.clientAddress,
    onInternal: (cause, ref) => ctx.log.error({ err: cause, ref }, 'internal error'),
  });
}

/** Adapts an async function to a grpc-js unary handler, mapping errors in one place. */
export function unary<Req, Res>(
  ctx: ServerContext,
  fn: (request: Req, call: grpc.ServerUnaryCall<Req, Res>) => Promise<Res>,
): grpc.handleUnaryCall<Req, Res> {
  return (call, callback) => {
    try {
      checkDecoded(call.request);
    } catch (err) {
      callback(grpcError(ctx, err));
      return;
    }
    fn(call.request, call).then(
      (res) => callback(null, res),
      (err: unknown) => callback(grpcError(ctx, err)),
    );
  };
}

/** Runs `fn`, turning a RangeError from a 64-bit conversion into a ValidationError naming the field. */
export function field<T>(prefix: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof RangeError) {
      const name = /^(\S+) is out of range/.exec(err.message)?.[1] ?? 'value';
      throw new ValidationError(`${prefix}${name}`, err.message);
    }
    throw err;
  }
}
