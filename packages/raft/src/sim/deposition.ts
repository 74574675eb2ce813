/**
 * A deposition (a fault of the swarm profile, fault-profile.ts): a leader is
 * cut off while one follower's log write holds entries the rest of the
 * cluster has and, behind them, entries only that follower received; a
 * majority elects a new leader, whose first append reaches the follower
 * while that write is still in flight and conflicts with its tail; the
 * follower then loses power while its next, truncating, log write is in
 * flight. That write must start at the first conflicting index: the entries
 * before it are durable and acknowledged, and a store that truncates them to
 * rewrite them loses them at this crash (docs/design.md, persistence contract).
 */
import type { NodeId } from '../types.js';
import type { Prng } from './prng.js';
import type { DiskWrite } from './sim-disk.js';
import type { SimNode } from './sim-node.js';

/**
 * Virtual ms one write of the follower takes until the cut (entries pile up behind each
 * write, yet it keeps up with the leader), and after it (the write holding the leader's
 * tail is still in flight when the new leader's first append arrives): [min, max].
 */
const ARMED_WRITE_MS: readonly [number, number] = [30, 120];
const DEPOSED_WRITE_MS: readonly [number, number] = [250, 500];
/** How long an asked-for episode waits for a leader with a fitting follower (no other faults meanwhile). */
const REQUEST_TIMEOUT_MS = 1500;
/** How long the episode waits for the follower's write to hold the leader's entries before it gives up. */
const ARM_TIMEOUT_MS = 2000;
/** How long the cut-off leader stays cut off: [min, max] virtual ms (a new leader is elected meanwhile). */
const CUT_MS: readonly [number, number] = [600, 1200];
/** How long, after the cut, the episode waits for the follower's truncating write. */
const DEPOSED_TIMEOUT_MS = 1500;
/** The follower's write in flight must have this long left when the leader is cut, for the leader's last entries to reach it. */
const MIN_WRITE_LEFT_MS = 20;

/** What a deposition drives: the simulation (simulation.ts). */
export interface DepositionHost {
  readonly prng: Prng;
  readonly chaos: boolean;
  readonly nodes: ReadonlyMap<NodeId, SimNode>;
  nowMs(): number;
  at(delayMs: number, describe: () => string, run: () => void): void;
  trace(line: string): void;
  /** `n`'s writes take `latencyMs` for `episodeMs` (or until the run heals). */
  stallDisk(n: SimNode, latencyMs: readonly [number, number], episodeMs: number): void;
  /** Blocks `links` for `durationMs`. */
  partition(links: string[], kind: string, durationMs?: number): void;
  /** No link is blocked (no partition in force). */
  connected(): boolean;
  /** A client proposes on `n`. */
  propose(n: SimNode): void;
  powerLoss(nodes: readonly SimNode[]): void;
}

type Episode =
  | { phase: 'armed'; leader: SimNode; follower: SimNode; term: number; untilMs: number }
  | { phase: 'deposed'; leader: SimNode; follower: SimNode; incarnation: number; untilMs: number };

export class Deposition {
  private episode: Episode | undefined;
  /** An episode was asked for until this virtual time: it arms once a leader and a fitting follower are up. */
  private requestedUntilMs: number | undefined;
  /** When the log write the episode's follower has in flight lands. */
  private writeLandsAtMs = 0;

  constructor(private readonly host: DepositionHost) {}

  /**
   * Asks for an episode: it arms at the first step where a leader has a follower whose
   * cut-off with the leader leaves a quorum of the other voters up (a learner, or a voter
   * of five or more). False (nothing asked) while one is asked for or under way, or when
   * the configuration has no such follower.
   */
  request(): boolean {
    if (this.busy) return false;
    const conf = [...this.host.nodes.values()].find((n) => n.running)?.core?.status().conf;
    if (conf && conf.voters.length < 5 && conf.learners.length === 0) return false;
    this.requestedUntilMs = this.host.nowMs() + REQUEST_TIMEOUT_MS;
    return true;
  }

  /** Asked for or under way: the simulation injects no other fault meanwhile. */
  get busy(): boolean {
    return this.episode !== undefined || this.requestedUntilMs !== undefined;
  }

