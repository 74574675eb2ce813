/**
 * The record of benchmark runs and the table of docs/benchmarks.md printed from it.
 *
 *   npm run bench -- results            prints the table
 *   npm run bench -- results --write    writes it into docs/benchmarks.md between its markers
 *
 * scripts/bench/results/<scenario>.jsonl holds one JSON line per run of record: the line the
 * scenario printed, stamped with `date`, `command` (what followed `npm run bench --`) and
 * `commit` (`npm run bench -- <scenario> --record` appends it so). Each row of the table shows
 * the runs of its command with the latest date, of the commit recorded last that date (the code
 * it describes); a figure is the range over those runs.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { argv } from 'node:process';
import { fileURLToPath } from 'node:url';

export const RESULTS_DIR = resolve(import.meta.dirname, 'results');
export const PAGE = resolve(import.meta.dirname, '../../docs/benchmarks.md');
export const TABLE_BEGIN =
  '<!-- figures:begin (generated from scripts/bench/results by scripts/bench/results.ts) -->';
export const TABLE_END = '<!-- figures:end -->';

/** A run of record. A figure is a number, or [min, max] where the run stands for `runs` runs. */
export interface RunRecord {
  readonly date: string;
  readonly command: string;
  /** The measured code; null in records transcribed from the page, whose `documented_in` names where. */
  readonly commit: string | null;
  /** Runs this record stands for: 1 when absent, null when the source did not count them. */
  readonly runs?: number | null;
  readonly scenario: string;
  readonly load_avg_1m?: number | readonly [number, number] | null;
  readonly [field: string]: unknown;
}

const isRange = (v: unknown): v is readonly [number, number] =>
  Array.isArray(v) && v.length === 2 && v.every((x) => typeof x === 'number') && v[0]! <= v[1]!;

/** Reads every results file; a malformed line is an error naming its file, line and field. */
export function readResults(dir = RESULTS_DIR): RunRecord[] {
  const out: RunRecord[] = [];
  for (const name of readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .sort()) {
    const lines = readFileSync(join(dir, name), 'utf8').split('\n');
    lines.forEach((text, i) => {
      if (text.trim() === '') return;
      const at = `${name}:${i + 1}`;
      let r: Record<string, unknown>;
      try {
        r = JSON.parse(text) as Record<string, unknown>;
      } catch (err) {
        throw new Error(`${at}: not JSON (${(err as Error).message})`);
      }
      if (typeof r['date'] !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(r['date']))
        throw new Error(`${at}: date must be YYYY-MM-DD, got ${JSON.stringify(r['date'])}`);
      if (typeof r['command'] !== 'string' || r['command'] === '')
        throw new Error(`${at}: command must name the scenario and its options`);
      if (r['commit'] !== null && typeof r['commit'] !== 'string')
        throw new Error(`${at}: commit must be a commit hash or null`);
      if (r['commit'] === null && typeof r['documented_in'] !== 'string')
        throw new Error(`${at}: a record without a commit needs documented_in`);
      if (`${r['scenario']}.jsonl` !== name)
        throw new Error(`${at}: scenario ${JSON.stringify(r['scenario'])} belongs in its own file`);
      if (r['quick'] === true) throw new Error(`${at}: a --quick run is not a run of record`);
      const load = r['load_avg_1m'];
      if (load !== undefined && load !== null && typeof load !== 'number' && !isRange(load))
        throw new Error(`${at}: load_avg_1m must be a number, [min, max] or null`);
      const runs = r['runs'];
      if (runs !== undefined && runs !== null && !(Number.isInteger(runs) && (runs as number) > 0))
        throw new Error(`${at}: runs must be a positive integer or null`);
      out.push(r as unknown as RunRecord);
    });
  }
  return out;
}

/** The values at a dotted path; `*` steps into every element of an array. */
function valuesAt(record: unknown, path: string): unknown[] {
  let values: unknown[] = [record];
  for (const key of path.split('.')) {
    values = values.flatMap((v) => {
      if (key === '*') return Array.isArray(v) ? v : [];
      return v !== null && typeof v === 'object' && key in v ? [(v as Record<string, unknown>)[key]] : [];
    });
  }
  return values;
}

