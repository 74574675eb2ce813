/**
 * The errors every layer shares. Each package adds its own typed errors for
 * what only it knows (raft's NotLeaderError, the broker's ValidationError);
 * these two are here because raft and the broker both throw them and one
 * mapping (the broker's server/grpc-status.ts) must recognise them whoever
 * threw:
 *
 * - InvariantError (through `invariant`): a bug, in any layer.
 * - LimitError: a named limit was hit, in raft (`maxUncommittedBytes`,
 *   `maxEntryBytes`) as in the broker (`maxPayloadBytes`, ...).
 */

/**
 * A named limit was hit (`maxUncommittedBytes`, `maxEntryBytes`, and the
 * broker's limits); `field` names the value when there is one. The one limit
 * error of the server code: raft and the broker both throw it.
 */
export class LimitError extends Error {
  override readonly name = 'LimitError';
  constructor(
    readonly limit: string,
    readonly max: number,
    readonly actual: number,
    readonly field?: string,
  ) {
    super(`${field ?? limit}: ${actual} exceeds the limit ${limit} = ${max}`);
  }
}

/** A broken invariant: a bug, never an expected condition. The message carries the values. */
export class InvariantError extends Error {
  override readonly name = 'InvariantError';
  readonly invariant: string;
  readonly values: Readonly<Record<string, unknown>>;
  constructor(invariant: string, values: Readonly<Record<string, unknown>> = {}) {
    const shown = Object.keys(values).length > 0 ? ` ${JSON.stringify(values, bigintAsString)}` : '';
    super(`invariant broken: ${invariant}${shown}`);
    this.invariant = invariant;
    this.values = values;
  }
}

function bigintAsString(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
}

/**
 * The one assertion helper of every package: throws InvariantError unless
 * `condition` holds. `what` names the rule (or, as a function, says what
 * broke with the values in it); `values` is called only on failure.
 */
export function invariant(
  condition: unknown,
  what: string | (() => string),
  values?: () => Readonly<Record<string, unknown>>,
): asserts condition {
  if (!condition) throw new InvariantError(typeof what === 'string' ? what : what(), values?.());
}
