import { InvariantError, invariant } from '@fermata/base';
import type { Entry, StateMachine } from '@fermata/raft';
import type { KVStore } from '@fermata/storage';
import type { QueueHasher } from '../keys.js';
import {
  applyCreateGroup,
  applyCreateTopic,
  applyUpdateGroup,
  applyUpdateTopic,
} from './apply/apply-admin.js';
import { type ApplyWork, assertApplyWork } from './apply/apply-bound.js';
import {
  applyCancel,
  applyExpire,
  applyForgetPublishes,
  applyPurgeKeys,
  applyRedrive,
  applyReschedule,
} from './apply/apply-control.js';
import { applyAck, applyExtend, applyLease, applyLeaseRuns, applyNack } from './apply/apply-delivery.js';
import { applyPublish } from './apply/apply-publish.js';
import { applyDeleteGroup, applyDeleteTopic, applyPurge } from './apply/apply-purge.js';
import { applySchedule } from './apply/apply-schedule.js';
import { ApplyContext, type ApplyHooks } from './apply/context.js';
import {
  type ApplyLimits,
  applyLimitDifferences,
  applyLimitsOf,
  validateApplyLimits,
} from './commands/apply-limits.js';
import { type Command, decodeCommand } from './commands/commands.js';
import type { ApplyResult, CommandResult } from './commands/results.js';
import { isStateError } from './model/errors.js';
import { type Limits, resolveLimits } from './model/limits.js';
import { BrokerReader } from './read/reader.js';
import { restoreInto, snapshotChunks } from './snapshot/snapshot.js';
import type { DueChange } from './stores/entries.js';
import { EventRepository } from './stores/event-repository.js';
import { LeaseIndex } from './stores/lease-index.js';
import {
  appliedIndexOp,
  putApplied,
  putApplyLimits,
  readAppliedClock,
  readAppliedIndex,
  readApplyLimits,
  restoreMarked,
} from './stores/meta.js';
import { DeletingSet, type PurgeName } from './stores/purges.js';
import { type PushGroupName, PushGroupSet } from './stores/push-groups.js';
import { CacheFills, RecordCache } from './stores/record-cache.js';
import { RequestFilter } from './stores/request-filter.js';
import type { ScheduleName } from './stores/schedules.js';
import { Txn } from './stores/txn.js';

const DEFAULT_CACHE_ENTRIES = 32_768; // storage.recordCacheEntries' default

import { validateCommand } from './commands/validate-command.js';

export interface BrokerStateMachineOptions {
  readonly store: KVStore;
  /** The queue hasher (production: `await createQueueHasher()`; tests inject collisions). */
  readonly hasher: QueueHasher;
  /**
   * This node's configured limits. Apply uses the replicated ones once an
   * apply-limits entry has applied (apply-limits.ts), whatever these say.
   */
  readonly limits?: Partial<Limits>;
  /** Records (queue entries, index records) kept in memory for apply's reads; 0 = none. Default 65 536. */
  readonly cacheEntries?: number;
  /**
   * Called synchronously after each applied batch is written, with the queues
   * that got entries (see DueChange). Must not throw: the batch is already applied.
   */
  readonly onDue?: DueListener;
  /**
   * Called synchronously after each applied batch with the tags of leases
   * taken ahead, not yet started, that the batch removed or moved (see
   * EntryStore.withdrawn). Must not throw.
   */
  readonly onWithdrawn?: (tags: readonly Uint8Array[]) => void;
  /** Called synchronously after each applied batch with the schedules it wrote or deleted. Must not throw. */
  readonly onSchedules?: (changed: readonly ScheduleName[]) => void;
  /** Called synchronously after each applied batch that started or finished deletions. Must not throw. */
  readonly onPurges?: PurgeListener;
  /** Called synchronously after each applied batch that made groups push groups, with them. Must not throw. */
  readonly onPushGroups?: (became: readonly PushGroupName[]) => void;
  /** Called after every command with the work its apply did (apply-bound.ts). Must not throw. */
  readonly onCommandWork?: (kind: string, work: ApplyWork) => void;
}

export type PurgeListener = (change: {
  readonly started: readonly PurgeName[];
  readonly finished: readonly PurgeName[];
}) => void;

export type DueListener = (changes: readonly DueChange[]) => void;

/**
 * The broker's replicated state machine (docs/design.md, "Replication"): applies
 * committed entries deterministically (no clock, no randomness: time comes from
 * the leader's stamp in each command), one storage batch per `apply` call that
 * also records the applied index, the last event id and the last time stamp.
 */
