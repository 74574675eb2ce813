import { createHash, type Hash } from 'node:crypto';
import {
  ConfChangeInProgressError,
  InvalidConfChangeError,
  InvariantError,
  LimitError,
  NotLeaderError,
} from '../core/errors.js';
import { MemoryLog } from '../core/memory-log.js';
import type { ConfChange, Entry, HardState, Message, NodeId, Ready } from '../types.js';
import { Checker, entryKey, type InvariantName, InvariantViolation, type NodeWatch } from './checker.js';
import { EventQueue } from './event-queue.js';
import { type InjectedBug, makeCore } from './injected-bugs.js';
import { Prng } from './prng.js';
import type { SimRaftCore } from './sim-core.js';

/** Virtual milliseconds between two ticks of one node. */
export const TICK_MS = 10;
export const ELECTION_TICKS = 10;
/** After the chaotic phase, the healed cluster must commit a fresh entry within this much virtual time. */
export const LIVENESS_BOUND_MS = 30_000;
/** Upper bound of members a run grows to (initial nodes + added learners). */
const MAX_EXTRA_NODES = 3;
const TRACE_TAIL_LINES = 40;

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
  partitions: number;
  snapshotsSent: number;
  snapshotsInstalled: number;
  confChanges: number;
  transfers: number;
  reads: number;
  messagesDropped: number;
}

interface Disk {
  log: MemoryLog;
  hardState: HardState;
  /** State machine contents at the snapshot point of `log` (the applied entries). */
  snapshotData: Entry[];
  /** The state machine is durable up to here (flushed); a crash loses what it applied after. */
  smDurable: number;
}

interface SimNode {
  id: NodeId;
  bootstrapVoters: readonly NodeId[];
  disk: Disk;
  core: SimRaftCore | undefined;
  /** The state machine: sm[i - 1] is entry i. */
  sm: Entry[];
  pending: Ready | undefined;
  incarnation: number;
  decommissioned: boolean;
  received: Map<number, Entry[]>;
  watch: NodeWatch;
}

interface Faults {
  lossRate: number;
  dupRate: number;
  maxDelayMs: number;
  /** Share of messages held back much longer (stale, heavily reordered deliveries). */
  stragglerRate: number;
  blocked: Set<string>;
}

const encoder = new TextEncoder();

export class Simulation {
  private readonly prng: Prng;
  private readonly queue = new EventQueue();
  private readonly checker = new Checker();
  private readonly nodes = new Map<NodeId, SimNode>();
  private readonly hash: Hash = createHash('sha256');
  private readonly tail: string[] = [];
  private nowMs = 0;
  private stepNo = 0;
  private chaos = true;
  private readonly faults: Faults;
  private readonly heartbeatTicks: number;
  private readonly maxMsgBytes: number;
  private readonly maxInflight: number;
  private readonly faultIntervalMs: readonly [number, number];
  /** Share of crashes aimed at a leader. */
  private readonly leaderCrashRate: number;
  /** How often a leader is cut off right after an election or a commit (see maybeCrashAtInterestingPoint). */
  private readonly targetedFaultRate: number;
  private readonly maxDowntimeMs: number;
  private proposalSeq = 0;
  private readSeq = 0;
  private readonly readFloor = new Map<string, number>();
  private addedNodes = 0;
  private readonly removals = new Map<number, { node: NodeId; key: string }>();
  readonly stats: SimStats = {
    virtualMs: 0,
    committed: 0,
    elections: 0,
    crashes: 0,
    partitions: 0,
    snapshotsSent: 0,
    snapshotsInstalled: 0,
    confChanges: 0,
    transfers: 0,
    reads: 0,
    messagesDropped: 0,
  };

  constructor(private readonly options: SimOptions) {
    this.prng = new Prng(options.seed);
    this.faults = {
      lossRate: this.prng.pick([0, 0.01, 0.05, 0.1]),
      dupRate: this.prng.pick([0, 0.02, 0.05]),
      maxDelayMs: this.prng.pick([2, 5, 15]),
      stragglerRate: this.prng.pick([0, 0.01, 0.05]),
      blocked: new Set(),
    };
    this.heartbeatTicks = this.prng.pick([1, 2, 3]);
    this.maxMsgBytes = options.hostile ? 16 : this.prng.pick([16, 32, 128, 1024 * 1024]);
    this.faultIntervalMs = this.prng.pick([
      [20, 250],
      [10, 80],
    ] as const);
    this.leaderCrashRate = this.prng.pick([0, 0.3, 0.6]);
    this.targetedFaultRate = options.hostile ? 1 : this.prng.pick([0, 0.2, 0.6]);
    this.maxDowntimeMs = this.prng.pick([100, 600]);
    this.maxInflight = this.prng.pick([1, 4, 64]);
    const ids = Array.from({ length: options.nodes }, (_, i) => `n${i + 1}`);
    for (const id of ids) this.addNode(id, ids);
  }

