/**
 * A cluster of shipped RaftNodes on simulated disks (sim-storage.ts), a
 * simulated network (sim-network.ts) and virtual time, all drawing from one
 * seeded PRNG: the Ready loop, the apply pipeline, the snapshot policy and
 * the restart path are the product's own. The Simulation (random workload
 * and faults) and DriverCluster (scenarios stepped by hand in tests) build
 * on it.
 */
import { createHash, type Hash } from 'node:crypto';
import type { RaftDriverOptions } from '../node/node-options.js';
import type { NodeId } from '../types.js';
import { Checker } from './checker.js';
import { EventQueue } from './event-queue.js';
import { type InjectedBug, nodeClass } from './injected-bugs.js';
import { Prng } from './prng.js';
import { type Faults, SimNetwork } from './sim-network.js';
import { type InterestingPoint, type SimContext, SimNode } from './sim-node.js';

/** Virtual milliseconds between two ticks of one node. */
export const TICK_MS = 10;
export const ELECTION_TICKS = 10;
const TRACE_TAIL_LINES = Number(process.env.SIM_TAIL ?? 40);

/** Lets every promise chain a step started run to its next wait on simulated I/O or time. */
export const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

export interface ClusterParams {
  readonly heartbeatTicks: number;
  readonly maxMsgBytes: number;
  readonly maxInflight: number;
  readonly snapshotEveryEntries: number;
  readonly snapshotKeepEntries: number;
  readonly diskLatencyMs: readonly [number, number];
}

export interface ClusterStats {
  elections: number;
  crashes: number;
  snapshotsSent: number;
  snapshotsInstalled: number;
  messagesDropped: number;
}

export class SimCluster implements SimContext {
  readonly prng: Prng;
  readonly checker: Checker;
  readonly network: SimNetwork;
  readonly nodes = new Map<NodeId, SimNode>();
  protected readonly queue = new EventQueue();
  private readonly hash: Hash = createHash('sha256');
  protected readonly tail: string[] = [];
  protected now = 0;
  protected stepNo = 0;
  protected failure: unknown;
  readonly counts: ClusterStats = {
    elections: 0,
    crashes: 0,
    snapshotsSent: 0,
    snapshotsInstalled: 0,
    messagesDropped: 0,
  };

  constructor(
    seed: number,
    readonly bug: InjectedBug | undefined,
    faults: (prng: Prng) => Faults,
    params: (prng: Prng) => ClusterParams,
    /** Only the general invariants stop the run (see Checker). */
    generalOnly = false,
  ) {
    this.checker = new Checker(generalOnly);
    this.prng = new Prng(seed);
    this.network = new SimNetwork(this, faults(this.prng), {
      endpoint: (id) => {
        const n = this.nodes.get(id);
        return n?.node && n.incoming
          ? { handler: n.node, incoming: n.incoming, incarnation: n.incarnation }
          : undefined;
      },
      sent: (m) => {
        if (m.type === 'vote-response' && !m.reject) this.checker.voteSent(m.from, m.term, m.to);
        if (m.type === 'append-response' && !m.reject)
          this.checker.acked(m.from, m.index, this.nodes.get(m.from)?.log?.term(m.index));
      },
      trace: (line) => this.trace(line),
      dropped: () => this.counts.messagesDropped++,
      snapshotSent: () => this.counts.snapshotsSent++,
    });
    this.params = params(this.prng);
  }

  protected readonly params: ClusterParams;

  nowMs(): number {
    return this.now;
  }

  at(delayMs: number, describe: () => string, run: () => void): void {
    this.queue.push(this.now + delayMs, describe, run);
  }

  trace(line: string): void {
    const full = `${this.stepNo} ${this.now} ${line}`;
    this.hash.update(full);
    this.hash.update('\n');
    this.tail.push(full);
    if (this.tail.length > TRACE_TAIL_LINES) this.tail.shift();
  }

  /** sha256 of the trace so far. */
  digest(): string {
    return this.hash.copy().digest('hex');
  }

  /** Schedule bias hook (see Workload.maybeFaultAtInterestingPoint); nothing by default. */
  interesting(_n: SimNode, _what: InterestingPoint): void {}

  /** A check failed inside a node (its hooks, its state machine) or the node stopped on a fatal error. */
  fail(error: unknown): void {
    this.failure ??= error;
  }

