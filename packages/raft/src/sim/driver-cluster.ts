import type { RaftDriverOptions } from '../node/node-options.js';
import type { RaftNode } from '../node/raft-node.js';
import type { SenderIdentity } from '../transport/admission.js';
import type { Message, NodeId } from '../types.js';
import type { InjectedBug } from './injected-bugs.js';
import { SimCluster, settle } from './sim-cluster.js';
import type { SimRaftCore } from './sim-core.js';
import type { FileName } from './sim-disk.js';
import { SimulationError } from './sim-error.js';
import type { SimNode } from './sim-node.js';

/**
 * Shipped RaftNodes on simulated disks, network and time, stepped by a test:
 * nothing is lost or delayed unless the test says so (`drop`, `hold`,
 * `crash`), every invariant of the checker is checked after every event, and
 * a broken one rejects the `run`/`until` in progress.
 */
export class DriverCluster extends SimCluster {
  constructor(
    ids: readonly NodeId[],
    options: {
      bug?: InjectedBug;
      seed?: number;
      identity?: SenderIdentity;
      syncWrites?: boolean;
      snapshotEveryEntries?: number;
      /**
       * Gives every node a wall clock (true virtual time plus its entry in
       * `wallOffsetMs`) and this bound: vote requests are stamped and checked.
       */
      maxClockOffsetMs?: number;
    } = {},
  ) {
    super(
      options.seed ?? 1,
      options.bug,
      () => ({ lossRate: 0, dupRate: 0, maxDelayMs: 1, stragglerRate: 0, blocked: new Set() }),
      () => ({
        heartbeatTicks: 1,
        maxMsgBytes: 1024 * 1024,
        maxInflight: 64,
        snapshotEveryEntries: options.snapshotEveryEntries ?? 1_000_000,
        snapshotKeepEntries: 0,
        diskLatencyMs: [1, 1],
        segmentBytes: 64 * 1024,
        cacheBytes: 1024 * 1024,
        syncWrites: options.syncWrites ?? true,
        identity: options.identity ?? 'verified',
      }),
    );
    this.maxClockOffsetMs = options.maxClockOffsetMs;
    for (const id of ids) this.addNode(id, ids);
    for (const n of this.nodes.values()) this.start(n);
  }

  private readonly maxClockOffsetMs: number | undefined;
  /** Each node's wall clock minus true virtual time, ms (0 if absent), read at every stamp and check. */
  readonly wallOffsetMs = new Map<NodeId, number>();

  protected override driverOptions(n: SimNode): Partial<RaftDriverOptions> {
    if (this.maxClockOffsetMs === undefined) return {};
    return {
      wallClock: { nowMs: () => this.now + (this.wallOffsetMs.get(n.id) ?? 0) },
      maxClockOffsetMs: this.maxClockOffsetMs,
    };
  }

  /** Messages for which this returns true are dropped when they arrive. */
  set drop(filter: (m: Message) => boolean) {
    this.network.faults.drop = filter;
  }

  sim(id: NodeId): SimNode {
    const n = this.nodes.get(id);
    if (!n) throw new SimulationError(`no node ${id}`);
    return n;
  }

  node(id: NodeId): RaftNode {
    const node = this.sim(id).node;
    if (!node) throw new SimulationError(`${id} is not running`);
    return node;
  }

  core(id: NodeId): SimRaftCore {
    const core = this.sim(id).core;
    if (!core) throw new SimulationError(`${id} is not running`);
    return core;
  }

  /** Processes events for `ms` of virtual time. */
  async run(ms: number): Promise<void> {
    const end = this.now + ms;
    await settle();
    while ((this.queue.peekAtMs() ?? Number.POSITIVE_INFINITY) <= end) await this.processOne();
    this.now = end;
  }

  /** Processes events until `done()` holds (checked after every event), at most `maxMs` of virtual time. */
  async until(what: string, done: () => boolean, maxMs = 10_000): Promise<void> {
    const end = this.now + maxMs;
    while (!done()) {
      if (this.now > end)
        throw new SimulationError(`timed out after ${maxMs} virtual ms waiting for ${what}`);
      await this.processOne();
    }
  }

  /** Makes `id` the leader: the others are kept from campaigning until it wins (on top of `drop`). */
  async elect(id: NodeId): Promise<void> {
    const previous = this.network.faults.drop;
    this.drop = (m) =>
      previous?.(m) === true || ((m.type === 'pre-vote' || m.type === 'vote') && m.from !== id);
    await this.until(`${id} to lead`, () => this.sim(id).core?.status().role === 'leader');
    await this.run(50);
    this.network.faults.drop = previous;
  }

  /**
   * Power loss on `id`. `keep`: how many of each file's pending (unsynced) changes reach
   * the disk, in order (undefined: none). The state machine keeps only what it flushed.
   */
  crashNode(id: NodeId, keep?: (pending: number) => number | undefined): void {
    const n = this.sim(id);
    this.trace(`crash ${id}`);
    n.crash(this.prng, keep ?? (() => undefined), false);
  }

  /** Starts a new member that joins the running cluster (it waits for the leader to add it). */
  join(id: NodeId): void {
    this.start(this.addNode(id, []));
  }

  restart(id: NodeId): void {
    this.start(this.sim(id));
  }

  /** `id`'s disk stops completing writes (to `files`, default all; they stay in flight) until release(). */
  hold(id: NodeId, files?: readonly FileName[]): void {
    this.sim(id).disk.hold(files);
  }

  /** Hands `m` to its addressee now, through the driver's membership filter. */
  deliver(m: Message): void {
    const node = this.node(m.to);
    if (node.admit(m.from, [m], this.network.identity).admitted) node.receive([m]);
  }

  /** The next sync (fsync, fdatasync, O_DSYNC write) of one of `id`'s files whose path matches fails with EIO. */
  failNextSync(id: NodeId, path: RegExp): void {
    this.sim(id).disk.fs.failNextSync = (p) => path.test(p);
  }

  release(id: NodeId): void {
    this.sim(id).disk.release();
  }

  /** The entry `id`'s state machine applied at `index`, as term/type/text, or undefined. */
  applied(id: NodeId, index: number): string | undefined {
    const e = this.sim(id).sm?.entry(index);
    return e ? `${e.term}/${e.type}/${new TextDecoder().decode(e.data)}` : undefined;
  }
}
