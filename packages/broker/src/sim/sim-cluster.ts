/**
 * The simulated cluster: each node's disk and clock (which outlive its
 * incarnations), the running nodes, crashes and restarts, and membership
 * changes (a voter removed and shut down for good, a fresh node joined and
 * added through the leader's addMember, as an operator does).
 */
import { VirtualClock } from '@fermata/base';
import type { NodeId } from '@fermata/raft';
import {
  type Faults,
  type Prng,
  SimDisk,
  SimIncoming,
  SimNetwork,
  type SimScheduler,
} from '@fermata/raft/sim-ports';
import { AppliedLog } from './applied-log.js';
import type { History } from './history.js';
import type { BrokerBugs } from './injected-bugs.js';
import { SimBrokerNode, type SimNodeEnv } from './sim-node.js';

/** Epoch ms every simulated clock starts near. */
export const SIM_EPOCH_MS = 1_700_000_000_000;
/** Most skew between two nodes' clocks (docs/guarantees.md: NTP keeps them close; steps are small). */
export const MAX_SKEW_MS = 200;

export class SimCluster {
  /** Nodes meant to be members (removed ones leave, joined ones enter). */
  readonly members: NodeId[];
  readonly nodes = new Map<NodeId, SimBrokerNode>();
  private readonly disks = new Map<NodeId, SimDisk>();
  private readonly clocks = new Map<NodeId, VirtualClock>();
  private readonly starting = new Set<NodeId>();
  private readonly joined = new Set<NodeId>();
  /** Per node, its running incarnation's number and received snapshot data (the network's endpoints). */
  private readonly incarnations = new Map<NodeId, { n: number; incoming: SimIncoming }>();
  readonly network: SimNetwork;
  private nextId: number;
  /** A member whose removal was asked for and not confirmed: it may or may not be removed. */
  private unsureRemoval: NodeId | undefined;
  fatal: Error | undefined;
  /** Hears every batch a node's state machine applied (SimNodeEnv.onApplied); may be set after construction. */
  onApplied: SimNodeEnv['onApplied'];
  /** Every committed command with its result, as the first replica to apply it recorded it. */
  readonly applied = new AppliedLog();
  readonly stats = { crashes: 0, tornWrites: 0, removed: 0, added: 0, snapshotsInstalled: 0 };

  constructor(
    private readonly sched: SimScheduler,
    private readonly rng: Prng,
    readonly faults: Faults,
    private readonly history: History,
    private readonly bugs: BrokerBugs,
    size: number,
    private readonly schedules = true,
  ) {
    // The simulated peers prove their identity (peer TLS naming them).
    this.network = new SimNetwork(sched, faults, 'verified', {
      endpoint: (id) => {
        const node = this.nodes.get(id);
        const inc = this.incarnations.get(id);
        return node && inc
          ? { handler: node.ctx.node, incoming: inc.incoming, incarnation: inc.n }
          : undefined;
      },
      sent: () => undefined,
      trace: () => undefined,
      dropped: () => undefined,
      snapshotSent: () => undefined,
    });
    this.members = Array.from({ length: size }, (_, i) => `n${i + 1}`);
    this.nextId = size + 1;
    for (const id of this.members) this.start(id);
  }

  clock(id: NodeId): VirtualClock {
    let c = this.clocks.get(id);
    if (!c) {
      const offsetMs = SIM_EPOCH_MS + this.rng.int(0, MAX_SKEW_MS);
      this.clocks.set(id, (c = new VirtualClock(this.sched, { name: id, offsetMs })));
    }
    return c;
  }

  private disk(id: NodeId): SimDisk {
    let d = this.disks.get(id);
    if (!d) {
      d = new SimDisk(id, this.sched, [1, 8]);
      this.disks.set(id, d);
    }
    return d;
  }

  /**
   * The node clients talk to: a leader that is a voter of its own configuration (a leader
   * that applied its own removal only hands over before it steps down; it serves nothing).
   */
  leader(): SimBrokerNode | undefined {
    return [...this.nodes.values()].find((n) => {
      const node = n.ctx.node;
      return node.isLeader() && node.status().members.some((m) => m.id === n.id && m.voter);
    });
  }

