/**
 * What clients and operators do to a simulated cluster, through RaftNode's
 * public API: proposals, ReadIndex reads, leadership transfers, membership
 * changes (add a learner, promote, remove, the leader too, down to one voter
 * when the profile says so; replacements of a voter while another is down, by
 * a new id or by the same id on an empty disk), and the state machine's
 * background flushes. A removed node is shut down once RemoveMember returned
 * (called again on the leader of the moment when it fails, as an operator
 * would). Snapshots and compaction are the driver's own policy.
 */

import type { RaftNode } from '../node/raft-node.js';
import type { NodeId } from '../types.js';
import { InvariantViolation } from './checker.js';
import { CALM_MS, type FaultProfile, LONG_OUTAGE_MS } from './fault-profile.js';
import type { SimCluster } from './sim-cluster.js';
import { SimulationError } from './sim-error.js';
import type { InterestingPoint, SimNode } from './sim-node.js';

/** What the workload drives: the simulation (simulation.ts), through the members it uses. */
export interface WorkloadHost extends SimCluster {
  readonly chaos: boolean;
  /** Leadership transfers and membership changes wait (a deposition is asked for or under way). */
  readonly steady: boolean;
  readonly targetedFaultRate: number;
  readonly profile: FaultProfile;
  readonly stats: { transfers: number; reads: number; confChanges: number };
  crashAndRestart(n: SimNode, downtimeMs?: number): void;
  /** No new faults for `ms`. */
  calm(ms: number): void;
  partition(links: string[], kind: string): void;
  /** A member whose removal was reported done is shut down for good (liveness.ts keeps what it knew committed). */
  retire(n: SimNode): void;
  /** `n` takes no proposals now (an episode's leader). */
  hushed(n: SimNode): boolean;
  /** `leader` proposes `change` of the voters. */
  votersChangeProposed(leader: SimNode, change: { type: 'promote' | 'remove'; node: NodeId }): void;
  /** `leader` proposed the removal of voter `removed` at `index` (undefined: not taken), out of `voters`. */
  removalProposed(
    leader: SimNode,
    removed: NodeId,
    index: number | undefined,
    voters: readonly NodeId[],
  ): void;
}

/** Upper bound of members a run grows to (initial nodes + added learners). */
const MAX_EXTRA_NODES = 3;

const encoder = new TextEncoder();
const ignore = () => undefined;

type Change = { type: 'add-learner' | 'promote' | 'remove'; node: NodeId };

/** How often an operator calls a membership command again after it failed, at most. */
const MEMBERSHIP_ATTEMPTS = 20;
/** Virtual ms between two attempts. */
const MEMBERSHIP_RETRY_MS = 200;

export class Workload {
  private proposalSeq = 0;
  private addedNodes = 0;
  private membershipBusy = false;
  /** Replacement episodes drawn, and those that ran to their end. */
  replacements = { started: 0, done: 0 };

  constructor(
    private readonly sim: WorkloadHost,
    private readonly initialNodes: number,
  ) {}

  schedule(): void {
    const { sim } = this;
    sim.at(
      sim.prng.int(1, 30),
      () => 'workload',
      () => {
        if (!sim.chaos) return;
        this.step();
        this.schedule();
      },
    );
  }

  private step(): void {
    const { sim } = this;
    const prng = sim.prng;
    const r = prng.next();
    const live = sim.live();
    if (live.length === 0) return;
    const leaders = sim.leaders();
    const leader = leaders.length > 0 ? prng.pick(leaders) : undefined;
    if (r < 0.5) {
      this.propose(leader && prng.chance(0.9) ? leader : prng.pick(live));
    } else if (r < 0.6) {
      this.read(prng.pick(live));
    } else if (r < 0.65) {
      if (!leader || sim.steady) return;
      const to = prng.pick(leader.core!.status().conf.voters);
      sim.stats.transfers++;
      sim.trace(`transfer ${leader.id}->${to}`);
      leader.node!.transferLeadership(to).catch(ignore);
    } else if (r < 0.8) {
      if (leader && !sim.steady) this.changeMembership(leader);
    } else if (r < 0.85) {
      const n = prng.pick(live);
      sim.trace(`flush ${n.id}`);
      n.sm?.flush().catch(ignore);
    }
  }

