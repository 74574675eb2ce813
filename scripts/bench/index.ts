// npm run bench -- <scenario> [--quick] [scenario options]
// Every scenario prints one JSON object per line on stdout and a human summary on stderr.
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
};

const [name, ...rest] = argv.slice(2);
const load = name ? scenarios[name] : undefined;
if (!load) {
  console.error(
    `usage: npm run bench -- <scenario> [--quick]\nscenarios: ${Object.keys(scenarios).join(', ')}`,
  );
  exit(2);
}
await (await load()).run(rest);
