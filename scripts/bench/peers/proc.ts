/**
 * What a server's process tree costs, from /proc (Linux): CPU time and proportional memory
 * (Pss, so that pages shared between PostgreSQL's processes count once).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { processCpuMs } from '../cluster.js';

/** The roots and every process below them. */
export function processTree(roots: readonly number[]): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The parent pid is the second field after the command name (which may hold spaces).
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const list = children.get(ppid) ?? [];
      list.push(Number(entry));
      children.set(ppid, list);
    } catch {
      // ended between the listing and the read
    }
  }
  const out: number[] = [];
  const stack = [...roots];
  const seen = new Set<number>();
  while (stack.length > 0) {
    const pid = stack.pop()!;
    if (seen.has(pid)) continue;
    seen.add(pid);
    out.push(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return out;
}

/**
 * CPU (user + system, ms) of the trees under `roots`: every live process's own time plus what
 * the roots reaped from children that ended (a PostgreSQL backend, Redis's rewrite child).
 */
export function treeCpuMs(roots: readonly number[]): number {
  const rootSet = new Set(roots);
  // The roots last: a child that ends meanwhile is then counted in its root's reaped time.
  const pids = processTree(roots).filter((pid) => !rootSet.has(pid));
  let ms = 0;
  for (const pid of [...pids, ...roots]) {
    const t = processCpuMs(pid);
    if (t) ms += t.own + (rootSet.has(pid) ? t.reaped : 0);
  }
  return ms;
}

/** Proportional set size of the trees under `roots`, in bytes. */
export function treePssBytes(roots: readonly number[]): number {
  let kb = 0;
  for (const pid of processTree(roots)) {
    try {
      kb += Number(/^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0);
    } catch {
      // ended meanwhile
    }
  }
  return kb * 1024;
}
