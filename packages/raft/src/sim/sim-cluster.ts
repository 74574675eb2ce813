/**
 * A cluster of shipped RaftNodes on simulated disks (sim-storage.ts), a
 * simulated network (sim-network.ts) and virtual time, all drawing from one
 * seeded PRNG: the Ready loop, the apply pipeline, the snapshot policy and
 * the restart path are the product's own. The Simulation (random workload
 * and faults) and DriverCluster (scenarios stepped by hand in tests) build
 * on it.
 */

import { createHash, type Hash } from 'node:crypto';
import { StorageError } from '../log/errors.js';
import { LogStore, type LogStoreOptions } from '../log/log-store.js';
import type { RaftDriverOptions } from '../node/node-options.js';
import type { SenderIdentity } from '../transport/admission.js';
import type { NodeId } from '../types.js';
import { Checker } from './checker.js';
import { EventQueue } from './event-queue.js';
import { type InjectedBug, nodeClass, openLogWithBug } from './injected-bugs.js';
import { Prng } from './prng.js';
import { SimulationError } from './sim-error.js';
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
  /** LogStore's segment size: small, so segments turn over and compaction deletes them. */
  readonly segmentBytes: number;
  /** LogStore's entry cache: small ones make reads go to the segment files. */
  readonly cacheBytes: number;
  /** Segment writes durable on return (O_DSYNC, Linux), or write + fdatasync (elsewhere). */
  readonly syncWrites: boolean;
  /** What the peer transport proves about each batch's sender (peer TLS naming it, a cluster credential, nothing). */
  readonly identity: SenderIdentity;
}

/** Errors of the simulated disk the simulation injects: a node stops on them (fail-stop), it is no failure of the run. */
export function isInjectedDiskFault(error: unknown): boolean {
  return error instanceof StorageError && (error.code === 'EIO' || error.code === 'ENOSPC');
}
/** The same, as the driver's fatal log line writes it (the error's stack). */
const INJECTED_DISK_FAULT = /^StorageError: .* failed \((EIO|ENOSPC)\)/;

export interface ClusterStats {
  elections: number;
  crashes: number;
  snapshotsSent: number;
  snapshotsInstalled: number;
  messagesDropped: number;
  /** Nodes stopped by an injected disk fault (EIO, or ENOSPC from a sync). */
  failStops: number;
  /** Times a node found its disk full and waited for room (no stop). */
  diskFullWaits: number;
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
  /** Nodes that stopped on an injected disk fault, with the fatal error's first line. */
  readonly failStops: Array<{ readonly id: NodeId; readonly reason: string }> = [];
  readonly counts: ClusterStats = {
    elections: 0,
    crashes: 0,
    snapshotsSent: 0,
    snapshotsInstalled: 0,
    messagesDropped: 0,
    failStops: 0,
    diskFullWaits: 0,
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
    const networkFaults = faults(this.prng);
    this.params = params(this.prng);
    this.network = new SimNetwork(this, networkFaults, this.params.identity, {
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
      server: (id) => this.nodes.get(id),
    });
    this.logOptions = {
      segmentBytes: this.params.segmentBytes,
      cacheBytes: this.params.cacheBytes,
      openLog: (options: LogStoreOptions) => openLogWithBug(options, bug) ?? LogStore.open(options),
    };
  }

  protected readonly params: ClusterParams;
  readonly logOptions: SimContext['logOptions'];

  nowMs(): number {
    return this.now;
  }

  at(delayMs: number, describe: () => string, run: () => void): void {
    this.queue.push(this.now + delayMs, describe, run);
  }

  trace(line: string): void {
    const full = `${this.stepNo} ${this.now} ${line}`;
    if (process.env.SIM_TRACE) process.stderr.write(`${full}\n`);
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
    if (!ev) throw new SimulationError('event queue ran dry');
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
      if (old.up) throw new SimulationError(`node ${id} is still running: it cannot be added again`);
      this.checker.newServer(id);
    }
    const n = new SimNode(id, bootstrapVoters, this, this.diskLatencyFor(id), this.params.syncWrites);
    this.nodes.set(id, n);
    return n;
  }

  /** Options a subclass adds to `n`'s driver (none here: the simulation stamps no wall clock on vote requests). */
  protected driverOptions(_n: SimNode): Partial<RaftDriverOptions> {
    return {};
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
    const ports = n.ports();
    this.checker.restarted(n.id, n.watch);
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
      ...this.driverOptions(n),
      log: n.logger((fields, message) => {
        if (!message.includes('fatal') || n.incarnation !== incarnation) return;
        const err = String(fields.err);
        if (INJECTED_DISK_FAULT.test(err)) this.stopped(n, err.split('\n')[0]);
        else this.fail(new Error(`${n.id}: ${message}: ${err}`));
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
            // A crashed incarnation's abandoned code may still run into its closed files.
            if (n.incarnation !== incarnation || isInjectedDiskFault(error)) return;
            // The real error (with its invariant and values) replaces the logged line.
            this.failure =
              this.failure instanceof Error && this.failure.message.startsWith(`${n.id}: `)
                ? error
                : (this.failure ?? error);
          });
          node.on('snapshot', ({ kind }) => {
            if (kind === 'installed') this.counts.snapshotsInstalled++;
          });
          node.on('disk-full', () => {
            this.counts.diskFullWaits++;
          });
        },
        (error: unknown) => {
          if (n.incarnation !== incarnation) return;
          if (isInjectedDiskFault(error)) this.stopped(n, (error as Error).message);
          else this.fail(error);
        },
      );
  }

  /**
   * `n` stopped on a disk fault the simulation injected (a failed fsync, a full disk):
   * fail-stop, as the driver does. It is down, with what a power loss would leave; the
   * Simulation restarts it after a while.
   */
  protected stopped(n: SimNode, why: string | undefined): void {
    const reason = why?.replace(/\.\d+\.\d+\.tmp/g, '.tmp') ?? '';
    this.trace(`fail-stop ${n.id}: ${reason}`);
    this.failStops.push({ id: n.id, reason });
    this.counts.failStops++;
    this.crash(n);
  }

  crash(n: SimNode): void {
    if (!n.up) return;
    this.counts.crashes++;
    this.trace(`crash ${n.id} (disk writes in flight lost or torn)`);
    n.crash(this.prng);
  }
}
