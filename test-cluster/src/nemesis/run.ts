/**
 * One run of the nemesis (`npm run chaos`, test-cluster/test/nemesis.test.ts):
 * three real nodes under the workload while faults drawn at random come and
 * go, then every fault heals, consumers ack everything, the cluster falls
 * quiet and every node is stopped at once; then the simulation's checker
 * reads the history and the nodes' stores (their digests, what the final
 * state still holds, the schedules' occurrences).
 */
import { createWriteStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BrokerStateMachine, createQueueHasher } from '@fermata/broker';
import { calmWindow, check, checkScheduleOccurrences, History, type Violation } from '@fermata/broker/sim';
import { Prng } from '@fermata/raft/sim-ports';
import { digestStore, openStore } from '@fermata/storage';
import { sleep } from '../harness.js';
import { SmallDisk } from '../small-disk.js';
import { ChaosCluster } from './cluster.js';
import { FAULT_KINDS, type FaultKind, type FaultWorld, type Injected } from './faults.js';
import { CHAOS_SCHEDULES, SCHEDULE_TOPIC, TOPIC, Workload } from './workload.js';

export interface ChaosOptions {
  readonly seed: number;
  /** Length of the faulty phase, ms. */
  readonly chaosMs: number;
  /** Fault kinds to draw from (default all). */
  readonly faults?: readonly string[];
  /** An injected bug every node runs with (node/injected-bugs.ts). */
  readonly bug?: string;
  /** At most this many faults at once (default 2). */
  readonly maxActive?: number;
  /** Keep the nodes' data and logs (always kept when the run fails). */
  readonly keep?: boolean;
  /** How long producers go on into the calm (default CALM_PRODUCE_MS). */
  readonly calmProduceMs?: number;
  /** Progress lines. */
  readonly log?: (line: string) => void;
}

/** Each node's own disk when tmpfs can be mounted here (the `disk-full` fault fills it). */
const SMALL_DISK_MIB = 128;

export interface ChaosResult {
  readonly ok: boolean;
  readonly seed: number;
  readonly violation?: Violation;
  /** Faults injected, by kind. */
  readonly faults: Readonly<Record<string, number>>;
  readonly stats: Readonly<Record<string, number>>;
  /** The data directories and logs, when kept. */
  readonly dir?: string;
  readonly traceTail: readonly string[];
}

/** How far a node's clock may be ahead of this process's: the nodes read the same system clock. */
const CLOCK_AHEAD_MS = 10;
/** How late a message due after the healing may first arrive (true time): two shared cores stall. */
const TIMELY_MS = 3_000;
/**
 * Producers go on this long into the calm, consumers acking everything: the backlog the
 * faults left drains at the consumers' pace, and what falls due after it shows whether
 * anything still holds due messages back (calm-deliveries-timely).
 */
const CALM_PRODUCE_MS = 20_000;
/** Retried publishes within it are stored once (the SDK's deadline is 8 s). */
const PUBLISH_DEDUP_WINDOW_MS = 10_000;
/** The topic's max attempts (the default). */
const MAX_ATTEMPTS = 10;

