/**
 * One broker node of the simulation: the shipped RaftNode driver over
 * simulated ports, BrokerStateMachine over a memory store, and the leader
 * layer (proposer, dispatcher, janitor) on the node's simulated clock, wired
 * by the same wireLeaderLayer as the server. A crash drops all of it; the
 * memory store is lost with it, so a restart rebuilds the state from the
 * node's snapshot file and log, as a memory-engine node does.
 */
import type { VirtualClock } from '@fermata/base';
import { type Entry, type NodeId, RaftNode, silentLogger } from '@fermata/raft';
import {
  openSimFiles,
  type SimDisk,
  type SimIncoming,
  type SimNetwork,
  SimSnapshotStorage,
  SimTransport,
} from '@fermata/raft/sim-ports';
import { openStore } from '@fermata/storage';
import pino from 'pino';
import { createQueueHasher } from '../keys.js';
import type { Janitor } from '../leader/janitor.js';
import { loadConfig } from '../server/config.js';
import type { ServerContext } from '../server/context.js';
import { assembleLeaderParts } from '../server/leader-parts.js';
import { wireLeaderLayer } from '../server/leader-wiring.js';
import { BrokerMetrics } from '../server/metrics.js';
import type { ApplyResult } from '../state/commands/results.js';
import { BrokerStateMachine } from '../state/state-machine.js';
import type { BrokerBugs } from './injected-bugs.js';

export const SIM_TICK_MS = 50;
/** deletion.maxRecordsPerStep of the simulated nodes: a deletion of many steps (deletions.ts). */
export const PURGE_STEP_RECORDS = 10;
export const SIM_ELECTION_TICKS = 10;
/** Small log segments, so they turn over and compaction deletes them. */
const SIM_SEGMENT_BYTES = 16 * 1024;

// Deletions purge in small steps (deletions.ts), so that one spans many entries and faults. The
// simulated clients publish to topics they never create (the traces of the recorded seeds depend
// on it), as clusters with topics.autoCreate do.
const config = loadConfig({
  overrides: { deletion: { maxRecordsPerStep: PURGE_STEP_RECORDS }, topics: { autoCreate: true } },
});
const quiet = pino({ level: 'silent' });

/** How long before its due time the simulated leaders lease a message (the checker's key-due-order). */
export const SIM_LEASE_AHEAD_MS = config.dispatcher.leaseAheadMs;

export interface SimNodeEnv {
  readonly id: NodeId;
  readonly members: readonly NodeId[];
  /** A node added to a running cluster (RaftDriverOptions.join). */
  readonly join: boolean;
  readonly disk: SimDisk;
  readonly net: SimNetwork;
  /** Snapshot data the incarnation receives (the network hands it over through the cluster's endpoint). */
  readonly incoming: SimIncoming;
  /** False once this incarnation crashed. */
  readonly alive: () => boolean;
  readonly clock: VirtualClock;
  readonly random: () => number;
  readonly bugs: BrokerBugs;
  readonly snapshotEveryEntries: number;
  /** Run the schedule materialiser as leader. */
  readonly schedules: boolean;
  /** Hears every batch the state machine applied, with its results (the log observers). */
  readonly onApplied?: (entries: readonly Entry[], results: readonly ApplyResult[]) => void;
}

/** A running incarnation of a node. */
export class SimBrokerNode {
  private constructor(
    readonly ctx: ServerContext,
    readonly janitor: Janitor,
  ) {}

  get id(): NodeId {
    return this.ctx.node.id;
  }

  static async start(env: SimNodeEnv): Promise<SimBrokerNode> {
    const store = await openStore({ engine: 'memory' });
    const sm = await BrokerStateMachine.open({
      store,
      hasher: await createQueueHasher(),
      limits: config.limits,
    });
    env.bugs.stateMachine?.(sm);
    const { onApplied } = env;
    if (onApplied) {
      const apply = sm.apply.bind(sm);
      sm.apply = async (entries) => {
        const results = await apply(entries);
        onApplied(entries, results);
        return results;
      };
    }
    const initialMembers = Object.fromEntries(
      env.members.map((m) => [m, { peerAddress: `sim://${m}`, clientAddress: `sim-client://${m}` }]),
    );
    // The shipped log store, hard-state file and address book on the disk's simulated files.
    const files = openSimFiles(env.disk, { segmentBytes: SIM_SEGMENT_BYTES });
    const node = await RaftNode.openWith(
      {
        id: env.id,
        clusterId: 'sim',
        initialMembers,
        join: env.join,
        stateMachine: sm,
        tickMs: SIM_TICK_MS,
        electionTicks: SIM_ELECTION_TICKS,
        snapshotEveryEntries: env.snapshotEveryEntries,
        snapshotKeepEntries: Math.floor(env.snapshotEveryEntries / 2),
        proposalTimeoutMs: 5_000,
        membershipTimeoutMs: 10_000,
        log: silentLogger,
      },
      {
        log: files.log,
        stable: files.stable,
        snapshots: new SimSnapshotStorage(env.disk),
        incoming: env.incoming,
        addressBook: files.addressBook,
        clock: env.clock,
        random: env.random,
        transport: (handler) => new SimTransport(env.id, env.net, handler, env.alive),
      },
    );
    // No process metrics: their event-loop-delay monitor runs until the process exits, and a
    // long run starts thousands of nodes in one process.
    const metrics = new BrokerMetrics({ processMetrics: false });
    const { ctx, janitor } = assembleLeaderParts({
      config,
      node,
      sm,
      metrics,
      log: quiet,
      clock: env.clock,
      publishIdempotency: true,
      schedules: env.schedules,
      ...(env.bugs.proposer ? { proposerClass: env.bugs.proposer } : {}),
    });
    const { proposer, dispatcher, materializer } = ctx;
    wireLeaderLayer(
      {
        node,
        sm,
        dispatcher,
        janitor,
        purger: ctx.purger,
        proposer,
        log: quiet,
        ...(materializer ? { materializer } : {}),
      },
      {
        onLostLeadership: (_term, leader) => {
          const error = new Error(`lost leadership to ${leader || 'unknown'}`);
          proposer.failQueued(error);
          dispatcher.stop(error);
        },
      },
    );
    env.bugs.dispatcher?.(dispatcher, env.clock);
    return new SimBrokerNode(ctx, janitor);
  }

  /** Abrupt stop: timers die with the clock's incarnation; nothing is flushed. */
  crash(): void {
    this.ctx.stopping = true;
    this.janitor.stop();
    this.ctx.purger.stop();
    this.ctx.materializer?.stop();
    this.ctx.dispatcher.halt();
    // The consumers' streams break with the process.
    this.ctx.dispatcher.stop(new Error(`node ${this.id} crashed`));
    void this.ctx.node.close().catch(() => undefined);
  }
}
