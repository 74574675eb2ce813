// npm run bench -- <scenario> [--quick] [--record] [scenario options]
// npm run bench -- results [--write]
// Every scenario prints one JSON object per line on stdout and a human summary on stderr;
// --record also appends them to the record of runs (scripts/bench/results, see results.ts).
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { argv, exit } from 'node:process';

type Scenario = (args: string[]) => Promise<void>;

const scenarios: Record<string, () => Promise<{ run: Scenario }>> = {
  storage: () => import('./storage.js'),
  raft: () => import('./raft.js'),
  apply: () => import('./apply.js'),
  dispatch: () => import('./dispatch.js'),
  publish: () => import('./publish.js'),
  delivery: () => import('./delivery.js'),
  burst: () => import('./burst.js'),
  scale: () => import('./scale.js'),
  failover: () => import('./failover.js'),
  recovery: () => import('./recovery.js'),
  'client-abuse': () => import('./client-abuse.js'),
  peers: () => import('./peers.js'),
  // The burst workload against BullMQ alone, printing the ratio (peers --workloads burst).
  'peer-burst': async () => {
    const peers = await import('./peers.js');
    return { run: (args) => peers.run(['--workloads', 'burst', '--systems', 'fermata,bullmq', ...args]) };
  },
  schedules: () => import('./schedules.js'),
  'delete-topic': () => import('./delete-topic.js'),
  'token-limits': () => import('./token-limits.js'),
  'consume-buffer': () => import('./consume-buffer.js'),
  ordering: () => import('./ordering.js'),
  limits: () => import('./limits.js'),
  forecast: () => import('./forecast.js'),
  console: () => import('./console.js'),
  push: () => import('./push.js'),
};

const [name, ...given] = argv.slice(2);
if (name === 'results') {
  await (await import('./results.js')).run(given);
  exit(0);
}
const load = name ? scenarios[name] : undefined;
if (!load) {
  console.error(
    `usage: npm run bench -- <scenario> [--quick] [--record]\n       npm run bench -- results [--write]\nscenarios: ${Object.keys(scenarios).join(', ')}`,
  );
  exit(2);
}
const rest = given.filter((a) => a !== '--record');
if (rest.length < given.length) {
  if (rest.includes('--quick')) {
    console.error('--record: a --quick run is not a run of record; run it at full size');
    exit(2);
  }
  const git = (...args: string[]) =>
    execFileSync('git', args, { cwd: resolve(import.meta.dirname, '../..'), encoding: 'utf8' }).trim();
  const dirty = git('status', '--porcelain', '--', '.', ':(exclude)scripts/bench/results') !== '';
  const { recordRuns } = await import('./report.js');
  const { RESULTS_DIR } = await import('./results.js');
  recordRuns(RESULTS_DIR, {
    date: new Date().toISOString().slice(0, 10),
    command: [name, ...rest].join(' '),
    commit: `${git('rev-parse', '--short=12', 'HEAD')}${dirty ? '-dirty' : ''}`,
  });
}
const { startedClusters } = await import('./cluster.js');
try {
  await (await load()).run(rest);
  if (rest.length < given.length) {
    const { saveRecordedRun } = await import('./report.js');
    process.stderr.write(`recorded ${saveRecordedRun()} lines in scripts/bench/results\n`);
  }
} catch (err) {
  for (const { cluster } of startedClusters) process.stderr.write(`${cluster.logs(30)}\n`);
  throw err;
} finally {
  for (const { cluster, keep } of startedClusters) {
    if (!keep) rmSync(cluster.baseDir, { recursive: true, force: true });
    else process.stderr.write(`kept ${cluster.baseDir}\n`);
  }
}
// A scenario's leftover timers (a wait that lost a race) must not hold the process open.
exit(process.exitCode ?? 0);
