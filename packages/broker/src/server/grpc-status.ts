/**
 * The one place where errors become gRPC statuses. Typed errors keep their
 * meaning (field, limit, leader); anything else is INTERNAL with a reference
 * id and no stack or message from inside the server.
 */
import { randomBytes } from 'node:crypto';
import {
  ConfChangeInProgressError,
  DiskFullError,
  InvalidConfChangeError,
  NodeClosedError,
  NodeTimeoutError,
  ProposalDroppedError,
} from '@fermata/raft';
import * as grpc from '@grpc/grpc-js';
import {
  AlreadyExistsError,
  ConflictError,
  LeaderNotReadyError,
  LimitError,
  NotFoundError,
  ValidationError,
} from '../state/model/errors.js';
import { RefusedByConfigError, UnavailableError } from './errors.js';

/** Trailing metadata keys the SDK reads. */
export const LEADER_METADATA_KEY = 'fermata-leader';
export const LEADER_ID_METADATA_KEY = 'fermata-leader-id';
export const FIELD_METADATA_KEY = 'fermata-field';
export const LIMIT_METADATA_KEY = 'fermata-limit';

/**
 * Limits that bound a value rather than a resource: exceeding one is a bad
 * argument (a delay past the maximum, a name too long), not exhaustion.
 */
export const VALUE_BOUND_LIMITS: ReadonlySet<string> = new Set([
  'maxDelayMs',
  'maxTtlMs',
  'minLeaseMs',
  'maxLeaseMs',
  'maxLeaseAheadMs',
  'maxMaxAttempts',
  'maxTimeBucketMs',
  'maxDedupWindowMs',
  'maxTopicNameBytes',
  'maxGroupNameBytes',
  'maxListLimit',
  'maxDeliveriesPerSecond',
  'maxBurst',
  'maxMaxInFlight',
]);

/** A status with its parts kept apart, for unary errors, stream ends and in-stream `ErrorStatus`. */
export interface MappedStatus {
  readonly code: grpc.status;
  readonly message: string;
  /** The violated field, e.g. `messages[3].topic`. */
  readonly field?: string;
  /** The named limit, e.g. `maxPayloadBytes`. */
  readonly limit?: string;
  readonly leaderId?: string;
  /** The leader's client address. */
  readonly leaderAddress?: string;
}

export interface StatusOptions {
  /** Client address of a node id (the leader's), when the error does not carry one. */
  leaderAddress?: (leaderId: string) => string | undefined;
  /** Called for an error that becomes INTERNAL, with the reference put in the message: log it there. */
  onInternal?: (err: unknown, ref: string) => void;
}

interface NotLeaderLike {
  name: 'NotLeaderError';
  leader: string;
  leaderAddress?: string;
}

function isNotLeader(err: unknown): err is NotLeaderLike {
  return (
    err instanceof Error &&
    err.name === 'NotLeaderError' &&
    typeof (err as { leader?: unknown }).leader === 'string'
  );
}

function isStatusLike(err: unknown): err is { code: grpc.status; details: string; metadata?: grpc.Metadata } {
  const e = err as { code?: unknown; details?: unknown };
  return (
    err !== null &&
    typeof err === 'object' &&
    typeof e.code === 'number' &&
    Number.isInteger(e.code) &&
    e.code > 0 &&
    e.code <= 16 &&
    typeof e.details === 'string'
  );
}

function limitStatus(message: string, limit: string, field: string | undefined): MappedStatus {
  const code = VALUE_BOUND_LIMITS.has(limit) ? grpc.status.INVALID_ARGUMENT : grpc.status.RESOURCE_EXHAUSTED;
  return field === undefined ? { code, message, limit } : { code, message, field, limit };
}

const named = (err: unknown, name: string): err is Error & Record<string, unknown> =>
  err instanceof Error && err.name === name;

