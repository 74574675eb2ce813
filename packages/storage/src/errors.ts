/** A storage engine refused or failed an operation. */
export class StorageError extends Error {
  override readonly name: string = 'StorageError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/**
 * The store's disk is full: the batch was refused and wrote nothing (LevelDB
 * writes a batch whole or not at all; the store is opened again before the
 * next write, see LevelStore). `code` is 'ENOSPC', as node's errors have it.
 */
export class NoSpaceError extends StorageError {
  override readonly name = 'NoSpaceError';
  readonly code = 'ENOSPC';
  constructor(
    /** The store's directory. */
    readonly path: string,
    cause: unknown,
    /** What was not done. */
    outcome = 'nothing of the batch was written',
  ) {
    super(`the store's disk is full (${path}): ${causeText(cause)}; ${outcome}`, { cause });
  }
}

/** The message of `cause` and of its causes (LevelDB's own text is in classic-level's cause). */
function causeText(cause: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = cause; e instanceof Error && parts.length < 4; e = e.cause) parts.push(e.message);
  return parts.length > 0 ? parts.join(': ') : String(cause);
}