  start(id: NodeId): void {
    if (this.nodes.has(id) || this.starting.has(id) || !this.members.includes(id)) return;
    this.starting.add(id);
    const inc = { n: (this.incarnations.get(id)?.n ?? 0) + 1, incoming: new SimIncoming() };
    this.incarnations.set(id, inc);
    SimBrokerNode.start({
      id,
      // The configuration it starts with, as a real node's is: a removal that completes while it
      // starts must not change it (its recovery would find itself outside its own members).
      members: this.joined.has(id) ? this.members.filter((m) => m !== id) : [...this.members],
      join: this.joined.has(id),
      disk: this.disk(id),
      net: this.network,
      incoming: inc.incoming,
      alive: () => this.incarnations.get(id) === inc,
      clock: this.clock(id),
      random: () => this.rng.next(),
      bugs: this.bugs,
      snapshotEveryEntries: 100,
      schedules: this.schedules,
      onApplied: (entries, results) => {
        this.applied.record(entries, results);
        this.onApplied?.(entries, results);
      },
    }).then(
      (n) => {
        this.starting.delete(id);
        if (!this.members.includes(id)) {
          // Removed while it started: shut down for good, as a removed node is.
          this.incarnations.delete(id);
          this.clock(id).crash();
          n.crash();
          this.history.note(this.sched.nowMs, `${id} started after its removal: shut down`);
          return;
        }
        this.nodes.set(id, n);
        n.ctx.node.on('snapshot', ({ kind }) => {
          if (kind === 'installed') this.stats.snapshotsInstalled++;
        });
        n.ctx.node.on('fatal', (e) => {
          this.fatal ??= e;
        });
        this.history.note(this.sched.nowMs, `${id} started`);
      },
      (e: unknown) => {
        this.fatal ??= e instanceof Error ? e : new Error(String(e));
      },
    );
  }

  crash(id: NodeId): void {
    const n = this.nodes.get(id);
    if (!n) return;
    this.nodes.delete(id);
    this.stats.crashes++;
    this.incarnations.delete(id);
    const disk = this.disk(id);
    const torn = disk.torn;
    disk.crash();
    this.stats.tornWrites += disk.torn - torn;
    this.clock(id).crash();
    n.crash();
    this.history.note(this.sched.nowMs, `${id} crashed`);
  }

  /**
   * Removes a voter other than the leader, then joins a fresh node in its place. A
   * removal whose call failed has an unknown outcome (its entry may still commit), so
   * the next call asks for the same removal again: removeMember of a node the leader
   * no longer counts answers at once, and the replacement goes ahead.
   */
  replaceMember(): void {
    const leader = this.leader();
    if (!leader || this.members.length < 3) return;
    const voters = leader.ctx.node
      .status()
      .members.filter((m) => m.voter)
      .map((m) => m.id);
    let target = this.unsureRemoval;
    if (target === leader.id) return; // it leads again, so it is a voter: ask its successor later
    if (target === undefined) {
      if (voters.length !== this.members.length) return; // a change is still under way
      target = this.rng.pick(voters.filter((v) => v !== leader.id));
    }
    this.unsureRemoval = target;
    this.history.note(this.sched.nowMs, `remove ${target}`);
    leader.ctx.node.removeMember(target).then(
      () => {
        if (this.unsureRemoval !== target) return;
        this.unsureRemoval = undefined;
        this.stats.removed++;
        this.members.splice(this.members.indexOf(target), 1);
        this.crash(target);
        this.history.note(this.sched.nowMs, `removed ${target}`);
        this.addMember();
      },
      () => this.history.note(this.sched.nowMs, `remove ${target} failed (outcome unknown)`),
    );
  }

  private addMember(): void {
    const id = `n${this.nextId++}`;
    this.joined.add(id);
    this.members.push(id);
    this.start(id);
    const tryAdd = (left: number): void => {
      const leader = this.leader();
      if (!leader || left === 0) return;
      leader.ctx.node.addMember(id, `sim://${id}`, `sim-client://${id}`).then(
        () => {
          this.stats.added++;
          this.history.note(this.sched.nowMs, `added ${id}`);
        },
        () =>
          this.sched.at(
            500,
            () => `add ${id} again`,
            () => tryAdd(left - 1),
          ),
      );
    };
    this.sched.at(
      100,
      () => `add ${id}`,
      () => tryAdd(20),
    );
  }
}
