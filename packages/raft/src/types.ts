/**
 * Shared Raft types: the pure core (`core/`), the log store (`log/`), the node
 * driver and the transport all speak these.
 *
 * Indexes and terms are `number`: at a million entries per second a log index
 * needs 285 years to reach 2^53, so they never lose precision. Node ids are
 * strings (the configured member id, e.g. "n1" or "fermata-0").
 */
export type NodeId = string;

/** `normal` entries carry state-machine commands (empty data = the leader's no-op). */
export type EntryType = 'normal' | 'conf-change';

export interface Entry {
  readonly term: number;
  readonly index: number;
  readonly type: EntryType;
  readonly data: Uint8Array;
}

/** What must be durable before a node answers votes or acknowledges appends. */
export interface HardState {
  readonly term: number;
  /** Empty string = voted for nobody in `term`. */
  readonly vote: NodeId;
  readonly commit: number;
  /**
   * A node that joined a running cluster (RaftDriverOptions.join) on an empty disk:
   * the commit index of the first leader message it took. It campaigns only once its
   * commit index reaches it (RaftCore, "join floor"). Absent for a node that
   * bootstrapped, and for a joiner that has heard no leader yet.
   */
  readonly joinFloor?: number;
}

export interface ConfState {
  readonly voters: readonly NodeId[];
  readonly learners: readonly NodeId[];
}

/** Describes a snapshot; the data itself travels outside the core. */
export interface SnapshotMeta {
  readonly index: number;
  readonly term: number;
  readonly conf: ConfState;
}

/** One membership change at a time (docs/design.md: add as learner, catch up, promote; remove). */
export interface ConfChange {
  readonly type: 'add-learner' | 'promote' | 'remove';
  readonly node: NodeId;
  /** Opaque to the core: the driver stores addresses here. */
  readonly context?: Uint8Array;
}

export type MessageType =
  | 'append'
  | 'append-response'
  | 'vote'
  | 'vote-response'
  | 'pre-vote'
  | 'pre-vote-response'
  | 'heartbeat'
  | 'heartbeat-response'
  | 'snapshot'
  | 'timeout-now'
  | 'read-index'
  | 'read-index-response';

export interface Message {
  readonly type: MessageType;
  readonly from: NodeId;
  readonly to: NodeId;
  readonly term: number;
  /**
   * append: term of the entry before `entries`; vote: candidate's last log term;
   * refused (pre-)vote: term of the refuser's entry at `commit`.
   */
  readonly logTerm: number;
  /** append: index before `entries`; append-response: last matched index; vote: last log index. */
  readonly index: number;
  readonly entries: readonly Entry[];
  /**
   * append/heartbeat: the leader's commit index; refused (pre-)vote: an index the
   * refuser knows committed, at most the candidate's last index (0 if none);
   * append-response/heartbeat-response: an index the responder knows committed
   * durably, at least up to the entry of the configuration it uses (RaftCore
   * `durableConfIndex`; 0 from a version that does not report it).
   */
  readonly commit: number;
  readonly reject: boolean;
  /** append-response on reject: the follower's hint for fast backtracking. */
  readonly rejectHint: number;
  /** append-response on reject: term of the follower's entry at rejectHint (0 if none). */
  readonly hintTerm: number;
  /** snapshot: what is being installed (the data is streamed by the transport). */
  readonly snapshot?: SnapshotMeta;
  /** heartbeat/read-index: the ReadIndex request context, echoed back. */
  readonly context?: Uint8Array;
  /**
   * vote/pre-vote: the candidate's wall clock when the request left, epoch ms;
   * vote-response/pre-vote-response: present only on a refusal for the clock, the
   * refuser's. Set and read by the node driver, never by the core (node/vote-clock.ts);
   * absent (0 on the wire) from a driver given no wall clock, or from an older version:
   * not checked.
   */
  readonly wallTimeMs?: number;
}

/** A message with every field not given at its zero value. */
export function message(fields: Partial<Message> & Pick<Message, 'type' | 'from' | 'to'>): Message {
  return {
    term: 0,
    logTerm: 0,
    index: 0,
    entries: [],
    commit: 0,
    reject: false,
    rejectHint: 0,
    hintTerm: 0,
    ...fields,
  };
}

export type Role = 'follower' | 'pre-candidate' | 'candidate' | 'leader' | 'learner';

export interface SoftState {
  readonly leader: NodeId;
  readonly role: Role;
}

/** A linearizable read is safe once the state machine has applied `index`. */
export interface ReadState {
  readonly index: number;
  readonly context: Uint8Array;
}

/**
 * Everything the driver must do, in this order:
 *  1. if `snapshot`: install it (replace the state machine and the log prefix);
 *  2. persist `entries` (truncating any conflicting suffix from entries[0].index)
 *     and `hardState`, and fsync — one append, one sync;
 *  3. send `persistedMessages` (they promise state that step 2 made durable:
 *     votes, append acknowledgements); `messages` may be sent before step 2;
 *  4. apply `committedEntries` in order;
 *  5. call `advance(ready)`.
 */
export interface Ready {
  readonly softState?: SoftState;
  readonly hardState?: HardState;
  readonly snapshot?: SnapshotMeta;
  readonly entries: readonly Entry[];
  readonly messages: readonly Message[];
  readonly persistedMessages: readonly Message[];
  readonly committedEntries: readonly Entry[];
  readonly readStates: readonly ReadState[];
}

/**
 * The stable log as the core reads it: synchronous, so the core stays a plain
 * state machine. Implemented by the on-disk log store and by the simulator's
 * in-memory store.
 */
export interface LogReader {
  /** Index of the first entry still in the log (snapshot index + 1). */
  firstIndex(): number;
  /** Index of the last entry (the snapshot index when the log is empty). */
  lastIndex(): number;
  /** Term of entry `index`; the snapshot's term at its index; undefined when compacted or beyond the end. */
  term(index: number): number | undefined;
  /** Entries in [lo, hi), at most `maxBytes` of data (always at least one entry). */
  entries(lo: number, hi: number, maxBytes: number): Entry[];
  snapshotMeta(): SnapshotMeta;
}

/**
 * The replicated state machine as the node driver sees it (implemented by the
 * broker; tests use a key-value map). Applying is deterministic: no clock, no
 * randomness; the leader's time stamp travels inside the entry data.
 */
export interface StateMachine {
  /** The index recorded by the last apply (0 for a fresh store). Read at start-up. */
  appliedIndex(): number;
  /**
   * Applies committed entries in log order and records the last one's index in
   * the same storage write as their effects (written without fsync: the Raft log
   * is the WAL). Every entry is passed, including the leader's empty no-op and
   * conf-change entries, so the recorded index advances over them; their result
   * is `undefined`. Returns one result per entry. An apply that fails with an
   * error whose `code` is 'ENOSPC' (its store's disk is full) must have changed
   * nothing, in storage or in memory: the node applies the same entries again,
   * with backoff, until it has room.
   */
  apply(entries: readonly Entry[]): Promise<unknown[]>;
  /** Makes everything applied so far durable (fsync); the log may then be compacted up to it. */
  flush(): Promise<number>;
  /**
   * A consistent snapshot at the applied index, streamed in chunks. The index
   * comes from the same storage snapshot as the data.
   */
  snapshot(): Promise<{ index: number; chunks: AsyncIterable<Uint8Array> }>;
  /** Replaces the whole state with a snapshot's chunks, atomically; returns its applied index. */
  restore(chunks: AsyncIterable<Uint8Array>): Promise<number>;
}