export async function runChaos(o: ChaosOptions): Promise<ChaosResult> {
  const log = o.log ?? (() => {});
  const baseDir = mkdtempSync(join(tmpdir(), 'fermata-chaos-'));
  const rng = new Prng(o.seed);
  const history = new History();
  // Every trace line to a file as well (the history keeps only the last few hundred).
  const trace = createWriteStream(join(baseDir, 'trace.log'));
  const note = history.note.bind(history);
  history.note = (atMs, line) => {
    note(atMs, line);
    trace.write(`${atMs} ${line}\n`);
  };
  const kinds = FAULT_KINDS.filter((k) => !o.faults || o.faults.includes(k.name));
  const maxActive = o.maxActive ?? 2;
  const injectedCount: Record<string, number> = Object.fromEntries(kinds.map((k) => [k.name, 0]));
  const stats: Record<string, number> = {};
  const diskProblem = kinds.some((k) => k.name === 'disk-full')
    ? SmallDisk.problem(join(baseDir, 'probe'))
    : 'not drawn';
  if (diskProblem !== undefined && o.faults?.includes('disk-full'))
    throw new Error(`disk-full: ${diskProblem}`);
  log(
    diskProblem === undefined
      ? `full disks: each node's data on a ${SMALL_DISK_MIB} MiB tmpfs`
      : `full disks: off (${diskProblem})`,
  );
  const cluster = await ChaosCluster.start({
    baseDir,
    ...(o.bug ? { bug: o.bug } : {}),
    ...(diskProblem === undefined ? { smallDiskMiB: SMALL_DISK_MIB } : {}),
    env: {
      // Segments small enough for compaction to keep the log well within a small disk.
      FERMATA_RAFT__LOG_SEGMENT_BYTES: String(4 * 1024 * 1024),
      // Publish retries within it are deduplicated; after it the janitor's purges end, so the
      // cluster falls quiet within it of the last publish.
      FERMATA_LIMITS__PUBLISH_DEDUP_WINDOW_MS: String(PUBLISH_DEDUP_WINDOW_MS),
      // Snapshots and compaction during the run; a replaced member may catch up by snapshot.
      FERMATA_RAFT__SNAPSHOT_EVERY_ENTRIES: '2000',
      FERMATA_RAFT__SNAPSHOT_KEEP_ENTRIES: '500',
    },
  });
  let violation: Violation | undefined;
  let workload: Workload | undefined;
  try {
    await cluster.waitForLeader(60_000);
    const startedMs = Date.now();
    workload = new Workload({
      endpoints: () => cluster.endpoints,
      history,
      rng,
      producers: 3,
      consumers: 3,
      publishEveryMs: [20, 150],
      schedulesEndAtMs: startedMs + o.chaosMs + 2_000,
    });
    await workload.start();

    // The faulty phase.
    const busy = new Set<string>();
    const heals = new Map<number, { timer: NodeJS.Timeout; run: () => Promise<void> }>();
    let nextHeal = 0;
    /** Heals whose time came and that have not finished. */
    const running = new Set<Promise<void>>();
    const world: FaultWorld = {
      cluster,
      rng,
      busy,
      get active() {
        return heals.size;
      },
      note: (line) => history.note(Date.now(), line),
    };
    const draw = (): FaultKind => {
      const total = kinds.reduce((n, k) => n + k.weight, 0);
      let r = rng.next() * total;
      for (const k of kinds) {
        r -= k.weight;
        if (r < 0) return k;
      }
      return kinds[kinds.length - 1]!;
    };
    const arm = (f: Injected): void => {
      for (const id of f.holds) busy.add(id);
      const id = nextHeal++;
      const run = async () => {
        heals.delete(id);
        try {
          await f.heal();
          history.note(Date.now(), `healed: ${f.description}`);
        } catch (err) {
          history.note(Date.now(), `heal of ${f.description} failed: ${String(err)}`);
        } finally {
          for (const h of f.holds) busy.delete(h);
        }
      };
      const timer = setTimeout(() => {
        const healing = run();
        running.add(healing);
        void healing.finally(() => running.delete(healing));
      }, f.afterMs);
      heals.set(id, { timer, run });
    };
    let lastReport = Date.now();
    while (Date.now() - startedMs < o.chaosMs) {
      await sleep(rng.int(300, 2_000));
      // A node that stopped by itself ends the run: what follows would only hide it.
      if (nodeFatal(cluster)) break;
      if (heals.size >= maxActive) continue;
      const kind = draw();
      try {
        const f = await kind.inject(world);
        if (!f) continue;
        injectedCount[kind.name] = (injectedCount[kind.name] ?? 0) + 1;
        history.note(Date.now(), `fault: ${f.description}`);
        log(`  ${((Date.now() - startedMs) / 1000).toFixed(0).padStart(5)} s  ${f.description}`);
        if (f.holds.length > 0 || f.afterMs > 0) arm(f);
      } catch (err) {
        history.note(Date.now(), `fault ${kind.name} failed: ${String(err)}`);
      }
      if (Date.now() - lastReport > 60_000) {
        lastReport = Date.now();
        log(
          `  ${((Date.now() - startedMs) / 60_000).toFixed(1)} min: ${workload.counts.publishes} publishes acknowledged, ${history.deliveries.length} deliveries, ${Object.values(injectedCount).reduce((a, b) => a + b, 0)} faults`,
        );
      }
    }

    // Heal everything; consumers ack everything from now on.
    for (const [, h] of [...heals]) {
      clearTimeout(h.timer);
      await h.run();
    }
    // Heals already under way (a restart takes seconds) end before the calm, not in it.
    await Promise.all([...running]);
    for (const n of cluster.nodes) {
      if (n.paused) cluster.resume(n.id);
      if (n.handle.running && n.clockOffsetMs !== 0) cluster.stepClock(n.id, 0);
    }
    cluster.links.healAll();
    await Promise.all(cluster.nodes.map((n) => cluster.restart(n.id)));
    await restartNodesOffTime(cluster, (line) => {
      history.note(Date.now(), line);
      log(`  ${line}`);
    });
    const calmFromMs = Date.now();
    history.note(calmFromMs, 'calm: every fault healed');
    const calmProduceMs = o.calmProduceMs ?? CALM_PRODUCE_MS;
    log(
      `  calm: every fault healed; consumers ack everything, producers go on for ${calmProduceMs / 1000} s`,
    );
    workload.calm = true;
    await sleep(calmProduceMs);
    await workload.stopProducing();
    await cluster.waitForLeader(60_000);
    await ensureMembers(cluster);
    await drain(cluster, 90_000);
    await workload.close();
    // The janitor purges publish idempotency records when their window ends: wait for the last.
    const lastPublishMs = history.publishes.reduce((m, p) => Math.max(m, p.answeredAtMs ?? p.invokedAtMs), 0);
    await sleep(lastPublishMs + PUBLISH_DEDUP_WINDOW_MS + 1_000 - Date.now());

    // Quiet, then every node stopped at once: equal applied indexes, comparable stores.
    const digests = new Map<string, string>();
    const applied = new Map<string, number>();
    let finalStore: Awaited<ReturnType<typeof openStore>> | undefined;
    for (let round = 1; ; round++) {
      await quiesce(cluster, 90_000);
      await Promise.all(cluster.nodes.map((n) => cluster.kill(n.id)));
      digests.clear();
      applied.clear();
      for (const n of cluster.nodes) {
        const store = await openStore({ engine: 'leveldb', path: join(n.storeDir, 'state') });
        const sm = await BrokerStateMachine.open({ store, hasher: await createQueueHasher() });
        applied.set(n.id, sm.appliedIndex());
        digests.set(n.id, await digestStore(store));
        if (finalStore) await store.close();
        else finalStore = store;
      }
      if (new Set(applied.values()).size === 1 || round === 3) break;
      // An entry applied by some between the last look and the kill: start again and wait.
      await finalStore?.close();
      finalStore = undefined;
      await Promise.all(cluster.nodes.map((n) => cluster.restart(n.id)));
      await cluster.waitForLeader(60_000);
    }
    // A node that stopped by itself (a broken invariant, a crash) is a finding of its own.
    const fatal = nodeFatal(cluster);
    const store = finalStore!;
    const sm = await BrokerStateMachine.open({ store, hasher: await createQueueHasher() });
    const nowMs = sm.lastNowMs();
    const stillPresent = new Map<bigint, string>();
    for (const id of history.acknowledged().keys()) {
      const view = await sm.reader.getMessage(TOPIC, { id }, nowMs);
      if (view)
        stillPresent.set(id, view.groups.map((g) => `${g.group}:${g.state} attempt ${g.attempt}`).join(', '));
    }
    const deadLettered = await maxAttemptDeadLetters(sm, nowMs);
    const scheduleStats = { scheduleMessages: 0 };
    const end = {
      stillPresent,
      digests,
      applied,
      maxAttempts: MAX_ATTEMPTS,
      deadLettered,
      endLeaderMs: nowMs,
      calmFromMs,
      epochMs: 0,
      maxClockAheadMs: CLOCK_AHEAD_MS,
      timelyMs: TIMELY_MS,
    };
    const calm = calmWindow(history, end);
    violation =
      fatal ??
      check(history, end) ??
      (calm.checked.length === 0
        ? {
            rule: 'calm-deliveries-timely',
            message: `the calm checked no message: the backlog drained ${calm.drainedMs - calmFromMs} ms after the healing, past the last publish due`,
          }
        : undefined) ??
      (await checkScheduleOccurrences(
        { sm, reader: sm.reader, nowMs },
        SCHEDULE_TOPIC,
        CHAOS_SCHEDULES.map((s) => s.name),
        scheduleStats,
      ));
    await store.close();
    Object.assign(stats, {
      minutes: Math.round((o.chaosMs / 60_000) * 10) / 10,
      faults: Object.values(injectedCount).reduce((a, b) => a + b, 0),
      publishesAttempted: new Set(history.publishes.map((p) => p.key)).size,
      publishesAcknowledged: history.acknowledged().size,
      deliveries: history.deliveries.length,
      acksOk: history.settles.filter((s) => s.kind === 'ack' && s.outcome === 'ok').length,
      cancels: workload.counts.cancels,
      reschedules: workload.counts.reschedules,
      scheduleMessages: scheduleStats.scheduleMessages,
      appliedIndex: [...applied.values()].reduce((a, b) => Math.max(a, b), 0),
      backlogDrainedMs: calm.drainedMs - calmFromMs,
      calmChecked: calm.checked.length,
    });
  } catch (err) {
    violation ??= nodeFatal(cluster) ?? {
      rule: 'run-failed',
      message: err instanceof Error ? (err.stack ?? err.message) : String(err),
    };
  } finally {
    await workload?.close().catch(() => undefined);
    await cluster.stop();
  }
  const keep = o.keep === true || violation !== undefined;
  await new Promise<void>((resolve) => trace.end(() => resolve()));
  if (keep) {
    const json = (v: unknown) =>
      JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x));
    writeFileSync(
      join(baseDir, 'history.json'),
      json({
        publishes: history.publishes,
        deliveries: history.deliveries,
        settles: history.settles,
        controls: history.controls,
      }),
    );
  } else rmSync(baseDir, { recursive: true, force: true });
  return {
    ok: violation === undefined,
    seed: o.seed,
    ...(violation ? { violation } : {}),
    faults: injectedCount,
    stats,
    ...(keep ? { dir: baseDir } : {}),
    traceTail: history.tail(violation?.id !== undefined ? `#${violation.id} ` : undefined, 30),
  };
}

