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

export { invariant, LimitError } from '../core/errors.js';
