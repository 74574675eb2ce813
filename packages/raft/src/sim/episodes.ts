/**
 * Two episodes of the swarm profile (fault-profile.ts), drawn with what they do
 * from a third stream of the seed, so a seed in which neither fires runs as it
 * would without them. Each lines up a window the general invariants can only
 * see when it is lined up:
 *
 * - A stale tail: a leader and one follower are cut off together from a quorum
 *   of the other voters, and the leader's next entries reach only the follower,
 *   which makes them durable. The others elect a leader that commits entries at
 *   those indexes; once the cut heals, the follower's first append from it
 *   truncates the stale tail and carries a commit index that covers what
 *   replaces it, in one Ready. The follower's log writes are slow and its hard
 *   state fast for the episode, and it loses power the moment a directory sync
 *   of another of its files lands while that truncating write is in flight:
 *   a driver that saves the hard state beside the log write, not after it,
 *   leaves a commit index over entries its log does not hold.
 * - A hidden commit: the leader that commits a change of the voters (a
 *   promotion, a removal) is cut off from every node in that step, before any
 *   other learns the commit, and its disk turns slower than an election for a
 *   while after the cut heals: the rest of the new configuration, a majority of
 *   it, holds the entry without knowing it committed and counts the old
 *   voters, and only what the slow node tells them (its vote requests) can let
 *   them elect one of their own.
 */
import type { NodeId } from '../types.js';
import type { Prng } from './prng.js';
import type { DiskWrite } from './sim-disk.js';
import type { SimNode } from './sim-node.js';

/** How long an asked-for stale-tail episode waits for a leader with a fitting follower (no other faults meanwhile). */
const STALE_REQUEST_MS = 1500;
/** How long the leader and its follower are cut off from the rest: a new leader is elected and commits meanwhile. */
const STALE_CUT_MS: readonly [number, number] = [400, 1200];
/** How long, once the cut heals, the episode waits for the follower's truncating write. */
const STALE_WAIT_MS = 1500;
/** The follower's writes during the episode: slow, so its hard-state save lands before its log write. */
const STALE_WRITE_MS: readonly [number, number] = [60, 200];
/** Share of that latency the follower's small files (the hard state, the address book) take meanwhile. */
const STALE_SMALL_FILE_SHARE = 0.05;
/** How long a leader that committed a change of the voters is cut off: long enough for it to step down (check-quorum). */
const HIDDEN_CUT_MS: readonly [number, number] = [500, 900];
/** Its disk's latency once cut (slower than an election), and for how long. */
const HIDDEN_DISK_MS: readonly [number, number] = [150, 500];
const HIDDEN_SLOW_MS: readonly [number, number] = [2500, 4000];
/** How long an armed hidden commit waits for the leader to commit its change (no other faults meanwhile). */
const HIDDEN_ARM_MS = 1500;
const SMALL_FILES = ['hard-state', 'members'] as const;

/** What the episodes drive: the simulation (simulation.ts). */
export interface EpisodeHost {
  readonly chaos: boolean;
  readonly nodes: ReadonlyMap<NodeId, SimNode>;
  nowMs(): number;
  trace(line: string): void;
  stallDisk(n: SimNode, latencyMs: readonly [number, number], episodeMs: number): void;
  partition(links: string[], kind: string, durationMs?: number): void;
  connected(): boolean;
  propose(n: SimNode): void;
  /** Leader `n` removes voter `id` through the workload (an operator's RemoveMember). */
  removeVoter(n: SimNode, id: NodeId): void;
}

interface StaleTail {
  readonly leader: SimNode;
  readonly term: number;
  readonly cutUntilMs: number;
  /** The new leader was asked for a membership change. */
  changed: boolean;
  readonly follower: SimNode;
  readonly incarnation: number;
  readonly untilMs: number;
  readonly shares: ReadonlyMap<string, number | undefined>;
}

interface HiddenCommit {
  readonly leader: SimNode;
  readonly incarnation: number;
  /** The voters before the change, as the leader counts them. */
  readonly voters: string;
  readonly untilMs: number;
}

export class Episodes {
  private stale: StaleTail | undefined;
  private hidden: HiddenCommit | undefined;
  /** The leader of a hidden commit, taking no proposals until then (its log stays no longer than the others'). */
  private hush: { readonly node: SimNode; readonly untilMs: number } | undefined;

  /** `prng`: the seed's third stream; `staleTailRate` of fault slots, `hiddenCommitRate` of changes of the voters. */
  constructor(
    private readonly host: EpisodeHost,
    private readonly prng: Prng,
    private readonly staleTailRate: number,
    private readonly hiddenCommitRate: number,
  ) {}

  /** A stale-tail episode was asked for until this virtual time. */
  private requestedUntilMs: number | undefined;