  /** Proposes on `n`; returns where the entry went if the core took it. */
  propose(n: SimNode): { index: number; term: number } | undefined {
    const { sim } = this;
    if (sim.hushed(n)) {
      sim.trace(`propose ${n.id} hushed`);
      return undefined;
    }
    const bytes = sim.prng.int(1, 48);
    const data = encoder.encode(`p${this.proposalSeq++}-${n.id}-`.padEnd(bytes, 'x'));
    const core = n.core!;
    const before = core.lastIndex();
    n.node!.propose(data).catch(ignore);
    if (core.lastIndex() === before) {
      sim.trace(`propose ${n.id} refused`);
      return undefined;
    }
    const at = { index: core.lastIndex(), term: core.status().term };
    sim.trace(`propose ${n.id} ${at.index}/${at.term}`);
    return at;
  }

  private read(n: SimNode): void {
    const { sim } = this;
    const floor = sim.checker.canonMax;
    sim.stats.reads++;
    sim.trace(`read ${n.id} floor=${floor}`);
    n.node!.readIndex().then((index) => {
      if (index < floor) {
        sim.fail(
          new InvariantViolation('read-index-linearizable', {
            node: n.id,
            index,
            committedBeforeRead: floor,
          }),
        );
      }
    }, ignore);
  }

  /** `leader` removes voter `id` (an episode's, episodes.ts), unless a membership change is under way. */
  removeVoterOn(leader: SimNode, id: NodeId): void {
    if (leader.running && leader.core) this.changeMembership(leader, { type: 'remove', node: id });
  }

  private changeMembership(leader: SimNode, forced?: Change): void {
    const { sim } = this;
    if (this.membershipBusy) return;
    if (!forced && sim.prng.chance(sim.profile.replacementRate) && this.replace(leader)) return;
    const conf = leader.core!.status().conf;
    const minVoters = sim.profile.shrinkToOne ? 1 : this.initialNodes === 5 ? 3 : 2;
    const options: Change[] = [];
    for (const l of conf.learners) options.push({ type: 'promote', node: l }, { type: 'remove', node: l });
    if (conf.voters.length > minVoters) {
      for (const v of conf.voters) options.push({ type: 'remove', node: v });
    }
    if (this.addedNodes < MAX_EXTRA_NODES && conf.learners.length === 0) {
      options.push({ type: 'add-learner', node: `n${this.initialNodes + this.addedNodes + 1}` });
    }
    if (options.length === 0 && !forced) return;
    // Shrinking seeds mostly remove voters while more than one is left: single-voter
    // clusters, with learners added to them, are to be common there, not a rare corner.
    const removals = options.filter((o) => o.type === 'remove' && conf.voters.includes(o.node));
    const change: Change = forced
      ? forced
      : sim.profile.shrinkToOne && removals.length > 0 && sim.prng.chance(0.7)
        ? sim.prng.pick(removals)
        : sim.prng.pick(options);
    const node = leader.node!;
    const core = leader.core!;
    const before = core.lastIndex();
    if (change.type === 'promote' || (change.type === 'remove' && conf.voters.includes(change.node)))
      sim.votersChangeProposed(leader, { type: change.type, node: change.node });
    let done: Promise<unknown>;
    if (change.type === 'add-learner') {
      this.addedNodes++;
      sim.start(sim.addNode(change.node, []));
      done = node.addMember(change.node, change.node, change.node, { learnerOnly: true });
    } else if (change.type === 'promote') {
      done = node.addMember(change.node, change.node, change.node);
    } else {
      done = node.removeMember(change.node);
    }
    sim.stats.confChanges++;
    const at = core.lastIndex() > before ? core.lastIndex() : undefined;
    sim.trace(`conf-change ${leader.id} ${change.type} ${change.node} at ${at ?? '-'}`);
    if (change.type === 'remove' && conf.voters.includes(change.node))
      sim.removalProposed(leader, change.node, at, conf.voters);
    this.membershipBusy = true;
    done
      .then(
        () => {
          sim.trace(`conf-change ${change.type} ${change.node} done`);
          if (change.type === 'remove') this.decommission(change.node);
          // Bursts: the next change goes in at once, so several stack up above a node's durable commit index.
          if (sim.profile.membershipBurst)
            sim.at(
              0,
              () => 'conf-change burst',
              () => this.burst(),
            );
        },
        async (error: unknown) => {
          sim.trace(`conf-change ${change.type} ${change.node} failed: ${String(error)}`);
          // A removal with an unknown outcome: the removed node keeps running until a call returns.
          if (change.type === 'remove')
            await this.onLeader(`remove ${change.node}`, (n, l) => this.removeOn(n, l, change.node));
          if (change.type === 'remove') this.decommission(change.node);
        },
      )
      .catch((error: unknown) =>
        sim.trace(`conf-change ${change.type} ${change.node} gave up: ${String(error)}`),
      )
      .finally(() => {
        this.membershipBusy = false;
      });
  }

