/**
 * Swarm testing (as TigerBeetle's VOPR does): every seed draws its own fault
 * profile, so some runs are dominated by one kind of fault and reach the
 * corners a uniform mix of faults visits rarely: slow disks on some nodes
 * (leaders with unsynced entries, followers with a write in flight when a
 * new leader's conflicting append arrives), crashes timed at fsync
 * boundaries while another write of the node is in flight, fsync stalls of
 * one follower's disk, power losses while a truncating log write is in
 * flight, bridge partitions, quiet runs with few faults, depositions (a
 * leader cut off while a follower's in-flight write holds its tail, see
 * deposition.ts), power losses of several nodes at once, membership changes
 * in bursts with crashes right after they apply, removed members that
 * linger, failing syncs (EIO) and full disks (ENOSPC), on which a node stops
 * (fail-stop) and is restarted, long outages, clusters that shrink to one
 * voter, and member replacements while another member is away; and, from
 * the seed's second stream, removals whose commit announcement the leader
 * loses, power losses at the moment the hard state becomes durable while a
 * truncating log write is in flight, and small files that sync faster than
 * the log.
 */
import type { Prng } from './prng.js';

/** How long one fsync stall lasts: [min, max] virtual ms. */
export const STALL_EPISODE_MS: readonly [number, number] = [500, 2000];
/** How long a long outage keeps a node down: [min, max] virtual ms (longer than the live-majority bound). */
export const LONG_OUTAGE_MS: readonly [number, number] = [2500, 5000];
/** How long a calm window (no new faults) lasts: [min, max] virtual ms (longer than the live-majority bound). */
export const CALM_MS: readonly [number, number] = [2500, 4000];
/** How long a disk stays full: [min, max] virtual ms. */
export const FULL_DISK_MS: readonly [number, number] = [200, 2000];

