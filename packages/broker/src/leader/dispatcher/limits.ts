/**
 * The rate and in-flight limits of groups on the leader (docs/design.md,
 * "Delivery controls"): per group's queue, a token bucket of
 * `max_deliveries_per_second` tokens a second holding at most `burst`, and a
 * count of its leases running at once against `max_in_flight`. Pure
 * bookkeeping driven by `now` (no timers, no I/O): the dispatcher asks how
 * many entries a round of a queue may lease (`room`: O(1) while the queue is
 * at its limit, so its due entries are not read) and when to ask again
 * (`readyAtMs`), admits what a read found at the stamp of the lease command
 * that carries it (`admit`), and reports what was leased, settled, extended
 * and lost.
 *
 * A token is taken at the time the delivery starts (its lease start: the
 * stamp, or the entry's due time when leased ahead), so the bound holds on
 * what consumers get: in any window of W ms a group's leases start at most
 * `burst + rate * W / 1000` times. The bucket is kept as the time it is full
 * again (the generic cell rate algorithm), which keeps that bound even when
 * tokens are taken out of time order (an entry leased ahead, then an overdue
 * one).
 */
import { tagKeyOf, tagQueue } from '../../keys.js';
import type { GroupSettings } from '../../state/model/group-settings.js';
import { InFlightLedger } from './in-flight-ledger.js';
import { LEASE_ROUND_INTERVAL_MS } from './round-cadence.js';
import { TokenBucket } from './token-bucket.js';

export type LimitName = 'rate' | 'in_flight';

/** Slack for the rounding of a fraction of tokens (an interval may be a fraction of a ms). */
const TOKEN_SLACK = 1e-9;

/**
 * How far ahead of its due time an entry of a rate-limited group is leased
 * (at most; others are leased `dispatcher.leaseAheadMs` ahead). A token
 * taken for a time ahead holds back every delivery before it until then
 * (the bucket is full again later), so a lease taken seconds ahead would
 * stop the group for seconds; and how far ahead a previous leader can have
 * taken tokens, which a new leader's bucket waits out.
 */
export const RATE_LIMITED_LEASE_AHEAD_MS = LEASE_ROUND_INTERVAL_MS;

/** A group's limits as they take effect (effectiveGroupSettings: a burst of 0 resolved). */
export type GroupLimits = Pick<GroupSettings, 'maxDeliveriesPerSecond' | 'burst' | 'maxInFlight'>;

/** One group's limits on this leader. */
interface GroupLimiter {
  limits: GroupLimits;
  bucket: TokenBucket | undefined;
  ledger: InFlightLedger | undefined;
  /**
   * Per limit, the last time it held back an entry of the queue that was due
   * then (for the rate, up to the ms before its next token, which may be ahead).
   */
  readonly heldAtMs: Record<LimitName, number>;
  /** Its settings changed since they were read: the next round reads them (and is not held back). */
  stale: boolean;
}

/**
 * The limits of every limited group's queue on this leader, known from the
 * topic record each lease round reads (`configure`). A queue it does not
 * know is not limited here; a new leader knows none until their first round,
 * whose read it then trims (`admit`).
 */
export class DeliveryLimits {
  private readonly groups = new Map<bigint, GroupLimiter>();
  /** Entries of reads admitted after a limit held them back (for the lease they get). */
  private readonly throttledEntries = new WeakMap<object, LimitName>();
  /** Deliveries leased after a limit held them back, per queue, since this node leads. */
  private readonly throttledByQueue = new Map<bigint, number>();
  /** When this node became leader (+infinity while it does not lead). */
  private leaderSinceMs = Number.POSITIVE_INFINITY;

  /** How far ahead of their due time a rate-limited group's entries are leased. */
  private readonly aheadMs: number;

  /** @param leaseAheadMs how long before their due time the dispatcher leases entries */
  constructor(leaseAheadMs: number) {
    this.aheadMs = Math.min(leaseAheadMs, RATE_LIMITED_LEASE_AHEAD_MS);
  }

  /** This node became leader at `nowMs`: no group is known, every bucket it makes starts empty. */
  begin(nowMs: number): void {
    this.clear();
    this.leaderSinceMs = nowMs;
  }