  /**
   * A replacement while another voter is down (the review's N1): a voter `away` (not the
   * leader) goes down for a long outage; then a new member is added and `old` removed, or
   * `old` is removed and added again under its id on an empty disk. False if the
   * configuration has no room for one.
   */
  private replace(leader: SimNode): boolean {
    const { sim } = this;
    const conf = leader.core!.status().conf;
    if (conf.learners.length > 0 || conf.voters.length < 2) return false;
    const old = sim.prng.pick(conf.voters);
    const aways = conf.voters.filter((v) => v !== old && v !== leader.id);
    const away = aways.length > 0 ? sim.nodes.get(sim.prng.pick(aways)) : undefined;
    const sameId = sim.prng.chance(0.5);
    if (!away || (!sameId && this.addedNodes >= MAX_EXTRA_NODES)) return false;
    const fresh = sameId ? old : `n${this.initialNodes + ++this.addedNodes}`;
    this.replacements.started++;
    sim.stats.confChanges++;
    sim.trace(`replace ${old} by ${fresh}${sameId ? ' (same id, empty disk)' : ''} while ${away.id} is down`);
    sim.crashAndRestart(away, sim.prng.int(LONG_OUTAGE_MS[0], LONG_OUTAGE_MS[1]));
    this.membershipBusy = true;
    const add = async () => {
      sim.start(sim.addNode(fresh, []));
      await this.onLeader(`add ${fresh}`, (n) => n.addMember(fresh, fresh, fresh));
    };
    const remove = async () => {
      await this.onLeader(`remove ${old}`, (n, l) => this.removeOn(n, l, old));
      this.decommission(old, sameId);
    };
    (sameId ? remove().then(add) : add().then(remove))
      .then(
        () => {
          this.replacements.done++;
          sim.trace(`replace ${old} by ${fresh} done`);
          // Now and then the leader then fails for a long while, and the rest heal: the voters
          // left, the one that was down among them, are to elect a leader (the review's N1).
          const leader = sim.leaders().find((l) => l.core!.status().conf.voters.includes(l.id));
          if (leader && sim.chaos && sim.prng.chance(0.5)) {
            sim.trace(`leader ${leader.id} fails after the replacement`);
            sim.crashAndRestart(leader, sim.prng.int(LONG_OUTAGE_MS[0], LONG_OUTAGE_MS[1]));
            sim.calm(sim.prng.int(CALM_MS[0], CALM_MS[1]));
          }
        },
        (error: unknown) => sim.trace(`replace ${old} by ${fresh} gave up: ${String(error)}`),
      )
      .finally(() => {
        this.membershipBusy = false;
      });
    return true;
  }

  /** An operator's RemoveMember(`id`) on `leader` (`node` its driver), which the simulation may aim a fault at. */
  private removeOn(node: RaftNode, leader: SimNode, id: NodeId): Promise<unknown> {
    const { voters } = leader.core!.status().conf;
    const before = leader.core!.lastIndex();
    const done = node.removeMember(id);
    const at = leader.core!.lastIndex() > before ? leader.core!.lastIndex() : undefined;
    if (voters.includes(id)) this.sim.removalProposed(leader, id, at, voters);
    return done;
  }