const num = (n: number): string => n.toLocaleString('en-US', { maximumFractionDigits: 2 });
const span = (lo: number, hi: number): string => (lo === hi ? num(lo) : `${num(lo)}-${num(hi)}`);

type Op = '<' | '<=' | '>=' | '=';
const holds = (v: number, op: Op, limit: number): boolean =>
  op === '<' ? v < limit : op === '<=' ? v <= limit : op === '>=' ? v >= limit : v === limit;

/**
 * The runs one row shows: those of one command (and fields) with the latest date, and of those the
 * runs of the commit recorded last (runs of other code that day are kept in the record, not shown).
 */
export class Runs {
  readonly records: readonly RunRecord[];

  constructor(
    all: readonly RunRecord[],
    readonly command: string,
    readonly where: Record<string, unknown> = {},
  ) {
    const mine = all.filter(
      (r) => r.command === command && Object.entries(where).every(([k, v]) => r[k] === v),
    );
    const date = mine
      .map((r) => r.date)
      .sort()
      .at(-1);
    // A run of uncommitted changes ('-dirty') counts as a run of its commit.
    const code = (r: RunRecord) => r.commit?.replace(/-dirty$/, '');
    const last = mine.filter((r) => r.date === date).at(-1);
    this.records = mine.filter((r) => r.date === date && last && code(r) === code(last));
    if (this.records.length === 0)
      throw new Error(`no run of \`${command}\` ${JSON.stringify(where)} in scripts/bench/results`);
  }

  /** The range of a figure over the runs, e.g. "41,247-46,000"; an error if no run has it. */
  fig(path: string): string {
    const bounds = this.records.flatMap((r) =>
      valuesAt(r, path).map((v): readonly [number, number] => {
        if (typeof v === 'number') return [v, v];
        if (isRange(v)) return v;
        throw new Error(`\`${this.command}\` ${r.date}: ${path} is not a figure: ${JSON.stringify(v)}`);
      }),
    );
    if (bounds.length === 0) throw new Error(`no run of \`${this.command}\` has ${path}`);
    return span(Math.min(...bounds.map((b) => b[0])), Math.max(...bounds.map((b) => b[1])));
  }

  /** How many runs, and the load they ran at. */
  describe(): string {
    const counts = this.records.map((r) => (r.runs === undefined ? 1 : r.runs));
    const runs = counts.includes(null)
      ? 'runs not counted'
      : `${counts.reduce((a, b) => a! + b!, 0)} run${counts.reduce((a, b) => a! + b!, 0) === 1 ? '' : 's'}`;
    const loads = this.records.flatMap((r) => {
      const l = r.load_avg_1m;
      return typeof l === 'number' ? [l, l] : isRange(l) ? [...l] : [];
    });
    return loads.length === 0
      ? `${runs}, load not recorded`
      : `${runs}, load ${span(Math.min(...loads), Math.max(...loads))}`;
  }

  /** Whether the runs met `figure op limit`: "met", "not met", "met in 1 of 3 runs". */
  met(path: string, op: Op, limit: number): string {
    let yes = 0;
    let no = 0;
    let unknown = 0;
    for (const r of this.records) {
      const n = r.runs ?? 1;
      for (const v of valuesAt(r, path)) {
        const [lo, hi] = typeof v === 'number' ? [v, v] : isRange(v) ? v : [Number.NaN, Number.NaN];
        const a = holds(lo, op, limit);
        const b = holds(hi, op, limit);
        if (a && b) yes += n;
        else if (!a && !b) no += n;
        else unknown += n;
      }
    }
    if (yes + no + unknown === 0) throw new Error(`no run of \`${this.command}\` has ${path}`);
    if (unknown > 0) return 'met in some runs';
    return no === 0 ? 'met' : yes === 0 ? 'not met' : `met in ${yes} of ${yes + no} runs`;
  }
}

const PEER_COMMAND = 'peers --dist';
const PEER_SYSTEMS = ['bullmq', 'pgboss', 'fermata'] as const;

