/**
 * What the broker scenarios share: a three-node cluster of real `fermata serve`
 * processes on loopback (test-cluster's harness: tsx, so the source is what runs,
 * never a stale dist/; `--dist` builds and runs the built CLI), SDK clients, per-node memory and disk figures, lateness
 * statistics, and the machine's load average for every figure.
 */
import { execFileSync } from 'node:child_process';
import { type Dirent, readdirSync, readFileSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { AlreadyExistsError, FermataClient, type Message, silentLogger } from '@fermata/sdk';
import { type Cluster, type NodeHandle, startCluster } from '../../test-cluster/src/harness.js';
import { flag, percentile, round } from './report.js';

export const REPO_ROOT = join(import.meta.dirname, '../..');

export { sleep } from '../../test-cluster/src/harness.js';
export type { Cluster, NodeHandle };

/** Payload of every benchmark message (the peers' figure uses 256 B too). */
export const PAYLOAD_BYTES = 256;

export interface BenchClusterOptions {
  /** Extra FERMATA_* settings for every node. */
  readonly env?: Readonly<Record<string, string>>;
  /** Write a V8 CPU profile per node into this directory (on graceful stop). */
  readonly cpuProfDir?: string;
}

/**
 * Three nodes, durability quorum (the default), logs at `warn` so logging does
 * not weigh on the figures. `--cpu-prof-dir DIR` (any scenario) profiles the servers.
 */
export async function startBenchCluster(args: string[], options: BenchClusterOptions = {}): Promise<Cluster> {
  const i = args.indexOf('--cpu-prof-dir');
  const cpuProfDir = options.cpuProfDir ?? (i >= 0 ? args[i + 1] : undefined);
  const env: Record<string, string> = { FERMATA_LOG_LEVEL: 'warn', ...options.env };
  // `--server-env KEY=VALUE` (repeatable): a setting for every node, e.g. FERMATA_DISPATCHER__MAX_LEASE_BATCH=1000.
  args.forEach((a, k) => {
    if (a !== '--server-env') return;
    const [key, ...rest] = (args[k + 1] ?? '').split('=');
    if (!key || rest.length === 0) throw new Error(`--server-env needs KEY=VALUE, got ${args[k + 1]}`);
    env[key] = rest.join('=');
  });
  // `--dist`: the nodes run the built CLI (`npm run build`, done here) instead of the sources
  // through tsx: what a deployment runs, without the transpiler's memory (for `scale`'s RSS).
  if (flag(args, 'dist')) {
    execFileSync(
      process.execPath,
      [join(REPO_ROOT, 'node_modules/typescript/bin/tsc'), '-b', 'tsconfig.build.json'],
      {
        cwd: REPO_ROOT,
        stdio: 'inherit',
      },
    );
    process.env['FERMATA_TEST_BUILD'] = 'dist';
    // What the image and the StatefulSet set (deploy/Dockerfile): a small young generation, two
    // malloc arenas; `--server-env NODE_OPTIONS=...` or `MALLOC_ARENA_MAX=...` replaces them.
    env['NODE_OPTIONS'] ??= '--max-semi-space-size=4';
    env['MALLOC_ARENA_MAX'] ??= '2';
  }
  if (cpuProfDir) {
    // Node refuses --cpu-prof in NODE_OPTIONS: a preloaded hook profiles through the inspector.
    env['NODE_OPTIONS'] = [env['NODE_OPTIONS'], `--import ${join(import.meta.dirname, 'cpu-prof-hook.mjs')}`]
      .filter(Boolean)
      .join(' ');
    env['BENCH_CPU_PROF_DIR'] = cpuProfDir;
  }
  // Kept on stop, so that a failed run can still print the nodes' logs; index.ts removes them.
  const cluster = await startCluster({ nodes: 3, env, keep: true });
  startedClusters.push({ cluster, keep: flag(args, 'keep') });
  return cluster;
}

/** Every cluster this run started (index.ts prints their logs on failure, then removes them). */
export const startedClusters: Array<{ cluster: Cluster; keep: boolean }> = [];

export function newClient(cluster: Cluster): FermataClient {
  return new FermataClient({ endpoints: [...cluster.endpoints], logger: silentLogger });
}

/** A 256-byte payload whose first 4 bytes carry the message's sequence number. */
export function payloadFor(seq: number): Uint8Array {
  const p = new Uint8Array(PAYLOAD_BYTES);
  new DataView(p.buffer).setUint32(0, seq);
  p.fill(0x61, 4);
  return p;
}

export function seqOf(m: Message): number {
  return new DataView(m.payload.buffer, m.payload.byteOffset, m.payload.byteLength).getUint32(0);
}

/** Resident memory of a process in bytes (VmRSS), 0 when it is gone. */
export function rssBytes(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/**
 * The parts of a process's resident memory (kB lines of /proc/PID/status), in MB:
 * anonymous (heap, buffers, LevelDB's caches and memtables: what the process owns) and
 * file-backed (pages of mapped files — LevelDB maps its table files — which the kernel
 * reclaims under pressure like any page cache).
 */
export function rssParts(pid: number | undefined): { rss_anon_mb?: number; rss_file_mb?: number } {
  if (pid === undefined) return {};
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? Number.NaN);
    return { rss_anon_mb: round(kb('RssAnon') / 1024, 1), rss_file_mb: round(kb('RssFile') / 1024, 1) };
  } catch {
    return {};
  }
}

