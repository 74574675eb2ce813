/**
 * The typed errors of the state machine. A command that fails with one of them
 * changes nothing. The server maps them to gRPC statuses in one place:
 * ValidationError -> INVALID_ARGUMENT, LimitError -> RESOURCE_EXHAUSTED (or
 * INVALID_ARGUMENT for a single oversized value), NotFoundError -> NOT_FOUND,
 * AlreadyExistsError -> ALREADY_EXISTS, ConflictError -> FAILED_PRECONDITION.
 */
export abstract class StateError extends Error {
  abstract readonly code: 'invalid' | 'limit' | 'not-found' | 'already-exists' | 'conflict';
}

/** A field holds a value the command cannot have (`field` e.g. "messages[3].topic"). */
export class ValidationError extends StateError {
  override readonly name = 'ValidationError';
  readonly code = 'invalid' as const;
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
  }
}

/** A named limit (see limits.ts) was exceeded. */
export class LimitError extends StateError {
  override readonly name = 'LimitError';
  readonly code = 'limit' as const;
  constructor(
    readonly limit: string,
    readonly field: string,
    readonly value: number,
    readonly max: number,
  ) {
    super(`${field}: ${value} exceeds the limit ${limit} = ${max}`);
  }
}

export class NotFoundError extends StateError {
  override readonly name = 'NotFoundError';
  readonly code = 'not-found' as const;
  constructor(
    readonly what: 'topic' | 'group' | 'message',
    readonly target: string,
  ) {
    super(`${what} "${target}" not found`);
  }
}

export class AlreadyExistsError extends StateError {
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
export class ConflictError extends StateError {
  override readonly name = 'ConflictError';
  readonly code = 'conflict' as const;
  constructor(
    readonly reason: 'queue-hash-collision' | 'id-reuse' | 'not-empty' | 'default-group',
    message: string,
  ) {
    super(message);
  }
}
