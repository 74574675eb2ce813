import type { Entry } from '@fermata/raft';
import { digestStore, type KVStore, openStore } from '@fermata/storage';
import { createQueueHasher, type QueueHasher } from '../src/keys.js';
import {
  BrokerStateMachine,
  type Command,
  type CommandResult,
  deadLetterIdCount,
  encodeCommand,
  type Limits,
  type PublishInput,
} from '../src/state/index.js';

/** The commands that can make messages: the ones a leader marks `inlineBodies` (commands.ts `makesMessages`). */
const MAKES_MESSAGES: ReadonlySet<string> = new Set([
  'publish',
  'lease',
  'lease-runs',
  'expire',
  'redrive',
  'schedule',
]);

/** A command as a test writes it: the harness stamps the time. */
export type Cmd = Command extends infer C
  ? C extends Command
    ? Omit<C, 'nowMs' | 'firstId' | 'idCount'> & { nowMs?: number; firstId?: bigint; idCount?: number }
    : never
  : never;

export const T0 = 1_700_000_000_000;

/**
 * Drives a BrokerStateMachine as the Raft node would: it leads term 1, assigns
 * ids with `nextIds`, encodes each command as an entry and applies it.
 */
export class Harness {
  index = 0;
  now = T0;
  /** Lease commands that do not say take entries in place (the leader's default) or move them (earlier versions). */
  leaseInPlace = true;
  /**
   * Commands that make messages and do not say carry `inlineBodies` (the
   * leader's default, storage.inlineBodies) or not (earlier versions).
   */
  inlineBodies = true;
  /**
   * Lease commands that do not say take a run (`leaseId`, a fresh id: the
   * leader's dispatcher.leaseRuns) or lease each entry in place or moved.
   */
  leaseRuns = false;

  private constructor(
    readonly store: KVStore,
    public sm: BrokerStateMachine,
    readonly hasher: QueueHasher,
    readonly limits: Partial<Limits>,
  ) {}

  static async create(
    options: { store?: KVStore; hasher?: QueueHasher; limits?: Partial<Limits>; cacheEntries?: number } = {},
  ): Promise<Harness> {
    const store = options.store ?? (await openStore({ engine: 'memory' }));
    const hasher = options.hasher ?? (await createQueueHasher());
    const sm = await BrokerStateMachine.open({
      store,
      hasher,
      ...(options.limits ? { limits: options.limits } : {}),
      ...(options.cacheEntries !== undefined ? { cacheEntries: options.cacheEntries } : {}),
    });
    const h = new Harness(store, sm, hasher, options.limits ?? {});
    h.index = sm.appliedIndex();
    await h.lead();
    return h;
  }

  /** Becomes leader of a new term and applies its no-op (so ids may be assigned). */
  async lead(term = 1): Promise<void> {
    this.sm.ids.beginLeadership(term);
    await this.applyEntries([{ term, index: this.index + 1, type: 'normal', data: new Uint8Array(0) }]);
  }

  /** Builds the entry data as the leader would (assigning ids) without applying it. */
  encode(cmd: Cmd): Uint8Array {
    const nowMs = cmd.nowMs ?? this.now;
    let full: Command;
    if (cmd.kind === 'publish') {
      full = { ...cmd, nowMs, firstId: cmd.firstId ?? this.sm.ids.nextIds(cmd.messages.length) } as Command;
    } else if (cmd.kind === 'lease' || cmd.kind === 'expire') {
      const n = deadLetterIdCount(cmd, this.sm.limits);
      full = {
        ...cmd,
        nowMs,
        firstId: cmd.firstId ?? this.sm.ids.nextIds(n),
        idCount: cmd.idCount ?? n,
        ...(cmd.kind === 'lease' && cmd.inPlace === undefined ? { inPlace: this.leaseInPlace } : {}),
      } as Command;
      // The lease id after the dead-letter block, as the leader reserves it.
      if (full.kind === 'lease' && full.leaseId === undefined && this.leaseRuns)
        full = { ...full, leaseId: this.sm.ids.nextIds(1) };
    } else if (cmd.kind === 'lease-runs') {
      // The dead-letter ids of every run, then a lease id per run (0n: assigned here), as the leader reserves them.
      const n = cmd.runs.reduce((sum, r) => sum + r.tags.length, 0);
      const firstId = cmd.firstId ?? this.sm.ids.nextIds(n);
      const runs = cmd.runs.map((r) => (r.leaseId ? r : { ...r, leaseId: this.sm.ids.nextIds(1) }));
      full = { ...cmd, nowMs, firstId, idCount: cmd.idCount ?? n, runs } as Command;
    } else {
      full = { ...cmd, nowMs } as Command;
    }
    if (full.inlineBodies === undefined && this.inlineBodies && MAKES_MESSAGES.has(full.kind))
      full = { ...full, inlineBodies: true };
    return encodeCommand(full);
  }

