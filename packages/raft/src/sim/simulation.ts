/**
 * The Raft simulator's run: one seed's cluster (sim-cluster.ts), its
 * workload, and the schedule of faults (crashes, power loss, partitions,
 * bridges, stalled and full disks) until the step budget is spent; then it
 * heals everything and requires liveness (a fresh entry committed within
 * LIVENESS_BOUND_MS).
 *
 * Over 400 lines because the fault schedule is one piece: every fault kind
 * draws from the one PRNG stream in a fixed order and reads the same state
 * (calm periods, stalled nodes, the sick node, the deposition in progress),
 * and a seed's digest is that order. The checker, the workload, fault
 * profiles, deposition, the episodes and the liveness watch are their own
 * files (checker.ts, workload.ts, fault-profile.ts, deposition.ts,
 * episodes.ts, liveness.ts).
 */
import { InvariantError } from '@fermata/base';
import type { NodeId } from '../types.js';
import { entryKey, type InvariantName, InvariantViolation } from './checker.js';
import { Deposition } from './deposition.js';
import { Episodes } from './episodes.js';
import {
  ANNOUNCEMENT_CUT_MS,
  CALM_MS,
  describeProfile,
  type FaultProfile,
  FULL_DISK_MS,
  LONG_OUTAGE_MS,
  pickFaultProfile,
  STALL_EPISODE_MS,
} from './fault-profile.js';
import type { InjectedBug } from './injected-bugs.js';
import { LivenessWatch } from './liveness.js';
import { Prng } from './prng.js';
import { SimCluster, settle, TICK_MS } from './sim-cluster.js';
import type { DiskWrite, FileName } from './sim-disk.js';
import type { InterestingPoint, SimNode } from './sim-node.js';
import { Workload } from './workload.js';

export { ELECTION_TICKS, TICK_MS } from './sim-cluster.js';

/** Mixed into the seed for the second PRNG stream (the scenario dimensions). */
const SCENARIO_STREAM = 0x5ce7a210;
/** Mixed into the seed for the third PRNG stream (the episodes, episodes.ts). */
const EPISODE_STREAM = 0x3e91c0d5;
const FILES: readonly FileName[] = ['log', 'hard-state', 'snapshot', 'members', 'state-machine'];
/** After the chaotic phase, the healed cluster must commit a fresh entry within this much virtual time. */
export const LIVENESS_BOUND_MS = 30_000;

export interface SimOptions {
  seed: number;
  /** Events processed in the chaotic phase. */
  steps: number;
  nodes: 3 | 5;
  bug?: InjectedBug;
  /**
   * Every leader is cut off or crashed right after its election or a commit, and appends
   * carry one entry each: the schedule that makes Figure 8 histories common.
   */
  hostile?: boolean;
  /**
   * Only the general invariants (GENERAL_INVARIANTS) stop the run; checks aimed at one
   * mechanism are counted, not thrown: how the injected-bug tests show a bug breaks
   * a general property.
   */
  generalOnly?: boolean;
}

export interface SimResult {
  seed: number;
  nodes: number;
  ok: boolean;
  /** Steps processed (the failing step on failure). */
  step: number;
  invariant?: InvariantName;
  values?: Readonly<Record<string, unknown>>;
  /** sha256 of the whole trace: equal digests = identical runs. */
  digest: string;
  traceTail: string[];
  stats: SimStats;
}

export interface SimStats {
  virtualMs: number;
  committed: number;
  elections: number;
  crashes: number;
  tornWrites: number;
  partitions: number;
  snapshotsSent: number;
  snapshotsInstalled: number;
  confChanges: number;
  transfers: number;
  reads: number;
  messagesDropped: number;
  /** Nodes stopped by a failed sync (EIO), and restarted. */
  failStops: number;
  /** Times a node found its disk full and waited for room, without stopping. */
  diskFullWaits: number;
  /** Voter replacements while another voter was down, drawn and run to their end. */
  replacements: number;
  replacementsDone: number;
  /** Times a majority was up and connected for the whole live-majority bound (the rule was put to the test). */
  liveMajorities: number;
}

/**
 * The randomized simulation: a chaotic phase of random workload and faults
 * (crashes with torn writes, partitions, loss, duplication, stragglers),
 * then every fault heals and a fresh entry must commit within
 * LIVENESS_BOUND_MS of virtual time.
 */
