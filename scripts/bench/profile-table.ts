// Self-time table of V8 CPU profiles (`node --cpu-prof`):
//   node --import tsx scripts/bench/profile-table.ts <file.cpuprofile | dir> [--top 30] [--by file]
// Prints, per profile, the functions (or files) with the most self time, with % of all samples.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { argv } from 'node:process';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

const args = argv.slice(2);
const top = args.includes('--top') ? Number(args[args.indexOf('--top') + 1]) : 30;
const byFile = args.includes('--by') && args[args.indexOf('--by') + 1] === 'file';
const target = args.find((a, i) => !a.startsWith('--') && !['--top', '--by'].includes(args[i - 1] ?? ''));
if (!target) {
  process.stderr.write('usage: profile-table.ts <file.cpuprofile | dir> [--top N] [--by file]\n');
  process.exit(2);
}
const files = statSync(target).isDirectory()
  ? readdirSync(target)
      .filter((f) => f.endsWith('.cpuprofile'))
      .map((f) => join(target, f))
  : [target];

const short = (url: string): string => {
  const i = url.indexOf('/node_modules/');
  if (i >= 0) return url.slice(i + 1);
  const r = url.replace(/^file:\/\//, '');
  return r.startsWith('/') ? relative(process.cwd(), r) : r || '(native)';
};

for (const file of files) {
  const p = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  let total = 0;
  // Self time: each sample's delta goes to the node it landed in.
  for (let i = 0; i < p.samples.length; i++) {
    const node = byId.get(p.samples[i]!);
    const dt = p.timeDeltas[i + 1] ?? 0;
    if (!node) continue;
    const f = node.callFrame;
    const name = byFile
      ? short(f.url)
      : `${f.functionName || '(anonymous)'}  ${short(f.url)}:${f.lineNumber + 1}`;
    self.set(name, (self.get(name) ?? 0) + dt);
    total += dt;
  }
  const idle = [...self].filter(([k]) => k.startsWith('(idle)')).reduce((s, [, v]) => s + v, 0);
  const wallMs = (p.endTime - p.startTime) / 1000;
  process.stdout.write(
    `\n${file}: ${(wallMs / 1000).toFixed(1)} s profiled, busy ${(((total - idle) / Math.max(1, total)) * 100).toFixed(1)}%\n`,
  );
  process.stdout.write('  self ms    %   function\n');
  for (const [name, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    process.stdout.write(
      `${(us / 1000).toFixed(0).padStart(8)} ${((us / total) * 100).toFixed(1).padStart(5)}  ${name}\n`,
    );
  }
}