export function classifyError(err: unknown, options: StatusOptions = {}): MappedStatus {
  if (err instanceof ValidationError) {
    return { code: grpc.status.INVALID_ARGUMENT, message: err.message, field: err.field };
  }
  if (err instanceof LimitError) return limitStatus(err.message, err.limit, err.field);
  if (err instanceof NotFoundError) return { code: grpc.status.NOT_FOUND, message: err.message };
  if (err instanceof AlreadyExistsError) return { code: grpc.status.ALREADY_EXISTS, message: err.message };
  if (err instanceof ConflictError) {
    return { code: grpc.status.FAILED_PRECONDITION, message: err.message };
  }
  if (err instanceof LeaderNotReadyError) return { code: grpc.status.UNAVAILABLE, message: err.message };
  // A proposal Raft dropped (leadership lost, timeout, overwritten) or a node closing is
  // transient, not internal: UNAVAILABLE, saying whether the command may still have applied.
  if (err instanceof ProposalDroppedError) {
    return {
      code: grpc.status.UNAVAILABLE,
      message: err.definite
        ? `not applied (${err.reason}); retry`
        : `outcome unknown (${err.reason}): it may have been applied; retry (a message key deduplicates a retried publish)`,
    };
  }
  if (err instanceof NodeClosedError) {
    return { code: grpc.status.UNAVAILABLE, message: 'node is shutting down; retry on another node' };
  }
  if (err instanceof NodeTimeoutError) return { code: grpc.status.DEADLINE_EXCEEDED, message: err.message };
  if (err instanceof UnavailableError) return { code: grpc.status.UNAVAILABLE, message: err.message };
  if (err instanceof RefusedByConfigError)
    return { code: grpc.status.FAILED_PRECONDITION, message: err.message };
  // Retryable: the node takes writes again by itself once its disk has room (operations.md, "A full disk").
  if (err instanceof DiskFullError) {
    return { code: grpc.status.RESOURCE_EXHAUSTED, message: err.message, limit: 'disk' };
  }
  if (isNotLeader(err)) {
    if (err.leader === '') {
      return {
        code: grpc.status.UNAVAILABLE,
        message: 'not leader; no leader is known (election in progress), retry',
      };
    }
    const address = err.leaderAddress || options.leaderAddress?.(err.leader) || '';
    return address === ''
      ? {
          code: grpc.status.FAILED_PRECONDITION,
          message: `not leader; leader is ${err.leader} (address unknown)`,
          leaderId: err.leader,
        }
      : {
          code: grpc.status.FAILED_PRECONDITION,
          message: `not leader; leader is ${err.leader} at ${address}`,
          leaderId: err.leader,
          leaderAddress: address,
        };
  }
  // A limit error from another copy of the class (another module instance) that carries a `limit` name.
  if (named(err, 'LimitError') && typeof err['limit'] === 'string') {
    const e = err as unknown as { limit: string; field?: unknown };
    return limitStatus(err.message, e.limit, typeof e.field === 'string' ? e.field : undefined);
  }
  if (err instanceof ConfChangeInProgressError || err instanceof InvalidConfChangeError) {
    return { code: grpc.status.FAILED_PRECONDITION, message: err.message };
  }
  // A status from elsewhere (a call to another node, grpc-js itself) passes through unchanged.
  if (isStatusLike(err)) return { code: err.code, message: err.details };
  const ref = randomBytes(4).toString('hex');
  options.onInternal?.(err, ref);
  return { code: grpc.status.INTERNAL, message: `internal error (ref ${ref})` };
}

/**
 * The status to hand grpc-js: `callback(toGrpcStatus(err))` for unary calls,
 * `call.destroy(toGrpcStatus(err))` / `call.emit('error', ...)` for streams.
 * Carries trailing metadata `fermata-leader: <client address>` (and
 * `fermata-leader-id`) on not-leader, `fermata-field` / `fermata-limit` when known.
 */
export function toGrpcStatus(err: unknown, options: StatusOptions = {}): grpc.ServerErrorResponse {
  return statusToError(classifyError(err, options));
}

export function statusToError(s: MappedStatus): grpc.ServerErrorResponse {
  const metadata = new grpc.Metadata();
  if (s.leaderAddress !== undefined) metadata.set(LEADER_METADATA_KEY, s.leaderAddress);
  if (s.leaderId !== undefined) metadata.set(LEADER_ID_METADATA_KEY, s.leaderId);
  if (s.field !== undefined) metadata.set(FIELD_METADATA_KEY, s.field);
  if (s.limit !== undefined) metadata.set(LIMIT_METADATA_KEY, s.limit);
  const error = new Error(s.message) as grpc.ServerErrorResponse;
  error.code = s.code;
  error.details = s.message;
  error.metadata = metadata;
  // Never sent to clients, but keep it out of anything that serializes the object.
  error.stack = `Error: ${s.message}`;
  return error;
}

/** The same mapping as a `fermata.v1.ErrorStatus` (per-request error inside a stream). */
export function toErrorStatus(
  err: unknown,
  options: StatusOptions = {},
): { code: number; message: string; field: string; leaderAddress: string } {
  const s = classifyError(err, options);
  return {
    code: s.code,
    message: s.message,
    field: s.field ?? s.limit ?? '',
    leaderAddress: s.leaderAddress ?? '',
  };
}
