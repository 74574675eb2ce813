// Burst through the peer harness's adapters: the `burst` workload (N messages due within one
// second, published beforehand, 256 B payloads) against BullMQ, pg-boss or Fermata, each
// through its `DelayQueueAdapter` (the peer harness's lib/adapter.mjs contract), so that the
// three are produced, consumed and timed by the same code. `--system fermata` starts a
// three-node cluster and plugs in scripts/bench/peer-adapter.mjs (build the SDK first:
// `npm run build`; no harness needed); bullmq and pgboss need the harness (`--harness DIR`),
// its npm packages and their servers running (its servers.sh). Reports the time from the start of the due second
// until every message reached a consumer, and until the system counted none pending or in
// flight; lateness; lost, duplicated and early; the servers' and this process's CPU.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  type Cluster,
  DeliveryLedger,
  fmt,
  load1,
  PAYLOAD_BYTES,
  processCpuMs,
  REPO_ROOT,
  sleep,
  startBenchCluster,
} from './cluster.js';
import { emit, flag, option, round, stringOption, summary } from './report.js';

const SYSTEMS = ['bullmq', 'pgboss', 'fermata'] as const;
/** How long before the due second CPU starts counting (Fermata leases up to 2 s ahead). */
const CPU_LEAD_MS = 3_000;
/** How often "nothing pending or in flight" is asked after the wait for the deliveries. */
const DRAIN_POLL_MS = 100;

/** The harness's adapter contract (lib/adapter.mjs), the parts used here. */
interface DelayQueueAdapter {
  setup(): Promise<void>;
  produce(batch: Array<{ id: number; payload: string; delayMs: number }>): Promise<void>;
  consume(onMessage: (id: number, receivedAtMs: number) => void | Promise<void>): Promise<void>;
  teardown(o: { cleanup: boolean }): Promise<void>;
  pendingCount?(): Promise<number>;
  serverPids?(): Promise<number[]>;
  info?(): Promise<Record<string, unknown>>;
}