export class BrokerStateMachine implements StateMachine {
  /** The limits in effect: the configured ones, with the replicated apply limits over them (see applyLimits). */
  readonly limits: Limits;
  /** The limits this node was configured with. */
  readonly configuredLimits: Limits;
  /** What the last applied apply-limits entry (or the store it came from) set; undefined before any. */
  private replicated: ApplyLimits | undefined;
  readonly ids: EventRepository;
  readonly reader: BrokerReader;
  private applied: number;
  private lastNow: number;
  /** apply, flush and restore run one at a time (a flush must never record an index behind the data). */
  private tail: Promise<unknown> = Promise.resolve();
  private readonly cache: RecordCache;
  /** Which idempotency keys may have a request record: a publish under a new key reads nothing. */
  readonly requestFilter: RequestFilter;
  /** Fills the record cache from the due read, safely while batches are written (record-cache.ts). */
  private readonly fills: CacheFills;
  /** See BrokerStateMachineOptions.onDue; may be set after open (the dispatcher starts later). */
  onDue: DueListener | undefined;
  /** See BrokerStateMachineOptions.onWithdrawn; may be set after open. */
  onWithdrawn: ((tags: readonly Uint8Array[]) => void) | undefined;
  /** See BrokerStateMachineOptions.onSchedules; may be set after open (the materialiser starts later). */
  onSchedules: ((changed: readonly ScheduleName[]) => void) | undefined;
  /** See BrokerStateMachineOptions.onPurges; may be set after open. */
  onPurges: PurgeListener | undefined;
  /** See BrokerStateMachineOptions.onPushGroups; may be set after open. */
  onPushGroups: ((became: readonly PushGroupName[]) => void) | undefined;
  /** See BrokerStateMachineOptions.onCommandWork; may be set after open. */
  onCommandWork: ((kind: string, work: ApplyWork) => void) | undefined;
  /** The broker simulation's injected bugs (apply/context.ts), set after open; never by the server. */
  applyHooks: ApplyHooks | undefined;
  /** The topics and groups being deleted (their purge records), kept in memory for the leader's checks. */
  readonly deleting = new DeletingSet();
  /** The push groups, kept in memory for the leader's checks (a stream may not consume one). */
  readonly pushGroups = new PushGroupSet();
  /** The run leases with an open offset and the entries they hold (rebuilt from the lease records). */
  readonly leases = new LeaseIndex();
  /** When the apply running now began (performance.now()), undefined while none runs. */
  private applyStartedAtMs: number | undefined;

  private constructor(
    readonly store: KVStore,
    /** Also the schedules' jitter hash (the materialiser orders occurrences by due time). */
    readonly hasher: QueueHasher,
    limits: Limits,
    applied: number,
    lastId: bigint,
    lastNowMs: number,
    cacheEntries: number,
  ) {
    this.cache = new RecordCache(cacheEntries);
    this.configuredLimits = limits;
    // One object for the whole life of the state machine: the stores and the reader hold it.
    this.limits = { ...limits };
    this.requestFilter = new RequestFilter(limits.publishDedupWindowMs);
    this.applied = applied;
    this.lastNow = lastNowMs;
    this.ids = new EventRepository(lastId);
    this.fills = new CacheFills(this.cache);
    this.reader = new BrokerReader(store, hasher, limits, this.leases, this.fills);
  }

  /**
   * Opens the state machine over a store. A store left mid-restore (a crash
   * during `restore`) is cleared: it then reads as empty at applied index 0.
   */
  static async open(options: BrokerStateMachineOptions): Promise<BrokerStateMachine> {
    const { store } = options;
    if (await restoreMarked(store)) await store.clear();
    const s = await BrokerStateMachine.readMeta(store);
    const sm = new BrokerStateMachine(
      store,
      options.hasher,
      resolveLimits(options.limits),
      s.applied,
      s.lastId,
      s.lastNow,
      options.cacheEntries ?? DEFAULT_CACHE_ENTRIES,
    );
    sm.onDue = options.onDue;
    sm.onWithdrawn = options.onWithdrawn;
    sm.onSchedules = options.onSchedules;
    sm.onPurges = options.onPurges;
    sm.onPushGroups = options.onPushGroups;
    sm.onCommandWork = options.onCommandWork;
    await sm.loadApplyLimits();
    await sm.requestFilter.build(store);
    await sm.deleting.build(store);
    await sm.pushGroups.build(store);
    await sm.leases.build(store);
    return sm;
  }

  private static async readMeta(
    store: KVStore,
  ): Promise<{ applied: number; lastId: bigint; lastNow: number }> {
    const clock = await readAppliedClock(store);
    return { applied: await readAppliedIndex(store), lastId: clock.lastId, lastNow: clock.lastNowMs };
  }

  appliedIndex(): number {
    return this.applied;
  }

  /** The replicated apply limits, undefined until an apply-limits entry has applied. */
  replicatedApplyLimits(): ApplyLimits | undefined {
    return this.replicated;
  }

