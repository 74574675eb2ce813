import { LeaderNotReadyError } from '../model/errors.js';

/**
 * Event ids (docs/design.md, "Replication"): the leader assigns them when it
 * proposes (`nextIds`), every node observes them as it applies (`observeId`),
 * and the highest observed id is persisted with each applied batch
 * (`event-repo/last-id`), so a restart or a failover never reuses one.
 *
 * A new leader assigns nothing until it has applied an entry of its own term
 * (its no-op): only then has it observed every id a previous leader assigned
 * in a committed entry. The server calls `beginLeadership(term)` when this node
 * becomes leader and `endLeadership()` when it stops; the state machine calls
 * `entryApplied(term)` for every applied entry.
 */
export class EventRepository {
  private observed: bigint;
  private assigned: bigint;
  private leaderTerm = 0;
  private ready = false;

  constructor(lastId: bigint) {
    if (lastId < 0n) throw new RangeError(`last id must be >= 0, got ${lastId}`);
    this.observed = lastId;
    this.assigned = lastId;
  }

  /** The highest id observed while applying (what the store records). */
  get lastId(): bigint {
    return this.observed;
  }

  /** Called while applying, for every id a committed entry carries. */
  observeId(id: bigint): void {
    if (id > this.observed) this.observed = id;
  }

  /** Resets after a snapshot restore (ids this node handed out stay reserved: `nextIds` never goes back). */
  reset(lastId: bigint): void {
    this.observed = lastId;
    if (this.assigned < lastId) this.assigned = lastId;
  }

  beginLeadership(term: number): void {
    if (term <= 0) throw new RangeError(`leader term must be > 0, got ${term}`);
    this.leaderTerm = term;
    this.ready = false;
  }

  endLeadership(): void {
    this.leaderTerm = 0;
    this.ready = false;
  }

  /** The state machine applied an entry of `term`. */
  entryApplied(term: number): void {
    if (this.leaderTerm > 0 && term >= this.leaderTerm) this.ready = true;
  }

  /** True when this node leads and has applied an entry of its own term. */
  canAssign(): boolean {
    return this.leaderTerm > 0 && this.ready;
  }

  /**
   * Reserves `n` consecutive ids and returns the first. Leader only, and only
   * once `canAssign()`; ids are never below anything observed or handed out.
   */
  nextIds(n: number): bigint {
    if (!Number.isInteger(n) || n < 0)
      throw new RangeError(`id count must be a non-negative integer, got ${n}`);
    if (!this.canAssign()) {
      throw new LeaderNotReadyError(
        this.leaderTerm === 0
          ? 'ids are assigned by the leader only'
          : `leader of term ${this.leaderTerm} has not applied an entry of its term yet`,
      );
    }
    let base = this.observed;
    if (this.assigned > base) base = this.assigned;
    this.assigned = base + BigInt(n);
    return base + 1n;
  }
}
