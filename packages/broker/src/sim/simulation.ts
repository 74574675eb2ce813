/**
 * One seeded run of the whole-cluster broker simulation: 3 or 5 SimBrokerNodes
 * on one event queue, producers, consumers and controllers on top, faults
 * during a chaotic phase (crashes with torn writes, partitions, asymmetric
 * cuts, loss, duplication, clock skew and jumps, leadership transfers), then
 * healing, restarts and a calm phase in which consumers ack everything, and
 * the checker over the history and the final replicas.
 */
import { Prng, SimClock, SimDisk, SimNetwork, SimScheduler } from '@fermata/raft/sim-ports';
import { digestStore } from '@fermata/storage';
import { createQueueHasher } from '../keys.js';
import { check, type Violation } from './checker.js';
import { type ClientWorld, control, producePublish, SimConsumer, TOPIC } from './clients.js';
import { History } from './history.js';
import { brokerBugs, type InjectedBug } from './injected-bugs.js';
import { SimBrokerNode } from './sim-node.js';

export interface BrokerSimOptions {
  readonly seed: number;
  readonly nodes: 3 | 5;
  /** Virtual ms of the chaotic phase. */
  readonly chaosMs: number;
  readonly bug?: InjectedBug;
}

export interface BrokerSimResult {
  readonly ok: boolean;
  readonly violation?: Violation;
  readonly digest: string;
  readonly traceTail: readonly string[];
  readonly stats: Record<string, number>;
  readonly history: History;
}