  /** Leadership lost: everything is forgotten. */
  clear(): void {
    this.groups.clear();
    this.throttledByQueue.clear();
    this.leaderSinceMs = Number.POSITIVE_INFINITY;
  }

  /** Whether the queue has a limit here. */
  limited(q: bigint): boolean {
    return this.groups.has(q);
  }

  /**
   * The queue's limits as its topic record says now (undefined: no such
   * group, or none). A bucket made here starts empty, and no earlier than
   * the rate-limited look-ahead after this node became leader: the previous
   * leader's tokens were taken for times up to its last stamp plus that, and
   * so no burst passes beyond `burst` across a failover. A bucket
   * already kept is reshaped (`TokenBucket.reshape`). Returns true when the
   * group's in-flight count starts here: the caller seeds it with the
   * group's running leases (`seed`) before its next `admit`.
   */
  configure(q: bigint, limits: GroupLimits | undefined, nowMs: number): boolean {
    const rate = limits?.maxDeliveriesPerSecond ?? 0;
    const maxInFlight = limits?.maxInFlight ?? 0;
    if (!limits || (rate === 0 && maxInFlight === 0)) {
      this.groups.delete(q);
      return false;
    }
    let g = this.groups.get(q);
    if (!g) {
      g = {
        limits,
        bucket: undefined,
        ledger: undefined,
        heldAtMs: { rate: Number.NEGATIVE_INFINITY, in_flight: Number.NEGATIVE_INFINITY },
        stale: false,
      };
      this.groups.set(q, g);
    }
    g.limits = limits;
    g.stale = false;
    const burst = Math.max(1, limits.burst);
    if (rate === 0) g.bucket = undefined;
    else if (!g.bucket) g.bucket = this.newBucket(rate, burst, nowMs);
    else if (!g.bucket.shapedAs(rate, burst)) g.bucket.reshape(rate, burst, nowMs);
    noteEmpty(g, nowMs);
    if (maxInFlight === 0) {
      g.ledger = undefined;
      return false;
    }
    if (g.ledger) return false;
    g.ledger = new InFlightLedger();
    return true;
  }

  /**
   * The group's settings changed (applied): its next round is not held back,
   * so that it reads them (`configure`) at once, whatever its old limits said.
   */
  changed(q: bigint): void {
    const g = this.groups.get(q);
    if (g) g.stale = true;
  }

  /** An empty bucket (see `configure`). */
  protected newBucket(rate: number, burst: number, nowMs: number): TokenBucket {
    return new TokenBucket(rate, burst, Math.max(nowMs, this.leaderSinceMs + this.aheadMs));
  }

  /**
   * How many lease rounds of the queue may await apply at once: `max`, and
   * for a rate-limited one a second's worth of its rounds (LIMITED_ROUND_MS
   * apart): each carries only what the rate gave, and a round that cannot
   * start while commits are slow loses the tokens past the burst.
   */
  roundsInFlight(q: bigint, max: number): number {
    return this.groups.get(q)?.bucket ? Math.max(max, LIMITED_ROUNDS_IN_FLIGHT) : max;
  }

  /** How far ahead of their due time the queue's entries are leased: `leaseAheadMs`, less for a rate-limited one. */
  leaseAheadMs(q: bigint, leaseAheadMs: number): number {
    return this.groups.get(q)?.bucket ? Math.min(leaseAheadMs, this.aheadMs) : leaseAheadMs;
  }

  /** The group's leases running when its in-flight count started (read from the store). */
  seed(q: bigint, leases: ReadonlyArray<{ readonly tag: Uint8Array; readonly leaseEndMs: number }>): void {
    const ledger = this.groups.get(q)?.ledger;
    if (!ledger) return;
    for (const l of leases) ledger.add(tagKeyOf(l.tag), l.leaseEndMs);
  }