/** The messages of TOPIC its dead-letter topic holds for max attempts: source id -> attempts. */
async function maxAttemptDeadLetters(sm: BrokerStateMachine, nowMs: number): Promise<Map<bigint, number>> {
  const out = new Map<bigint, number>();
  if (!(await sm.reader.getTopic(`${TOPIC}.dlq`))) return out;
  let pageToken: Uint8Array | undefined;
  do {
    const page = await sm.reader.listMessages(
      `${TOPIC}.dlq`,
      { limit: 1_000, ...(pageToken ? { pageToken } : {}) },
      nowMs,
    );
    for (const { message } of page.items) {
      const d = message?.deadLetter;
      if (d?.reason === 'max_attempts' && d.sourceTopic === TOPIC) out.set(d.sourceId, d.attempts);
    }
    pageToken = page.nextPageToken;
  } while (pageToken);
  return out;
}

/** A node whose time is farther than this from its system clock's was started while the clock was stepped. */
const CLOCK_STEPPED_MS = 1_000;

/**
 * What an operator does once every system clock is right (docs/operations.md,
 * "Clocks"): restarts each node whose time still differs from its system clock
 * (`fermata_clock_offset_ms`, the alert FermataClockStepped). Such a node was
 * started while its clock was stepped (a heal and a fault on the same node can
 * cross) and keeps that time; the others refuse to elect it, and two of them
 * would leave no leader.
 */
