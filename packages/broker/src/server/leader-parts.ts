import type { Clock } from '@fermata/base';
import type { RaftNode } from '@fermata/raft';
import type { Logger } from 'pino';
import { Dispatcher, Janitor, Proposer, Purger, ScheduleMaterializer } from '../leader/index.js';
import type { BrokerStateMachine } from '../state/state-machine.js';
import type { TokenTable } from './auth.js';
import type { FermataConfig } from './config.js';
import { ConsumeBuffer } from './consume-buffer.js';
import type { ServerContext } from './context.js';
import { deadLetterGate } from './dead-letter-gate.js';
import type { BrokerMetrics } from './metrics.js';
import { assemblePusher, EndpointPolicy, PushFilesPolicy } from './push-wiring.js';
import { TokenLimits } from './token-limits.js';

/** What a node's leader layer is built from; the server and the simulation differ only here. */
export interface LeaderPartsInput {
  readonly config: FermataConfig;
  readonly node: RaftNode;
  readonly sm: BrokerStateMachine;
  readonly metrics: BrokerMetrics;
  readonly log: Logger;
  readonly clock: Clock;
  readonly publishIdempotency: boolean;
  /** Run the schedule materialiser as leader (default true). */
  readonly schedules?: boolean;
  /** The Proposer class to build (the simulation's injected bugs subclass it). */
  readonly proposerClass?: typeof Proposer;
  readonly tokens?: () => TokenTable;
  /** Bound what the node buffers for consume streams (default true; the simulation's streams are in-process). */
  readonly consumeBuffer?: boolean;
}

/**
 * The proposer, dispatcher, janitor and materialiser of one node, and the
 * context every RPC handler reads, built from the node's configuration in
 * one place so that the simulated node runs exactly what the server runs.
 */
export function assembleLeaderParts(input: LeaderPartsInput): { ctx: ServerContext; janitor: Janitor } {
  const { config, node, sm, metrics, log, clock } = input;
  const ProposerClass = input.proposerClass ?? Proposer;
  const gate = input.tokens ? deadLetterGate(input.tokens) : undefined;
  const proposer = new ProposerClass(node, sm, {
    publishIdempotency: input.publishIdempotency,
    ackLingerMs: config.dispatcher.ackLingerMs,
    inlineBodies: config.storage.inlineBodies,
    clock,
  });
  const consumeBuffer = new ConsumeBuffer(config.limits.maxConsumeBufferBytes);
  const dispatcher = new Dispatcher({
    reader: sm.reader,
    proposer,
    metrics,
    log,
    clock,
    maxLeaseBatch: config.dispatcher.maxLeaseBatch,
    leaseAheadMs: config.dispatcher.leaseAheadMs,
    maxLeaseRoundsInFlight: config.dispatcher.maxLeaseRoundsInFlight,
    leaseInPlace: config.dispatcher.leaseInPlace,
    leaseRuns: config.dispatcher.leaseRuns,
    // A delivery can be sent ahead only once it is leased.
    pushAheadMs: Math.min(config.dispatcher.pushAheadMs, config.dispatcher.leaseAheadMs),
    ...(gate ? { deadLetterAllowed: gate } : {}),
    ...(input.consumeBuffer === false ? {} : { buffer: consumeBuffer }),
    maxPayloadBytes: config.limits.maxPayloadBytes,
    reclaimWindowMs: config.dispatcher.reclaimWindowMs,
  });
  const materializer =
    input.schedules === false
      ? undefined
      : new ScheduleMaterializer({ sm, proposer, log, metrics: metrics.schedules, clock });
  const janitor = new Janitor({
    reader: sm.reader,
    proposer,
    metrics,
    log,
    batch: config.dispatcher.janitorBatch,
    limits: sm.limits,
    clock,
    ...(gate ? { deadLetterAllowed: gate } : {}),
  });
  const purger = new Purger({
    sm,
    proposer,
    log,
    metrics: metrics.purges,
    clock,
    maxRecordsPerStep: config.deletion.maxRecordsPerStep,
    pauseMs: config.deletion.pauseMs,
  });
  consumeBuffer.onRoom = () => dispatcher.roomFreed();
  const ctx: ServerContext = {
    config,
    consumeBuffer,
    node,
    sm,
    reader: sm.reader,
    proposer,
    dispatcher,
    purger,
    ...(materializer ? { materializer } : {}),
    metrics,
    log,
    stopping: false,
    pushPolicy: EndpointPolicy.parse(config.push.allowedEndpoints),
    pushFiles: PushFilesPolicy.parse(config.push.filesDir),
    ...(input.tokens
      ? { tokens: input.tokens, tokenLimits: new TokenLimits(config.auth.tokenLimits, input.tokens) }
      : {}),
  };
  ctx.pusher = assemblePusher(ctx, clock, metrics.push);
  return { ctx, janitor };
}