/** One figure of the peers' run: "BullMQ / pg-boss / Fermata". */
function peers(all: readonly RunRecord[], workload: string, path: string): string {
  const sets = PEER_SYSTEMS.map((system) => new Runs(all, PEER_COMMAND, { workload, system }));
  if (new Set(sets.map((s) => s.records[0]!.date)).size > 1)
    throw new Error(
      `the peers column compares one run of \`${PEER_COMMAND}\`; ${workload} has several dates`,
    );
  return sets.map((s) => s.fig(path)).join(' / ');
}

interface Target {
  readonly text: string;
  readonly path: string;
  readonly op: Op;
  readonly limit: number;
}

interface Row {
  readonly question: string;
  /** What follows `npm run bench --`, exactly as the runs were started. */
  readonly command: string;
  /** The part of the command's output the row reads (a case, a consumer, a level). */
  readonly part?: string;
  readonly where?: Record<string, unknown>;
  readonly targets?: readonly Target[];
  readonly fermata: (runs: Runs, all: readonly RunRecord[]) => string;
  readonly peers?: (all: readonly RunRecord[]) => string;
  readonly bound: string;
}

const ROWS: readonly Row[] = [
  {
    question: 'how fast is the store',
    command: 'storage',
    part: 'LevelDB',
    where: { engine: 'leveldb' },
    fermata: (r) =>
      `put ${r.fig('batch_put_ops_per_s_sync_off')}/s (batches of 1,000, sync off); scan ${r.fig('range_scan_entries_per_s')} entries/s; get ${r.fig('point_get_ops_per_s')}/s`,
    bound: '[the store](#the-store-one-fsync-per-batch)',
  },
  {
    question: 'how fast does Raft commit',
    command: 'raft --entries-1 6000 --entries-256 60000',
    part: '1 in flight, then 256',
    where: { proposers: 1 },
    targets: [
      {
        text: "1 in flight: <= 400 µs of servers' CPU per commit",
        path: 'servers_cpu_us_per_commit',
        op: '<=',
        limit: 400,
      },
    ],
    fermata: (r, all) => {
      const many = new Runs(all, r.command, { proposers: 256 });
      return (
        `1 in flight: ${r.fig('commits_per_s')} commits/s, p50 ${r.fig('commit_latency_p50_ms')} ms, servers' CPU ${r.fig('servers_cpu_us_per_commit')} µs per commit; ` +
        `256 in flight: ${many.fig('commits_per_s')} commits/s, p50 ${many.fig('commit_latency_p50_ms')} ms, p99 ${many.fig('commit_latency_p99_ms')} ms, ${many.fig('entries_per_fsync')} entries per write, ${many.fig('servers_cpu_us_per_commit')} µs per commit`
      );
    },
    bound: '[the Raft round](#the-raft-round)',
  },
  {
    question: 'what does applying cost',
    command: 'apply',
    fermata: (r) =>
      `on the main thread, per message: publish ${r.fig('main_thread_us_per_msg.publish')} µs, lease ${r.fig('main_thread_us_per_msg.lease')} µs (+ ${r.fig('main_thread_us_per_msg.lease_scan')} for the leader's due read), ack ${r.fig('main_thread_us_per_msg.ack')} µs`,
    bound: '[CPU](#cpu-every-replica-applies-every-message)',
  },
  {
    question: 'what does a queue with nothing due cost the leader',
    command: 'dispatch',
    part: '10,000 idle queues',
    where: { part: 'idle', idle_queues: 10_000 },
    fermata: (r, all) => {
      const one = new Runs(all, r.command, { part: 'idle', idle_queues: 1 });
      return (
        `a dispatch round looks at ${r.fig('queues_looked_per_round')} queues and ${r.fig('consumers_looked_per_round')} consumers beside 10,000 idle queues and 1,000 due without a consumer, ` +
        `${one.fig('queues_looked_per_round')} and ${one.fig('consumers_looked_per_round')} beside 1; the leader's CPU per round (applying included) ${r.fig('cpu_us_per_round')} µs against ${one.fig('cpu_us_per_round')} µs`
      );
    },
    bound: "[the dispatcher's round](#the-dispatchers-round-what-is-due-not-what-exists)",
  },
  {
    question: 'how many Raft rounds do deliveries over many queues take',
    command: 'dispatch',
    part: '1,000 queues',
    where: { part: 'flow' },
    fermata: (r, all) => {
      const burst = new Runs(all, r.command, { part: 'burst' });
      return (
        `${r.fig('lease_commands')} lease commands for ${r.fig('delivered')} messages delivered in a flow of 2,000 msgs/s over 1,000 queues (${r.fig('entries')} entries in all, publishes and acks included); ` +
        `${burst.fig('lease_commands')} for ${burst.fig('delivered')} due at once in 1,000 queues`
      );
    },
    bound: "[the dispatcher's round](#the-dispatchers-round-what-is-due-not-what-exists)",
  },
  {
    question: 'how long does one publish take',
    command: 'publish',
    part: '1 x 1',
    where: { case: '1x1' },
    fermata: (r) =>
      `p50 ${r.fig('latency_p50_ms')} ms, p99 ${r.fig('latency_p99_ms')} ms (${r.fig('msgs_per_s')} msgs/s for one caller)`,
    bound: '[the Raft round](#the-raft-round)',
  },
  {
    question: 'how many messages per second can I schedule',
    command: 'publish',
    part: '64 x 100',
    where: { case: '64x100' },
    targets: [{ text: '>= 100,000 msgs/s', path: 'msgs_per_s', op: '>=', limit: 100_000 }],
    fermata: (r) =>
      `${r.fig('msgs_per_s')} msgs/s, servers' CPU ${r.fig('server_cpu_us_per_msg')} µs per message`,
    peers: (all) => `mixed, 4 producers x 100: ${peers(all, 'mixed', 'produce_msgs_per_s')} msgs/s`,
    bound: '[CPU](#cpu-every-replica-applies-every-message)',
  },
  {
    question: 'how late are messages delivered',
    command: 'delivery',
    part: 'SDK',
    where: { consumer: 'sdk' },
    targets: [
      { text: 'p99 <= 5 ms', path: 'lateness_ms.p99', op: '<=', limit: 5 },
      { text: 'max <= 50 ms', path: 'lateness_ms.max', op: '<=', limit: 50 },
      { text: "<= 100 µs of servers' CPU per message", path: 'server_cpu_us_per_msg', op: '<=', limit: 100 },
    ],
    fermata: (r) =>
      `p50 ${r.fig('lateness_ms.p50')} ms, p99 ${r.fig('lateness_ms.p99')} ms, max ${r.fig('lateness_ms.max')} ms; lost / duplicated / early ${r.fig('lost')} / ${r.fig('duplicated')} / ${r.fig('early')}; servers' CPU ${r.fig('server_cpu_us_per_msg')} µs per message`,
    peers: (all) =>
      `mixed, p99: ${peers(all, 'mixed', 'lateness_ms.p99')} ms (p50 ${peers(all, 'mixed', 'lateness_ms.p50')})`,
    bound: '[delivery](#delivery-the-consumers-timer-the-rounds-cpu)',
  },
  {
    question: "how late for a client without the SDK's hold",
    command: 'delivery',
    part: 'protocol client',
    where: { consumer: 'raw' },
    targets: [
      { text: 'p99 <= 20 ms', path: 'lateness_ms.p99', op: '<=', limit: 20 },
      { text: "<= 100 µs of servers' CPU per message", path: 'server_cpu_us_per_msg', op: '<=', limit: 100 },
    ],
    fermata: (r) =>
      `p50 ${r.fig('lateness_ms.p50')} ms, p99 ${r.fig('lateness_ms.p99')} ms, max ${r.fig('lateness_ms.max')} ms; servers' CPU ${r.fig('server_cpu_us_per_msg')} µs per message`,
    bound: '[delivery](#delivery-the-consumers-timer-the-rounds-cpu)',
  },
  {
    question: 'how fast does a burst drain',
    command: 'burst --probe',
    part: '1,000,000 due in one second',
    targets: [
      { text: 'all acked within 20 s', path: 'all_acked_after_due_s', op: '<=', limit: 20 },
      { text: "<= 40 µs of servers' CPU per message", path: 'server_cpu_us_per_msg', op: '<=', limit: 40 },
    ],
    fermata: (r) =>
      `all acked ${r.fig('all_acked_after_due_s')} s after the due second, ${r.fig('delivery_msgs_per_s')} deliveries/s; servers' CPU ${r.fig('server_cpu_us_per_msg')} µs per message`,
    peers: (all) =>
      `200,000: all delivered ${peers(all, 'burst', 'all_delivered_after_due_s')} s after D; servers' CPU ${peers(all, 'burst', 'server_cpu_us_per_msg')} µs per message`,
    bound: '[the burst](#the-burst-records-per-delivered-message)',
  },
  {
    question: 'does a burst starve another queue',
    command: 'burst --probe',
    part: "200 due 1-2 s after the burst's second",
    targets: [{ text: 'probe p99 <= 50 ms', path: 'probe_lateness_p99_ms', op: '<=', limit: 50 }],
    fermata: (r) =>
      `probe p50 ${r.fig('probe_lateness_p50_ms')} ms, p99 ${r.fig('probe_lateness_p99_ms')} ms, max ${r.fig('probe_lateness_max_ms')} ms`,
    bound: '[delivery](#delivery-the-consumers-timer-the-rounds-cpu)',
  },
  {
    question: 'how many can wait',
    command: 'scale --dist',
    part: '10,000,000 pending',
    where: { pending: 10_000_000 },
    targets: [{ text: 'RSS <= 300 MB per node', path: 'max_rss_mb', op: '<=', limit: 300 }],
    fermata: (r) =>
      `RSS ${r.fig('nodes.*.rss_mb')} MB per node (anonymous ${r.fig('nodes.*.rss_anon_mb')}, file-backed ${r.fig('nodes.*.rss_file_mb')}); disk ${r.fig('nodes.*.disk_bytes_per_pending')} B per message per node; published from 1 M to 10 M at ${r.fig('publish_msgs_per_s')} msgs/s`,
    peers: (all) =>
      `1,000,000 pending: servers' memory ${peers(all, 'scale', 'server_memory_mb')} MB (Fermata: three nodes); disk ${peers(all, 'scale', 'disk_bytes_per_pending')} B per message (all copies)`,
    bound: '[memory and disk](#memory-and-disk-at-scale)',
  },
  {
    question: 'does the backlog slow what is due',
    command: 'scale --dist',
    part: 'probe at 10,000,000',
    where: { pending: 10_000_000 },
    targets: [{ text: 'p99 within 2x of 0 pending', path: 'probe_p99_vs_empty', op: '<=', limit: 2 }],
    fermata: (r, all) =>
      `probe p99 ${r.fig('probe_lateness_ms.p99')} ms against ${new Runs(all, r.command, { pending: 0 }).fig('probe_lateness_ms.p99')} ms at 0 pending; ${r.fig('probe_settled_lateness_ms.p99')} ms 60 s later`,
    peers: (all) => `at 1,000,000 pending, probe p99: ${peers(all, 'scale', 'probe_lateness_ms.p99')} ms`,
    bound: '[memory and disk](#memory-and-disk-at-scale)',
  },
  {
    question: 'what does per-key ordering cost',
    command: 'ordering',
    part: '50,000 over 10,000 keys; 100,000 behind a held key',
    targets: [
      { text: 'ordered >= 0.8 of unordered', path: 'ordered_over_unordered', op: '>=', limit: 0.8 },
      { text: 'held key: its head only', path: 'held_key_delivered', op: '=', limit: 1 },
    ],
    fermata: (r) =>
      `unordered ${r.fig('unordered_msgs_per_s')} msgs/s, ordered ${r.fig('alone_msgs_per_s')} (${r.fig('ordered_over_unordered')} of it), beside the held key ${r.fig('beside_held_msgs_per_s')}; servers' CPU ${r.fig('unordered_server_cpu_us_per_msg')}, ${r.fig('alone_server_cpu_us_per_msg')} and ${r.fig('beside_held_server_cpu_us_per_msg')} µs per message`,
    bound: '[the targets not met](#the-targets-not-met)',
  },
  {
    question: 'does a rate limit slow other groups',
    command: 'limits',
    part: '200,000 due in one second, a group limited to 2,000/s',
    targets: [
      { text: 'unlimited p99 within 1.2x', path: 'unlimited_p99_ratio', op: '<=', limit: 1.2 },
      { text: 'limited >= 1,900/s', path: 'limited_deliveries_per_s', op: '>=', limit: 1_900 },
    ],
    fermata: (r) =>
      `the unlimited group drained ${r.fig('unlimited_alone.drain_s')} s alone, ${r.fig('unlimited_beside_limited.drain_s')} s beside (p99 ${r.fig('unlimited_p99_ratio')}x); the limited group ${r.fig('limited_deliveries_per_s')} deliveries/s`,
    bound: '[the targets not met](#the-targets-not-met)',
  },
  {
    question: 'how fast does the forecast answer',
    command: 'forecast',
    part: '10,000,000 pending over 30 days',
    targets: [
      {
        text: 'a day by minute p50 <= 50 ms',
        path: 'answers.next_day_by_minute.p50_ms',
        op: '<=',
        limit: 50,
      },
    ],
    fermata: (r) =>
      `a day by minute p50 ${r.fig('answers.next_day_by_minute.p50_ms')} ms (max ${r.fig('answers.next_day_by_minute.max_ms')}), 30 days by hour p50 ${r.fig('answers.next_30d_by_hour.p50_ms')} ms (max ${r.fig('answers.next_30d_by_hour.max_ms')}), 1,440 buckets of 59 s p50 ${r.fig('answers.worst_1440_by_59s.p50_ms')} ms; a publish's apply +${r.fig('publish_main_thread_us_per_msg.spread_30d.added')} µs with due times over 30 days, +${r.fig('publish_main_thread_us_per_msg.within_1m.added')} within a minute`,
    bound: '[the forecast](#the-forecast-buckets-not-messages)',
  },
  {
    question: 'how fast does the Timeline page draw',
    command: 'console',
    part: '1,440 buckets, 10,000,800 pending, in headless Chromium',
    targets: [{ text: 'p50 <= 500 ms', path: 'drawn_ms.p50', op: '<=', limit: 500 }],
    fermata: (r) =>
      `navigation to chart drawn p50 ${r.fig('drawn_ms.p50')} ms, max ${r.fig('drawn_ms.max')} ms; its forecast answered at ${r.fig('answered_p50_ms')} ms (the call ${r.fig('forecast_call_ms.p50')} ms), drawn ${r.fig('drawing_p50_ms')} ms after`,
    bound: '[the Timeline page](#the-timeline-page-a-new-tabs-own-work)',
  },
  {
    question: 'how fast do push groups push',
    command: 'push',
    part: '50,000 due in one second, concurrency 64',
    fermata: (r) =>
      `to an endpoint answering in 1 ms: ${r.fig('fast.pushes_per_s')} pushes/s, lateness p99 ${r.fig('fast.lateness_ms.p99')} ms; in 100 ms: ${r.fig('slow.pushes_per_s')} pushes/s (bound 640), p99 ${r.fig('slow.lateness_ms.p99')} ms; pushed twice ${r.fig('fast.duplicates')} and ${r.fig('slow.duplicates')}`,
    bound: '[push](#push-one-request-per-message)',
  },
  {
    question: 'how long am I down when a node dies',
    command: 'failover',
    part: '10 trials',
    targets: [
      { text: 'p50 < 1 s', path: 'kill_to_first_ack_ms.p50', op: '<', limit: 1_000 },
      { text: 'lost 0', path: 'lost', op: '=', limit: 0 },
    ],
    fermata: (r) =>
      `kill to the first acknowledged publish p50 ${r.fig('kill_to_first_ack_ms.p50')} ms, max ${r.fig('kill_to_first_ack_ms.max')} ms; lost ${r.fig('lost')}, duplicated ${r.fig('duplicated')}`,
    bound: '[failover](#failover-the-election-timeout)',
  },
  {
    question: 'how late do recurring schedules fire',
    command: 'schedules',
    part: '100,000 schedules `* * * * *`, all due in the same second, no jitter',
    fermata: (r) =>
      `from the occurrence p50 ${r.fig('lateness_ms.p50')} ms, p99 ${r.fig('lateness_ms.p99')} ms (from the due time p99 ${r.fig('lateness_from_due_ms.p99')} ms); ${r.fig('occurrences_delivered')} of ${r.fig('occurrences_expected')} occurrences over 2 minutes, duplicated ${r.fig('duplicated')}; servers' CPU ${r.fig('server_cpu_us_per_occurrence')} µs per occurrence; created at ${r.fig('create_schedules_per_s')} schedules/s`,
    bound: '[schedules](#schedules-delivering-an-instants-occurrences)',
  },
  {
    question: 'how long does a restart take',
    command: 'recovery --pending 10000000',
    where: { restart: 'follower (SIGKILL)' },
    fermata: (r, all) =>
      `a follower: \`/readyz\` ${r.fig('readyz_ms')} ms after its start; the whole cluster: first delivery ${new Runs(all, r.command, { restart: 'cluster (SIGTERM all, start all)' }).fig('first_delivery_ms')} ms`,
    bound: '[recovery](#recovery-reading-the-log)',
  },
  {
    question: 'what do clients without a token cost',
    command: 'client-abuse',
    part: '5,000 idle sockets',
    where: { part: 'idle-sockets' },
    fermata: (r) =>
      `a publish p50 ${r.fig('publish_alone_ms.p50')} ms alone, ${r.fig('publish_during_ms.p50')} ms with the sockets held (p99 ${r.fig('publish_alone_ms.p99')}, ${r.fig('publish_during_ms.p99')} ms); ${r.fig('idle_sockets_closed')} idle sockets closed by the node in 20 s`,
    bound: '[client abuse](#client-abuse-idle-connections)',
  },
];