/** CPU time (user + system) a process has used so far, in ms; 0 when it is gone. */
export function cpuMs(pid: number | undefined): number {
  return pid === undefined ? 0 : (processCpuMs(pid)?.own ?? 0);
}

/**
 * CPU time (user + system, ms) of a process (`own`) and of its children it has reaped
 * (`reaped`); undefined when it is gone.
 */
export function processCpuMs(pid: number): { own: number; reaped: number } | undefined {
  try {
    // Fields after the command name (which may hold spaces): utime, stime, cutime and cstime
    // are the 12th to 15th.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ms = (ticks: number) => (ticks * 1000) / CLOCK_TICKS_PER_S;
    return { own: ms(Number(f[11]) + Number(f[12])), reaped: ms(Number(f[13]) + Number(f[14])) };
  } catch {
    return undefined;
  }
}

/** Linux's USER_HZ: the unit of /proc/PID/stat times (100 on every architecture Node runs on). */
const CLOCK_TICKS_PER_S = 100;

/**
 * CPU the cluster's nodes spend from now until `done(messages)`: per node in ms, and for the
 * three together per message in µs — what each message cost the servers, a figure far less
 * noisy than throughput on a shared machine.
 */
export function serverCpu(cluster: Cluster): {
  done(messages: number): {
    us_per_msg: number;
    per_node_ms: number[];
    /** The same CPU by thread kind over the three nodes, in µs per message (`threadKind`). */
    us_per_msg_by_thread: Record<string, number>;
  };
} {
  const start = cluster.nodes.map((nd) => cpuMs(nd.pid));
  const startThreads = cluster.nodes.map((nd) => threadCpuMs(nd.pid));
  return {
    done(messages) {
      // A node that died meanwhile reads 0: count nothing for it rather than a negative figure.
      const per = cluster.nodes.map((nd, i) => round(Math.max(0, cpuMs(nd.pid) - start[i]!), 0));
      const totalMs = per.reduce((a, b) => a + b, 0);
      const byThread: Record<string, number> = {};
      cluster.nodes.forEach((nd, i) => {
        const before = startThreads[i]!;
        for (const [kind, ms] of Object.entries(threadCpuMs(nd.pid))) {
          byThread[kind] = (byThread[kind] ?? 0) + Math.max(0, ms - (before[kind] ?? 0));
        }
      });
      const perMsg = (ms: number) => round((ms * 1000) / Math.max(1, messages), 1);
      return {
        us_per_msg: perMsg(totalMs),
        per_node_ms: per,
        us_per_msg_by_thread: Object.fromEntries(
          Object.entries(byThread)
            .sort((a, b) => b[1] - a[1])
            .map(([k, ms]) => [k, perMsg(ms)]),
        ),
      };
    },
  };
}

/**
 * A thread's kind for the CPU split: `main` (JavaScript, gRPC, apply), or its
 * name as the kernel has it (`libuv-worker`: LevelDB reads, writes and fsyncs
 * through libuv's pool; `V8 Worker` and `V8 DefaultWorke`: the collector's
 * helpers and the compiler; LevelDB's compaction thread is unnamed, so it
 * shows as the process's name).
 */
