/**
 * The bound on the clock offset between a candidate and its voters
 * (CockroachDB's maximum clock offset, applied to elections).
 *
 * Why. The leader stamps every command with its time, `max(its clock, the
 * last applied stamp)`, and the state machine's time never goes back
 * (docs/guarantees.md, "Time and clocks"). A node's clock is its system clock
 * read at start, advanced by the monotonic clock: a node started while its
 * system clock was stepped keeps that step. Elected, a node whose clock is an
 * hour ahead moves the cluster's time an hour ahead (messages fall due and
 * leases end an hour early by the others' clocks; after a failover to nodes
 * with the right time nothing falls due and no schedule fires for an hour); one
 * an hour behind holds the cluster's time still while it leads.
 *
 * The rule. A node lends its vote, and its pre-vote, only to a candidate whose
 * clock agrees with its own within `maxClockOffsetMs`:
 *
 * - every vote and pre-vote request carries its candidate's wall time
 *   (`Message.wallTimeMs`), stamped by the driver and again by the transport
 *   as it writes it (one queued for a peer that was down carries the time it
 *   left, not the time it was queued);
 * - a voter whose own wall time differs from the stamp by more than the bound
 *   when the request arrives refuses it without stepping it into the core (its
 *   term does not move, so a candidate with a wrong clock disturbs nobody) and
 *   answers a refusal carrying its own wall time, so the candidate knows why;
 *   both log a warning naming the other node and the offset (at most once per
 *   peer every CLOCK_WARNING_EVERY_MS) and count it;
 * - a leadership transfer campaigns with vote requests like any election: a
 *   transfer to a node whose clock is off fails instead of electing it;
 * - a request without a stamp (a driver given no wall clock, an older version)
 *   is not checked, and neither is anything while the bound is 0 (off).
 *
 * The stamp is compared at arrival, so transit and event-loop stalls count
 * towards the offset (a request delayed by a stalled process looks behind by
 * the delay): the bound must sit well above them and above the skew of clocks
 * kept by NTP. A refusal of a stale request is harmless: the candidate's next
 * request is fresh. A leader agrees with each voter that elected it within
 * the bound, so two leaders in a row, which share a voter, differ by at most
 * twice the bound.
 *
 * The cost. Nobody can tell whose clock is right, so the check is symmetric:
 * voters that are up but whose clocks disagree among themselves by more than
 * the bound elect nobody. The node whose clock is wrong logs the refusals;
 * restarted once its system clock is right, it takes the right time.
 */
import type { Clock } from '@fermata/base';
import type { Logger } from '../transport/logger.js';
import { type Message, message, type NodeId } from '../types.js';

/** At most one warning per peer and side this often; the ones held back are counted in the next. */
export const CLOCK_WARNING_EVERY_MS = 10_000;

export interface VoteClockOptions {
  readonly id: NodeId;
  /** The time this node stamps commands with as leader; undefined: nothing stamped or checked. */
  readonly wallClock: Pick<Clock, 'nowMs'> | undefined;
  /** 0: requests are stamped but not checked. */
  readonly maxClockOffsetMs: number;
  /** For the warnings' rate. */
  readonly monotonicMs: () => number;
  readonly log: Logger;
}

/** Vote and pre-vote requests refused for the clock since start. */
export interface ClockRefusals {
  /** Requests from candidates that this node refused. */
  readonly refused: number;
  /** This node's own requests that voters refused. */
  readonly refusedByPeers: number;
}

function isVoteRequest(m: Message): boolean {
  return m.type === 'vote' || m.type === 'pre-vote';
}

/** How far `stampMs` is from `ownMs` (positive: ahead), when it is beyond `maxOffsetMs`; undefined within it. */
export function offsetBeyond(stampMs: number, ownMs: number, maxOffsetMs: number): number | undefined {
  const offsetMs = stampMs - ownMs;
  return Math.abs(offsetMs) > maxOffsetMs ? offsetMs : undefined;
}

/** The driver's side of the rule above: stamps what leaves, judges what arrives. */
export class VoteClock {
  private refusedCount = 0;
  private refusedByPeersCount = 0;
  /** Per peer and side: when the last warning was logged, and how many were held back since. */
  private readonly warnings = new Map<string, { atMs: number; held: number }>();