export class Simulation extends SimCluster {
  private readonly workload: Workload;
  chaos = true;
  private readonly faultIntervalMs: readonly [number, number];
  /** Share of crashes aimed at a leader. */
  private readonly leaderCrashRate: number;
  /** How often a leader is cut off right after an election or a commit. */
  readonly targetedFaultRate: number;
  private readonly maxDowntimeMs: number;
  /** This seed's swarm fault profile (fault-profile.ts). */
  readonly profile: FaultProfile;
  /** The second stream of the seed: the scenario dimensions added last, and what they do (fault-profile.ts). */
  readonly scenarios: Prng;
  /** A removal whose commit announcement its leader loses (profile.lostAnnouncementRate). */
  private lostAnnouncement:
    | {
        readonly leader: SimNode;
        readonly incarnation: number;
        readonly index: number;
        readonly removed: NodeId;
      }
    | undefined;
  private readonly sickNode: NodeId | undefined;
  /** Nodes whose disk is in an fsync stall, and the latency to go back to. */
  private readonly stalled = new Map<SimNode, { readonly restoreMs: readonly [number, number] }>();
  private readonly deposition = new Deposition(this);
  private readonly episodes: Episodes;
  readonly stats: SimStats = {
    virtualMs: 0,
    committed: 0,
    elections: 0,
    crashes: 0,
    tornWrites: 0,
    partitions: 0,
    snapshotsSent: 0,
    snapshotsInstalled: 0,
    confChanges: 0,
    transfers: 0,
    reads: 0,
    messagesDropped: 0,
    failStops: 0,
    diskFullWaits: 0,
    replacements: 0,
    replacementsDone: 0,
    liveMajorities: 0,
  };
  private readonly liveness: LivenessWatch;

  constructor(private readonly options: SimOptions) {
    super(
      options.seed,
      options.bug,
      (prng) => ({
        lossRate: prng.pick([0, 0.01, 0.05, 0.1]),
        dupRate: prng.pick([0, 0.02, 0.05]),
        maxDelayMs: prng.pick([2, 5, 15]),
        stragglerRate: prng.pick([0, 0.01, 0.05]),
        blocked: new Set(),
      }),
      (prng) => ({
        heartbeatTicks: prng.pick([1, 2, 3]),
        maxMsgBytes: options.hostile ? 16 : prng.pick([16, 32, 128, 1024 * 1024]),
        maxInflight: prng.pick([1, 4, 64]),
        snapshotEveryEntries: prng.pick([8, 20, 60]),
        snapshotKeepEntries: prng.pick([0, 2, 10]),
        diskLatencyMs: prng.pick([
          [1, 3],
          [1, 8],
          [2, 20],
        ] as const),
        segmentBytes: prng.pick([256, 1024, 4096]),
        cacheBytes: prng.pick([256, 4096, 1024 * 1024]),
        syncWrites: prng.chance(0.75),
        identity: prng.pick(['verified', 'authenticated', 'claimed'] as const),
      }),
      options.generalOnly ?? false,
    );
    this.faultIntervalMs = this.prng.pick([
      [20, 250],
      [10, 80],
    ] as const);
    this.leaderCrashRate = this.prng.pick([0, 0.3, 0.6]);
    this.targetedFaultRate = options.hostile ? 1 : this.prng.pick([0, 0.2, 0.6]);
    this.maxDowntimeMs = this.prng.pick([100, 600]);
    this.scenarios = new Prng((options.seed ^ SCENARIO_STREAM) >>> 0);
    const episodes = new Prng((options.seed ^ EPISODE_STREAM) >>> 0);
    const profile = pickFaultProfile(this.prng, this.scenarios, episodes);
    // The hostile schedule is for Figure 8 histories (leaders cut off or crashed right after
    // their election or a commit, one entry per append): none of the availability
    // dimensions, which keep nodes down, the cluster calm, or it small.
    this.profile = options.hostile
      ? {
          ...profile,
          eioRate: 0,
          fullDiskRate: 0,
          longOutageRate: 0,
          calmRate: 0,
          shrinkToOne: false,
          replacementRate: 0,
          lostAnnouncementRate: 0,
          hiddenCommitRate: 0,
        }
      : profile;
    this.episodes = new Episodes(this, episodes, this.profile.staleTailRate, this.profile.hiddenCommitRate);
    const ids = Array.from({ length: options.nodes }, (_, i) => `n${i + 1}`);
    this.sickNode = this.prng.chance(this.profile.sickDiskRate) ? this.prng.pick(ids) : undefined;
    for (const id of ids) this.addNode(id, ids);
    this.workload = new Workload(this, options.nodes);
    this.liveness = new LivenessWatch(this.network);
  }