function threadKind(pid: number, tid: number, comm: string): string {
  return tid === pid ? 'main' : comm;
}

/** CPU time (user + system, ms) of a process's live threads, summed by `threadKind`. */
export function threadCpuMs(pid: number | undefined): Record<string, number> {
  const out: Record<string, number> = {};
  if (pid === undefined) return out;
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tids) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const kind = threadKind(pid, Number(tid), comm);
      out[kind] = (out[kind] ?? 0) + ((Number(f[11]) + Number(f[12])) * 1000) / CLOCK_TICKS_PER_S;
    } catch {
      // the thread ended meanwhile
    }
  }
  return out;
}

/** Allocated bytes under a directory (what `du` counts). */
export function diskBytes(dir: string): number {
  let total = 0;
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const e of entries) {
    const p = join(dir, e.name);
    if (e.isDirectory()) total += diskBytes(p);
    else {
      try {
        total += statSync(p).blocks * 512;
      } catch {
        // removed meanwhile (compaction)
      }
    }
  }
  return total;
}

/**
 * Whether a node is writing a Raft snapshot (a temporary file beside `latest.snap`): it reads the
 * whole store, and LevelDB maps the tables it reads, so the node's file-backed RSS climbs towards
 * the store's size while it runs (docs/benchmarks.md, "Memory and disk at scale").
 */
export function snapshotWriting(dataDir: string): boolean {
  try {
    return readdirSync(join(dataDir, 'raft', 'snapshot')).some((name) => name.endsWith('.tmp'));
  } catch {
    return false;
  }
}

/** The 1-minute load average, rounded: every figure is reported with it (the 2 cores are shared). */
export function load1(): number {
  return round(loadavg()[0] ?? 0, 2);
}

export interface Stats {
  n: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  min: number;
  mean: number;
}

export function stats(samples: ArrayLike<number>): Stats {
  const sorted = Float64Array.from(samples).sort();
  let sum = 0;
  for (const x of sorted) sum += x;
  return {
    n: sorted.length,
    p50: round(percentile(sorted, 50), 2),
    p90: round(percentile(sorted, 90), 2),
    p99: round(percentile(sorted, 99), 2),
    max: round(sorted.length ? sorted[sorted.length - 1]! : Number.NaN, 2),
    min: round(sorted.length ? sorted[0]! : Number.NaN, 2),
    mean: round(sorted.length ? sum / sorted.length : Number.NaN, 2),
  };
}

export const fmt = (s: Stats): string => `p50 ${s.p50} / p90 ${s.p90} / p99 ${s.p99} / max ${s.max} ms`;

/**
 * Records deliveries of messages numbered 0..n-1 against the due time each
 * was published with: lateness (received-at minus due-at, both by this
 * machine's clock), early, duplicated, and which never came.
 */
export class DeliveryLedger {
  readonly dueAt: Float64Array;
  readonly firstAt: Float64Array;
  readonly count: Uint32Array;
  delivered = 0;
  duplicates = 0;
  early = 0;
  foreign = 0;
  /** The earliest and latest first delivery (Infinity and 0 before any). */
  firstDeliveryAt = Number.POSITIVE_INFINITY;
  lastAt = 0;
  private waiters: Array<{ n: number; done: () => void }> = [];

  constructor(readonly n: number) {
    this.dueAt = new Float64Array(n).fill(Number.NaN);
    this.firstAt = new Float64Array(n);
    this.count = new Uint32Array(n);
  }

  expect(seq: number, dueAtMs: number): void {
    this.dueAt[seq] = dueAtMs;
  }

  receive(seq: number, receivedAtMs: number): void {
    if (!(seq >= 0 && seq < this.n) || Number.isNaN(this.dueAt[seq]!)) {
      this.foreign++;
      return;
    }
    if (this.count[seq]!++ > 0) {
      this.duplicates++;
      return;
    }
    this.firstAt[seq] = receivedAtMs;
    if (receivedAtMs < this.dueAt[seq]!) this.early++;
    this.delivered++;
    this.firstDeliveryAt = Math.min(this.firstDeliveryAt, receivedAtMs);
    this.lastAt = Math.max(this.lastAt, receivedAtMs);
    if (this.waiters.length > 0) {
      this.waiters = this.waiters.filter((w) => {
        if (this.delivered < w.n) return true;
        w.done();
        return false;
      });
    }
  }