  /**
   * What a leader proposes (an apply-limits command's values) when this node's
   * configured apply limits differ from the replicated ones; undefined when they match.
   */
  applyLimitsToPropose(): ApplyLimits | undefined {
    const mine = applyLimitsOf(this.configuredLimits);
    if (this.replicated && applyLimitDifferences(mine, this.replicated).length === 0) return undefined;
    return mine;
  }

  /** Reads the replicated record; without one, apply uses the configured limits. */
  private async loadApplyLimits(): Promise<void> {
    this.setApplyLimits(await readApplyLimits(this.store));
  }

  /** Raised each time the limits in effect may have changed (an apply-limits entry, a restore). */
  limitsVersion = 0;

  private setApplyLimits(values: ApplyLimits | undefined): void {
    this.limitsVersion++;
    const before = this.limits.publishDedupWindowMs;
    this.replicated = values;
    Object.assign(this.limits, applyLimitsOf(this.configuredLimits), values ?? {});
    // The filter was sized for the old window; until the next build it answers "may have" for every key.
    if (this.limits.publishDedupWindowMs !== before) this.requestFilter.invalidate();
  }

  /** The highest leader time stamp applied: a new leader stamps max(its clock, this). */
  lastNowMs(): number {
    return this.lastNow;
  }

  private exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.tail.then(fn, fn);
    this.tail = run.catch(() => undefined);
    return run;
  }

  apply(entries: readonly Entry[]): Promise<ApplyResult[]> {
    return this.exclusive(async () => {
      this.applyStartedAtMs = performance.now();
      try {
        return await this.applyBatch(entries);
      } finally {
        this.applyStartedAtMs = undefined;
      }
    });
  }

  /** How long the apply running now has been running (ms); 0 while none runs. */
  applyRunningMs(): number {
    return this.applyStartedAtMs === undefined ? 0 : performance.now() - this.applyStartedAtMs;
  }

  private async applyBatch(entries: readonly Entry[]): Promise<ApplyResult[]> {
    const results: ApplyResult[] = [];
    if (entries.length === 0) return results;
    const txn = new Txn(this.store, this.cache);
    const ctx = new ApplyContext(
      txn,
      this.limits,
      this.hasher,
      this.ids,
      this.requestFilter,
      this.leases,
      this.applyHooks,
    );
    let applied = this.applied;
    let lastNow = this.lastNow;
    const lastIdBefore = this.ids.lastId;
    const replicatedBefore = this.replicated;
    try {
      for (const entry of entries) {
        invariant(
          entry.index === applied + 1,
          () => `entry ${entry.index} applied after index ${applied} (entries must be consecutive)`,
        );
        applied = entry.index;
        if (entry.type === 'conf-change' || entry.data.length === 0) {
          results.push(undefined);
        } else {
          const mark = txn.mark();
          let kind = 'command';
          try {
            const cmd = decodeCommand(entry.data);
            kind = cmd.kind;
            lastNow = Math.max(lastNow, cmd.nowMs);
            ctx.beginCommand(lastNow, cmd.inlineBodies === true);
            results.push(
              cmd.kind === 'apply-limits' ? this.applyLimits(txn, cmd.values) : await execute(ctx, cmd),
            );
            // The histogram's buckets are written per command: its work counts in the command's bound.
            await ctx.queues.dueLoad.flush();
            ctx.queues.completeEmpty();
            ctx.endCommand();
          } catch (err) {
            if (!isStateError(err)) throw err;
            txn.rollback(mark);
            results.push({ kind: 'error', error: err });
          }
          this.checkWork(kind, txn.work, entry.index);
          txn.commitCommand();
        }
        this.ids.entryApplied(entry.term);
      }
      ctx.queues.flush();
      putApplied(txn, applied, this.ids.lastId, lastNow);
      await this.store.batch(txn.ops(), { sync: false });
      txn.written();
      this.fills.written(txn.writtenIds());
      // At once after the write (no await between): the index follows the store it mirrors.
      this.leases.merge(ctx.leases.changes());
    } catch (err) {
      // Nothing was written: forget what this batch observed. The request filter counted this
      // batch's records as if they were: it answers "may have" for every key from now on.
      this.ids.reset(lastIdBefore);
      this.requestFilter.invalidate();
      if (this.replicated !== replicatedBefore) this.setApplyLimits(replicatedBefore);
      throw err;
    }
    this.applied = applied;
    this.lastNow = lastNow;
    const { dueChanges, lapseChanges } = ctx.entries;
    if (this.onDue && dueChanges.size + lapseChanges.size > 0)
      this.onDue([...dueChanges.values(), ...lapseChanges.values()]);
    if (this.onWithdrawn && ctx.entries.withdrawn.length > 0) this.onWithdrawn(ctx.entries.withdrawn);
    if (this.onSchedules && ctx.schedules.touched.size > 0)
      this.onSchedules([...ctx.schedules.touched.values()]);
    const { started, finished, events } = ctx.purges;
    if (events.length > 0) {
      for (const e of events) {
        if (e.started) this.deleting.add(e.name);
        else this.deleting.delete(e.name);
      }
      this.onPurges?.({ started, finished });
    }
    // With no await since the write: a stream added to a group before this is ended by the
    // listener, one added after is refused (consume-stream.ts checks the set as it adds it).
    const became = this.pushGroups.update(ctx.topics.written());
    if (became.length > 0) this.onPushGroups?.(became);
    return results;
  }

  /**
   * The bound on one command's work (apply-bound.ts), asserted: a command past
   * it is a bug, and the node stops before the batch is written.
   */
  private checkWork(kind: string, work: ApplyWork, index: number): void {
    assertApplyWork(kind, index, work, this.limits);
    this.onCommandWork?.(kind, work);
  }

  /** Every later entry (of this batch too) is validated against `values`. */
  private applyLimits(txn: Txn, values: Readonly<Record<string, number>>): CommandResult {
    const next = validateApplyLimits(values);
    const changed = applyLimitDifferences(applyLimitsOf(this.limits), next);
    putApplyLimits(txn, next);
    this.setApplyLimits(next);
    return { kind: 'apply-limits', changed };
  }

  flush(): Promise<number> {
    return this.exclusive(async () => {
      const applied = this.applied;
      await this.store.batch([appliedIndexOp(applied)], { sync: true });
      return applied;
    });
  }

  async snapshot(): Promise<{ index: number; chunks: AsyncIterable<Uint8Array> }> {
    const snap = this.store.snapshot();
    let index: number;
    try {
      index = await readAppliedIndex(snap);
    } catch (err) {
      await snap.close();
      throw err;
    }
    return { index, chunks: snapshotChunks(snap, this.limits.snapshotChunkBytes) };
  }

  restore(chunks: AsyncIterable<Uint8Array>): Promise<number> {
    return this.exclusive(async () => {
      this.fills.replaced();
      this.cache.clear();
      try {
        this.requestFilter.invalidate();
        await restoreInto(this.store, chunks);
      } catch (err) {
        // Half a snapshot is no state at all: leave an empty store at index 0 (a snapshot is needed again).
        await this.store.clear();
        await this.leases.build(this.store);
        this.setApplyLimits(undefined);
        this.applied = 0;
        this.lastNow = 0;
        this.ids.reset(0n);
        throw err;
      } finally {
        // A read outside apply that began during the restore saw a store being replaced: nothing
        // it found may reach the cache, nor anything cached meanwhile.
        this.fills.replaced();
        this.cache.clear();
      }
      const s = await BrokerStateMachine.readMeta(this.store);
      this.applied = s.applied;
      this.lastNow = s.lastNow;
      this.ids.reset(s.lastId);
      await this.loadApplyLimits();
      await this.requestFilter.build(this.store);
      await this.deleting.build(this.store);
      await this.pushGroups.build(this.store);
      await this.leases.build(this.store);
      return s.applied;
    });
  }
}