  async run(): Promise<SimResult> {
    try {
      this.trace(
        `start seed=${this.options.seed} nodes=${this.options.nodes} bug=${this.options.bug ?? '-'}`,
      );
      this.trace(`profile ${describeProfile(this.profile)}`);
      for (const n of this.nodes.values()) this.start(n);
      this.workload.schedule();
      this.scheduleFault();
      while (this.stepNo < this.options.steps) await this.processOne();
      await this.heal();
      await this.awaitLiveness();
      return this.result(true);
    } catch (err) {
      if (err instanceof InvariantViolation) return this.result(false, err.invariant, err.values);
      if (err instanceof InvariantError) return this.result(false, `core:${err.invariant}`, err.values);
      return this.result(false, 'exception', { error: String(err instanceof Error ? err.stack : err) });
    }
  }

  private result(
    ok: boolean,
    invariant?: InvariantName,
    values?: Readonly<Record<string, unknown>>,
  ): SimResult {
    this.stats.virtualMs = this.now;
    this.stats.committed = this.checker.canonMax;
    for (const n of this.nodes.values()) this.stats.tornWrites += n.disk.torn;
    Object.assign(this.stats, this.counts);
    this.stats.replacements = this.workload.replacements.started;
    this.stats.replacementsDone = this.workload.replacements.done;
    this.stats.liveMajorities = this.liveness.tested;
    return {
      seed: this.options.seed,
      nodes: this.options.nodes,
      ok,
      step: this.stepNo,
      ...(invariant ? { invariant } : {}),
      ...(values ? { values } : {}),
      digest: this.digest(),
      traceTail: this.tail.slice(),
      stats: this.stats,
    };
  }

  /** No new faults until then (a calm window). */
  private calmUntilMs = 0;

  /** Faults other than a deposition's own: none after healing, in a calm window, or while a deposition is asked for or under way. */
  private get faultsOn(): boolean {
    return this.chaos && !this.deposition.busy && !this.episodes.busy && this.now >= this.calmUntilMs;
  }

  /** Crashes timed by a node's own writes: in the chaotic phase out of calm windows (a deposition's truncating write included). */
  private get crashesOn(): boolean {
    return this.chaos;
  }

  /** A calm window of `ms`: no new faults and no message loss; nodes down stay down for their outage. */
  calm(ms: number): void {
    this.calmUntilMs = Math.max(this.calmUntilMs, this.now + ms);
    this.network.faults.lossRate = 0;
    this.trace(`calm ${ms}ms`);
  }

  /** No leadership transfers or membership changes while a deposition or a stale-tail episode is asked for or under way. */
  get steady(): boolean {
    return this.deposition.busy || this.episodes.busy;
  }

  override interesting(n: SimNode, what: InterestingPoint): void {
    if (what === 'committed' && this.chaos && this.episodes.committed(n)) return;
    if (!this.faultsOn) return;
    if ((what === 'committed' || what === 'conf-applied') && this.loseAnnouncement(n)) return;
    if (what === 'committed' && n.disk.writing('log')) {
      // A leader whose commit index moved while its own log write is in flight loses power,
      // with every node that has a write in flight: what only memory held is gone.
      if (this.prng.chance(this.profile.inFlightCommitCrashRate)) {
        const incarnation = n.incarnation;
        this.at(
          0,
          () => `power-loss ${n.id} committing with its log write in flight`,
          () => {
            if (n.incarnation !== incarnation) return;
            this.powerLoss([n, ...this.live().filter((o) => o !== n && o.disk.busy())]);
          },
        );
        return;
      }
    }
    this.workload.maybeFaultAtInterestingPoint(n, what);
  }

  /**
   * `leader` proposed the removal of voter `removed` at `index` out of `voters`: when the
   * voters left once the leader is cut off are a quorum of the new configuration but not of
   * the old one (2 -> 1 by the leader's own removal, 4 -> 3 by another's), its commit
   * announcement is lost now and then (profile.lostAnnouncementRate).
   */
  /** `leader` proposes `change` of the voters. */
  votersChangeProposed(leader: SimNode, change: { type: 'promote' | 'remove'; node: NodeId }): void {
    if (this.faultsOn) this.episodes.votersChangeProposed(leader, change);
  }