  run(): SimResult {
    try {
      this.trace(
        `start seed=${this.options.seed} nodes=${this.options.nodes} bug=${this.options.bug ?? '-'}`,
      );
      for (const n of this.nodes.values()) this.start(n);
      this.scheduleWorkload();
      this.scheduleFault();
      while (this.stepNo < this.options.steps) this.processOne();
      this.heal();
      this.awaitLiveness();
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
    this.stats.virtualMs = this.nowMs;
    this.stats.committed = this.checker.canonMax;
    return {
      seed: this.options.seed,
      nodes: this.options.nodes,
      ok,
      step: this.stepNo,
      ...(invariant ? { invariant } : {}),
      ...(values ? { values } : {}),
      digest: this.hash.digest('hex'),
      traceTail: this.tail.slice(),
      stats: this.stats,
    };
  }

  // ------------------------------------------------------------ stepping

  private processOne(): void {
    const ev = this.queue.pop();
    if (!ev) throw new Error('event queue ran dry');
    this.nowMs = ev.atMs;
    this.stepNo++;
    this.trace(ev.describe());
    ev.run();
    this.checkAll();
  }

  private trace(line: string): void {
    const full = `${this.stepNo} ${this.nowMs} ${line}`;
    this.hash.update(full);
    this.hash.update('\n');
    this.tail.push(full);
    if (this.tail.length > TRACE_TAIL_LINES) this.tail.shift();
  }

  private at(delayMs: number, describe: () => string, run: () => void): void {
    this.queue.push(this.nowMs + delayMs, describe, run);
  }

  private checkAll(): void {
    for (const n of this.nodes.values()) {
      if (n.core) this.checker.node(n.core, n.watch, n.sm.length);
    }
    this.trackMembership();
  }

  // ------------------------------------------------------------ nodes

  private addNode(id: NodeId, bootstrapVoters: readonly NodeId[]): SimNode {
    const hardState = { term: 0, vote: '', commit: 0 };
    const node: SimNode = {
      id,
      bootstrapVoters,
      disk: { log: new MemoryLog(), hardState, snapshotData: [], smDurable: 0 },
      core: undefined,
      sm: [],
      pending: undefined,
      incarnation: 0,
      decommissioned: false,
      received: new Map(),
      watch: this.checker.newWatch(hardState),
    };
    this.nodes.set(id, node);
    return node;
  }

  private start(n: SimNode): void {
    n.incarnation++;
    n.sm = n.sm.slice(0, n.disk.smDurable);
    n.pending = undefined;
    n.received.clear();
    this.checker.restarted(n.id, n.watch);
    n.core = makeCore(
      {
        id: n.id,
        log: n.disk.log,
        hardState: n.disk.hardState,
        applied: n.disk.smDurable,
        bootstrapVoters: n.bootstrapVoters,
        electionTicks: ELECTION_TICKS,
        heartbeatTicks: this.heartbeatTicks,
        random: () => this.prng.next(),
        maxMsgBytes: this.maxMsgBytes,
        maxInflight: this.maxInflight,
      },
      this.options.bug,
    );
    const incarnation = n.incarnation;
    this.scheduleTick(n, incarnation, this.prng.int(1, TICK_MS));
    this.pump(n);
  }

  private scheduleTick(n: SimNode, incarnation: number, delayMs: number): void {
    this.at(
      delayMs,
      () => `tick ${n.id}`,
      () => {
        if (!n.core || n.incarnation !== incarnation) return;
        n.core.tick();
        this.pump(n);
        this.scheduleTick(n, incarnation, TICK_MS);
      },
    );
  }

  private crash(n: SimNode): void {
    if (!n.core) return;
    this.stats.crashes++;
    // Everything not persisted is gone: the core, the outstanding Ready, the unflushed state machine.
    n.core = undefined;
    n.pending = undefined;
    n.incarnation++;
    n.sm = n.sm.slice(0, n.disk.smDurable);
  }

  /** Takes a Ready if there is one: sends `messages` at once and schedules the fsync. */
  private pump(n: SimNode): void {
    const core = n.core;
    if (!core || n.pending || !core.hasReady()) return;
    const rd = core.ready();
    n.pending = rd;
    const first = rd.entries[0];
    if (first) this.checker.handedOut(n.id, rd.entries, core.termAt(first.index - 1) ?? 0);
    // No write is in flight, so the disk holds everything persisted so far.
    if (!rd.snapshot) this.checker.truncation(n.id, n.disk.log, rd.entries);
    if (rd.softState?.role === 'leader') this.stats.elections++;
    this.maybeCrashAtInterestingPoint(n, rd);
    this.trace(
      `ready ${n.id} hs=${rd.hardState ? `${rd.hardState.term}/${rd.hardState.vote}/${rd.hardState.commit}` : '-'} ` +
        `snap=${rd.snapshot?.index ?? '-'} ents=${rd.entries.length}@${first?.index ?? '-'} ` +
        `msgs=${rd.messages.length}+${rd.persistedMessages.length} apply=${rd.committedEntries.length} reads=${rd.readStates.length}`,
    );
    for (const m of rd.messages) this.send(n, m);
    for (const r of rd.readStates) this.readAnswered(n, r.index, r.context);
    const incarnation = n.incarnation;
    this.at(
      this.prng.int(1, 6),
      () => `fsync ${n.id}`,
      () => {
        if (n.incarnation !== incarnation || n.pending !== rd) return;
        this.persist(n, rd);
      },
    );
  }

  private persist(n: SimNode, rd: Ready): void {
    const core = n.core!;
    if (rd.snapshot) {
      const data = n.received.get(rd.snapshot.index);
      if (!data) throw new Error(`${n.id}: snapshot ${rd.snapshot.index} accepted without its data`);
      for (const e of data) this.checker.committed(n.id, e, 'snapshot', core.status().term);
      n.disk.log.installSnapshot(rd.snapshot);
      n.disk.snapshotData = data;
      n.sm = data.slice();
      n.disk.smDurable = rd.snapshot.index;
      this.stats.snapshotsInstalled++;
    }
    n.disk.log.append(rd.entries);
    if (rd.hardState) {
      this.checker.persisted(n.id, n.watch, rd.hardState);
      n.disk.hardState = rd.hardState;
    }
    for (const m of rd.persistedMessages) this.send(n, m);
    for (const e of rd.committedEntries) {
      if (e.index !== n.sm.length + 1) {
        throw new InvariantViolation('applied-prefix', {
          node: n.id,
          applying: e.index,
          smApplied: n.sm.length,
        });
      }
      this.checker.committed(n.id, e, 'apply', core.status().term);
      n.sm.push(e);
    }
    n.pending = undefined;
    core.advance(rd);
    this.pump(n);
  }

  // ------------------------------------------------------------ network

  private send(from: SimNode, m: Message): void {
    if (m.type === 'vote-response' && !m.reject) this.checker.voteSent(m.from, m.term, m.to);
    const to = this.nodes.get(m.to);
    let snapshotData: Entry[] | undefined;
    if (m.type === 'snapshot') {
      // Like a real driver: stream the snapshot on disk; if it was replaced since the core asked, report failure.
      if (from.disk.snapshotData.length !== m.snapshot?.index) {
        this.trace(`snapshot ${m.from}->${m.to} ${m.snapshot?.index} superseded`);
        this.reportSnapshotLater(from, m.to, false);
        return;
      }
      snapshotData = from.disk.snapshotData.slice();
      this.stats.snapshotsSent++;
    }
    const blocked = this.faults.blocked.has(`${m.from}>${m.to}`);
    const copies = !blocked && this.prng.chance(this.faults.dupRate) ? 2 : 1;
    let delivered = 0;
    for (let c = 0; c < copies; c++) {
      if (blocked || !to || this.prng.chance(this.faults.lossRate)) {
        this.stats.messagesDropped++;
        continue;
      }
      delivered++;
      this.at(
        this.prng.chance(this.faults.stragglerRate)
          ? this.prng.int(50, 500)
          : this.prng.int(1, this.faults.maxDelayMs),
        () => `deliver ${describeMessage(m)}`,
        () => this.deliver(to, m, snapshotData),
      );
    }
    if (m.type === 'snapshot' && delivered === 0) this.reportSnapshotLater(from, m.to, false);
  }

  private deliver(to: SimNode, m: Message, snapshotData: Entry[] | undefined): void {
    const core = to.core;
    if (!core || this.faults.blocked.has(`${m.from}>${m.to}`)) {
      // Down, or partitioned while in flight: the transport tells the sender a snapshot did not arrive.
      const sender = this.nodes.get(m.from);
      if (snapshotData && sender) this.reportSnapshotLater(sender, to.id, false);
      return;
    }
    if (snapshotData && m.snapshot) {
      to.received.set(m.snapshot.index, snapshotData);
      const sender = this.nodes.get(m.from);
      if (sender) this.reportSnapshotLater(sender, to.id, true);
    }
    core.step(m);
    this.pump(to);
  }

  private reportSnapshotLater(sender: SimNode, to: NodeId, ok: boolean): void {
    const incarnation = sender.incarnation;
    this.at(
      this.prng.int(1, 20),
      () => `report-snapshot ${sender.id}->${to} ${ok}`,
      () => {
        if (sender.incarnation !== incarnation || !sender.core) return;
        sender.core.reportSnapshot(to, ok);
        this.pump(sender);
      },
    );
  }

  // ------------------------------------------------------------ workload

  private live(): SimNode[] {
    return [...this.nodes.values()].filter((n) => n.core !== undefined);
  }

  private leaders(): SimNode[] {
    return this.live().filter((n) => n.core!.status().role === 'leader');
  }

  private scheduleWorkload(): void {
    this.at(
      this.prng.int(1, 30),
      () => 'workload',
      () => {
        if (!this.chaos) return;
        this.workload();
        this.scheduleWorkload();
      },
    );
  }

  private workload(): void {
    const r = this.prng.next();
    const live = this.live();
    if (live.length === 0) return;
    const leaders = this.leaders();
    const leader = leaders.length > 0 ? this.prng.pick(leaders) : undefined;
    if (r < 0.5) {
      const target = leader && this.prng.chance(0.9) ? leader : this.prng.pick(live);
      this.propose(target);
    } else if (r < 0.6) {
      this.read(this.prng.pick(live));
    } else if (r < 0.65) {
      if (!leader) return;
      const voters = leader.core!.status().conf.voters;
      const to = this.prng.pick(voters);
      this.stats.transfers++;
      this.trace(`transfer ${leader.id}->${to}`);
      leader.core!.transferLeadership(to);
      this.pump(leader);
    } else if (r < 0.75) {
      if (leader) this.changeMembership(leader);
    } else if (r < 0.85) {
      this.compact(this.prng.pick(live));
    } else if (r < 0.9) {
      const n = this.prng.pick(live);
      n.disk.smDurable = n.sm.length; // the state machine flushes (fsync)
      this.trace(`flush ${n.id} ${n.sm.length}`);
    }
  }

  private propose(n: SimNode): { index: number; term: number } | undefined {
    const bytes = this.prng.int(1, 48);
    const data = encoder.encode(`p${this.proposalSeq++}-${n.id}-`.padEnd(bytes, 'x'));
    try {
      const at = n.core!.propose(data);
      this.trace(`propose ${n.id} ${at.index}/${at.term}`);
      this.pump(n);
      return at;
    } catch (err) {
      if (err instanceof NotLeaderError || err instanceof LimitError) {
        this.trace(`propose ${n.id} refused ${err.name}`);
        return undefined;
      }
      throw err;
    }
  }

  private read(n: SimNode): void {
    const context = `r${this.readSeq++}`;
    try {
      n.core!.readIndex(encoder.encode(context));
      this.readFloor.set(context, this.checker.canonMax);
      this.stats.reads++;
      this.trace(`read ${n.id} ${context} floor=${this.checker.canonMax}`);
      this.pump(n);
    } catch (err) {
      if (!(err instanceof NotLeaderError)) throw err;
      this.trace(`read ${n.id} refused`);
    }
  }

  private readAnswered(n: SimNode, index: number, context: Uint8Array): void {
    const key = new TextDecoder().decode(context);
    const floor = this.readFloor.get(key);
    if (floor === undefined) return; // a duplicate answer
    this.readFloor.delete(key);
    if (index < floor) {
      throw new InvariantViolation('read-index-linearizable', {
        node: n.id,
        context: key,
        index,
        committedBeforeRead: floor,
      });
    }
  }

  private changeMembership(leader: SimNode): void {
    const conf = leader.core!.status().conf;
    const minVoters = this.options.nodes === 5 ? 3 : 2;
    const options: ConfChange[] = [];
    for (const l of conf.learners) options.push({ type: 'promote', node: l }, { type: 'remove', node: l });
    if (conf.voters.length > minVoters) {
      for (const v of conf.voters) options.push({ type: 'remove', node: v });
    }
    if (this.addedNodes < MAX_EXTRA_NODES && conf.learners.length === 0) {
      options.push({ type: 'add-learner', node: `n${this.options.nodes + this.addedNodes + 1}` });
    }
    if (options.length === 0) return;
    const change = this.prng.pick(options);
    let at: { index: number; term: number };
    try {
      at = leader.core!.proposeConfChange({ ...change, context: encoder.encode(`addr-of-${change.node}`) });
    } catch (err) {
      if (
        err instanceof ConfChangeInProgressError ||
        err instanceof NotLeaderError ||
        err instanceof InvalidConfChangeError
      ) {
        this.trace(`conf-change ${leader.id} ${change.type} ${change.node} refused ${err.name}`);
        return;
      }
      throw err;
    }
    this.stats.confChanges++;
    this.trace(`conf-change ${leader.id} ${change.type} ${change.node} at ${at.index}/${at.term}`);
    if (change.type === 'remove')
      this.removals.set(at.index, { node: change.node, key: entryKey(leader.core!.entryAt(at.index)) });
    if (change.type === 'add-learner') {
      this.addedNodes++;
      const n = this.addNode(change.node, []);
      this.start(n);
    }
    this.pump(leader);
  }

  /** A node whose removal is committed (canonical history) is shut down for good, after a while. */
  private trackMembership(): void {
    for (const [index, removal] of this.removals) {
      const committed = this.checker.canonical(index);
      if (committed === undefined) continue;
      this.removals.delete(index);
      const n = this.nodes.get(removal.node);
      if (committed !== removal.key || !n || n.decommissioned) continue;
      n.decommissioned = true;
      this.at(
        this.prng.int(0, 300),
        () => `decommission ${n.id}`,
        () => this.crash(n),
      );
    }
  }

  private compact(n: SimNode): void {
    const core = n.core!;
    // Compaction rule (DESIGN.md): only up to what the state machine has durably recorded.
    n.disk.smDurable = n.sm.length;
    const index = n.disk.smDurable - this.prng.int(0, 3);
    // Skip while the core holds an accepted snapshot the disk has not installed yet.
    if (
      index <= n.disk.log.firstIndex() - 1 ||
      index > n.disk.log.lastIndex() ||
      index < core.firstIndex() - 1
    )
      return;
    const meta = core.snapshotMetaAt(index);
    n.disk.log.compact(meta);
    n.disk.snapshotData = n.sm.slice(0, index);
    this.trace(`compact ${n.id} ${index}`);
  }

  // ------------------------------------------------------------ faults

  private scheduleFault(): void {
    this.at(
      this.prng.int(this.faultIntervalMs[0], this.faultIntervalMs[1]),
      () => 'fault',
      () => {
        if (!this.chaos) return;
        this.fault();
        this.scheduleFault();
      },
    );
  }

  private fault(): void {
    const r = this.prng.next();
    const all = [...this.nodes.values()].filter((n) => !n.decommissioned);
    if (r < 0.4) {
      const pendingWrites = all.filter((n) => n.core && n.pending);
      const up = all.filter((n) => n.core);
      const leaders = up.filter((n) => n.core!.status().role === 'leader');
      let pool = up;
      if (leaders.length > 0 && this.prng.chance(this.leaderCrashRate)) pool = leaders;
      else if (pendingWrites.length > 0 && this.prng.chance(0.5)) pool = pendingWrites;
      if (pool.length === 0) return;
      this.crashAndRestart(this.prng.pick(pool));
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
      this.faults.lossRate = this.prng.pick([0, 0.01, 0.05, 0.2]);
      this.faults.dupRate = this.prng.pick([0, 0.02, 0.1]);
      this.trace(`network loss=${this.faults.lossRate} dup=${this.faults.dupRate}`);
    }
  }

  private crashAndRestart(n: SimNode): void {
    if (!n.core) return;
    this.trace(`crash ${n.id}`);
    this.crash(n);
    const incarnation = n.incarnation;
    this.at(
      this.prng.int(10, this.maxDowntimeMs),
      () => `restart ${n.id}`,
      () => {
        if (n.incarnation !== incarnation || n.decommissioned) return;
        this.start(n);
      },
    );
  }

  /**
   * Swarm-style bias: a leader is sometimes cut off (or crashes) right after winning an
   * election or right after advancing its commit index, before what it just sent arrives:
   * the moments that make Figure 8 histories.
   */
  private maybeCrashAtInterestingPoint(n: SimNode, rd: Ready): void {
    if (!this.chaos || this.targetedFaultRate === 0) return;
    const elected = rd.softState?.role === 'leader';
    const committed =
      rd.hardState !== undefined && n.core?.status().role === 'leader' && rd.committedEntries.length > 0;
    if (!elected && !committed) return;
    if (!this.prng.chance(this.targetedFaultRate * (elected ? 0.5 : 0.3))) return;
    const incarnation = n.incarnation;
    const isolate = this.prng.chance(0.7);
    this.at(
      0,
      () => `targeted-${isolate ? 'isolation' : 'crash'} ${n.id}`,
      () => {
        if (n.incarnation !== incarnation) return;
        if (!isolate) {
          this.crashAndRestart(n);
          return;
        }
        const others = [...this.nodes.keys()].filter((id) => id !== n.id);
        this.partition(
          [...others.map((o) => `${n.id}>${o}`), ...others.map((o) => `${o}>${n.id}`)],
          'isolate-leader',
        );
      },
    );
  }

  private partition(links: string[], kind: string): void {
    if (links.length === 0) return;
    this.stats.partitions++;
    for (const l of links) this.faults.blocked.add(l);
    this.trace(`partition ${kind} ${links.join(',')}`);
    this.at(
      this.prng.int(50, 1000),
      () => `heal ${links.length} links`,
      () => {
        for (const l of links) this.faults.blocked.delete(l);
      },
    );
  }

  // ------------------------------------------------------------ liveness

  private heal(): void {
    this.chaos = false;
    this.faults.blocked.clear();
    this.faults.lossRate = 0;
    this.faults.dupRate = 0;
    this.trace('heal all');
    for (const n of this.nodes.values()) if (!n.core && !n.decommissioned) this.start(n);
  }

  private awaitLiveness(): void {
    const deadline = this.nowMs + LIVENESS_BOUND_MS;
    let proposal: { index: number; term: number; key: string } | undefined;
    let nextTryMs = this.nowMs;
    while (this.nowMs < deadline) {
      if (proposal) {
        const committed = this.checker.canonical(proposal.index);
        if (committed === proposal.key) return;
        if (committed !== undefined) proposal = undefined; // dropped: another entry took its index
      }
      if (this.nowMs >= nextTryMs) {
        nextTryMs = this.nowMs + 5 * TICK_MS;
        let leader: SimNode | undefined;
        for (const l of this.leaders()) {
          if (!leader || l.core!.status().term > leader.core!.status().term) leader = l;
        }
        if (leader && (!proposal || leader.core!.status().term > proposal.term)) {
          const at = this.propose(leader);
          if (at) proposal = { ...at, key: entryKey(leader.core!.entryAt(at.index)) };
        }
      }
      this.processOne();
    }
    const status = this.live().map((n) => {
      const s = n.core!.status();
      return `${n.id}:${s.role}@${s.term} lead=${s.leader} commit=${s.commit}/${s.lastIndex}`;
    });
    throw new InvariantViolation('liveness', { boundMs: LIVENESS_BOUND_MS, proposal, nodes: status });
  }
}

function describeMessage(m: Message): string {
  return (
    `${m.type} ${m.from}->${m.to} t${m.term} i${m.index} lt${m.logTerm} n${m.entries.length} c${m.commit}` +
    (m.reject ? ` reject hint=${m.rejectHint}/${m.hintTerm}` : '') +
    (m.snapshot ? ` snap=${m.snapshot.index}/${m.snapshot.term}` : '')
  );
}

export function runSeed(options: SimOptions): SimResult {
  return new Simulation(options).run();
}