export interface FaultProfile {
  /** Share of nodes whose disk is slow (each node draws once, learners added later too). */
  readonly slowDiskRate: number;
  /** Virtual ms one write to a slow disk takes: [min, max], until the run heals. */
  readonly slowDiskMs: readonly [number, number];
  /**
   * Chance that one node's disk is sick for the chaotic phase: its writes take
   * `sickDiskMs`, longer than an election, so a new leader's appends reach it while
   * the old leader's entries are still being written.
   */
  readonly sickDiskRate: number;
  readonly sickDiskMs: readonly [number, number];
  /**
   * Chance that a write landing while a write to another file of the same node is
   * still in flight crashes the node at that fsync boundary (before or just after the
   * code sees the completion): what the driver writes concurrently lands in part.
   */
  readonly fsyncCrashRate: number;
  /** Share of crash faults that are a power loss of several nodes at once (possibly all). */
  readonly powerLossRate: number;
  /**
   * Chance that a leader whose commit index just advanced while its own log write is
   * in flight loses power, together with every other node that has a write in flight.
   */
  readonly inFlightCommitCrashRate: number;
  /** Chance that a node which just applied a membership change, or is about to truncate its log, crashes. */
  readonly localCrashRate: number;
  /**
   * Share of faults that are an fsync stall: one follower's disk (a leader's when no
   * follower is up) takes `fsyncStallMs` per write for `STALL_EPISODE_MS`, so entries
   * pile up behind one write and a new leader's conflicting append can reach the node
   * while the write holding them is in flight.
   */
  readonly fsyncStallRate: number;
  readonly fsyncStallMs: readonly [number, number];
  /**
   * Chance that a node whose log write truncates (a conflicting append replacing a
   * suffix) loses power at a random moment while that write is in flight: after the
   * truncation reached the disk, before (some of) the frames that follow it did.
   */
  readonly truncationCrashRate: number;
  /**
   * Share of partition faults that are a bridge (as Jepsen's nemesis): one node, a
   * leader when there is one, is cut off from every node but one, and that one (a node
   * whose disk stalls, or else one with a log write in flight) still talks to both sides:
   * the old leader's last entries reach only it while the others elect a new leader.
   */
  readonly bridgeRate: number;
  /**
   * Faults come this many times less often: quiet runs where a leader keeps its term long
   * enough to replicate a stream of entries, so the few faults land on a busy log.
   */
  readonly faultSpacing: number;
  /**
   * Share of faults that are a deposition (deposition.ts): a leader cut off while one
   * follower's stalled log write holds entries the others have and, behind them, entries
   * only it received; the new leader's append conflicts with that write while it is in
   * flight, and the follower loses power during its next, truncating, write.
   */
  readonly depositionRate: number;
  /** The next membership change is proposed as soon as the previous one is done. */
  readonly membershipBurst: boolean;
  /** A node whose removal is done (RemoveMember returned) keeps running this long (at most) before it is shut down. */
  readonly decommissionDelayMs: number;
  /**
   * Chance that a sync of a node's files (fsync, fdatasync, an O_DSYNC write) fails with
   * EIO: the node stops with a fatal error (fail-stop) and is restarted after a while.
   */
  readonly eioRate: number;
  /** Share of faults that fill one node's disk for FULL_DISK_MS (ENOSPC on writes that grow a file). */
  readonly fullDiskRate: number;
  /**
   * Share of fault slots that start a calm window of CALM_MS: no new faults, message loss
   * off, while crashed nodes stay down for their outage and the rest heal: the live-majority
   * rule (liveness.ts) applies while faults heal.
   */
  readonly calmRate: number;
  /** Share of crashes that keep the node down for LONG_OUTAGE_MS: a member away while others change. */
  readonly longOutageRate: number;
  /** Membership changes may leave a single voter (otherwise at least two of three, three of five). */
  readonly shrinkToOne: boolean;
  /**
   * Share of membership changes that replace a voter while another voter is down (a long
   * outage): a new member is added and the old one removed, or the old one removed and
   * added again under its id on an empty disk (docs/operations.md, "Replacing a lost node").
   */
  readonly replacementRate: number;
  /**
   * Chance that a leader committing the removal of a voter from an even number of voters
   * (2 -> 1, 4 -> 3: the old quorum needs the removed member, the new one does not) loses
   * the announcement of that commit: it is cut off from every node at that step, for
   * ANNOUNCEMENT_CUT_MS when it removed itself (it runs on until it is shut down), for
   * LONG_OUTAGE_MS otherwise, while the removed member may be shut down.
   */
  readonly lostAnnouncementRate: number;
  /**
   * Chance that a node whose truncating log write starts loses power the moment a write to
   * another of its files lands while that log write is still in flight: what the driver
   * wrote beside the truncation reached the disk, the truncation did not.
   */
  readonly truncationBoundaryRate: number;
  /**
   * Share of a disk's latency the operations on the small files replaced by rename (the hard
   * state, the address book) take (1: as long as the log's): a hard-state save (a sync of the
   * new file, then of the directory) can land before a log sync it runs beside.
   */
  readonly smallFileLatencyShare: number;
  /**
   * Share of fault slots that start a stale-tail episode (episodes.ts): a leader and one
   * follower cut off together, the follower truncating what only it received once a new
   * leader committed over it, and losing power at that truncating write's boundary.
   */
  readonly staleTailRate: number;
  /**
   * Chance that a leader committing a change of the voters is cut off in that step and its
   * disk turns slower than an election (episodes.ts): the rest of the new configuration
   * holds the entry without knowing it committed.
   */
  readonly hiddenCommitRate: number;
}

/** How long a leader that removed itself is cut off when its commit announcement is lost: below the live-majority bound. */
export const ANNOUNCEMENT_CUT_MS: readonly [number, number] = [300, 1500];

/**
 * The profile every seed draws (swarm testing: each dimension on or off per seed): from the
 * run's PRNG, and the scenario dimensions added after the others from `scenarios`, a second
 * stream of the seed that also draws what those scenarios do, and the episodes (episodes.ts)
 * from `episodes`, a third one, so a seed in which none of them fires runs exactly as it
 * did before they existed.
 */