  /**
   * How many entries a round of the queue may lease at `nowMs`, with
   * `proposing` of its entries in lease commands not yet answered: the
   * tokens the bucket holds (none until it holds a round's worth, see
   * `roundTokens`) and the free slots under max_in_flight; infinity when
   * not limited. `dueMs` is when the queue's next entry is due: a limit that
   * gives no room to a due entry holds it back (counted, see `admit`).
   */
  room(q: bigint, nowMs: number, proposing: number, dueMs: number | undefined): number {
    const g = this.groups.get(q);
    if (!g || g.stale) return Number.POSITIVE_INFINITY;
    const due = dueMs !== undefined && dueMs <= nowMs;
    let room = Number.POSITIVE_INFINITY;
    if (g.bucket) {
      // Not leased that far ahead: not held back either.
      if (dueMs !== undefined && dueMs > nowMs + this.aheadMs) return 0;
      const tokens = g.bucket.tokensAt(nowMs);
      if (tokens < roundTokens(g.limits)) {
        if (due) g.heldAtMs.rate = Math.max(g.heldAtMs.rate, nowMs);
        return 0;
      }
      room = Math.floor(tokens + TOKEN_SLACK);
    }
    if (g.ledger) {
      const free = g.limits.maxInFlight - g.ledger.running(nowMs) - proposing;
      if (free <= 0) {
        if (due) g.heldAtMs.in_flight = nowMs;
        return 0;
      }
      room = Math.min(room, free);
    }
    return room;
  }

  /**
   * When the queue may have room again, at or after `nowMs`: when its bucket
   * holds a round's worth of tokens, and, its slots all taken, when the
   * first of its leases ends (a settle or an answered lease command wakes
   * the dispatcher itself).
   */
  readyAtMs(q: bigint, nowMs: number, proposing: number): number {
    const g = this.groups.get(q);
    if (!g || g.stale) return nowMs;
    let at = nowMs;
    if (g.bucket) at = Math.max(at, Math.ceil(g.bucket.timeFor(roundTokens(g.limits))));
    if (g.ledger && g.limits.maxInFlight - g.ledger.running(nowMs) - proposing <= 0) {
      at = Math.max(at, g.ledger.nextEndMs() ?? Number.POSITIVE_INFINITY);
    }
    return at;
  }

  /**
   * Admits, in order, the entries a round read (due order: the most overdue
   * first), for a lease command stamped `stampMs`: each takes a slot and a
   * token at its start (`stampMs`, or its due time when leased ahead). Stops
   * at the first that does not fit; returns how many fit. `nextDueMs` is the
   * due time of the queue's first entry the read did not take: when it is
   * due and the limits leave no room for it, they hold it back.
   *
   * A limit holds a queue back when it leaves entries due unleased (a round
   * skipped for it, or cut short by it), and the rate while its bucket is
   * empty (until the next token); an entry admitted that was due when that
   * last happened is throttled (`throttledBy`): the limit, not the broker,
   * made it late.
   */
  admit(
    q: bigint,
    entries: ReadonlyArray<{ readonly dueAtMs: number }>,
    stampMs: number,
    proposing: number,
    nextDueMs?: number,
  ): number {
    const g = this.groups.get(q);
    if (!g) return entries.length;
    const free = g.ledger
      ? g.limits.maxInFlight - g.ledger.running(stampMs) - proposing
      : Number.POSITIVE_INFINITY;
    let n = 0;
    for (const e of entries) {
      const due = e.dueAtMs <= stampMs;
      if (n >= free) {
        if (due) g.heldAtMs.in_flight = stampMs;
        break;
      }
      // Leased at most the rate-limited look-ahead before its due time (the first read may hold more).
      if (g.bucket && e.dueAtMs > stampMs + this.aheadMs) break;
      const startMs = Math.max(stampMs, e.dueAtMs);
      if (g.bucket && !g.bucket.take(startMs)) {
        noteEmpty(g, startMs);
        break;
      }
      // Held back at or after its due time: the limit, not the broker, made it late.
      const byRate = g.heldAtMs.rate;
      const byInFlight = g.heldAtMs.in_flight;
      if (Math.max(byRate, byInFlight) >= e.dueAtMs)
        this.throttledEntries.set(e, byRate >= byInFlight ? 'rate' : 'in_flight');
      // Its token may have been the last: what comes due before the next one waits for it.
      noteEmpty(g, startMs);
      n++;
    }
    if (n === entries.length && nextDueMs !== undefined && nextDueMs <= stampMs) {
      // Everything read fit, and more is due: held back if no room is left for it.
      if (n >= free) g.heldAtMs.in_flight = stampMs;
      else if (g.bucket && !g.bucket.holds(stampMs)) g.heldAtMs.rate = Math.max(g.heldAtMs.rate, stampMs);
    }
    return n;
  }