  async applyEntries(entries: Entry[]): Promise<unknown[]> {
    const results = await this.sm.apply(entries);
    this.index = entries[entries.length - 1]?.index ?? this.index;
    return results;
  }

  /** Applies commands as consecutive entries of one batch. */
  async runAll(cmds: Cmd[], term = 1): Promise<CommandResult[]> {
    const entries: Entry[] = cmds.map((c, i) => ({
      term,
      index: this.index + 1 + i,
      type: 'normal',
      data: this.encode(c),
    }));
    return (await this.applyEntries(entries)) as CommandResult[];
  }

  async run(cmd: Cmd): Promise<CommandResult> {
    const [r] = await this.runAll([cmd]);
    return r!;
  }

  /** Runs a command that must succeed with the given kind; returns its result. */
  async ok<K extends CommandResult['kind']>(
    cmd: Cmd & { kind: K },
  ): Promise<Extract<CommandResult, { kind: K }>> {
    const r = await this.run(cmd);
    if (r.kind === 'error') throw new Error(`${cmd.kind} failed: ${r.error.message}`);
    if (r.kind !== cmd.kind) throw new Error(`expected ${cmd.kind}, got ${r.kind}`);
    return r as Extract<CommandResult, { kind: K }>;
  }

  /**
   * Runs purge steps of a deletion until it is done, as the leader's purger
   * does; returns the steps it took.
   */
  async purge(topic: string, group = '', maxRecords = 1000): Promise<number> {
    for (let steps = 1; ; steps++) {
      const r = await this.ok({ kind: 'purge', topic, group, maxRecords });
      if (r.done) return steps;
      if (steps > 1_000_000) throw new Error(`purge of ${topic}/${group} does not end`);
    }
  }

  /** Deletes a topic and purges it whole: what the cluster does, in one call. */
  async deleteTopic(name: string): Promise<number> {
    const r = await this.ok({ kind: 'delete-topic', name });
    await this.purge(name);
    return r.removedMessages;
  }

  /** Deletes a group and purges it whole. */
  async deleteGroup(topic: string, group: string): Promise<number> {
    const r = await this.ok({ kind: 'delete-group', topic, group });
    await this.purge(topic, group);
    return r.removedMessages;
  }

  async publish(...messages: PublishInput[]) {
    return (await this.ok({ kind: 'publish', messages })).results;
  }

  async due(topic: string, group = 'default', limit = 100) {
    return this.sm.reader.dueEntriesOf(topic, group, this.now, limit);
  }

  /**
   * Leases everything due in each queue, one run per queue, in one lease
   * command of runs; returns its outcomes (every run's, in order).
   */
  async leaseQueues(queues: ReadonlyArray<{ topic: string; group?: string }>, leaseMs = 10_000) {
    const runs = [];
    for (const { topic, group = 'default' } of queues) {
      const due = await this.due(topic, group);
      if (due.length > 0) runs.push({ topic, group, tags: due.map((d) => d.tag), leaseMs, leaseId: 0n });
    }
    if (runs.length === 0) return [];
    const r = await this.run({ kind: 'lease-runs', runs });
    if (r.kind !== 'lease')
      throw new Error(`lease-runs answered ${r.kind === 'error' ? r.error.message : r.kind}`);
    return r.outcomes;
  }

  /** Leases everything due in a queue; returns the outcomes. */
  async leaseAll(topic: string, group = 'default', leaseMs = 10_000) {
    const due = await this.due(topic, group);
    if (due.length === 0) return [];
    return (await this.ok({ kind: 'lease', topic, group, tags: due.map((d) => d.tag), leaseMs })).outcomes;
  }

  async stats(topic: string, group = 'default') {
    const s = await this.sm.reader.topicStats(topic);
    return s.groups.find((g) => g.group === group)!;
  }

  digest(): Promise<string> {
    return digestStore(this.store);
  }
}

/** Payloads large against the bound: 40 copies of 512 KiB (dead letters, redriven ones) are past it (20 MiB > ~11 MiB). */
export const BIG: Partial<Limits> = {
  maxPayloadBytes: 512 * 1024,
  maxBatchPayloadBytes: 1024 * 1024,
  maxHeadersBytes: 1024,
  maxMaxAttempts: 10,
  maxTagsPerCommand: 40,
  maxBatchMessages: 40,
  maxIdsPerCommand: 40,
  maxScheduleFiresPerCommand: 40,
};

export const text = (s: string) => new TextEncoder().encode(s);

/** mulberry32: a small seeded generator so a failing seed replays. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