/** Most skew between two nodes' clocks, and the largest jump (docs/guarantees.md: NTP slews, small steps). */
export const MAX_SKEW_MS = 200;
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
  const sched = new SimScheduler();
  const history = new History();
  const net = new SimNetwork(sched, rng, { delayMs: [1, 30], lossChance: 0.02, duplicateChance: 0.02 });
  const ids = Array.from({ length: o.nodes }, (_, i) => `n${i + 1}`);
  const bugs = brokerBugs(o.bug);
  const disks = new Map(
    ids.map((id) => [id, new SimDisk(sched, rng, id, { writeDelayMs: [1, 8], tornWriteChance: 0.5 })]),
  );
  const clocks = new Map(
    ids.map((id) => [id, new SimClock(sched, id, 1_700_000_000_000 + rng.int(0, MAX_SKEW_MS))]),
  );
  const nodes = new Map<string, SimBrokerNode>();
  const starting = new Set<string>();
  const w: ClientWorld = { sched, rng, history, nodes, calm: false };
  const stats = { events: 0, crashes: 0, partitions: 0, jumps: 0, transfers: 0, published: 0, errors: 0 };
  let fatal: Error | undefined;

  const start = (id: string): void => {
    if (nodes.has(id) || starting.has(id)) return;
    starting.add(id);
    SimBrokerNode.start({
      id,
      members: ids,
      disk: disks.get(id)!,
      net,
      clock: clocks.get(id)!,
      random: () => rng.next(),
      bugs,
      snapshotEveryEntries: 300,
    }).then(
      (n) => {
        starting.delete(id);
        nodes.set(id, n);
        n.ctx.node.on('fatal', (e) => {
          fatal ??= e;
        });
        history.note(sched.nowMs, `${id} started`);
      },
      (e: unknown) => {
        fatal ??= e instanceof Error ? e : new Error(String(e));
      },
    );
  };
  const crash = (id: string): void => {
    const n = nodes.get(id);
    if (!n) return;
    nodes.delete(id);
    stats.crashes++;
    net.detach(id);
    disks.get(id)!.crash();
    clocks.get(id)!.crash();
    n.crash();
    history.note(sched.nowMs, `${id} crashed`);
  };
  const leader = (): SimBrokerNode | undefined => [...nodes.values()].find((n) => n.ctx.node.isLeader());

  for (const id of ids) start(id);
  const consumers = Array.from({ length: 3 }, (_, i) => new SimConsumer(w, i + 1));
  let published = 0;

  // The chaotic phase, one decision every 50 ms of virtual time.
  const chaos = (): void => {
    if (sched.nowMs >= o.chaosMs) return;
    sched.at(50, () => 'chaos', chaos);
    const r = rng.next();
    if (r < 0.35) {
      producePublish(w, ++published, leader()?.id);
    } else if (r < 0.42) {
      // Mostly messages not yet due, which a cancel or reschedule can still change.
      const nowMs = clocks.get(ids[0]!)!.nowMs();
      const all = [...history.acknowledged()];
      const future = all.filter(([, c]) => (c.answer?.dueAtMs ?? 0) > nowMs + 100);
      const acked = future.length > 0 && rng.chance(0.8) ? future : all;
      if (acked.length > 0) {
        const [id, call] = rng.pick(acked);
        control(w, rng.chance(0.5) ? 'cancel' : 'reschedule', id, call.key, leader()?.id);
      }
    } else if (r < 0.44) {
      const id = rng.pick(ids);
      crash(id);
      sched.at(
        rng.int(300, 3_000),
        () => `restart ${id}`,
        () => start(id),
      );
    } else if (r < 0.46) {
      stats.partitions++;
      const side = ids.filter(() => rng.chance(0.5));
      net.partition(
        side,
        ids.filter((i) => !side.includes(i)),
      );
      history.note(sched.nowMs, `partition [${side}]`);
      sched.at(
        rng.int(500, 3_000),
        () => 'heal',
        () => net.heal(),
      );
    } else if (r < 0.47) {
      const a = rng.pick(ids);
      const b = rng.pick(ids.filter((i) => i !== a));
      net.cutLink(a, b);
      history.note(sched.nowMs, `cut ${a}>${b}`);
      sched.at(
        rng.int(500, 3_000),
        () => 'heal',
        () => net.heal(),
      );
    } else if (r < 0.49) {
      stats.jumps++;
      const c = clocks.get(rng.pick(ids))!;
      const base = 1_700_000_000_000;
      c.offsetMs = Math.min(
        base + MAX_SKEW_MS,
        Math.max(base, c.offsetMs + rng.int(-MAX_JUMP_MS, MAX_JUMP_MS)),
      );
    } else if (r < 0.5) {
      const l = leader();
      if (l) {
        stats.transfers++;
        l.ctx.node.transferLeadership().catch(() => undefined);
      }
    } else if (r < 0.51) {
      rng.pick(consumers).vanish();
    }
  };
  sched.at(
    500,
    () => 'consumers',
    () => {
      for (const c of consumers) c.connect();
    },
  );
  sched.at(100, () => 'chaos', chaos);

  const runUntil = async (endMs: number, done?: () => boolean): Promise<void> => {
    for (;;) {
      if (fatal) return;
      const ev = sched.queue.pop();
      if (!ev) return;
      if (ev.atMs > endMs) {
        sched.queue.push(ev.atMs, ev.describe, ev.run);
        sched.nowMs = endMs;
        return;
      }
      sched.nowMs = ev.atMs;
      if (++stats.events > MAX_EVENTS) {
        fatal ??= new Error(
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
  net.heal();
  net.options = { delayMs: [1, 10], lossChance: 0, duplicateChance: 0 };
  w.calm = true;
  for (const id of ids) start(id);
  for (const c of consumers) c.connect();
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
  for (let t = 0; t < CALL_MS_STEPS && !fatal; t++) {
    await runUntil(sched.nowMs + CALM_MS / CALL_MS_STEPS);
    const l = leader();
    if (!l || nodes.size < ids.length) continue;
    present = await pendingAt(l);
    const applied = new Set([...nodes.values()].map((n) => n.ctx.node.status().applied));
    if (present.size === 0 && applied.size === 1) break;
  }
  const digests = new Map<string, string>();
  const l = leader();
  for (const n of nodes.values()) digests.set(n.id, await digestStore(n.ctx.sm.store));
  const violation: Violation | undefined = fatal
    ? { rule: fatal.message.startsWith('runaway') ? 'runaway' : 'node-fatal', message: fatal.message }
    : !l
      ? { rule: 'replicas-converge-and-deliver', message: 'no leader after healing' }
      : check(history, {
          stillPresent: present,
          digests,
          maxAttempts: MAX_ATTEMPTS,
          endLeaderMs: l.ctx.proposer.nowMs(),
        });
  stats.published = history.acknowledged().size;
  history.note(sched.nowMs, `end ${[...digests].map(([n, d]) => `${n}=${d.slice(0, 12)}`).join(' ')}`);
  const digest = history.digest();
  for (const n of nodes.values()) n.crash();
  return {
    ok: !violation,
    ...(violation ? { violation } : {}),
    digest,
    traceTail: history.tail(violation?.id !== undefined ? `#${violation.id} ` : undefined),
    stats: { ...stats, deliveries: history.deliveries.length, settles: history.settles.length },
    history,
  };
}

const CALL_MS_STEPS = 30;
