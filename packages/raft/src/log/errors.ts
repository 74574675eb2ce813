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

/** A configured size limit was exceeded; `limit` names it (e.g. `maxEntryBytes`). */
export class LimitError extends Error {
  override readonly name = 'LimitError';
  constructor(
    readonly limit: string,
    readonly max: number,
    readonly actual: number,
  ) {
    super(`limit ${limit} exceeded: ${actual} > ${max}`);
  }
}

/** Throws with the values in the message when an invariant is broken. */
export function assert(condition: boolean, message: () => string): asserts condition {
  if (!condition) throw new Error(`invariant violated: ${message()}`);
}
