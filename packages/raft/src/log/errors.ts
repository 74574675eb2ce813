/**
 * Typed errors of the log store. A `CorruptionError` means data that was once
 * durable no longer reads back intact: the node must refuse to start rather than
 * silently drop committed entries.
 */
export class CorruptionError extends Error {
  override readonly name = 'CorruptionError';
  constructor(
    /** The damaged file. */
    readonly file: string,
    /** Byte offset in `file` where the damage was detected. */
    readonly offset: number,
    detail: string,
  ) {
    super(`corrupt file ${file} at byte offset ${offset}: ${detail}`);
  }
}

/**
 * Operations whose ENOSPC leaves nothing in doubt: the write (or the create)
 * was refused before its bytes reached the page cache, so the same bytes can
 * be written again. A sync (fsync, fdatasync, a segment write's O_DSYNC is
 * part of the write) or a truncation that fails is never retried.
 */
const RETRYABLE_OPERATIONS: ReadonlySet<string> = new Set(['write', 'create']);

/**
 * A file operation of the log or of a small durable file (hard state,
 * snapshot meta, address book) failed: EIO from a write or an fsync, ENOSPC,
 * and the like. After a failed fsync the page cache may have dropped the data
 * it could not write while still showing it to reads, so nothing is retried:
 * the store refuses every later write and the node stops (fail-stop,
 * docs/design.md). What was acknowledged before is durable; what the failed
 * operation carried is not, and was never acknowledged.
 */
export class StorageError extends Error {
  override readonly name = 'StorageError';
  /** The errno code of the failure ('EIO', 'ENOSPC', ...), when it has one. */
  readonly code: string | undefined;
  constructor(
    /** What was being done: 'write', 'fsync', 'fdatasync', 'truncate', 'create', 'rename', 'unlink'. */
    readonly operation: string,
    /** The file (or directory) it was done to. */
    readonly file: string,
    override readonly cause: unknown,
  ) {
    const code = (cause as { code?: unknown } | undefined)?.code;
    super(
      code === 'ENOSPC' && RETRYABLE_OPERATIONS.has(operation)
        ? `${operation} of ${file} failed (ENOSPC): the disk is full; the write is made again once there is room`
        : `${operation} of ${file} failed (${typeof code === 'string' ? code : String(cause)}): the write may not be on disk and is never retried; the node stops (restart it once the disk is sound${code === 'ENOSPC' ? ' and has room' : ''})`,
    );
    this.code = typeof code === 'string' ? code : undefined;
  }

  /** `error` as a StorageError (itself, or wrapped). */
  static of(operation: string, file: string, error: unknown): StorageError {
    return error instanceof StorageError ? error : new StorageError(operation, file, error);
  }
}

/** Whether `error` is a full disk (ENOSPC), directly or as a StorageError's cause. */
export function isNoSpace(error: unknown): boolean {
  return (error as { code?: unknown } | undefined)?.code === 'ENOSPC';
}

/** Whether `error` is a StorageError for a write refused for room, which can be made again once there is room. */
export function isRetryable(error: unknown): boolean {
  return (
    error instanceof StorageError && error.code === 'ENOSPC' && RETRYABLE_OPERATIONS.has(error.operation)
  );
}

// The shared errors, for the log files that throw them beside their own.
export { invariant, LimitError } from '@fermata/base';
