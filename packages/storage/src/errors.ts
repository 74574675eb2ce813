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
  ) {
    super(
      `the store's disk is full (${path}): ${cause instanceof Error ? cause.message : String(cause)}; nothing of the batch was written`,
      { cause },
    );
  }
}