  /**
   * A stale-tail episode is asked for or under way, or a hidden commit armed: the simulation
   * injects no other fault and the workload changes no membership meanwhile.
   */
  get busy(): boolean {
    return (
      this.stale !== undefined ||
      this.requestedUntilMs !== undefined ||
      this.hidden !== undefined ||
      this.hush !== undefined
    );
  }

  /** `n` takes no proposals now: the leader of a hidden commit until its disk is fast again. */
  hushed(n: SimNode): boolean {
    return this.hush?.node === n;
  }

  /**
   * A fault slot: now and then a stale-tail episode is asked for (true) instead of another
   * fault; it starts at the first step, within STALE_REQUEST_MS, where no partition is in
   * force and a leader has a follower whose cut-off with it leaves a quorum of the other
   * voters up. No other fault is injected meanwhile.
   */
  fault(): boolean {
    if (this.busy || !this.prng.chance(this.staleTailRate)) return false;
    this.requestedUntilMs = this.host.nowMs() + STALE_REQUEST_MS;
    return true;
  }

  private startStale(): boolean {
    if (!this.host.connected()) return false;
    const up = [...this.host.nodes.values()].filter((n) => n.running && !n.decommissioned);
    const leaders = up.filter((n) => {
      const s = n.core!.status();
      return s.role === 'leader' && s.conf.voters.includes(n.id);
    });
    if (leaders.length === 0) return false;
    const leader = this.prng.pick(leaders);
    const { conf, term } = leader.core!.status();
    const isUp = (id: NodeId) => up.some((n) => n.id === id);
    const followers = up.filter((n) => {
      if (n === leader || n.core!.status().leader !== leader.id) return false;
      const others = conf.voters.filter((v) => v !== leader.id && v !== n.id && isUp(v));
      return others.length > conf.voters.length / 2;
    });
    if (followers.length === 0) return false;
    const follower = this.prng.pick(followers);
    const links: string[] = [];
    for (const r of this.host.nodes.values()) {
      if (r === leader || r === follower) continue;
      for (const s of [leader, follower]) links.push(`${s.id}>${r.id}`, `${r.id}>${s.id}`);
    }
    const cutMs = this.prng.int(STALE_CUT_MS[0], STALE_CUT_MS[1]);
    this.requestedUntilMs = undefined;
    this.host.partition(links, `stale-tail: leader ${leader.id}@${term} and ${follower.id} cut off`, cutMs);
    const shares = new Map<string, number | undefined>();
    for (const f of SMALL_FILES) {
      shares.set(f, follower.disk.latencyShare.get(f));
      follower.disk.latencyShare.set(f, STALE_SMALL_FILE_SHARE);
    }
    this.host.stallDisk(follower, STALE_WRITE_MS, cutMs + STALE_WAIT_MS);
    this.stale = {
      leader,
      term,
      cutUntilMs: this.host.nowMs() + cutMs,
      changed: false,
      follower,
      incarnation: follower.incarnation,
      untilMs: this.host.nowMs() + cutMs + STALE_WAIT_MS,
      shares,
    };
    // Entries only the follower receives.
    for (let i = this.prng.int(1, 3); i > 0; i--) this.host.propose(leader);
    return true;
  }

  /**
   * A log write of `n` started: true when it is the truncating write of a stale-tail
   * episode's follower, which is then to lose power at its truncation boundary.
   */
  truncating(n: SimNode, write: DiskWrite): boolean {
    const e = this.stale;
    if (!e || n !== e.follower || !write.truncates || n.incarnation !== e.incarnation) return false;
    this.endStale(`${n.id} writes ${write.what}`);
    return true;
  }

  /** After every step: an asked-for stale-tail episode starts when it can; one that timed out ends. */
  afterStep(): void {
    if (this.hush && (!this.host.chaos || this.host.nowMs() > this.hush.untilMs)) this.hush = undefined;
    if (this.hidden && (!this.host.chaos || this.host.nowMs() > this.hidden.untilMs)) {
      this.host.trace(`hidden-commit over: ${this.hidden.leader.id} did not commit its change in time`);
      this.hidden = undefined;
    }
    if (this.requestedUntilMs !== undefined) {
      if (!this.host.chaos || this.host.nowMs() > this.requestedUntilMs) {
        this.requestedUntilMs = undefined;
        this.host.trace('stale-tail not started: no leader with a fitting follower');
      } else this.startStale();
    }
    const e = this.stale;
    if (!e) return;
    const now = this.host.nowMs();
    if (!this.host.chaos || now > e.untilMs) {
      this.endStale('timed out');
      return;
    }
    if (e.changed || now >= e.cutUntilMs) return;
    // The rest's new leader removes the cut-off one while the cut lasts: the entries that
    // replace the follower's tail carry a configuration committed with them, whose commit
    // the follower's hard state records in the Ready that truncates the tail.
    for (const n of this.host.nodes.values()) {
      if (n === e.leader || n === e.follower || !n.running) continue;
      const s = n.core!.status();
      if (s.role !== 'leader' || s.term <= e.term || !s.conf.voters.includes(n.id)) continue;
      e.changed = true;
      if (!s.conf.voters.includes(e.leader.id)) return;
      this.host.trace(`stale-tail: ${n.id}@${s.term} removes ${e.leader.id}`);
      this.host.removeVoter(n, e.leader.id);
      return;
    }
  }

