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

/** Which of a node's disks is full: the Raft log's (log, hard state, address book) or the state machine's store. */
export type DiskName = 'log' | 'state';

/** A disk of this node is full, as its last write found it (docs/operations.md, "A full disk"). */
export interface DiskFull {
  readonly disk: DiskName;
  /** The file or directory the refused write was for. */
  readonly path: string;
  /** When the node found it full, on the monotonic clock. */
  readonly sinceMs: number;
  readonly message: string;
}

/**
 * A proposal refused because a disk of this node is full: the node takes
 * nothing new until its writes get room again, which it finds out by itself.
 * Retryable (on this node later, or on another node).
 */
export class DiskFullError extends Error {
  override readonly name = 'DiskFullError';
  constructor(readonly full: DiskFull) {
    super(
      `the ${full.disk === 'log' ? 'Raft log' : 'state machine store'} disk of this node is full (${full.path}): it takes no writes until it has room again; retry later or on another node`,
    );
  }
}