async function restartNodesOffTime(cluster: ChaosCluster, note: (line: string) => void): Promise<void> {
  for (const n of cluster.nodes) {
    const body = await n.handle
      .httpGet('/metrics')
      .then((r) => r.body)
      .catch(() => '');
    const offsetMs = Number(/^fermata_clock_offset_ms (\S+)$/m.exec(body)?.[1] ?? 0);
    if (Math.abs(offsetMs) <= CLOCK_STEPPED_MS) continue;
    note(`restart ${n.id}: its time is ${offsetMs} ms off its system clock`);
    await cluster.kill(n.id);
    await cluster.restart(n.id);
  }
}

/** The first exit of a node the run did not cause (not a signal it sent, not a clean stop), with its log line. */
function nodeFatal(cluster: ChaosCluster): Violation | undefined {
  for (const n of cluster.nodes) {
    const exit = n.handle.exits.find((e) => e.code !== null && e.code !== 0);
    if (!exit) continue;
    const line = n.handle.logLines().find((l) => l['level'] === 60);
    const err = line?.['err'] as { message?: string } | undefined;
    return {
      rule: 'node-fatal',
      message: `${n.id} exited with code ${exit.code}: ${err?.message ?? String(line?.['msg'] ?? 'see its log')}`,
    };
  }
  return undefined;
}

