import type { NodeId } from '../types.js';

/** The leader's addresses as a node knows them from the address book ('' = unknown). */
export interface LeaderAddresses {
  /** The leader's client (broker API) address. */
  readonly client: string;
  /** The leader's Raft peer address. */
  readonly peer: string;
}

/**
 * Thrown by proposals, ReadIndex and transfers on a node that is not the
 * leader. `leader` is '' when unknown; the node adds the leader's addresses
 * when it knows them, so the broker can answer with the client address.
 */
export class NotLeaderError extends Error {
  override readonly name = 'NotLeaderError';
  readonly leader: NodeId;
  readonly leaderAddress: string;
  readonly leaderPeerAddress: string;
  constructor(leader: NodeId, message?: string, addresses?: LeaderAddresses) {
    super(
      message ?? (leader === '' ? 'not the leader; leader unknown' : `not the leader; leader is ${leader}`),
    );
    this.leader = leader;
    this.leaderAddress = addresses?.client ?? '';
    this.leaderPeerAddress = addresses?.peer ?? '';
  }
}

/**
 * A membership change is refused while another one is uncommitted, or before the
 * leader has committed an entry of its own term (Ongaro's single-server-change fix).
 */
export class ConfChangeInProgressError extends Error {
  override readonly name = 'ConfChangeInProgressError';
}

/** The change does not fit the current configuration (adding a member twice, removing the last voter, ...). */
export class InvalidConfChangeError extends Error {
  override readonly name = 'InvalidConfChangeError';
}

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
 * The one assertion helper of raft and the broker: throws InvariantError
 * unless `condition` holds. `what` names the rule (or, as a function, says
 * what broke with the values in it); `values` is called only on failure.
 */
export function invariant(
  condition: unknown,
  what: string | (() => string),
  values?: () => Readonly<Record<string, unknown>>,
): asserts condition {
  if (!condition) throw new InvariantError(typeof what === 'string' ? what : what(), values?.());
}