  removalProposed(
    leader: SimNode,
    removed: NodeId,
    index: number | undefined,
    voters: readonly NodeId[],
  ): void {
    if (index === undefined || this.lostAnnouncement || !this.faultsOn) return;
    const left = voters.filter((v) => v !== removed && v !== leader.id).length;
    const after = voters.length - 1;
    if (!(left > after / 2 && left <= voters.length / 2)) return;
    if (!this.scenarios.chance(this.profile.lostAnnouncementRate)) return;
    this.lostAnnouncement = { leader, incarnation: leader.incarnation, index, removed };
    this.trace(`lost-announcement armed: ${leader.id} removing ${removed} at ${index}`);
  }

  /**
   * The step in which the leader of an armed removal commits it: it is cut off from every
   * node before its announcement of the commit arrives; briefly if it removed itself (it
   * runs on until shut down), for a long outage otherwise, while the removed member may be
   * shut down and the rest of the new configuration is to elect a leader.
   */
  private loseAnnouncement(n: SimNode): boolean {
    const armed = this.lostAnnouncement;
    if (!armed || armed.leader !== n) return false;
    const s = n.core?.status();
    if (n.incarnation !== armed.incarnation || !s || s.role !== 'leader') {
      this.lostAnnouncement = undefined;
      return false;
    }
    if (s.commit < armed.index) return false;
    this.lostAnnouncement = undefined;
    const self = armed.removed === n.id;
    const [lo, hi] = self ? ANNOUNCEMENT_CUT_MS : LONG_OUTAGE_MS;
    const others = [...this.nodes.keys()].filter((id) => id !== n.id);
    this.partition(
      [...others.map((o) => `${n.id}>${o}`), ...others.map((o) => `${o}>${n.id}`)],
      `lost-announcement ${n.id} committed the removal of ${armed.removed}`,
      this.scenarios.int(lo, hi),
    );
    return true;
  }

  override addNode(id: NodeId, bootstrapVoters: readonly NodeId[]): SimNode {
    const n = super.addNode(id, bootstrapVoters);
    n.disk.fs.failSyncs = this.profile.eioRate;
    if (this.profile.smallFileLatencyShare !== 1)
      for (const f of ['hard-state', 'members'] as const)
        n.disk.latencyShare.set(f, this.profile.smallFileLatencyShare);
    n.disk.onLanded = (file, write) => {
      if (!this.atTruncationBoundary(n, file, write)) this.atFsyncBoundary(n, file);
    };
    n.disk.onStarted = (file, write, delayMs) => {
      if (file !== 'log') return;
      if (write.truncates && this.episodes.truncating(n, write)) {
        if (this.crashesOn) this.truncationBoundary.set(n, n.incarnation);
      } else if (write.truncates) {
        // A boundary crash, when drawn, replaces the one at a random moment of the write.
        if (this.crashesOn && !n.decommissioned && this.scenarios.chance(this.profile.truncationBoundaryRate))
          this.truncationBoundary.set(n, n.incarnation);
        else this.duringTruncation(n, delayMs);
      }
      this.deposition.logWriteStarted(n, write, delayMs);
    };
    return n;
  }

  protected override diskLatencyFor(id: NodeId): readonly [number, number] {
    if (id === this.sickNode) {
      this.trace(`sick disk ${id} ${this.profile.sickDiskMs.join('-')}ms`);
      return this.profile.sickDiskMs;
    }
    if (!this.prng.chance(this.profile.slowDiskRate)) return super.diskLatencyFor(id);
    this.trace(`slow disk ${id} ${this.profile.slowDiskMs.join('-')}ms`);
    return this.profile.slowDiskMs;
  }

  /**
   * A write of `n` just landed while a write to another of its files is in flight: crash
   * it now (before its code sees the completion) or right after, now and then.
   */
  private atFsyncBoundary(n: SimNode, file: FileName): void {
    const rate = this.profile.fsyncCrashRate;
    if (rate === 0 || !this.faultsOn || !n.up || n.decommissioned) return;
    if (!FILES.some((f) => f !== file && n.disk.writing(f))) return;
    if (!this.prng.chance(rate)) return;
    if (this.prng.chance(0.5)) {
      this.trace(`crash-at-fsync ${n.id} after ${file}, before the driver sees it`);
      this.crashAndRestart(n);
      return;
    }
    const incarnation = n.incarnation;
    this.at(
      0,
      () => `crash-at-fsync ${n.id} after ${file}`,
      () => {
        if (n.incarnation === incarnation) this.crashAndRestart(n);
      },
    );
  }