  /** Resolves once `n` distinct messages arrived, or after `timeoutMs` (then fewer did). */
  waitFor(n: number, timeoutMs: number): Promise<void> {
    if (this.delivered >= n) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      this.waiters.push({
        n,
        done: () => {
          clearTimeout(timer);
          resolve();
        },
      });
    });
  }

  /** Lateness of the first delivery of each message, optionally of those due in [fromMs, toMs). */
  lateness(fromMs = Number.NEGATIVE_INFINITY, toMs = Number.POSITIVE_INFINITY): Stats {
    const out: number[] = [];
    for (let i = 0; i < this.n; i++) {
      const due = this.dueAt[i]!;
      if (this.count[i]! > 0 && due >= fromMs && due < toMs) out.push(this.firstAt[i]! - due);
    }
    return stats(out);
  }

  /** Expected (published and acknowledged) but never delivered. */
  lost(): number {
    let lost = 0;
    for (let i = 0; i < this.n; i++) if (!Number.isNaN(this.dueAt[i]!) && this.count[i] === 0) lost++;
    return lost;
  }
}

/** Per-node memory and disk now, plus the leader's id. */
export async function nodeFigures(cluster: Cluster): Promise<
  Array<{
    node: string;
    leader: boolean;
    rss_bytes: number;
    disk_bytes: number;
    heap_used_mb?: number;
    heap_total_mb?: number;
    external_mb?: number;
    rss_anon_mb?: number;
    rss_file_mb?: number;
    snapshot_writing: boolean;
  }>
> {
  const leader = await cluster.leader().catch(() => undefined);
  return Promise.all(
    cluster.nodes.map(async (nd) => {
      // Where the memory is, as the node reports it (prom-client's process metrics).
      const body = (await nd.httpGet('/metrics').catch(() => undefined))?.body ?? '';
      const gauge = (name: string): number | undefined => {
        const bytes = metricValue(body, name);
        return Number.isNaN(bytes) ? undefined : round(bytes / 2 ** 20, 1);
      };
      return {
        node: nd.id,
        leader: nd === leader,
        rss_bytes: rssBytes(nd.pid),
        ...rssParts(nd.pid),
        disk_bytes: diskBytes(nd.dataDir),
        snapshot_writing: snapshotWriting(nd.dataDir),
        heap_used_mb: gauge('nodejs_heap_size_used_bytes'),
        heap_total_mb: gauge('nodejs_heap_size_total_bytes'),
        external_mb: gauge('nodejs_external_memory_bytes'),
      };
    }),
  );
}

/**
 * `producers` closed-loop tasks, each with its own PublishStream producer
 * sending batches of `batch` messages, at most `inFlight` batches outstanding
 * per producer. `make(i)` builds message i (0..total-1). Resolves with the
 * per-message latency (send -> acknowledged) and the wall time.
 */
export async function produceStreams(
  client: FermataClient,
  opts: {
    total: number;
    producers: number;
    batch: number;
    inFlight?: number;
    topic: string;
    make: (i: number) => { payload: Uint8Array; delayMs?: number; deliverAt?: number; orderingKey?: string };
    onAck?: (i: number, dueAtMs: number) => void;
    latencies?: boolean;
  },
): Promise<{ seconds: number; latency: Float64Array | undefined; failed: number }> {
  const { total, producers, batch, topic } = opts;
  let failed = 0;
  const inFlight = opts.inFlight ?? 2;
  const lat = opts.latencies === false ? undefined : new Float64Array(total);
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: producers }, async () => {
      const p = client.producer({ maxBatchMessages: batch, lingerMs: 1, maxInFlightBatches: inFlight + 1 });
      const outstanding: Promise<void>[] = [];
      try {
        while (next < total) {
          const start = next;
          const end = Math.min(total, start + batch);
          next = end;
          const sentAt = performance.now();
          const acks: Promise<void>[] = [];
          for (let i = start; i < end; i++) {
            const m = opts.make(i);
            acks.push(
              p
                .send(topic, m.payload, {
                  ...(m.deliverAt !== undefined ? { deliverAt: m.deliverAt } : { delayMs: m.delayMs ?? 0 }),
                  ...(m.orderingKey !== undefined ? { orderingKey: m.orderingKey } : {}),
                })
                .then(
                  (r) => {
                    if (lat) lat[i] = performance.now() - sentAt;
                    opts.onAck?.(i, r.dueAtMs);
                  },
                  () => {
                    // Counted, never thrown: a run under overload reports its failures as a figure.
                    failed++;
                    if (lat) lat[i] = Number.NaN;
                  },
                ),
            );
          }
          outstanding.push(Promise.all(acks).then(() => undefined));
          if (outstanding.length >= inFlight) await outstanding.shift();
        }
        await Promise.all(outstanding);
      } finally {
        await p.close();
      }
    }),
  );
  return {
    seconds: (performance.now() - t0) / 1000,
    latency: lat?.filter((x) => !Number.isNaN(x)),
    failed,
  };
}

