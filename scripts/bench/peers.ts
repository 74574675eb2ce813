// Peers: the same workloads through BullMQ on Redis, pg-boss on PostgreSQL and a three-node
// Fermata cluster, in one run on this machine, and one table of the figures with Fermata's
// ratio to each peer. Redis and PostgreSQL come from Debian's packages (installed with apt-get
// when missing, as root) and are started here in temporary directories on free loopback ports,
// and stopped at the end. Workloads and their sizes: peers/workloads.ts and docs/benchmarks.md.
import { load1 } from './cluster.js';
import { ensureInstalled, type PeerServer, startPostgres, startRedis } from './peers/servers.js';
import {
  openBullmq,
  openFermata,
  openPgBoss,
  type PeerSystem,
  SYSTEM_NAMES,
  type SystemName,
} from './peers/systems.js';
import { burst, mixed, scale } from './peers/workloads.js';
import {
  emit,
  flag,
  option,
  printTargets,
  reported,
  round,
  stringOption,
  summary,
  type TargetLine,
  target,
} from './report.js';

const WORKLOADS = ['mixed', 'burst', 'scale'] as const;
type Workload = (typeof WORKLOADS)[number];

function listOption<T extends string>(args: string[], name: string, known: readonly T[]): T[] {
  const list = stringOption(args, name, known.join(',')).split(',').filter(Boolean);
  for (const x of list) {
    if (!(known as readonly string[]).includes(x))
      throw new Error(`--${name}: '${x}' is not one of ${known.join(', ')}`);
  }
  return list as T[];
}

export async function run(args: string[]): Promise<void> {
  const quick = flag(args, 'quick');
  const systems = listOption<SystemName>(args, 'systems', SYSTEM_NAMES);
  const workloads = listOption<Workload>(args, 'workloads', WORKLOADS);
  const shape = { producers: option(args, 'producers', 4), batch: option(args, 'batch', 100) };
  const mixedOptions = {
    ...shape,
    messages: option(args, 'mixed-messages', quick ? 2_000 : 20_000),
    delayMinMs: 1_000,
    delayMaxMs: 5_000,
    consumers: option(args, 'consumers', 32),
    seed: 42,
  };
  const burstOptions = {
    // Producing is the burst's set-up, not its figure: 64 producers, as in `burst`.
    producers: option(args, 'burst-producers', 64),
    batch: shape.batch,
    messages: option(args, 'burst-messages', quick ? 5_000 : 200_000),
    consumers: option(args, 'burst-consumers', 256),
    timeoutMs: option(args, 'timeout-ms', quick ? 60_000 : 300_000),
  };
  const scaleOptions = {
    ...shape,
    pending: option(args, 'scale-pending', quick ? 20_000 : 1_000_000),
    probe: 200,
  };
  const pgboss = {
    workers: option(args, 'pgboss-workers', 8),
    batch: option(args, 'pgboss-batch', 500),
    pollMs: option(args, 'pgboss-poll-ms', 500),
    producers: Math.max(shape.producers, burstOptions.producers),
  };

  const needRedis = systems.includes('bullmq');
  const needPostgres = systems.includes('pgboss');
  if (needRedis || needPostgres) ensureInstalled(summary);
  const servers: PeerServer[] = [];
  const opened: PeerSystem[] = [];
  try {
    // Every system stays up for the whole run, so that each workload runs through all of
    // them one after the other: the machine's load drifts less between them.
    for (const name of systems) {
      if (name === 'bullmq') {
        const redis = await startRedis();
        servers.push(redis);
        opened.push(await openBullmq(redis));
      } else if (name === 'pgboss') {
        const postgres = await startPostgres();
        servers.push(postgres);
        opened.push(await openPgBoss(postgres, pgboss));
      } else {
        opened.push(await openFermata(args));
      }
    }
    for (const s of servers) summary(`peers: ${s.name} ${s.version} on 127.0.0.1:${s.port}, pid ${s.pid}`);
    // A warm-up through each system first (not reported): the figures are those of running
    // servers and a running client (JIT-compiled code, open connections), not of their first seconds.
    const warmup = option(args, 'warmup', quick ? 500 : 5_000);
    for (const system of warmup > 0 ? opened : []) {
      const w = await mixed(system, {
        ...mixedOptions,
        messages: warmup,
        delayMinMs: 200,
        delayMaxMs: 1_000,
      });
      summary(`peers: warm-up of ${warmup} through ${system.name}: ${w.delivered} delivered`);
    }
    const records: Array<Record<string, unknown>> = [];
    for (const workload of workloads) {
      for (const system of opened) {
        summary(`peers: ${workload} through ${system.name} ...`);
        const r =
          workload === 'mixed'
            ? await mixed(system, mixedOptions)
            : workload === 'burst'
              ? await burst(system, burstOptions)
              : await scale(system, scaleOptions);
        const record = { scenario: 'peers', quick, ...r, load_avg_1m: load1() };
        emit(record);
        summary(`peers: ${JSON.stringify(record)}`);
        records.push(record);
      }
    }
    const table = ratioTable(records, opened);
    emit({
      scenario: 'peers',
      quick,
      table: table.rows,
      systems: Object.fromEntries(opened.map((s) => [s.name, s.description])),
    });
    summary(`\n${table.markdown}`);
    for (const s of opened) summary(`${s.name}: ${s.description}`);
    const targets = peerTargets(records, !quick && mixedOptions.messages === MIXED_TARGET_MESSAGES);
    if (targets.length > 0) {
      emit({ scenario: 'peers', quick, targets });
      printTargets('peers', targets);
    }
  } finally {
    for (const s of opened.reverse())
      await s.close().catch((e: Error) => summary(`peers: closing ${s.name}: ${e.message}`));
    for (const s of servers) await s.stop();
  }
}