export function pickFaultProfile(prng: Prng, scenarios: Prng, episodes: Prng): FaultProfile {
  return {
    staleTailRate: episodes.pick([0, 0.03, 0.1]),
    hiddenCommitRate: episodes.pick([0, 1, 1]),
    lostAnnouncementRate: scenarios.pick([0, 0.5, 1]),
    truncationBoundaryRate: scenarios.pick([0, 0.5, 1]),
    smallFileLatencyShare: scenarios.pick([1, 0.25, 0.25]),
    slowDiskRate: prng.pick([0, 0, 0.3, 0.5]),
    // Slower than the election timeout only now and then: Raft's liveness needs fsync well below it.
    slowDiskMs: prng.pick([
      [10, 40],
      [20, 80],
      [30, 150],
    ] as const),
    sickDiskRate: prng.pick([0, 0.5]),
    sickDiskMs: prng.pick([
      [100, 300],
      [150, 500],
    ] as const),
    fsyncCrashRate: prng.pick([0, 0.2, 0.5, 1]),
    powerLossRate: prng.pick([0, 0.2, 0.5]),
    inFlightCommitCrashRate: prng.pick([0, 0.05, 0.3]),
    localCrashRate: prng.pick([0.1, 0.25, 0.5]),
    membershipBurst: prng.chance(0.5),
    decommissionDelayMs: prng.pick([300, 3000]),
    fsyncStallRate: prng.pick([0, 0.15, 0.4]),
    fsyncStallMs: prng.pick([
      [60, 200],
      [100, 300],
    ] as const),
    truncationCrashRate: prng.pick([0, 0.3, 0.8]),
    bridgeRate: prng.pick([0, 0.3, 0.7]),
    faultSpacing: prng.pick([1, 1, 4]),
    depositionRate: prng.pick([0, 0, 0.03, 0.1]),
    eioRate: prng.pick([0, 0, 0.0005, 0.002]),
    fullDiskRate: prng.pick([0, 0, 0.02, 0.05]),
    calmRate: prng.pick([0, 0.05, 0.15]),
    longOutageRate: prng.pick([0, 0.1, 0.3]),
    shrinkToOne: prng.chance(0.5),
    replacementRate: prng.pick([0, 0.3, 0.6]),
  };
}

export function describeProfile(p: FaultProfile): string {
  return [
    `slow=${p.slowDiskRate}@${p.slowDiskMs.join('-')}ms`,
    `sick=${p.sickDiskRate}@${p.sickDiskMs.join('-')}ms`,
    `fsync-crash=${p.fsyncCrashRate}`,
    `power-loss=${p.powerLossRate}`,
    `commit-crash=${p.inFlightCommitCrashRate}`,
    `local-crash=${p.localCrashRate}`,
    `burst=${p.membershipBurst}`,
    `decommission<=${p.decommissionDelayMs}ms`,
    `stall=${p.fsyncStallRate}@${p.fsyncStallMs.join('-')}ms`,
    `truncation-crash=${p.truncationCrashRate}`,
    `bridge=${p.bridgeRate}`,
    `fault-spacing=x${p.faultSpacing}`,
    `deposition=${p.depositionRate}`,
    `eio=${p.eioRate}`,
    `full-disk=${p.fullDiskRate}`,
    `calm=${p.calmRate}`,
    `long-outage=${p.longOutageRate}`,
    `shrink-to-one=${p.shrinkToOne}`,
    `replacement=${p.replacementRate}`,
    `lost-announcement=${p.lostAnnouncementRate}`,
    `truncation-boundary=${p.truncationBoundaryRate}`,
    `small-file-latency=x${p.smallFileLatencyShare}`,
    `stale-tail=${p.staleTailRate}`,
    `hidden-commit=${p.hiddenCommitRate}`,
  ].join(' ');
}
