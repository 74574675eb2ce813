/**
 * One simulated member: its disk and durable state-machine state (which
 * survive crashes) and, while it runs, the shipped RaftNode opened on
 * simulated ports (sim-storage.ts, sim-network.ts, a virtual clock).
 */

import type { Clock, NodePorts } from '../node/ports.js';
import type { RaftNode } from '../node/raft-node.js';
import type { Logger } from '../transport/logger.js';
import type { NodeId } from '../types.js';
import type { Checker, NodeWatch } from './checker.js';
import { type InjectedBug, makeCore } from './injected-bugs.js';
import type { Prng } from './prng.js';
import type { SimRaftCore } from './sim-core.js';
import { type Scheduler, SimDisk } from './sim-disk.js';
import { type SimNetwork, SimTransport } from './sim-network.js';
import { SimStateMachine, type SmDurable } from './sim-state-machine.js';
import {
  SimIncoming,
  SimLogStorage,
  SimSmallFile,
  SimSnapshotStorage,
  SimStableStorage,
} from './sim-storage.js';

export interface SimContext extends Scheduler {
  readonly checker: Checker;
  readonly network: SimNetwork;
  readonly bug: InjectedBug | undefined;
  nowMs(): number;
  trace(line: string): void;
  /** A moment worth a crash (swarm-style schedule bias, see Workload.maybeFaultAtInterestingPoint). */
  interesting(n: SimNode, what: InterestingPoint): void;
}

export type InterestingPoint = 'elected' | 'committed' | 'truncating' | 'conf-applied';

export class SimNode {
  readonly disk: SimDisk;
  readonly smDurable: SmDurable = { applied: [] };
  readonly watch: NodeWatch;
  /** Set from start() until crash(): the node is opening or running. */
  up = false;
  node: RaftNode | undefined;
  core: SimRaftCore | undefined;
  sm: SimStateMachine | undefined;
  incoming: SimIncoming | undefined;
  /** The log port of the current incarnation (its view is what the driver handed to the disk). */
  log: SimLogStorage | undefined;
  incarnation = 0;
  decommissioned = false;
  /** The term in which the simulation last saw this node lead, and its commit index then (hostile schedules). */
  seenLeaderTerm = 0;
  seenCommit = 0;
  seenConfIndex = 0;

  constructor(
    readonly id: NodeId,
    /** Initial voters for a bootstrapping member; empty for one that joins a running cluster. */
    readonly bootstrapVoters: readonly NodeId[],
    private readonly ctx: SimContext,
    diskLatencyMs: readonly [number, number],
  ) {
    this.disk = new SimDisk(id, ctx, diskLatencyMs);
    this.watch = ctx.checker.newWatch(this.disk.hardState);
  }

  get running(): boolean {
    return this.node !== undefined;
  }

  /** The ports of a new incarnation; everything they do stops at the next crash. */
  ports(): NodePorts {
    const incarnation = ++this.incarnation;
    const alive = () => this.incarnation === incarnation;
    const { checker } = this.ctx;
    this.incoming = new SimIncoming();
    this.sm = new SimStateMachine(this.id, this.smDurable, this.disk, {
      applied: (e, how) => checker.committed(this.id, e, how, this.core?.status().term ?? 0),
    });
    const log = new SimLogStorage(this.disk, {
      appending: (entries, store, truncating) => {
        if (!alive()) return;
        checker.handedOut(this.id, entries, store.term((entries[0]?.index ?? 1) - 1) ?? 0);
        checker.truncation(this.id, store, entries);
        checker.rewriting(this.id, store, entries);
        if (truncating) this.ctx.interesting(this, 'truncating');
      },
      installing: () => {
        if (alive()) checker.replaced(this.id);
      },
    });
    this.log = log;
    checker.durableAfterCrash(this.id, log);
    return {
      log,
      stable: new SimStableStorage(this.disk, (hs) => checker.persisted(this.id, this.watch, hs)),
      snapshots: new SimSnapshotStorage(this.disk),
      incoming: this.incoming,
      addressBook: new SimSmallFile(this.disk),
      clock: this.clock(alive),
      random: () => this.ctx.prng.next(),
      transport: (handler) => new SimTransport(this.id, this.ctx.network, handler, alive),
      makeCore: (options) => {
        const core = makeCore(options, this.ctx.bug);
        this.core = core;
        return core;
      },
    };
  }

  /** Power loss: the running node is dropped (never closed), unsynced writes are lost or torn. */
  crash(prng: Prng, tear?: (frames: number) => number | undefined, smKeepsUnflushed = true): void {
    this.up = false;
    this.incarnation++;
    this.node = undefined;
    this.core = undefined;
    this.disk.crash(tear);
    if (smKeepsUnflushed) this.sm?.crash(prng);
    this.sm = undefined;
    this.incoming = undefined;
  }

  /** Virtual time; timers and sleeps of a crashed incarnation never fire. */
  private clock(alive: () => boolean): Clock {
    const ctx = this.ctx;
    return {
      nowMs: () => ctx.nowMs(),
      monotonicMs: () => ctx.nowMs(),
      every: (ms, fn) => {
        let on = true;
        const schedule = (delayMs: number) =>
          ctx.at(
            delayMs,
            () => `tick ${this.id}`,
            () => {
              if (!on || !alive()) return;
              fn();
              schedule(ms);
            },
          );
        schedule(ctx.prng.int(1, ms));
        return () => {
          on = false;
        };
      },
      sleep: (ms) =>
        new Promise<void>((resolve) =>
          ctx.at(
            ms,
            () => `wake ${this.id}`,
            () => {
              if (alive()) resolve();
            },
          ),
        ),
    };
  }

  /** The driver's log lines go into the trace (and a fatal error fails the run, see Simulation). */
  logger(onError: (fields: Record<string, unknown>, message: string) => void): Logger {
    const line = (level: string) => (fields: object, message: string) =>
      this.ctx.trace(`log ${this.id} ${level} ${message} ${JSON.stringify(fields)}`);
    return {
      debug: () => undefined,
      info: line('info'),
      warn: line('warn'),
      error: (fields, message) => {
        line('error')(fields, message);
        onError(fields as Record<string, unknown>, message);
      },
    };
  }
}
