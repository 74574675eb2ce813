/**
 * One seeded run of the whole-cluster broker simulation: 3 or 5 SimBrokerNodes
 * on one event queue, producers, consumers and controllers on top, faults
 * during a chaotic phase (crashes with torn writes, partitions, asymmetric
 * cuts, loss, duplication, clock skew and jumps, leadership transfers), then
 * healing, restarts and a calm phase in which consumers ack everything, and
 * the checker over the history and the final replicas.
 */
import { type Faults, Prng, SimScheduler } from '@fermata/raft/sim-ports';
import { digestStore } from '@fermata/storage';
import { createQueueHasher } from '../keys.js';
import type { GroupSettingsInput } from '../state/commands/commands.js';
import type { AppliedLog } from './applied-log.js';
import { check, type Violation } from './checker.js';
import { type ClientWorld, control, orderTopic, producePublish, SimConsumer, TOPIC } from './clients.js';
import { BIG_TOPIC, checkDeletion, type DeletionRecord, runDeletion } from './deletions.js';
import { checkDeliveryControls, deadlineDeadLetters, LogObserver, Pauser } from './delivery-controls.js';
import { checkDueLoad } from './due-load.js';
import { History } from './history.js';
import { brokerBugs, type InjectedBug } from './injected-bugs.js';
import { checkGroupLimits, limitsForBrokerSeed, replicateGroupLimits } from './limits.js';
import { FAULT_KINDS, type FaultKind, orderingForBrokerSeed } from './run-options.js';
import {
  checkSchedules,
  createSchedules,
  replicateMinInterval,
  STRICT_MIN_INTERVAL_MS,
} from './schedules.js';
import { MAX_SKEW_MS, SIM_EPOCH_MS, SimCluster } from './sim-cluster.js';
import { SIM_LEASE_AHEAD_MS, type SimBrokerNode } from './sim-node.js';

export interface BrokerSimOptions {
  readonly seed: number;
  readonly nodes: 3 | 5;
  /** Virtual ms of the chaotic phase. */
  readonly chaosMs: number;
  readonly bug?: InjectedBug;
  /** Faults injected during the chaotic phase (default all but `hostile`, which doubles their rate). */
  readonly faults?: readonly FaultKind[];
  /** Run recurring schedules and check exactly one message per occurrence (default true). */
  readonly schedules?: boolean;
  /**
   * Fill a large topic and delete it during the chaos (deletions.ts), and break a schedule
   * for a while by replicating a stricter minimum interval (schedules.ts); default true.
   */
  readonly tenants?: boolean;
  /**
   * Publish some messages with a deadline, and pause and resume the topic or its group now and
   * then (delivery-controls.ts); default true. false replays a seed as it ran before them (and
   * sets no limits).
   */
  readonly controls?: boolean;
  /**
   * Order the topic's group by key and give most messages one of four ordering keys, checking
   * `key-leased-alone` and `key-due-order` (default: `orderingForBrokerSeed`).
   */
  readonly ordering?: boolean;
  /**
   * Rate and in-flight limits of the consumed group, set before its consumers subscribe and
   * lifted when the faults heal (limits.ts); default `limitsForBrokerSeed(seed)` (none when
   * `controls` is false), null = none.
   */
  readonly limits?: GroupSettingsInput | null;
}

export interface BrokerSimResult {
  readonly ok: boolean;
  readonly violation?: Violation;
  readonly digest: string;
  readonly traceTail: readonly string[];
  readonly stats: Record<string, number>;
  readonly history: History;
  /** The large topic's fill and deletion (deletions.ts). */
  readonly deletion: DeletionRecord;
  /** Every committed command with its result (limits.ts). */
  readonly applied: AppliedLog;
}