  /** Runs `call` on the leader of the moment until it succeeds (an operator retrying), at most MEMBERSHIP_ATTEMPTS times. */
  private async onLeader(
    what: string,
    call: (node: RaftNode, leader: SimNode) => Promise<unknown>,
  ): Promise<void> {
    const { sim } = this;
    for (let attempt = 1; ; attempt++) {
      const leader = sim.leaders().find((l) => l.core!.status().conf.voters.includes(l.id));
      if (leader) {
        try {
          await call(leader.node!, leader);
          return;
        } catch (error) {
          sim.trace(`${what} on ${leader.id} failed: ${String(error)}`);
        }
      }
      if (attempt >= MEMBERSHIP_ATTEMPTS || !sim.chaos)
        throw new SimulationError(`${what}: no success in ${attempt} attempts`);
      await new Promise<void>((resolve) => sim.at(MEMBERSHIP_RETRY_MS, () => `${what} again`, resolve));
    }
  }

  private burst(): void {
    const leader = this.sim.leaders().at(0);
    if (leader && this.sim.chaos && !this.sim.steady) this.changeMembership(leader);
  }

  /** A node whose removal is done is shut down for good, after a while (at once: its id is to be added back). */
  private decommission(id: NodeId, now = false): void {
    const { sim } = this;
    const n = sim.nodes.get(id);
    if (!n || n.decommissioned) return;
    n.decommissioned = true;
    if (now) {
      sim.retire(n);
      return;
    }
    sim.at(
      sim.prng.int(0, sim.profile.decommissionDelayMs),
      () => `decommission ${n.id}`,
      () => sim.retire(n),
    );
  }

  /**
   * Swarm-style bias: a leader is sometimes cut off (or crashes) right after winning an
   * election or applying a commit, before what it just sent arrives: the moments that
   * make Figure 8 histories.
   */
  maybeFaultAtInterestingPoint(n: SimNode, what: InterestingPoint): void {
    const { sim } = this;
    if (!sim.chaos) return;
    if (what === 'elected' && sim.profile.membershipBurst && !sim.steady && sim.prng.chance(0.5)) {
      // In burst seeds a new leader often changes the membership at once: the change commits
      // while followers may still hold the deposed leader's tail.
      const incarnation = n.incarnation;
      sim.at(
        sim.prng.int(0, 50),
        () => `conf-change after ${n.id}'s election`,
        () => {
          if (n.incarnation === incarnation && n.core?.status().role === 'leader' && sim.chaos)
            this.changeMembership(n);
        },
      );
    }
    // A node about to truncate its log, or that just applied a membership change: crash it
    // (every schedule); a leader just elected or just committing: cut it off or crash it.
    const local = what === 'truncating' || what === 'conf-applied';
    const rate = local
      ? sim.profile.localCrashRate
      : sim.targetedFaultRate * (what === 'elected' ? 0.5 : 0.3);
    if (!sim.prng.chance(rate)) return;
    const incarnation = n.incarnation;
    const isolate = !local && sim.prng.chance(0.7);
    // A truncating write is crashed at a random moment while it is in flight (with what it runs
    // beside); a leader just elected or committing is crashed at once or (but in the hostile
    // schedule, which wants it gone before it replicates) within its next writes: which of
    // its vote, its first entries and what it just sent the crash keeps.
    const delayMs =
      what === 'truncating' || (!isolate && !local && sim.targetedFaultRate < 1 && sim.prng.chance(0.5))
        ? sim.prng.int(0, 2 * n.disk.latencyMs[1])
        : 0;
    sim.at(
      delayMs,
      () => `targeted-${isolate ? 'isolation' : 'crash'} ${n.id} ${what}`,
      () => {
        if (n.incarnation !== incarnation) return;
        if (!isolate) {
          sim.crashAndRestart(n);
          return;
        }
        const others = [...sim.nodes.keys()].filter((id) => id !== n.id);
        sim.partition(
          [...others.map((o) => `${n.id}>${o}`), ...others.map((o) => `${o}>${n.id}`)],
          'isolate-leader',
        );
      },
    );
  }
}