/** The mixed workload of the targets: 20,000 messages of 256 B due in 1-5 s, 4 producers x 100, 32 consumers. */
const MIXED_TARGET_MESSAGES = 20_000;
/** Fermata's produce rate against BullMQ's on the mixed workload, at least. */
const TARGET_PRODUCE_RATIO = 2;
/** Fermata's mixed-workload lateness p99 (ms), at most. */
const TARGET_MIXED_P99_MS = 10;

/** The targets the peer workloads carry, from the records of this run (those it measured). */
function peerTargets(records: Array<Record<string, unknown>>, atSize: boolean): TargetLine[] {
  const of = (workload: Workload, system: string) =>
    records.find((r) => r['workload'] === workload && r['system'] === system);
  const ratio = (workload: Workload, path: string[]): number | null => {
    const a = read(of(workload, 'fermata'), path);
    const b = read(of(workload, 'bullmq'), path);
    return typeof a === 'number' && typeof b === 'number' && b !== 0 ? Number((a / b).toPrecision(3)) : null;
  };
  const out: TargetLine[] = [];
  if (of('mixed', 'fermata')) {
    if (of('mixed', 'bullmq'))
      out.push(
        target(
          'mixed_produce_ratio_fermata_to_bullmq',
          ratio('mixed', ['produce_msgs_per_s']),
          '>=',
          TARGET_PRODUCE_RATIO,
          atSize,
        ),
      );
    const p99 = read(of('mixed', 'fermata'), ['lateness_ms', 'p99']);
    out.push(
      target(
        'mixed_fermata_lateness_p99_ms',
        typeof p99 === 'number' ? p99 : null,
        '<=',
        TARGET_MIXED_P99_MS,
        atSize,
      ),
    );
  }
  if (of('burst', 'fermata') && of('burst', 'bullmq')) {
    // peer-burst: the ratio is reported, no target (below 1: Fermata drained the burst sooner).
    out.push(
      reported(
        'burst_all_delivered_s_ratio_fermata_to_bullmq',
        ratio('burst', ['all_delivered_after_due_s']),
      ),
    );
  }
  return out;
}

interface Figure {
  workload: Workload;
  label: string;
  path: string[];
  unit: string;
}

/** What each message cost and whether every one came once and on time, for a workload that delivers. */
const deliveryCosts = (workload: Workload): Figure[] => [
  { workload, label: 'servers CPU', path: ['server_cpu_us_per_msg'], unit: 'µs/msg' },
  { workload, label: 'client CPU', path: ['client_cpu_us_per_msg'], unit: 'µs/msg' },
  { workload, label: 'not delivered / dup / early', path: ['not_delivered'], unit: '' },
];

