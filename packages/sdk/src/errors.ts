import { type Metadata, status } from '@grpc/grpc-js';

/** Trailing metadata key in which a follower names the leader's client address. */
export const LEADER_METADATA_KEY = 'fermata-leader';
/** Trailing metadata key in which the server names the offending field. */
export const FIELD_METADATA_KEY = 'fermata-field';
/** Trailing metadata key in which the server names the limit that was hit. */
export const LIMIT_METADATA_KEY = 'fermata-limit';

/** gRPC status codes (the numbers in {@link FermataError.code}). */
export const StatusCode = status;

/**
 * Base class of every error the SDK throws. `code` is the gRPC status code
 * ({@link StatusCode}); `details` is the server's message text.
 */
export class FermataError extends Error {
  /** The gRPC status code ({@link StatusCode}). */
  readonly code: number;
  /** The server's (or the SDK's) message text, without decoration. */
  readonly details: string;

  constructor(code: number, details: string, options?: { cause?: unknown }) {
    super(`${status[code] ?? `code ${code}`}: ${details}`, options);
    this.name = new.target.name;
    this.code = code;
    this.details = details;
  }
}

/**
 * The node that answered is not the leader. The SDK retries these itself;
 * you see one only when the cluster has no reachable leader until the deadline.
 */
export class NotLeaderError extends FermataError {
  /** The leader's client address (host:port) as the node knew it, if it knew one. */
  readonly leaderAddress: string | undefined;

  constructor(
    code: number,
    details: string,
    leaderAddress: string | undefined,
    options?: { cause?: unknown },
  ) {
    super(code, details, options);
    this.leaderAddress = leaderAddress;
  }
}

/** No node could be reached, or the cluster has no leader (gRPC `UNAVAILABLE`). Retried by the SDK until the deadline. */
export class UnavailableError extends FermataError {
  constructor(details: string, options?: { cause?: unknown }) {
    super(status.UNAVAILABLE, details, options);
  }
}

/** One endpoint the client tried, and why it is no Fermata client port it could use. */
export interface EndpointFailure {
  /** As given in the client's `endpoints`. */
  readonly endpoint: string;
  /** Why: `connection refused`, `no answer within 3000 ms`, `the HTTP port of Fermata node n1 ...`. */
  readonly reason: string;
}

/**
 * No endpoint answered as a Fermata client port for the client's
 * `connectTimeoutMs`: `endpoints` names each one tried and why (refused,
 * timed out, host not found, the HTTP or peer port of a node instead of its
 * client port). A cluster that answers but has no leader yet is not this:
 * calls wait for a leader until `deadlineMs`.
 */
export class ConnectError extends UnavailableError {
  readonly endpoints: readonly EndpointFailure[];

  constructor(details: string, endpoints: readonly EndpointFailure[], options?: { cause?: unknown }) {
    super(details, options);
    this.endpoints = endpoints;
  }
}

/**
 * An ack, nack or extend named a delivery whose lease had already run out (or
 * which another consumer now holds): nothing was changed, and the message is,
 * or will be, delivered again.
 */
export class LeaseExpiredError extends FermataError {
  /** The delivery tag that was refused. */
  readonly tag: Uint8Array;

  constructor(tag: Uint8Array, details = 'the lease behind this delivery tag ran out; nothing was changed') {
    super(status.FAILED_PRECONDITION, details);
    this.tag = tag;
  }
}

/** A limit was hit (gRPC `RESOURCE_EXHAUSTED`), on the server or in the SDK. */
export class LimitError extends FermataError {
  /** The name of the limit, when known (e.g. `maxPayloadBytes`, `producer.maxWaitingSends`). */
  readonly limit: string | undefined;
  /** The field whose value hit it, when known (e.g. `messages[0].payload`). */
  readonly field: string | undefined;

  constructor(details: string, limit: string | undefined, options?: { cause?: unknown; field?: string }) {
    super(status.RESOURCE_EXHAUSTED, details, options);
    this.limit = limit;
    this.field = options?.field;
  }
}

/**
 * The request was malformed (gRPC `INVALID_ARGUMENT`), with the offending field
 * when known. A value past a bound (a delay beyond the maximum) is one too, with
 * the bound in `limit`.
 */