  constructor(private readonly options: VoteClockOptions) {
    const bound = options.maxClockOffsetMs;
    if (!Number.isFinite(bound) || bound < 0)
      throw new RangeError(`maxClockOffsetMs must be a non-negative number of ms, got ${bound}`);
  }

  get counts(): ClockRefusals {
    return { refused: this.refusedCount, refusedByPeers: this.refusedByPeersCount };
  }

  /** `m` with this node's wall time when it is a vote or pre-vote request and there is a wall clock. */
  stamp(m: Message): Message {
    const wall = this.options.wallClock;
    return wall && isVoteRequest(m) ? { ...m, wallTimeMs: wall.nowMs() } : m;
  }

  /**
   * The refusal to answer instead of stepping `m` into the core, when `m` is a
   * vote or pre-vote request whose stamp is beyond the bound; `term` reads this
   * node's (the refusal takes no term from the request).
   */
  refusal(m: Message, term: () => number): Message | undefined {
    const { wallClock, maxClockOffsetMs } = this.options;
    if (!wallClock || maxClockOffsetMs === 0 || !isVoteRequest(m) || !m.wallTimeMs) return undefined;
    const ownMs = wallClock.nowMs();
    const offsetMs = offsetBeyond(m.wallTimeMs, ownMs, maxClockOffsetMs);
    if (offsetMs === undefined) return undefined;
    this.refusedCount++;
    this.warn(`refused:${m.from}`, (held) =>
      this.options.log.warn(
        {
          id: this.options.id,
          peer: m.from,
          request: m.type,
          term: m.term,
          offsetMs,
          maxClockOffsetMs,
          heldBackWarnings: held,
        },
        `raft: refused the ${m.type} request of ${m.from}: ${
          offsetMs > 0
            ? `its clock is ${offsetMs} ms ahead of this node's`
            : `its stamp is ${-offsetMs} ms behind this node's clock (its clock is behind, or the request was delayed that long)`
        }, beyond maxClockOffsetMs ${maxClockOffsetMs}; a node whose clock is that far from its voters' cannot be elected (restart the one whose system clock is wrong once it is right)`,
      ),
    );
    return message({
      type: m.type === 'vote' ? 'vote-response' : 'pre-vote-response',
      from: this.options.id,
      to: m.from,
      term: term(),
      reject: true,
      wallTimeMs: ownMs,
    });
  }

  /**
   * Notes a response to one of this node's requests: a refusal for the clock
   * is counted and logged, unless the clocks agree within this node's own
   * bound as it arrives (it answered an earlier request, of this node before
   * a restart with the right clock, say).
   */
  observe(m: Message): void {
    if ((m.type !== 'vote-response' && m.type !== 'pre-vote-response') || !m.reject || !m.wallTimeMs) return;
    const { wallClock: wall, maxClockOffsetMs } = this.options;
    // Ours minus theirs, transit included.
    const offsetMs = wall ? wall.nowMs() - m.wallTimeMs : undefined;
    if (offsetMs !== undefined && maxClockOffsetMs > 0 && Math.abs(offsetMs) <= maxClockOffsetMs) return;
    this.refusedByPeersCount++;
    const how =
      offsetMs === undefined
        ? 'the clocks differ'
        : offsetMs > 0
          ? `this node's clock is ${offsetMs} ms ahead of its (or the refusal was delayed that long)`
          : `this node's clock is ${-offsetMs} ms behind its`;
    this.warn(`refused-by:${m.from}`, (held) =>
      this.options.log.warn(
        {
          id: this.options.id,
          peer: m.from,
          response: m.type,
          ...(offsetMs !== undefined ? { offsetMs } : {}),
          maxClockOffsetMs,
          heldBackWarnings: held,
        },
        `raft: ${m.from} refused this node's ${m.type === 'vote-response' ? 'vote' : 'pre-vote'} request for its clock: ${how}, beyond the bound; this node cannot be elected by it (if this node's system clock was wrong when it started, restart it once it is right)`,
      ),
    );
  }

  private warn(key: string, write: (held: number) => void): void {
    const now = this.options.monotonicMs();
    const last = this.warnings.get(key);
    if (last && now - last.atMs < CLOCK_WARNING_EVERY_MS) {
      last.held++;
      return;
    }
    write(last?.held ?? 0);
    this.warnings.set(key, { atMs: now, held: 0 });
  }
}