  /** Nodes to crash when a write to another file lands while their truncating log write is in flight, by incarnation. */
  private readonly truncationBoundary = new Map<SimNode, number>();

  /**
   * An operation of `n` just landed: if `n` waits for a truncation boundary and this is the
   * directory sync that makes a file replaced by rename (the hard state, the address book)
   * durable while its truncating log write is in flight, it loses power now (true). The log
   * write landing first ends the wait.
   */
  private atTruncationBoundary(n: SimNode, file: FileName, write: DiskWrite): boolean {
    const incarnation = this.truncationBoundary.get(n);
    if (incarnation === undefined) return false;
    if (n.incarnation !== incarnation || file === 'log' || !n.disk.writing('log')) {
      this.truncationBoundary.delete(n);
      return false;
    }
    if (!this.crashesOn || !write.what.startsWith('syncdir')) return false;
    this.truncationBoundary.delete(n);
    this.trace(
      `truncation-boundary ${n.id}: its ${file} update is durable, its truncating log write in flight`,
    );
    this.powerLoss([n]);
    return true;
  }

  /**
   * A truncating log write of `n` just started and takes `delayMs`: now and then `n`
   * loses power at a random moment before it lands (with every node that has a write in
   * flight, as often as power losses are), tearing it after its truncation.
   */
  private duringTruncation(n: SimNode, delayMs: number): void {
    if (!this.faultsOn || n.decommissioned || !this.prng.chance(this.profile.truncationCrashRate)) return;
    const incarnation = n.incarnation;
    const withOthers = this.prng.chance(this.profile.powerLossRate);
    this.at(
      this.prng.int(0, Math.max(0, delayMs - 1)),
      () => `truncation-crash ${n.id} while its truncating log write is in flight`,
      () => {
        if (n.incarnation !== incarnation || !this.chaos) return;
        const others = withOthers ? this.live().filter((o) => o !== n && o.disk.busy()) : [];
        this.powerLoss([n, ...others]);
      },
    );
  }

  /** Several nodes lose power at once; each restarts after its own downtime. */
  powerLoss(nodes: readonly SimNode[]): void {
    this.trace(`power-loss ${nodes.map((n) => n.id).join(',')}`);
    for (const n of nodes) this.crashAndRestart(n);
  }

  protected override checkAll(): void {
    super.checkAll();
    this.deposition.afterStep();
    this.episodes.afterStep();
    if (this.chaos) this.liveness.check(this.now, [...this.nodes.values()]);
  }

  retire(n: SimNode): void {
    this.liveness.retire(n);
    this.crash(n);
  }

  crashAndRestart(n: SimNode, downtimeMs?: number): void {
    if (!n.up) return;
    this.crash(n);
    this.restartLater(n, downtimeMs);
  }

  /** A node that stopped on a failed sync or a full disk is restarted after a while, as an operator (or Kubernetes) does. */
  protected override stopped(n: SimNode, why: string | undefined): void {
    super.stopped(n, why);
    if (!n.decommissioned) this.restartLater(n);
  }

  private restartLater(n: SimNode, downtimeMs?: number): void {
    const incarnation = n.incarnation;
    this.at(
      downtimeMs ?? this.prng.int(10, this.maxDowntimeMs),
      () => `restart ${n.id}`,
      () => {
        if (n.incarnation === incarnation) this.start(n);
      },
    );
  }

  // ------------------------------------------------------------ faults

  private scheduleFault(): void {
    const spacing = this.profile.faultSpacing;
    this.at(
      this.prng.int(this.faultIntervalMs[0] * spacing, this.faultIntervalMs[1] * spacing),
      () => 'fault',
      () => {
        if (!this.chaos) return;
        this.fault();
        this.scheduleFault();
      },
    );
  }