function execute(ctx: ApplyContext, cmd: Command): Promise<CommandResult> {
  validateCommand(cmd, ctx.nowMs, ctx.limits);
  switch (cmd.kind) {
    case 'publish':
      return applyPublish(ctx, cmd);
    case 'lease':
      return applyLease(ctx, cmd);
    case 'lease-runs':
      return applyLeaseRuns(ctx, cmd);
    case 'ack':
      return applyAck(ctx, cmd);
    case 'nack':
      return applyNack(ctx, cmd);
    case 'extend':
      return applyExtend(ctx, cmd);
    case 'cancel':
      return applyCancel(ctx, cmd);
    case 'reschedule':
      return applyReschedule(ctx, cmd);
    case 'expire':
      return applyExpire(ctx, cmd);
    case 'redrive':
      return applyRedrive(ctx, cmd);
    case 'purge-keys':
      return applyPurgeKeys(ctx, cmd);
    case 'forget-publishes':
      return Promise.resolve(applyForgetPublishes(ctx, cmd));
    case 'create-topic':
      return applyCreateTopic(ctx, cmd);
    case 'update-topic':
      return applyUpdateTopic(ctx, cmd);
    case 'delete-topic':
      return applyDeleteTopic(ctx, cmd);
    case 'create-group':
      return applyCreateGroup(ctx, cmd);
    case 'update-group':
      return applyUpdateGroup(ctx, cmd);
    case 'delete-group':
      return applyDeleteGroup(ctx, cmd);
    case 'purge':
      return applyPurge(ctx, cmd);
    case 'schedule':
      return applySchedule(ctx, cmd.op);
    case 'apply-limits':
      throw new InvariantError('apply-limits is applied by the state machine itself');
  }
}