/** The page's table: one row per question, from the runs of record. */
export function renderTable(all: readonly RunRecord[] = readResults()): string {
  const head = [
    'what a user asks',
    '`npm run bench --`',
    'target',
    'Fermata',
    `\`${PEER_COMMAND}\`: BullMQ / pg-boss / Fermata`,
    'runs',
    'bounded by',
  ];
  const lines = [`| ${head.join(' | ')} |`, `| ${head.map(() => '---').join(' | ')} |`];
  for (const row of ROWS) {
    const runs = new Runs(all, row.command, row.where);
    const targets = (row.targets ?? []).map((t) => `${t.text}: ${runs.met(t.path, t.op, t.limit)}`);
    const cells = [
      row.question,
      `\`${row.command}\`${row.part ? ` (${row.part})` : ''}`,
      targets.length > 0 ? targets.join('; ') : '–',
      row.fermata(runs, all),
      row.peers ? row.peers(all) : '–',
      runs.describe(),
      row.bound,
    ];
    lines.push(`| ${cells.join(' | ')} |`);
  }
  const peerRun = new Runs(all, PEER_COMMAND, { workload: 'mixed', system: 'fermata' });
  lines.push(
    '',
    `The \`${PEER_COMMAND}\` column is one run of the three systems side by side (${peerRun.describe().replace(/^1 run, /, '')}).`,
  );
  return [TABLE_BEGIN, ...lines, TABLE_END].join('\n');
}

/** Replaces the table between the page's markers; true if the page changed. */
export function writeTable(file = PAGE, table = renderTable()): boolean {
  const text = readFileSync(file, 'utf8');
  const begin = text.indexOf(TABLE_BEGIN);
  const end = text.indexOf(TABLE_END);
  if (begin < 0 || end < begin)
    throw new Error(`${file}: the markers ${TABLE_BEGIN} ... ${TABLE_END} are missing`);
  const next = text.slice(0, begin) + table + text.slice(end + TABLE_END.length);
  if (next === text) return false;
  writeFileSync(file, next);
  return true;
}

export async function run(args: string[]): Promise<void> {
  if (args.includes('--write')) {
    console.log(writeTable() ? `updated ${PAGE}` : `${PAGE} is up to date`);
  } else {
    console.log(renderTable());
  }
}

if (argv[1] === fileURLToPath(import.meta.url)) await run(argv.slice(2));