  private fault(): void {
    if (!this.faultsOn) return;
    if (this.episodes.fault()) return;
    if (this.prng.chance(this.profile.calmRate)) {
      this.calm(this.prng.int(CALM_MS[0], CALM_MS[1]));
      return;
    }
    const all = [...this.nodes.values()].filter((n) => !n.decommissioned);
    if (this.prng.chance(this.profile.fsyncStallRate)) {
      this.fsyncStall(all);
      return;
    }
    if (this.prng.chance(this.profile.depositionRate) && this.deposition.request()) return;
    if (this.prng.chance(this.profile.fullDiskRate)) {
      this.fillDisk(this.prng.pick(all.filter((n) => n.up).length > 0 ? all.filter((n) => n.up) : all));
      return;
    }
    const r = this.prng.next();
    if (r < 0.4) {
      const up = all.filter((n) => n.up);
      const writing = up.filter((n) => n.disk.busy());
      const leaders = up.filter((n) => n.core?.status().role === 'leader');
      let pool = up;
      if (leaders.length > 0 && this.prng.chance(this.leaderCrashRate)) pool = leaders;
      else if (writing.length > 0 && this.prng.chance(0.5)) pool = writing;
      if (pool.length === 0) return;
      if (up.length >= 2 && this.prng.chance(this.profile.powerLossRate)) {
        const first = this.prng.pick(pool);
        this.powerLoss([first, ...up.filter((o) => o !== first && this.prng.chance(0.5))]);
        return;
      }
      const n = this.prng.pick(pool);
      if (this.prng.chance(this.profile.longOutageRate)) {
        this.trace(`long-outage ${n.id}`);
        this.crashAndRestart(n, this.prng.int(LONG_OUTAGE_MS[0], LONG_OUTAGE_MS[1]));
      } else this.crashAndRestart(n);
    } else if (r < 0.7 && all.length >= 3 && this.prng.chance(this.profile.bridgeRate)) {
      this.bridge(all);
    } else if (r < 0.7) {
      const ids = all.map((n) => n.id);
      const side = new Set(ids.filter(() => this.prng.chance(0.5)));
      const links: string[] = [];
      for (const a of ids) for (const b of ids) if (side.has(a) !== side.has(b)) links.push(`${a}>${b}`);
      this.partition(links, 'symmetric');
    } else if (r < 0.9) {
      const a = this.prng.pick(all).id;
      const links = all.filter((n) => n.id !== a && this.prng.chance(0.6)).map((n) => `${a}>${n.id}`);
      this.partition(
        this.prng.chance(0.5) ? links : links.map((l) => l.split('>').reverse().join('>')),
        'asymmetric',
      );
    } else {
      const faults = this.network.faults;
      faults.lossRate = this.prng.pick([0, 0.01, 0.05, 0.2]);
      faults.dupRate = this.prng.pick([0, 0.02, 0.1]);
      this.trace(`network loss=${faults.lossRate} dup=${faults.dupRate}`);
    }
  }

  /** `n`'s disk is full for FULL_DISK_MS: writes that grow a file fail (ENOSPC); the node waits for room. */
  private fillDisk(n: SimNode): void {
    const fs = n.disk.fs;
    if (fs.full) return;
    fs.full = true;
    this.trace(`full-disk ${n.id}`);
    this.at(
      this.prng.int(FULL_DISK_MS[0], FULL_DISK_MS[1]),
      () => `disk-has-room ${n.id}`,
      () => {
        fs.full = false;
        fs.roomAtMs = this.now;
      },
    );
  }

  /** One node's disk stalls for an episode: every write takes `fsyncStallMs` (followers first). */
  private fsyncStall(all: readonly SimNode[]): void {
    const up = all.filter((n) => n.up && !this.stalled.has(n));
    const followers = up.filter((n) => n.core?.status().role !== 'leader');
    const pool = followers.length > 0 ? followers : up;
    if (pool.length === 0) return;
    const n = this.prng.pick(pool);
    this.stallDisk(n, this.profile.fsyncStallMs, this.prng.int(STALL_EPISODE_MS[0], STALL_EPISODE_MS[1]));
  }

  /** `n`'s writes take `latencyMs` for `episodeMs` of virtual time (or until the run heals). */
  stallDisk(n: SimNode, latencyMs: readonly [number, number], episodeMs: number): void {
    const stall = { restoreMs: this.stalled.get(n)?.restoreMs ?? n.disk.latencyMs };
    this.stalled.set(n, stall);
    n.disk.latencyMs = latencyMs;
    this.trace(`fsync-stall ${n.id} ${latencyMs.join('-')}ms`);
    this.at(
      episodeMs,
      () => `fsync-stall over ${n.id}`,
      () => {
        // A later stall of the same disk ends it.
        if (this.stalled.get(n) !== stall || !this.chaos) return;
        this.stalled.delete(n);
        n.disk.latencyMs = stall.restoreMs;
      },
    );
  }