/** Every node of the cluster is a voter again (a replacement cut short by the end of the faults is finished). */
async function ensureMembers(cluster: ChaosCluster): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      const info = await cluster.onLeader((c) => c.clusterInfo());
      const voters = new Set(info.members.filter((m) => m.voter).map((m) => m.id));
      const missing = cluster.nodes.filter((n) => !voters.has(n.id));
      if (missing.length === 0) return;
      for (const n of missing) {
        await cluster.onLeader((c) =>
          c.addMember({
            id: n.id,
            peerAddress: `127.0.0.1:${n.ports.peer}`,
            address: `127.0.0.1:${n.ports.client}`,
          }),
        );
      }
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await sleep(500);
    }
  }
}

/** Waits until the leader holds nothing pending or in flight in the workload's topic. */
async function drain(cluster: ChaosCluster, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const left = await cluster
      .onLeader((c) => c.topicStats(TOPIC))
      .then((s) => s.groups.reduce((n, g) => n + Number(g.pending) + Number(g.inFlight), 0))
      .catch(() => -1);
    if (left === 0 || Date.now() > deadline) return;
    await sleep(500);
  }
}

/** Waits until every node has applied the same index and nothing moved for 3 s (the janitor's purges end). */
async function quiesce(cluster: ChaosCluster, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  let since = Date.now();
  while (Date.now() < deadline) {
    const s = await Promise.all(cluster.nodes.map((n) => n.handle.status(1_000)));
    const key = s.map((x) => (x ? `${x.commit}/${x.applied}` : '-')).join(' ');
    const same = s.every((x) => x && x.applied === x.commit && x.applied === s[0]?.applied);
    if (key !== last || !same) {
      last = key;
      since = Date.now();
    } else if (Date.now() - since >= 3_000) return;
    await sleep(250);
  }
}