  /** The limit that held back an entry `admit` let through, if one did. */
  throttledBy(entry: object): LimitName | undefined {
    return this.throttledEntries.get(entry);
  }

  /** An entry `admit` counted as throttled was leased, or ended at its deadline by its lease command. */
  countThrottled(q: bigint): void {
    this.throttledByQueue.set(q, (this.throttledByQueue.get(q) ?? 0) + 1);
  }

  /** Entries of the queue leased (or ended at their deadline) after a limit held them back, since this node leads. */
  throttled(q: bigint): number {
    return this.throttledByQueue.get(q) ?? 0;
  }

  /** A lease of the queue was taken (its tag, its end). */
  leased(q: bigint, tag: Uint8Array, leaseEndMs: number): void {
    this.groups.get(q)?.ledger?.add(tagKeyOf(tag), leaseEndMs);
  }

  /** Settles (acks, nacks) of these tags were applied: their slots are free. */
  settled(tags: readonly Uint8Array[]): void {
    for (const tag of tags) this.ledgerOf(tag)?.remove(tagKeyOf(tag));
  }

  /** An extend of `tag` is being proposed: its slot stays taken until `extended` or `unpin`. */
  pin(tag: Uint8Array): void {
    this.ledgerOf(tag)?.pin(tagKeyOf(tag));
  }

  unpin(tag: Uint8Array): void {
    this.ledgerOf(tag)?.unpin(tagKeyOf(tag));
  }

  /** The lease of `tag` was extended: it runs as `next` until `leaseEndMs`. */
  extended(tag: Uint8Array, next: Uint8Array, leaseEndMs: number): void {
    this.ledgerOf(tag)?.extended(tagKeyOf(tag), tagKeyOf(next), leaseEndMs);
  }

  /** A lease command of `count` of the queue's entries failed and may still apply: they count until `untilMs`. */
  unknownOutcome(q: bigint, count: number, untilMs: number): void {
    this.groups.get(q)?.ledger?.addUnknown(count, untilMs);
  }

  private ledgerOf(tag: Uint8Array): InFlightLedger | undefined {
    if (this.groups.size === 0 || tag.length < 8) return undefined;
    return this.groups.get(tagQueue(tag))?.ledger;
  }
}

/**
 * While the group's bucket is empty from `t` (a new one, or a token just
 * taken), nothing starts before its next token: an entry due before then
 * is held back by the rate, whether or not a round came to be refused.
 */
function noteEmpty(g: GroupLimiter, t: number): void {
  if (g.bucket && !g.bucket.holds(t))
    g.heldAtMs.rate = Math.max(g.heldAtMs.rate, Math.ceil(g.bucket.timeFor(1)) - 1);
}

/** A throttled group's rounds come about this often: each a Raft command of what the rate gave meanwhile. */
export const LIMITED_ROUND_MS = 50;

/** Lease rounds of a rate-limited queue awaiting apply at once: a second of them. */
const LIMITED_ROUNDS_IN_FLIGHT = 1000 / LIMITED_ROUND_MS;

/**
 * The tokens a limited queue waits for before a round: what the rate gives
 * in LIMITED_ROUND_MS, at most half the burst, at least 1. Several entries a
 * round, not a Raft command per token; and a round starts while the bucket
 * has room for as many tokens again. While commands are slow to commit,
 * the queue's rounds go on taking the tokens (LIMITED_ROUNDS_IN_FLIGHT of
 * them may await apply, see `roundsInFlight`): a token is lost only when
 * that many await apply and the bucket fills meanwhile.
 */
export function roundTokens(limits: GroupLimits): number {
  const perRound = Math.floor((limits.maxDeliveriesPerSecond * LIMITED_ROUND_MS) / 1000);
  return Math.max(1, Math.min(Math.floor(limits.burst / 2), perRound));
}