  /** Runs the next event and every promise chain it starts; then checks every invariant. */
  async processOne(): Promise<void> {
    if (this.queue.size === 0) await settle(); // nodes still opening: their first writes come
    const ev = this.queue.pop();
    if (!ev) throw new Error('event queue ran dry');
    this.now = ev.atMs;
    this.stepNo++;
    this.trace(ev.describe());
    try {
      ev.run();
    } catch (error) {
      this.fail(error);
    }
    await settle();
    if (this.failure !== undefined) throw this.failure;
    this.checkAll();
  }

  protected checkAll(): void {
    for (const n of this.nodes.values()) {
      if (!n.node || !n.core || !n.sm) continue;
      this.checker.node(n.core, n.watch, n.sm.appliedCount);
      const confIndex = n.core.confIndex();
      if (confIndex !== n.seenConfIndex) {
        n.seenConfIndex = confIndex;
        this.interesting(n, 'conf-applied');
      }
      const s = n.core.status();
      if (s.role !== 'leader') continue;
      if (n.seenLeaderTerm !== s.term) {
        n.seenLeaderTerm = s.term;
        n.seenCommit = s.commit;
        this.counts.elections++;
        this.interesting(n, 'elected');
      } else if (s.commit > n.seenCommit) {
        n.seenCommit = s.commit;
        this.interesting(n, 'committed');
      }
    }
  }

  // ------------------------------------------------------------ nodes

  addNode(id: NodeId, bootstrapVoters: readonly NodeId[]): SimNode {
    const old = this.nodes.get(id);
    if (old) {
      // A member added again under the id of a removed one, on an empty disk: a new server.
      if (old.up) throw new Error(`node ${id} is still running: it cannot be added again`);
      this.checker.newServer(id);
    }
    const n = new SimNode(id, bootstrapVoters, this, this.diskLatencyFor(id));
    this.nodes.set(id, n);
    return n;
  }

  /** Virtual ms one write to `id`'s disk takes: [min, max]; one range for all nodes unless a subclass varies it. */
  protected diskLatencyFor(_id: NodeId): readonly [number, number] {
    return this.params.diskLatencyMs;
  }

  live(): SimNode[] {
    return [...this.nodes.values()].filter((n) => n.running);
  }

  leaders(): SimNode[] {
    return this.live().filter((n) => n.core?.status().role === 'leader');
  }

  start(n: SimNode): void {
    if (n.up || n.decommissioned) return;
    n.up = true;
    this.checker.restarted(n.id, n.watch);
    const ports = n.ports();
    const incarnation = n.incarnation;
    const members = Object.fromEntries(
      (n.bootstrapVoters.length > 0 ? n.bootstrapVoters : [...this.nodes.keys()]).map((id) => [
        id,
        { peerAddress: id, clientAddress: id },
      ]),
    );
    const options: RaftDriverOptions = {
      id: n.id,
      clusterId: 'sim',
      initialMembers: members,
      join: n.bootstrapVoters.length === 0,
      stateMachine: n.sm!,
      tickMs: TICK_MS,
      electionTicks: ELECTION_TICKS,
      heartbeatTicks: this.params.heartbeatTicks,
      snapshotEveryEntries: this.params.snapshotEveryEntries,
      snapshotKeepEntries: this.params.snapshotKeepEntries,
      proposalTimeoutMs: 3_000,
      readIndexTimeoutMs: 1_000,
      membershipTimeoutMs: 3_000,
      maxMsgBytes: this.params.maxMsgBytes,
      maxInflight: this.params.maxInflight,
      log: n.logger((fields, message) => {
        if (message.includes('fatal')) this.fail(new Error(`${n.id}: ${message}: ${String(fields.err)}`));
      }),
    };
    this.trace(`open ${n.id} incarnation=${incarnation}`);
    nodeClass(this.bug)
      .openWith(options, ports)
      .then(
        (node) => {
          if (n.incarnation !== incarnation) return;
          n.node = node;
          node.on('fatal', (error) => {
            // The real error (with its invariant and values) replaces the logged line.
            this.failure =
              this.failure instanceof Error && this.failure.message.startsWith(`${n.id}: `)
                ? error
                : (this.failure ?? error);
          });
          node.on('snapshot', ({ kind }) => {
            if (kind === 'installed') this.counts.snapshotsInstalled++;
          });
        },
        (error: unknown) => {
          if (n.incarnation === incarnation) this.fail(error);
        },
      );
  }

  crash(n: SimNode): void {
    if (!n.up) return;
    this.counts.crashes++;
    this.trace(`crash ${n.id} (disk writes in flight lost or torn)`);
    n.crash(this.prng);
  }
}
