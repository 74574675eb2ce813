// npm run bench -- <scenario> [--quick] [scenario options]
// Every scenario prints one JSON object per line on stdout and a human summary on stderr.
import { rmSync } from 'node:fs';
import { argv, exit } from 'node:process';

type Scenario = (args: string[]) => Promise<void>;

const scenarios: Record<string, () => Promise<{ run: Scenario }>> = {
  storage: () => import('./storage.js'),
  raft: () => import('./raft.js'),
  apply: () => import('./apply.js'),
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
};

const [name, ...rest] = argv.slice(2);
const load = name ? scenarios[name] : undefined;
if (!load) {
  console.error(
    `usage: npm run bench -- <scenario> [--quick]\nscenarios: ${Object.keys(scenarios).join(', ')}`,
  );
  exit(2);
}
const { startedClusters } = await import('./cluster.js');
try {
  await (await load()).run(rest);
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
