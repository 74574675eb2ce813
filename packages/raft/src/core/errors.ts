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

/**
 * The change does not fit the current configuration (adding a member twice,
 * removing the last voter, transferring leadership to a non-voter, ...).
 */
export class InvalidConfChangeError extends Error {
  override readonly name = 'InvalidConfChangeError';
}
