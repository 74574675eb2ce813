/**
 * The typed errors of the state machine. A command that fails with one of them
 * changes nothing. The server maps them to gRPC statuses in one place
 * (server/grpc-status.ts): ValidationError -> INVALID_ARGUMENT, LimitError ->
 * RESOURCE_EXHAUSTED (or INVALID_ARGUMENT for a single oversized value),
 * NotFoundError -> NOT_FOUND, AlreadyExistsError -> ALREADY_EXISTS,
 * ConflictError -> FAILED_PRECONDITION. LimitError is @fermata/base's: one
 * limit error for all the server code.
 */
import { LimitError } from '@fermata/base';

export { LimitError };

export type StateError = ValidationError | LimitError | NotFoundError | AlreadyExistsError | ConflictError;

/** True for the errors a command may be refused with (the state is unchanged); anything else is a bug or I/O. */
export function isStateError(err: unknown): err is StateError {
  return (
    err instanceof ValidationError ||
    err instanceof LimitError ||
    err instanceof NotFoundError ||
    err instanceof AlreadyExistsError ||
    err instanceof ConflictError
  );
}

/**
 * `err` with its field under `prefix` (e.g. "schedules[3]."), when it is a
 * validation or limit error naming a field not already under it; else `err`.
 */
export function underField(prefix: string, err: unknown): unknown {
  if (err instanceof ValidationError && !err.field.startsWith(prefix)) {
    return new ValidationError(`${prefix}${err.field}`, err.message.replace(/^\S+: /, ''));
  }
  if (err instanceof LimitError && err.field && !err.field.startsWith(prefix)) {
    return new LimitError(err.limit, err.max, err.actual, `${prefix}${err.field}`);
  }
  return err;
}

/** A field holds a value the command cannot have (`field` e.g. "messages[3].topic"). */
export class ValidationError extends Error {
  override readonly name = 'ValidationError';
  readonly code = 'invalid' as const;
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
  }
}

export class NotFoundError extends Error {
  override readonly name = 'NotFoundError';
  readonly code = 'not-found' as const;
  constructor(
    readonly what: 'topic' | 'group' | 'message' | 'schedule',
    readonly target: string,
    /** What to do instead (the names closest to a mistyped one), appended after `; `. */
    hint?: string,
    /** The whole message, where the default does not say enough. */
    message = `${what} "${target}" not found${hint ? `; ${hint}` : ''}`,
  ) {
    super(message);
  }
}

export class AlreadyExistsError extends Error {
  override readonly name = 'AlreadyExistsError';
  readonly code = 'already-exists' as const;
  constructor(
    readonly what: 'topic' | 'group',
    readonly target: string,
  ) {
    super(`${what} "${target}" already exists`);
  }
}

/** The command is well formed but the state forbids it (queue-hash collision, id reuse, ...). */
export class ConflictError extends Error {
  override readonly name = 'ConflictError';
  readonly code = 'conflict' as const;
  constructor(
    readonly reason:
      | 'queue-hash-collision'
      | 'id-reuse'
      | 'not-empty'
      | 'default-group'
      | 'schedule-skip'
      | 'topic-deleting'
      | 'group-deleting'
      | 'push-group',
    message: string,
  ) {
    super(message);
  }
}

/**
 * A leader asked for ids before it has applied an entry of its own term (so
 * it may not know every earlier id), or a node that does not lead asked for
 * them: retry (UNAVAILABLE).
 */
export class LeaderNotReadyError extends Error {
  override readonly name = 'LeaderNotReadyError';
  constructor(message = 'leader is not ready yet; retry') {
    super(message);
  }
}

/** A topic marked deleted takes nothing new until its records are removed and it is gone. */
export function topicDeleting(topic: string): ConflictError {
  return new ConflictError(
    'topic-deleting',
    `topic "${topic}" is being deleted: it takes no publish, subscription or change until its records are removed`,
  );
}

/** What ends or refuses a stream of a deletion: its topic's (`group` ''), or its group's. */
export function deletionConflict(topic: string, group: string): ConflictError {
  return group === ''
    ? topicDeleting(topic)
    : new ConflictError('group-deleting', `group "${topic}/${group}" was deleted`);
}