  connected(): boolean {
    return this.network.faults.blocked.size === 0;
  }

  /** Leader `n` removes voter `id` through the workload. */
  removeVoter(n: SimNode, id: NodeId): void {
    this.workload.removeVoterOn(n, id);
  }

  /** `n` takes no proposals now (episodes.ts: the leader of a hidden commit). */
  hushed(n: SimNode): boolean {
    return this.episodes.hushed(n);
  }

  /** A client of the workload proposes on `n`. */
  propose(n: SimNode): void {
    if (n.running) this.workload.propose(n);
  }

  /**
   * A bridge partition: one node (a leader, when there is one) hears and reaches only one
   * other node (one whose disk stalls, or else one with a log write in flight, when there
   * is one), which still talks to all.
   */
  private bridge(all: readonly SimNode[]): void {
    const leaders = all.filter((n) => n.core?.status().role === 'leader');
    const cut = this.prng.pick(leaders.length > 0 ? leaders : all);
    const rest = all.filter((n) => n !== cut);
    const stalled = rest.filter((n) => n.up && this.stalled.has(n));
    const writing = rest.filter((n) => n.up && n.disk.writing('log'));
    const bridge = this.prng.pick(stalled.length > 0 ? stalled : writing.length > 0 ? writing : rest);
    const links: string[] = [];
    for (const o of rest) if (o !== bridge) links.push(`${cut.id}>${o.id}`, `${o.id}>${cut.id}`);
    const role = leaders.includes(cut) ? 'leader ' : '';
    const how = this.stalled.has(bridge) ? 'stalled ' : '';
    this.partition(links, `bridge ${role}${cut.id} via ${how}${bridge.id}`);
  }

  partition(links: string[], kind: string, durationMs?: number): void {
    if (links.length === 0) return;
    this.stats.partitions++;
    const blocked = this.network.faults.blocked;
    for (const l of links) blocked.add(l);
    this.trace(`partition ${kind} ${links.join(',')}`);
    this.at(
      durationMs ?? this.prng.int(50, 1000),
      () => `heal ${links.length} links`,
      () => {
        for (const l of links) blocked.delete(l);
      },
    );
  }

  // ------------------------------------------------------------ liveness

  private async heal(): Promise<void> {
    this.chaos = false;
    const faults = this.network.faults;
    faults.blocked.clear();
    faults.lossRate = 0;
    faults.dupRate = 0;
    this.stalled.clear();
    for (const n of this.nodes.values()) {
      n.disk.latencyMs = this.params.diskLatencyMs;
      n.disk.fs.full = false;
      n.disk.fs.failSyncs = 0;
    }
    this.trace('heal all');
    for (const n of this.nodes.values()) if (!n.up && !n.decommissioned) this.start(n);
    await settle();
  }

  private async awaitLiveness(): Promise<void> {
    const deadline = this.now + LIVENESS_BOUND_MS;
    let proposal: { index: number; term: number; key: string } | undefined;
    let nextTryMs = this.now;
    while (this.now < deadline) {
      if (proposal) {
        const committed = this.checker.canonical(proposal.index);
        if (committed === proposal.key) return;
        if (committed !== undefined) proposal = undefined; // dropped: another entry took its index
      }
      if (this.now >= nextTryMs) {
        nextTryMs = this.now + 5 * TICK_MS;
        let leader: SimNode | undefined;
        for (const l of this.leaders()) {
          if (!leader || l.core!.status().term > leader.core!.status().term) leader = l;
        }
        if (leader && (!proposal || leader.core!.status().term > proposal.term)) {
          const at = this.workload.propose(leader);
          if (at) proposal = { ...at, key: entryKey(leader.core!.entryAt(at.index)) };
        }
      }
      await this.processOne();
    }
    const status = this.live().map((n) => {
      const s = n.core!.status();
      return `${n.id}:${s.role}@${s.term} lead=${s.leader} commit=${s.commit}/${s.lastIndex} voters=${s.conf.voters.join('+')}`;
    });
    throw new InvariantViolation('liveness', { boundMs: LIVENESS_BOUND_MS, proposal, nodes: status });
  }
}

export function runSeed(options: SimOptions): Promise<SimResult> {
  return new Simulation(options).run();
}