export class InvalidArgumentError extends FermataError {
  /** The offending field, e.g. `messages[3].topic`, when known. */
  readonly field: string | undefined;
  /** The bound the value broke, e.g. `maxDelayMs`, when it was one. */
  readonly limit: string | undefined;

  constructor(details: string, field: string | undefined, options?: { cause?: unknown; limit?: string }) {
    super(status.INVALID_ARGUMENT, details, options);
    this.field = field;
    this.limit = options?.limit;
  }
}

/** The topic or group already exists (gRPC `ALREADY_EXISTS`). */
export class AlreadyExistsError extends FermataError {
  constructor(details: string, options?: { cause?: unknown }) {
    super(status.ALREADY_EXISTS, details, options);
  }
}

/** The topic, group or message does not exist (gRPC `NOT_FOUND`). */
export class NotFoundError extends FermataError {
  constructor(details: string, options?: { cause?: unknown }) {
    super(status.NOT_FOUND, details, options);
  }
}

/** The token is valid but not allowed to do this (gRPC `PERMISSION_DENIED`). */
export class PermissionDeniedError extends FermataError {
  constructor(details: string, options?: { cause?: unknown }) {
    super(status.PERMISSION_DENIED, details, options);
  }
}

/** No token, or a token the server does not accept (gRPC `UNAUTHENTICATED`). */
export class UnauthenticatedError extends FermataError {
  constructor(details: string, options?: { cause?: unknown }) {
    super(status.UNAUTHENTICATED, details, options);
  }
}

/** The call's deadline passed before it finished (gRPC `DEADLINE_EXCEEDED`); it may or may not have taken effect. */
export class DeadlineExceededError extends FermataError {
  constructor(details: string, options?: { cause?: unknown }) {
    super(status.DEADLINE_EXCEEDED, details, options);
  }
}

/** The client, producer or subscription was closed (gRPC `CANCELLED`). */
export class ClosedError extends FermataError {
  constructor(details: string) {
    super(status.CANCELLED, details);
  }
}

/** A status as it arrives: from a failed call, or an `ErrorStatus` inside a stream response. */
export interface StatusLike {
  code: number;
  details: string;
  metadata?: Metadata | undefined;
  field?: string | undefined;
  leaderAddress?: string | undefined;
}

const NOT_LEADER_TEXT = /\bnot (the )?leader\b/i;
const LEADER_IN_TEXT = /\bleader is \S+ at (\S+?)\.?$/i;
const LIMIT_IN_TEXT = /\b((?:limits|producer|subscription)\.[A-Za-z0-9_.]+|max[A-Z][A-Za-z0-9]*)\b/;
const FIELD_IN_TEXT = /^([A-Za-z_][\w.[\]]*): /;
const BOUND_IN_TEXT = /\bexceeds the limit ([A-Za-z][A-Za-z0-9]*)\b/;

function firstMetadata(metadata: Metadata | undefined, key: string): string | undefined {
  const value = metadata?.get(key)[0];
  if (value === undefined) return undefined;
  const text = typeof value === 'string' ? value : value.toString('utf8');
  return text === '' ? undefined : text;
}

/** The leader's address a status names, from `fermata-leader`, the `leader_address` field, or the message text. */
export function leaderHint(s: StatusLike): string | undefined {
  return (
    firstMetadata(s.metadata, LEADER_METADATA_KEY) ??
    (s.leaderAddress ? s.leaderAddress : undefined) ??
    LEADER_IN_TEXT.exec(s.details)?.[1]
  );
}

