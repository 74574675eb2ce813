export type DropReason = 'overwritten' | 'leadership-lost' | 'timeout' | 'closed' | 'snapshot';

/**
 * A proposal that will not be (or is not known to have been) applied.
 * `definite` true: its entry was replaced in the log, it will never apply.
 * `definite` false: the outcome is unknown (the node stepped down or closed
 * before learning it); the command may still have been committed.
 */
export class ProposalDroppedError extends Error {
  override readonly name = 'ProposalDroppedError';
  constructor(
    readonly reason: DropReason,
    readonly definite: boolean,
    readonly index: number,
    readonly term: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The node refuses to start: its options or what its data directory holds do
 * not fit together (it is not among the initial members, the state machine is
 * ahead of the log, ...). The message says what is wrong and what to fix.
 */
export class NodeStartError extends Error {
  override readonly name = 'NodeStartError';
}

/** What the node was waiting for (a transfer, a membership change to commit) did not happen in its time. */
export class NodeTimeoutError extends Error {
  override readonly name = 'NodeTimeoutError';
}

/** The node is closed (or closing): nothing more is accepted. */
export class NodeClosedError extends Error {
  override readonly name = 'NodeClosedError';
}
