/**
 * One simulated member: its disk and durable state-machine state (which
 * survive crashes) and, while it runs, the shipped RaftNode opened on
 * simulated ports: the shipped LogStore and HardStateFile on the disk's
 * simulated file system, the simulated snapshot file, network
 * (sim-network.ts) and a virtual clock.
 */

import { VirtualClock } from '@fermata/base';
import { EMPTY_HARD_STATE } from '../log/hard-state.js';
import type { LogStore, LogStoreOptions } from '../log/log-store.js';
import type { NodePorts } from '../node/ports.js';
import type { RaftNode } from '../node/raft-node.js';
import type { Logger } from '../transport/logger.js';
import type { NodeId } from '../types.js';
import { CheckedLog } from './checked-log.js';
import type { Checker, NodeWatch } from './checker.js';
import { type InjectedBug, makeCore } from './injected-bugs.js';
import type { Prng } from './prng.js';
import type { SimRaftCore } from './sim-core.js';
import { type Scheduler, SimDisk } from './sim-disk.js';
import { type SimNetwork, SimTransport } from './sim-network.js';
import { SimStateMachine, type SmDurable } from './sim-state-machine.js';
import { openSimFiles, SimIncoming, SimSnapshotStorage } from './sim-storage.js';

export interface SimContext extends Scheduler {
  readonly checker: Checker;
  readonly network: SimNetwork;
  readonly bug: InjectedBug | undefined;
  /** How the nodes' log stores are opened (segment size, cache, an injected bug's store). */
  readonly logOptions: {
    readonly segmentBytes?: number;
    readonly cacheBytes?: number;
    readonly openLog?: (options: LogStoreOptions) => LogStore;
  };
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
  /** The log port of the current incarnation (the shipped LogStore, checked). */
  log: CheckedLog | undefined;
  incarnation = 0;
  /** Virtual time on the simulation's queue; a crash or a restart forgets the timers and sleeps of the incarnation before. */
  private readonly clock: VirtualClock;
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
    syncWrites = true,
  ) {
    this.disk = new SimDisk(id, ctx, diskLatencyMs, syncWrites);
    // Ticks start at a random point of their first period, so nodes do not tick in step.
    this.clock = new VirtualClock(
      { now: () => ctx.nowMs(), at: (delayMs, describe, run) => ctx.at(delayMs, describe, run) },
      { name: id, firstTickMs: (ms) => ctx.prng.int(1, ms) },
    );
    this.watch = ctx.checker.newWatch(EMPTY_HARD_STATE);
  }

  get running(): boolean {
    return this.node !== undefined;
  }

  /** The ports of a new incarnation; everything they do stops at the next crash. */
  ports(): NodePorts {
    const incarnation = ++this.incarnation;
    this.clock.crash(); // timers of an earlier incarnation never fire
    const alive = () => this.incarnation === incarnation;
    const { checker } = this.ctx;
    this.incoming = new SimIncoming();
    this.sm = new SimStateMachine(this.id, this.smDurable, this.disk, {
      applied: (e, how) => checker.committed(this.id, e, how, this.core?.status().term ?? 0),
    });
    // Start-up recovery of the shipped log store and hard-state file, on what the disk kept.
    const files = openSimFiles(this.disk, this.ctx.logOptions);
    checker.recovered(this.id, this.watch, files.stable.get());
    const log = new CheckedLog(files.log, {
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
    const stable = files.stable;
    return {
      log,
      stable: {
        get: () => stable.get(),
        save: (hs) =>
          stable.save(hs).then(() => {
            if (alive()) checker.persisted(this.id, this.watch, hs);
          }),
      },
      snapshots: new SimSnapshotStorage(this.disk),
      incoming: this.incoming,
      addressBook: files.addressBook,
      clock: this.clock,
      random: () => this.ctx.prng.next(),
      transport: (handler) => new SimTransport(this.id, this.ctx.network, handler, alive),
      makeCore: (options) => {
        const core = makeCore(options, this.ctx.bug);
        this.core = core;
        return core;
      },
    };
  }

  /** Power loss: the running node is dropped (never closed), unsynced writes are lost or torn (`keep`: see SimDisk.crash). */
  crash(prng: Prng, keep?: (pending: number) => number | undefined, smKeepsUnflushed = true): void {
    this.up = false;
    this.incarnation++;
    this.clock.crash();
    this.node = undefined;
    this.core = undefined;
    this.disk.crash(keep);
    if (smKeepsUnflushed) this.sm?.crash(prng);
    this.sm = undefined;
    this.incoming = undefined;
  }

  /** The driver's log lines go into the trace (and a fatal error fails the run, see Simulation). */
  logger(onError: (fields: Record<string, unknown>, message: string) => void): Logger {
    // The trace (and its digest) holds an error's first line only (a stack names this
    // checkout's paths), and temporary file names without the process id they carry.
    const line = (level: string) => (fields: Record<string, unknown>, message: string) => {
      const err = typeof fields.err === 'string' ? { err: fields.err.split('\n')[0] } : {};
      const shown = JSON.stringify({ ...fields, ...err }).replace(/\.\d+\.\d+\.tmp/g, '.tmp');
      this.ctx.trace(`log ${this.id} ${level} ${message} ${shown}`);
    };
    return {
      debug: () => undefined,
      info: (fields, message) => line('info')(fields as Record<string, unknown>, message),
      warn: (fields, message) => line('warn')(fields as Record<string, unknown>, message),
      error: (fields, message) => {
        line('error')(fields as Record<string, unknown>, message);
        onError(fields as Record<string, unknown>, message);
      },
    };
  }
}