  private endStale(why: string): void {
    const e = this.stale;
    if (!e) return;
    this.stale = undefined;
    for (const [f, share] of e.shares) {
      const file = f as (typeof SMALL_FILES)[number];
      if (share === undefined) e.follower.disk.latencyShare.delete(file);
      else e.follower.disk.latencyShare.set(file, share);
    }
    this.host.trace(`stale-tail over: ${why}`);
  }

  /** `leader` proposes `change` of the voters. */
  votersChangeProposed(leader: SimNode, change: { type: 'promote' | 'remove'; node: NodeId }): void {
    if (this.hidden) return;
    const old = leader.core!.status().conf.voters;
    const next = change.type === 'promote' ? [...old, change.node] : old.filter((v) => v !== change.node);
    const rest = [...this.host.nodes.keys()].filter((id) => id !== leader.id);
    if (!hideFrom(leader.id, old, next, rest) || !this.prng.chance(this.hiddenCommitRate)) return;
    const voters = old.join('+');
    this.hidden = {
      leader,
      incarnation: leader.incarnation,
      voters,
      untilMs: this.host.nowMs() + HIDDEN_ARM_MS,
    };
    this.host.trace(`hidden-commit armed: ${leader.id} changing ${voters}`);
  }

  /** `n`'s commit index moved: true when it is the armed leader committing its change (cut off now). */
  committed(n: SimNode): boolean {
    const armed = this.hidden;
    if (!armed || armed.leader !== n) return false;
    const s = n.core?.status();
    if (n.incarnation !== armed.incarnation || !s || s.role !== 'leader') {
      this.hidden = undefined;
      return false;
    }
    const voters = s.conf.voters.join('+');
    if (voters === armed.voters) return false;
    this.hidden = undefined;
    const old = armed.voters.split('+');
    const rest = [...this.host.nodes.keys()].filter((id) => id !== n.id);
    const cutAway = hideFrom(n.id, old, s.conf.voters, rest);
    if (!cutAway) {
      this.host.trace(`hidden-commit over: no majority of ${voters} without one of ${armed.voters}`);
      return false;
    }
    const cutMs = this.prng.int(HIDDEN_CUT_MS[0], HIDDEN_CUT_MS[1]);
    const slowMs = cutMs + this.prng.int(HIDDEN_SLOW_MS[0], HIDDEN_SLOW_MS[1]);
    const across = (id: NodeId) => rest.filter((o) => o !== id).flatMap((o) => [`${id}>${o}`, `${o}>${id}`]);
    this.host.partition(across(n.id), `hidden-commit ${n.id} committed ${armed.voters} -> ${voters}`, cutMs);
    this.host.stallDisk(n, HIDDEN_DISK_MS, slowMs);
    this.hush = { node: n, untilMs: this.host.nowMs() + slowMs };
    for (const z of cutAway)
      this.host.partition(
        across(z).filter((l) => !l.includes(n.id)),
        `hidden-commit: ${z} of ${armed.voters} away`,
        slowMs,
      );
    return true;
  }
}

/**
 * The voters of `old` to cut off with `leader` so that the nodes left (of `rest`) are a
 * majority of the new voters `now` and not of the old ones (voters removed by the change
 * first); undefined when there are none, or when the leader is not a voter of `now`.
 */
function hideFrom(
  leader: NodeId,
  old: readonly NodeId[],
  now: readonly NodeId[],
  rest: readonly NodeId[],
): NodeId[] | undefined {
  // A leader that removed itself does not campaign: nothing it holds would reach the rest.
  if (!now.includes(leader)) return undefined;
  const cutAway: NodeId[] = [];
  const count = (ids: readonly NodeId[]) =>
    rest.filter((id) => !cutAway.includes(id) && ids.includes(id)).length;
  const order = [...old.filter((v) => !now.includes(v)), ...old.filter((v) => now.includes(v))];
  for (const v of order) {
    if (count(old) <= old.length / 2) break;
    if (v === leader) continue;
    cutAway.push(v);
    if (count(now) <= now.length / 2) return undefined;
  }
  return count(old) <= old.length / 2 && count(now) > now.length / 2 ? cutAway : undefined;
}