/** The largest clock jump (docs/guarantees.md: NTP slews, small steps). */
export const MAX_JUMP_MS = 50;
const CALM_MS = 30_000;
/** A run taking more events than this is stuck in a loop of timers (reported as `runaway`). */
export const MAX_EVENTS = 300_000;
/** The default topic maxAttempts (limits.ts). */
const MAX_ATTEMPTS = 10;

export async function runBrokerSeed(o: BrokerSimOptions): Promise<BrokerSimResult> {
  // Compiled once per process before virtual time starts: its real I/O must not race the run.
  await createQueueHasher();
  const rng = new Prng(o.seed);
  const sched = new SimScheduler(rng);
  const history = new History();
  const faults = new Set<FaultKind>(o.faults ?? FAULT_KINDS);
  const hostile = faults.has('hostile');
  const lossy = faults.has('loss');
  const faultsNow: Faults = {
    lossRate: lossy ? (hostile ? 0.08 : 0.02) : 0,
    dupRate: lossy ? (hostile ? 0.05 : 0.02) : 0,
    maxDelayMs: hostile ? 80 : 30,
    stragglerRate: lossy ? 0.005 : 0,
    blocked: new Set(),
  };
  const cut = (a: string, b: string): void => {
    faultsNow.blocked.add(`${a}>${b}`);
  };
  const heal = (): void => faultsNow.blocked.clear();
  const bugs = brokerBugs(o.bug);
  const schedules = o.schedules ?? true;
  const cluster = new SimCluster(sched, rng, faultsNow, history, bugs, o.nodes, schedules);
  const observer = new LogObserver(history);
  cluster.onApplied = (entries, results) => observer.observe(entries, results);
  const nodes = cluster.nodes;
  const controls = o.controls ?? true;
  const w: ClientWorld = { sched, rng, history, nodes, calm: false, publishing: 0, controls };
  const stats = {
    events: 0,
    partitions: 0,
    jumps: 0,
    transfers: 0,
    published: 0,
    scheduleMessages: 0,
    bigPublished: 0,
    deletionAnswered: 0,
    scheduleBrokenSeen: 0,
    pauses: 0,
    deadlineDeadLetters: 0,
    /** Acknowledged messages with an ordering key (ordered runs). */
    keyed: 0,
    limited: 0,
  };
  const leader = (): SimBrokerNode | undefined => cluster.leader();
  const ids = cluster.members;

  const tenants = o.tenants ?? true;
  const consumers = Array.from({ length: 3 }, (_, i) => new SimConsumer(w, i + 1));
  // The large topic's consumer: its messages flow until the topic is deleted.
  if (tenants) consumers.push(new SimConsumer(w, 4, BIG_TOPIC));
  const deletion: DeletionRecord = { published: 0 };
  const pauser = new Pauser(w, () => cluster.leader());
  let published = 0;
  let topicOrdered = false;

  // The chaotic phase, one decision every 50 ms of virtual time (25 ms when hostile).
  const chaos = (): void => {
    if (sched.nowMs >= o.chaosMs) return;
    sched.at(hostile ? 25 : 50, () => 'chaos', chaos);
    if (tenants && (leader()?.ctx.materializer?.brokenSchedules().size ?? 0) > 0) stats.scheduleBrokenSeen++;
    const r = rng.next();
    if (r < 0.35) {
      const orderingKey = topicOrdered && rng.chance(0.6) ? `o${rng.int(0, 3)}` : undefined;
      producePublish(w, ++published, leader()?.id, undefined, orderingKey);
    } else if (r < 0.42) {
      // Mostly messages not yet due, which a cancel or reschedule can still change.
      const nowMs = cluster.clock(ids[0]!).nowMs();
      const all = [...history.acknowledged()];
      const future = all.filter(([, c]) => (c.answer?.dueAtMs ?? 0) > nowMs + 100);
      const acked = future.length > 0 && rng.chance(0.8) ? future : all;
      if (acked.length > 0) {
        const [id, call] = rng.pick(acked);
        control(w, rng.chance(0.5) ? 'cancel' : 'reschedule', id, call.key, leader()?.id);
      }
    } else if (r < 0.44) {
      if (faults.has('crash')) {
        const id = rng.pick(ids);
        cluster.crash(id);
        sched.at(
          rng.int(300, 3_000),
          () => `restart ${id}`,
          () => cluster.start(id),
        );
      }
    } else if (r < 0.46) {
      if (faults.has('partition')) {
        stats.partitions++;
        const side = ids.filter(() => rng.chance(0.5));
        for (const a of side) {
          for (const b of ids.filter((i) => !side.includes(i))) {
            cut(a, b);
            cut(b, a);
          }
        }
        history.note(sched.nowMs, `partition [${side}]`);
        sched.at(rng.int(500, 3_000), () => 'heal', heal);
      }
    } else if (r < 0.47) {
      if (faults.has('partition')) {
        const a = rng.pick(ids);
        const b = rng.pick(ids.filter((i) => i !== a));
        cut(a, b);
        history.note(sched.nowMs, `cut ${a}>${b}`);
        sched.at(rng.int(500, 3_000), () => 'heal', heal);
      }
    } else if (r < 0.49) {
      if (faults.has('skew')) {
        stats.jumps++;
        const c = cluster.clock(rng.pick(ids));
        const jumped = c.offsetMs + rng.int(-MAX_JUMP_MS, MAX_JUMP_MS);
        c.offsetMs = Math.min(SIM_EPOCH_MS + MAX_SKEW_MS, Math.max(SIM_EPOCH_MS, jumped));
      }
    } else if (r < 0.5) {
      if (faults.has('transfer')) {
        const l = leader();
        if (l) {
          stats.transfers++;
          l.ctx.node.transferLeadership().catch(() => undefined);
        }
      }
    } else if (r < 0.51) {
      rng.pick(consumers).vanish();
    } else if (r < 0.515) {
      if (faults.has('membership')) {
        cluster.replaceMember();
      }
    } else if (controls && r < 0.525) {
      pauser.pauseForAWhile();
    }
  };
  // Limits of the consumed group are set before its consumers subscribe: no lease precedes them.
  const limits =
    o.limits === undefined ? (controls ? limitsForBrokerSeed(o.seed) : undefined) : (o.limits ?? undefined);
  let limitsSet = false;
  let limitsCheckable = false;
  let simConsumersOn = false;
  const connectSimConsumers = (): void => {
    simConsumersOn = true;
    for (const c of consumers) if (c.topic === TOPIC) c.connect();
  };
  if (limits) {
    sched.at(
      100,
      () => 'group limits',
      () =>
        replicateGroupLimits(w, leader, limits, () => {
          limitsSet = true;
          limitsCheckable = !simConsumersOn;
          if (sched.nowMs >= 500 && !simConsumersOn) connectSimConsumers();
        }),
    );
  }
  sched.at(
    500,
    () => 'consumers',
    () => {
      const simToo = !limits || limitsSet;
      if (simToo) simConsumersOn = true;
      for (const c of consumers) if (simToo || c.topic !== TOPIC) c.connect();
    },
  );
  sched.at(100, () => 'chaos', chaos);
  // Ordered runs: messages carry ordering keys once the topic orders by key.
  if (o.ordering ?? orderingForBrokerSeed(o.seed))
    sched.at(
      50,
      () => 'order topic',
      () =>
        orderTopic(w, leader, () => {
          topicOrdered = true;
        }),
    );
  if (schedules)
    sched.at(
      300,
      () => 'schedules',
      () => createSchedules(w, leader),
    );
  if (tenants) {
    // A large topic, filled and deleted at a random moment of the chaos.
    runDeletion(w, leader, deletion, rng.int(Math.floor(o.chaosMs / 4), Math.floor((3 * o.chaosMs) / 4)));
    // A stricter minimum schedule interval for a while: `every-second` is broken, `lord-howe` fires.
    if (schedules)
      sched.at(
        rng.int(800, Math.max(900, Math.floor(o.chaosMs / 2))),
        () => 'break fragile',
        () => replicateMinInterval(w, leader, STRICT_MIN_INTERVAL_MS),
      );
  }

  const runUntil = async (endMs: number, done?: () => boolean): Promise<void> => {
    for (;;) {
      if (cluster.fatal) return;
      const ev = sched.queue.pop();
      if (!ev) return;
      if (ev.atMs > endMs) {
        sched.queue.push(ev.atMs, ev.describe, ev.run);
        sched.nowMs = endMs;
        return;
      }
      sched.nowMs = ev.atMs;
      if (++stats.events > MAX_EVENTS) {
        cluster.fatal ??= new Error(
          `runaway: more than ${MAX_EVENTS} events by ${sched.nowMs} ms (last: ${ev.describe()})`,
        );
        return;
      }
      ev.run();
      for (let i = 0; i < 3; i++) await new Promise<void>((resolve) => setImmediate(resolve));
      if (done?.()) return;
    }
  };

  await runUntil(o.chaosMs);
  // Heal, restart, calm: every fault ends and consumers ack everything.
  const calmFromMs = sched.nowMs;
  heal();
  Object.assign(faultsNow, { lossRate: 0, dupRate: 0, maxDelayMs: 10, stragglerRate: 0 });
  w.calm = true;
  for (const id of ids) cluster.start(id);
  simConsumersOn = true;
  for (const c of consumers) c.connect();
  // The limits are lifted (as a fault heals): the backlog they held drains, then timeliness holds.
  let limitsLiftedAtMs: number | undefined;
  if (limits)
    replicateGroupLimits(w, leader, undefined, () => {
      limitsLiftedAtMs = sched.nowMs;
    });
  // The operator reverts the stricter minimum interval: `every-second` mends and catches up. (Looked
  // at every calm step: a raise still retrying from the chaos may land after a revert.)
  let mending = false;
  const mend = (): void => {
    const l = leader();
    if (!tenants || !schedules || mending || !l) return;
    if (l.ctx.sm.limits.minScheduleIntervalMs === l.ctx.sm.configuredLimits.minScheduleIntervalMs) return;
    mending = true;
    replicateMinInterval(w, leader, undefined, () => {
      mending = false;
    });
  };
  const acknowledged = (): bigint[] => [...history.acknowledged().keys()];
  const pendingAt = async (n: SimBrokerNode): Promise<Map<bigint, string>> => {
    const left = new Map<bigint, string>();
    const now = n.ctx.proposer.nowMs();
    for (const id of acknowledged()) {
      const view = await n.ctx.reader.getMessage(TOPIC, { id }, now);
      if (view) {
        const groups = view.groups.map((g) => `${g.group}:${g.state} due ${g.dueAtMs} attempt ${g.attempt}`);
        left.set(id, `on ${n.id} at ${now}: ${groups.join(', ')}`);
      }
    }
    return left;
  };
  let present = new Map<bigint, string>();
  for (let t = 0; t < CALL_MS_STEPS && !cluster.fatal; t++) {
    mend();
    await runUntil(sched.nowMs + CALM_MS / CALL_MS_STEPS);
    const l = leader();
    if (!l || ids.some((id) => !nodes.has(id))) continue;
    present = await pendingAt(l);
    const resumed = await pauser.resumeAll(l);
    const applied = new Set(ids.map((id) => nodes.get(id)?.ctx.node.status().applied));
    // A deletion is over once answered and purged: the fill always ends (a batch is given up
    // after its tries) and the delete that follows is retried until answered, so the calm
    // waits for both, however late the faults left the fill.
    const deleted = !tenants || (deletion.answeredAtMs !== undefined && l.ctx.sm.deleting.size === 0);
    const mended =
      !tenants || l.ctx.sm.limits.minScheduleIntervalMs === l.ctx.sm.configuredLimits.minScheduleIntervalMs;
    const lifted = !limits || limitsLiftedAtMs !== undefined;
    if (
      present.size === 0 &&
      applied.size === 1 &&
      w.publishing === 0 &&
      deleted &&
      mended &&
      resumed &&
      lifted
    )
      break;
  }
  if (schedules) {
    // Schedules keep proposing fires: stop them and let every replica apply the last entry, so
    // the digests compare equal states rather than a replica one fire behind.
    for (const n of nodes.values()) n.ctx.materializer?.stop();
    for (let t = 0; t < 40 && !cluster.fatal; t++) {
      await runUntil(sched.nowMs + 100);
      const applied = new Set(ids.map((id) => nodes.get(id)?.ctx.node.status().applied));
      if (applied.size === 1) break;
    }
  }
  const digests = new Map<string, string>();
  const l = leader();
  // Replicas of the final configuration (a removed node stops where its removal left it).
  const conf = new Set(l?.ctx.node.status().members.map((m) => m.id) ?? []);
  const applied = new Map<string, number>();
  for (const n of nodes.values()) {
    if (!conf.has(n.id)) continue;
    digests.set(n.id, await digestStore(n.ctx.sm.store));
    applied.set(n.id, n.ctx.node.status().applied);
  }
  const deadlined = l && !cluster.fatal ? await deadlineDeadLetters(l) : new Set<bigint>();
  const fatal = cluster.fatal;
  const violation: Violation | undefined = fatal
    ? { rule: fatal.message.startsWith('runaway') ? 'runaway' : 'node-fatal', message: fatal.message }
    : !l
      ? { rule: 'replicas-converge-and-deliver', message: 'no leader after healing' }
      : (check(history, {
          stillPresent: present,
          digests,
          applied,
          maxAttempts: MAX_ATTEMPTS,
          endLeaderMs: l.ctx.proposer.nowMs(),
          // Limits lifted count as a fault healed: what they held back is backlog.
          calmFromMs: Math.max(calmFromMs, limitsLiftedAtMs ?? 0),
          epochMs: SIM_EPOCH_MS,
          maxClockAheadMs: MAX_SKEW_MS,
          deadlineExceeded: deadlined,
          leaseAheadMs: SIM_LEASE_AHEAD_MS,
        }) ??
        checkDeliveryControls(history) ??
        (limitsCheckable ? checkGroupLimits(cluster.applied) : undefined) ??
        (tenants ? await checkDeletion(w, l, deletion) : undefined) ??
        (schedules ? await checkSchedules(l, stats) : undefined) ??
        (await checkDueLoad(l)));
  stats.published = history.acknowledged().size;
  stats.keyed = [...history.acknowledged().values()].filter((p) => p.orderingKey).length;
  // Runs whose group limits were set before its consumers subscribed: the limits' rules checked them.
  stats.limited = limitsCheckable ? 1 : 0;
  stats.bigPublished = deletion.published;
  stats.pauses = pauser.pauses;
  stats.deadlineDeadLetters = deadlined.size;
  stats.deletionAnswered = deletion.answeredAtMs === undefined ? 0 : 1;
  history.note(sched.nowMs, `end ${[...digests].map(([n, d]) => `${n}=${d.slice(0, 12)}`).join(' ')}`);
  const digest = history.digest();
  for (const n of nodes.values()) n.crash();
  return {
    ok: !violation,
    ...(violation ? { violation } : {}),
    digest,
    traceTail: history.tail(violation?.id !== undefined ? `#${violation.id} ` : undefined),
    stats: {
      ...stats,
      ...cluster.stats,
      deliveries: history.deliveries.length,
      settles: history.settles.length,
    },
    history,
    deletion,
    applied: cluster.applied,
  };
}

const CALL_MS_STEPS = 30;