/**
 * A burst due within one second: message i of `total` due at `dueSecond + i % 1000`, noted in
 * `ledger`, published by `producers` streams in batches of 100.
 */
export function produceBurst(
  client: FermataClient,
  o: { topic: string; total: number; producers: number; dueSecond: number; ledger: DeliveryLedger },
): ReturnType<typeof produceStreams> {
  return produceStreams(client, {
    total: o.total,
    producers: o.producers,
    batch: 100,
    topic: o.topic,
    make: (i) => {
      const deliverAt = o.dueSecond + (i % 1000);
      o.ledger.expect(i, deliverAt);
      return { payload: payloadFor(i), deliverAt };
    },
    latencies: false,
  });
}

/** The value of an unlabelled (or first labelled) sample `name` in a Prometheus text body; NaN when absent. */
function metricValue(body: string, name: string): number {
  return Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)`, 'm').exec(body)?.[1] ?? Number.NaN);
}

/** A gauge or counter of one node (`/metrics`), NaN when the node does not answer. */
export async function serverGauge(node: NodeHandle, name: string): Promise<number> {
  const res = await node.httpGet('/metrics').catch(() => undefined);
  return res?.status === 200 ? metricValue(res.body, name) : Number.NaN;
}

/**
 * The worst and the p99 event-loop delay of a node since the previous scrape of
 * its /metrics (prom-client resets the event-loop histogram on every collect),
 * in ms: a scrape before a run and one after give the run's stalls.
 */
export async function eventLoopLag(node: NodeHandle): Promise<{ p99: number; max: number } | undefined> {
  const res = await node.httpGet('/metrics').catch(() => undefined);
  if (res?.status !== 200) return undefined;
  return {
    p99: round(metricValue(res.body, 'nodejs_eventloop_lag_p99_seconds') * 1000, 1),
    max: round(metricValue(res.body, 'nodejs_eventloop_lag_max_seconds') * 1000, 1),
  };
}

/**
 * A Prometheus histogram of one node (`/metrics`) as count and bucket-bound
 * quantiles (the upper bound of the bucket where the quantile falls): the
 * server's own view, to tell server time from client and network time.
 */
export async function serverHistogram(
  node: NodeHandle,
  name: string,
): Promise<{ count: number; p50: number; p99: number } | undefined> {
  const res = await node.httpGet('/metrics').catch(() => undefined);
  if (res?.status !== 200) return undefined;
  const buckets: Array<{ le: number; n: number }> = [];
  const re = new RegExp(`^${name}_bucket\\{[^}]*le="([^"]+)"[^}]*\\} (\\d+(?:\\.\\d+)?)`, 'gm');
  for (const m of res.body.matchAll(re)) {
    buckets.push({ le: m[1] === '+Inf' ? Number.POSITIVE_INFINITY : Number(m[1]), n: Number(m[2]) });
  }
  const count = buckets.at(-1)?.n ?? 0;
  if (count === 0) return { count: 0, p50: Number.NaN, p99: Number.NaN };
  const q = (p: number) => buckets.find((b) => b.n >= p * count)?.le ?? Number.POSITIVE_INFINITY;
  return { count, p50: q(0.5), p99: q(0.99) };
}

/** Creates `topic` unless it exists: consuming never creates one (`topics.autoCreate` covers publishes only). */
export async function ensureTopic(client: FermataClient, topic: string): Promise<void> {
  try {
    await client.createTopic(topic);
  } catch (err) {
    if (!(err instanceof AlreadyExistsError)) throw err;
  }
}