export async function run(args: string[]): Promise<void> {
  const quick = flag(args, 'quick');
  const system = stringOption(args, 'system', '');
  if (!(SYSTEMS as readonly string[]).includes(system)) {
    throw new Error(`--system must be one of ${SYSTEMS.join(', ')}, got '${system}'`);
  }
  const harness = stringOption(args, 'harness', join(REPO_ROOT, '../shared/peer-bench'));
  const n = option(args, 'messages', quick ? 5_000 : 1_000_000);
  const producers = option(args, 'producers', 4);
  const batch = option(args, 'batch', 100);
  // The harness's latency runs: BullMQ 32 concurrent jobs, pg-boss 8 workers x 500 per poll.
  const consumers = option(args, 'consumers', system === 'pgboss' ? 8 : 32);
  const consumerBatch = option(args, 'consumer-batch', 500);
  const pollMs = option(args, 'poll-ms', 500);
  // The due second must come after the last publish: lead = n / this rate + 5 s.
  const rateGuess = option(args, 'publish-rate-guess', quick ? 2_000 : 10_000);
  const timeoutMs = option(args, 'timeout-ms', quick ? 60_000 : 900_000);

  let cluster: Cluster | undefined;
  let url = stringOption(args, 'url', '') || undefined;
  if (system === 'fermata') {
    cluster = await startBenchCluster(args);
    url = cluster.endpoints.join(',');
  }
  const opts = {
    system,
    url,
    queue: `burst_${Date.now().toString(36)}`,
    messages: n,
    payload: PAYLOAD_BYTES,
    producers,
    batch,
    consumers,
    consumerBatch,
    pollMs,
  };
  let adapter: DelayQueueAdapter;
  // Processes whose CPU counts: the servers' roots and, for the peers, their descendants.
  let serverProcesses = (roots: number[]): number[] => roots;
  if (system === 'fermata') {
    // Fermata's adapter lives here: no harness needed (bench.test.ts runs this at --quick).
    const mod = (await import(pathToFileURL(join(import.meta.dirname, 'peer-adapter.mjs')).href)) as {
      default(o: typeof opts): DelayQueueAdapter;
    };
    adapter = mod.default(opts);
  } else {
    const { loadAdapter } = (await import(pathToFileURL(join(harness, 'lib/adapter.mjs')).href)) as {
      loadAdapter(o: typeof opts): Promise<DelayQueueAdapter>;
    };
    const { processTree } = (await import(pathToFileURL(join(harness, 'lib/procmem.mjs')).href)) as {
      processTree(roots: number[]): number[];
    };
    adapter = await loadAdapter(opts);
    serverProcesses = processTree;
  }
  try {
    await adapter.setup();
    const roots = cluster ? cluster.nodes.map((nd) => nd.pid ?? 0) : ((await adapter.serverPids?.()) ?? []);
    const ledger = new DeliveryLedger(n);
    // Stamped here, when the adapter hands the message to the handler, for every system alike
    // (Fermata's own `receivedAtMs` is its arrival at the SDK, before the prefetch buffer).
    await adapter.consume((id) => ledger.receive(id, Date.now()));

    const dueSecond = Date.now() + Math.ceil((n / rateGuess) * 1000) + 5_000;
    const payload = 'x'.repeat(PAYLOAD_BYTES);
    let next = 0;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: producers }, async () => {
        while (next < n) {
          const start = next;
          const end = Math.min(n, start + batch);
          next = end;
          // Each adapter counts delayMs from its own Date.now() in produce(), a little after
          // this one: a message is due at dueAt or up to a few ms later, never earlier.
          const sentAt = Date.now();
          const msgs = [];
          for (let id = start; id < end; id++) {
            const dueAt = dueSecond + (id % 1000);
            ledger.expect(id, dueAt);
            msgs.push({ id, payload, delayMs: dueAt - sentAt });
          }
          await adapter.produce(msgs);
        }
      }),
    );
    const publishSeconds = (performance.now() - t0) / 1000;
    const publishedAt = Date.now();

    await sleep(Math.max(0, dueSecond - CPU_LEAD_MS - Date.now()));
    const cpuFrom = Date.now();
    const serverCpu0 = treeCpuMs(roots, serverProcesses);
    const clientCpu0 = process.cpuUsage();
    await ledger.waitFor(n, Math.max(0, dueSecond - Date.now()) + timeoutMs);
    // Acks (BullMQ's completion, Fermata's ack) follow the handler: wait until the system counts
    // nothing pending or in flight (pg-boss's count leaves out active jobs). After a timeout
    // too: what it no longer holds and never delivered is lost.
    let drainedAt: number | undefined;
    const drainDeadline = Date.now() + (quick ? 10_000 : 60_000);
    while (adapter.pendingCount && Date.now() < drainDeadline) {
      if ((await adapter.pendingCount()) === 0) {
        drainedAt = Date.now();
        break;
      }
      await sleep(DRAIN_POLL_MS);
    }
    const serverCpuMs = treeCpuMs(roots, serverProcesses) - serverCpu0;
    const clientCpu = process.cpuUsage(clientCpu0);
    await sleep(2_000); // redeliveries arriving late count as duplicates
    const lateness = ledger.lateness();
    const record = {
      scenario: 'peer-burst',
      system,
      quick,
      messages: n,
      producers,
      batch,
      consumers,
      ...(system === 'pgboss' ? { consumer_batch: consumerBatch, poll_ms: pollMs } : {}),
      publish_msgs_per_s: round(n / publishSeconds, 0),
      published_before_due: publishedAt < dueSecond,
      all_delivered_after_due_s: ledger.delivered >= n ? round((ledger.lastAt - dueSecond) / 1000, 2) : null,
      none_pending_after_due_s:
        drainedAt !== undefined && ledger.delivered >= n ? round((drainedAt - dueSecond) / 1000, 2) : null,
      delivery_msgs_per_s: round(
        ledger.delivered / Math.max(0.001, (ledger.lastAt - ledger.firstDeliveryAt) / 1000),
        0,
      ),
      lateness_ms: { p50: lateness.p50, p99: lateness.p99, max: lateness.max },
      delivered: ledger.delivered,
      // Not delivered by the timeout: lost only if the system no longer holds them (null: unknown).
      timed_out: ledger.delivered < n,
      lost: drainedAt !== undefined ? ledger.lost() : null,
      undelivered: n - ledger.delivered,
      duplicated: ledger.duplicates,
      early: ledger.early,
      foreign: ledger.foreign,
      // From CPU_LEAD_MS before the due second, or from the end of publishing if that was later.
      cpu_window_starts_before_due_ms: dueSecond - cpuFrom,
      server_cpu_us_per_msg: roots.length > 0 ? round((serverCpuMs * 1000) / n, 1) : null,
      client_cpu_us_per_msg: round((clientCpu.user + clientCpu.system) / n, 1),
      info: (await adapter.info?.().catch(() => undefined)) ?? null,
      load_avg_1m: load1(),
    };
    emit(record);
    summary(
      `peer-burst ${system}: ${n} msgs due in one second, published at ${record.publish_msgs_per_s} msgs/s` +
        `${record.published_before_due ? '' : ' (publishing ran past the due second!)'}; all delivered ${record.all_delivered_after_due_s} s ` +
        `and none pending ${record.none_pending_after_due_s} s after the due second; delivery ${record.delivery_msgs_per_s} msgs/s; ` +
        `lateness ${fmt(lateness)}; ${record.timed_out ? `${record.undelivered} not delivered within the timeout; ` : ''}lost ${record.lost}, duplicated ${record.duplicated}, early ${record.early}; ` +
        `servers' CPU ${record.server_cpu_us_per_msg} us/msg, client's ${record.client_cpu_us_per_msg} (load ${record.load_avg_1m})`,
    );
  } finally {
    await adapter.teardown({ cleanup: true }).catch(() => undefined);
    await cluster?.stop();
  }
}

/**
 * CPU (user + system, ms) of the process trees under `roots`: every live process's own time,
 * plus the roots' reaped children (a PostgreSQL backend that ended, Redis's rewrite child).
 */
function treeCpuMs(roots: number[], processesOf: (roots: number[]) => number[]): number {
  const rootSet = new Set(roots);
  let ms = 0;
  // The roots last: a child that ends meanwhile is then counted in its root's reaped time.
  const pids = processesOf(roots).filter((pid) => !rootSet.has(pid));
  for (const pid of [...pids, ...roots]) {
    const t = processCpuMs(pid); // undefined: ended between the listing and the read
    if (t) ms += t.own + (rootSet.has(pid) ? t.reaped : 0);
  }
  return ms;
}