/** Maps a status to the SDK's typed errors. The one place where gRPC codes become error classes. */
export function errorFromStatus(s: StatusLike, cause?: unknown): FermataError {
  const options = cause === undefined ? undefined : { cause };
  const hint = leaderHint(s);
  switch (s.code) {
    case status.FAILED_PRECONDITION:
      if (hint !== undefined || NOT_LEADER_TEXT.test(s.details)) {
        return new NotLeaderError(s.code, s.details, hint, options);
      }
      return new FermataError(s.code, s.details, options);
    case status.UNAVAILABLE:
      if (hint !== undefined || NOT_LEADER_TEXT.test(s.details)) {
        return new NotLeaderError(s.code, s.details, hint, options);
      }
      return new UnavailableError(s.details, options);
    case status.RESOURCE_EXHAUSTED: {
      // Inside a stream the one `field` slot holds the field when there is one, else the limit's name.
      const fieldLike = s.field && /[.[]/.test(s.field) ? s.field : undefined;
      const limit =
        firstMetadata(s.metadata, LIMIT_METADATA_KEY) ??
        LIMIT_IN_TEXT.exec(s.details)?.[1] ??
        (s.field && !fieldLike ? s.field : undefined);
      const field =
        firstMetadata(s.metadata, FIELD_METADATA_KEY) ?? fieldLike ?? FIELD_IN_TEXT.exec(s.details)?.[1];
      return new LimitError(s.details, limit, field === undefined ? options : { ...options, field });
    }
    case status.INVALID_ARGUMENT: {
      const field =
        s.field || firstMetadata(s.metadata, FIELD_METADATA_KEY) || FIELD_IN_TEXT.exec(s.details)?.[1];
      const limit = firstMetadata(s.metadata, LIMIT_METADATA_KEY) ?? BOUND_IN_TEXT.exec(s.details)?.[1];
      return new InvalidArgumentError(
        s.details,
        field,
        limit === undefined ? options : { ...options, limit },
      );
    }
    case status.ALREADY_EXISTS:
      return new AlreadyExistsError(s.details, options);
    case status.NOT_FOUND:
      return new NotFoundError(s.details, options);
    case status.PERMISSION_DENIED:
      return new PermissionDeniedError(s.details, options);
    case status.UNAUTHENTICATED:
      return new UnauthenticatedError(s.details, options);
    case status.DEADLINE_EXCEEDED:
      return new DeadlineExceededError(s.details, options);
    default:
      return new FermataError(s.code, s.details, options);
  }
}

interface GrpcErrorShape {
  code: number;
  details?: string;
  message?: string;
  metadata?: Metadata;
}

function isGrpcError(e: unknown): e is GrpcErrorShape {
  return typeof e === 'object' && e !== null && typeof (e as { code?: unknown }).code === 'number';
}

/** Any thrown value as a FermataError: grpc-js `ServiceError`s are mapped by code; FermataErrors pass through. */
export function toFermataError(e: unknown): FermataError {
  if (e instanceof FermataError) return e;
  if (isGrpcError(e)) {
    return errorFromStatus({ code: e.code, details: e.details ?? e.message ?? '', metadata: e.metadata }, e);
  }
  return new FermataError(status.UNKNOWN, e instanceof Error ? e.message : String(e), { cause: e });
}

/**
 * The same error without the `messages[i].` position in its field, for a
 * caller who published one message and never saw a batch.
 */
export function withoutBatchPosition(e: FermataError): FermataError {
  const strip = (f: string | undefined) => f?.replace(/^messages\[\d+\]\.?/, '') || undefined;
  if (e instanceof InvalidArgumentError && e.field?.startsWith('messages[')) {
    return new InvalidArgumentError(e.details, strip(e.field), {
      cause: e,
      ...(e.limit === undefined ? {} : { limit: e.limit }),
    });
  }
  if (e instanceof LimitError && e.field?.startsWith('messages[')) {
    const field = strip(e.field);
    return new LimitError(e.details, e.limit, field === undefined ? { cause: e } : { cause: e, field });
  }
  return e;
}

/** Errors the SDK retries by itself (another node may be the leader, or may soon be). */
export function isRetryable(e: FermataError): boolean {
  return e instanceof NotLeaderError || e instanceof UnavailableError;
}

/**
 * Errors after which re-opening a stream cannot help: the request itself is
 * refused. A `FAILED_PRECONDITION` that names no other leader says what is
 * (a push group, a topic or group being deleted): it stays so.
 */
export function isPermanent(e: FermataError): boolean {
  return (
    e instanceof InvalidArgumentError ||
    e instanceof NotFoundError ||
    e instanceof PermissionDeniedError ||
    e instanceof UnauthenticatedError ||
    e.code === status.UNIMPLEMENTED ||
    (e.code === status.FAILED_PRECONDITION && !(e instanceof NotLeaderError))
  );
}
