import type { NodeId } from '../types.js';

/** Thrown by proposals, ReadIndex and transfers on a node that is not the leader. `leader` is '' when unknown. */
export class NotLeaderError extends Error {
  override readonly name = 'NotLeaderError';
  readonly leader: NodeId;
  constructor(leader: NodeId, message?: string) {
    super(
      message ?? (leader === '' ? 'not the leader; leader unknown' : `not the leader; leader is ${leader}`),
    );
    this.leader = leader;
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

/** A named limit was hit (e.g. `maxUncommittedBytes`); the caller may retry later. */
export class RaftLimitError extends Error {
  override readonly name = 'RaftLimitError';
  readonly limit: string;
  constructor(limit: string, message: string) {
    super(message);
    this.limit = limit;
  }
}

/** An invariant of the algorithm broke: a bug. The message carries the values. */
export class RaftInvariantError extends Error {
  override readonly name = 'RaftInvariantError';
  readonly invariant: string;
  readonly values: Readonly<Record<string, unknown>>;
  constructor(invariant: string, values: Readonly<Record<string, unknown>>) {
    super(`raft invariant broken: ${invariant} ${JSON.stringify(values)}`);
    this.invariant = invariant;
    this.values = values;
  }
}

/** Throws RaftInvariantError with `values` unless `condition` holds. */
export function invariant(
  condition: boolean,
  name: string,
  values: () => Readonly<Record<string, unknown>>,
): asserts condition {
  if (!condition) throw new RaftInvariantError(name, values());
}
