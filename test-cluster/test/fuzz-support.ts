/** Helpers of the fuzz-*.test.ts suites. */
import { readFileSync } from 'node:fs';

/** Resident set size of a process, from /proc. */
export function rssBytes(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : 0;
}