/** The figures of the table and where each is read in a workload's record. */
const FIGURES: Figure[] = [
  { workload: 'mixed', label: 'produce', path: ['produce_msgs_per_s'], unit: 'msgs/s' },
  { workload: 'mixed', label: 'lateness p50', path: ['lateness_ms', 'p50'], unit: 'ms' },
  { workload: 'mixed', label: 'lateness p99', path: ['lateness_ms', 'p99'], unit: 'ms' },
  { workload: 'mixed', label: 'lateness max', path: ['lateness_ms', 'max'], unit: 'ms' },
  ...deliveryCosts('mixed'),
  { workload: 'burst', label: 'produce', path: ['produce_msgs_per_s'], unit: 'msgs/s' },
  { workload: 'burst', label: 'all delivered after D', path: ['all_delivered_after_due_s'], unit: 's' },
  { workload: 'burst', label: 'delivery rate', path: ['delivery_msgs_per_s'], unit: 'msgs/s' },
  { workload: 'burst', label: 'lateness p99', path: ['lateness_ms', 'p99'], unit: 'ms' },
  ...deliveryCosts('burst'),
  { workload: 'scale', label: 'produce', path: ['produce_msgs_per_s'], unit: 'msgs/s' },
  { workload: 'scale', label: 'servers memory', path: ['server_memory_mb'], unit: 'MB' },
  { workload: 'scale', label: 'memory per pending', path: ['memory_bytes_per_pending'], unit: 'B' },
  { workload: 'scale', label: 'disk per pending (all copies)', path: ['disk_bytes_per_pending'], unit: 'B' },
  { workload: 'scale', label: 'probe lateness p99', path: ['probe_lateness_ms', 'p99'], unit: 'ms' },
];

/** Two decimals, or two significant digits below 0.1 (20 ms against 10,714 is 0.0019x, not 0x). */
const ratioText = (r: number): string => String(r >= 0.1 ? round(r, 2) : Number(r.toPrecision(2)));

function read(record: Record<string, unknown> | undefined, path: string[]): unknown {
  let v: unknown = record;
  for (const k of path) v = (v as Record<string, unknown> | undefined)?.[k];
  return v;
}

function cell(record: Record<string, unknown> | undefined, path: string[]): string {
  if (!record) return '–';
  if (path[0] === 'not_delivered')
    return `${record['not_delivered']} / ${record['duplicated']} / ${record['early']}`;
  const v = read(record, path);
  return typeof v === 'number' ? v.toLocaleString('en-US') : v === null ? 'not all' : '–';
}

/** One row per figure; the ratio columns are Fermata's figure divided by the peer's. */
function ratioTable(records: Array<Record<string, unknown>>, systems: PeerSystem[]) {
  const names = systems.map((s) => s.name);
  const peers = names.filter((n) => n !== 'fermata');
  const rows: Array<Record<string, string>> = [];
  for (const f of FIGURES) {
    const of = (name: string) => records.find((r) => r['workload'] === f.workload && r['system'] === name);
    if (!names.some((n) => of(n))) continue;
    const row: Record<string, string> = {
      workload: f.workload,
      figure: f.unit ? `${f.label} (${f.unit})` : f.label,
    };
    for (const n of names) row[n] = cell(of(n), f.path);
    if (names.includes('fermata')) {
      for (const p of peers) {
        const a = read(of('fermata'), f.path);
        const b = read(of(p), f.path);
        row[`fermata / ${p}`] =
          f.path[0] !== 'not_delivered' && typeof a === 'number' && typeof b === 'number' && b !== 0
            ? `${ratioText(a / b)}x`
            : '–';
      }
    }
    rows.push(row);
  }
  const columns = [
    'workload',
    'figure',
    ...names,
    ...(names.includes('fermata') ? peers.map((p) => `fermata / ${p}`) : []),
  ];
  const markdown = [
    `| ${columns.join(' | ')} |`,
    `| ${columns.map(() => '---').join(' | ')} |`,
    ...rows.map((r) => `| ${columns.map((c) => r[c] ?? '–').join(' | ')} |`),
  ].join('\n');
  return { rows, markdown };
}
