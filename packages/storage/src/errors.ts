/** A storage engine refused or failed an operation. */
export class StorageError extends Error {
  override readonly name = 'StorageError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}