  /**
   * Arms an episode on a leader and one of its followers whose cut-off leaves a quorum of
   * other voters up, once no partition is in force (its healing would end the cut early).
   */
  private arm(): void {
    const { prng } = this.host;
    if (!this.host.connected()) return;
    const up = [...this.host.nodes.values()].filter((n) => n.running && !n.decommissioned);
    const leaders = up.filter((n) => n.core!.status().role === 'leader');
    if (leaders.length === 0) return;
    const leader = prng.pick(leaders);
    const { conf, term } = leader.core!.status();
    const isUp = (id: NodeId) => up.some((n) => n.id === id);
    const followers = up.filter((n) => {
      if (n === leader) return false;
      const others = conf.voters.filter((v) => v !== leader.id && v !== n.id && isUp(v));
      return others.length > conf.voters.length / 2 && n.core!.status().leader === leader.id;
    });
    if (followers.length === 0) return;
    const follower = prng.pick(followers);
    this.requestedUntilMs = undefined;
    this.host.stallDisk(follower, ARMED_WRITE_MS, ARM_TIMEOUT_MS);
    this.host.trace(`deposition armed: leader ${leader.id}@${term}, follower ${follower.id}`);
    this.writeLandsAtMs = 0;
    this.episode = { phase: 'armed', leader, follower, term, untilMs: this.host.nowMs() + ARM_TIMEOUT_MS };
  }

  /** After every step: cut the leader off once the follower's next write will hold its tail. */
  afterStep(): void {
    const now = this.host.nowMs();
    if (this.requestedUntilMs !== undefined) {
      if (!this.host.chaos || now > this.requestedUntilMs) {
        this.requestedUntilMs = undefined;
        this.host.trace('deposition not armed: no leader with a fitting follower');
      } else this.arm();
    }
    const e = this.episode;
    if (!e) return;
    if (!this.host.chaos || now > e.untilMs) {
      this.end('timed out');
      return;
    }
    if (e.phase !== 'armed') return;
    const { leader, follower } = e;
    const status = leader.core?.status();
    if (!follower.core || status?.role !== 'leader' || status.term !== e.term) {
      this.end('the leader or its follower went away');
      return;
    }
    // Entries wait behind the follower's write in flight, a quorum of the rest has the first
    // of them, and none has more than the follower: the leader's next entries go behind them.
    if (!follower.disk.writing('log') || this.writeLandsAtMs - now < MIN_WRITE_LEFT_MS) return;
    const first = follower.log!.lastIndex() + 1;
    const last = follower.core.lastIndex();
    if (last < first) return;
    const term = follower.core.termAt(first);
    let holders = 0;
    for (const n of this.host.nodes.values()) {
      if (n === leader || n === follower || !n.core) continue;
      if (n.core.lastIndex() > last) return;
      if (status.conf.voters.includes(n.id) && n.core.termAt(first) === term) holders++;
    }
    if (holders > status.conf.voters.length / 2) this.cut(e);
  }

  /** A log write of `n` started: the follower's write in flight, or the truncating one to crash. */
  logWriteStarted(n: SimNode, write: DiskWrite, delayMs: number): void {
    const e = this.episode;
    if (!e || n !== e.follower) return;
    this.writeLandsAtMs = this.host.nowMs() + delayMs;
    if (e.phase !== 'deposed' || !write.truncates || n.incarnation !== e.incarnation) return;
    this.end(`${n.id} writes ${write.what}`);
    const { incarnation } = e;
    this.host.at(
      this.host.prng.int(0, Math.max(0, delayMs - 1)),
      () => `deposition: power-loss ${n.id} while its truncating log write is in flight`,
      () => {
        if (n.incarnation === incarnation && this.host.chaos) this.host.powerLoss([n]);
      },
    );
  }

  private cut(e: Extract<Episode, { phase: 'armed' }>): void {
    const { leader, follower, term } = e;
    const links: string[] = [];
    for (const n of this.host.nodes.values())
      if (n !== leader && n !== follower) links.push(`${leader.id}>${n.id}`, `${n.id}>${leader.id}`);
    const { prng } = this.host;
    this.host.stallDisk(follower, DEPOSED_WRITE_MS, DEPOSED_TIMEOUT_MS);
    this.host.partition(
      links,
      `deposition: leader ${leader.id}@${term} via ${follower.id}`,
      prng.int(...CUT_MS),
    );
    // Entries only the follower receives, behind those the others have.
    for (let i = prng.int(1, 3); i > 0; i--) this.host.propose(leader);
    this.episode = {
      phase: 'deposed',
      leader,
      follower,
      incarnation: follower.incarnation,
      untilMs: this.host.nowMs() + DEPOSED_TIMEOUT_MS,
    };
  }

  private end(why: string): void {
    const e = this.episode;
    if (!e) return;
    this.host.trace(`deposition over (${e.phase}): ${why}`);
    this.episode = undefined;
  }
}
