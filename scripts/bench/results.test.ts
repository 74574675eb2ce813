// docs/benchmarks.md stays a page for its readers: short, its table printed from the record of
// runs (scripts/bench/results), its anchors found. No benchmark runs here.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { appendRun } from './report.js';
import { PAGE, RESULTS_DIR, Runs, readResults, renderTable } from './results.js';

const repo = resolve(import.meta.dirname, '../..');
const MAX_PAGE_LINES = 300;

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
const slug = (heading: string): string =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');

const temps: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'fermata-results-'));
  temps.push(dir);
  return dir;
}
afterEach(() => {
  for (const d of temps.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('docs/benchmarks.md', () => {
  const page = readFileSync(PAGE, 'utf8');

  it(`is a page: at most ${MAX_PAGE_LINES} lines (runs go in scripts/bench/results, stories in commits)`, () => {
    const lines = page.endsWith('\n') ? page.split('\n').length - 1 : page.split('\n').length;
    expect(lines, 'docs/benchmarks.md is too long').toBeLessThanOrEqual(MAX_PAGE_LINES);
  });

  it('holds exactly the table the record of runs prints', () => {
    expect(
      page.includes(renderTable()),
      'docs/benchmarks.md and scripts/bench/results differ: run npm run bench -- results --write',
    ).toBe(true);
  });

  it('has a heading for every anchor the docs link to in it', () => {
    const anchors = new Set(
      page
        .split('\n')
        .filter((l) => /^#{1,6} /.test(l))
        .map((l) => slug(l.replace(/^#+ /, ''))),
    );
    const links: string[] = [...page.matchAll(/\]\(#([^)]+)\)/g)].map((m) => `benchmarks.md: #${m[1]}`);
    const docs = [
      join(repo, 'README.md'),
      ...readdirSync(join(repo, 'docs'))
        .filter((f) => f.endsWith('.md'))
        .map((f) => join(repo, 'docs', f)),
    ];
    for (const file of docs) {
      for (const m of readFileSync(file, 'utf8').matchAll(/benchmarks\.md#([\w-]+)/g))
        links.push(`${file.slice(repo.length + 1)}: #${m[1]}`);
    }
    expect(links.length).toBeGreaterThan(10);
    expect(links.filter((l) => !anchors.has(l.slice(l.indexOf('#') + 1)))).toEqual([]);
  });
});

describe('the record of runs (scripts/bench/results)', () => {
  it('names for every record the command that produced it and where it came from', () => {
    const records = readResults();
    expect(records.length).toBeGreaterThan(0);
    for (const r of records) {
      expect(r.command.split(' ')[0], JSON.stringify(r)).toMatch(/^[a-z-]+$/);
      expect(r.commit ?? r['documented_in'], JSON.stringify(r)).toMatch(/^[0-9a-f]{7,40}(-dirty)?$/);
    }
  });

  it('a run appended with a later date replaces the row it belongs to, and only that row', () => {
    const dir = tempDir();
    cpSync(RESULTS_DIR, dir, { recursive: true });
    const before = renderTable(readResults(dir));
    appendRun(
      dir,
      { date: '2099-01-01', command: 'publish', commit: '0123456789ab' },
      {
        scenario: 'publish',
        case: '64x100',
        msgs_per_s: 123_456,
        server_cpu_us_per_msg: 9.5,
        load_avg_1m: 1.25,
      },
    );
    const after = renderTable(readResults(dir));
    const row = (table: string, question: string) =>
      table.split('\n').find((l) => l.startsWith(`| ${question} |`));
    const scheduled = row(after, 'how many messages per second can I schedule');
    expect(scheduled).toContain("| 123,456 msgs/s, servers' CPU 9.5 µs per message |");
    expect(scheduled).toContain('| 1 run, load 1.25 |');
    expect(scheduled).toContain('>= 100,000 msgs/s: met');
    const others = (t: string) =>
      t.split('\n').filter((l) => !l.startsWith('| how many messages per second'));
    expect(others(after)).toEqual(others(before));
  });

  it('a figure is the range over the latest runs, and a target met in some runs says in how many', () => {
    const dir = tempDir();
    const stamp = { date: '2099-01-01', command: 'delivery', commit: '0123456789ab' };
    for (const p99 of [3, 9, 4])
      appendRun(dir, stamp, {
        scenario: 'delivery',
        consumer: 'sdk',
        lateness_ms: { p99 },
        load_avg_1m: p99 / 2,
      });
    appendRun(
      dir,
      { ...stamp, date: '2098-01-01' },
      { scenario: 'delivery', consumer: 'sdk', lateness_ms: { p99: 1 } },
    );
    // The same day, other code recorded before: not shown.
    const older = { ...stamp, commit: 'ba9876543210' };
    writeFileSync(
      join(dir, 'delivery.jsonl'),
      `${JSON.stringify({ ...older, scenario: 'delivery', consumer: 'sdk', lateness_ms: { p99: 50 } })}\n${readFileSync(join(dir, 'delivery.jsonl'), 'utf8')}`,
    );
    const runs = new Runs(readResults(dir), 'delivery', { consumer: 'sdk' });
    expect(runs.fig('lateness_ms.p99')).toBe('3-9');
    expect(runs.met('lateness_ms.p99', '<=', 5)).toBe('met in 2 of 3 runs');
    expect(runs.describe()).toBe('3 runs, load 1.5-4.5');
    expect(() => runs.fig('lateness_ms.p50')).toThrow('no run of `delivery` has lateness_ms.p50');
  });

  it('refuses a malformed line, naming its file, line and field', () => {
    const dir = tempDir();
    const ok = '{"date":"2099-01-01","command":"failover","commit":"0123456789ab","scenario":"failover"}';
    writeFileSync(join(dir, 'failover.jsonl'), `${ok}\n${ok.replace('2099-01-01', 'yesterday')}\n`);
    expect(() => readResults(dir)).toThrow('failover.jsonl:2: date must be YYYY-MM-DD, got "yesterday"');
    writeFileSync(join(dir, 'failover.jsonl'), `${ok.replace('"failover"}', '"failover","quick":true}')}\n`);
    expect(() => readResults(dir)).toThrow('failover.jsonl:1: a --quick run is not a run of record');
    writeFileSync(
      join(dir, 'failover.jsonl'),
      `${ok.replace('"scenario":"failover"', '"scenario":"raft"')}\n`,
    );
    expect(() => readResults(dir)).toThrow('failover.jsonl:1: scenario "raft" belongs in its own file');
  });

  it('npm run bench -- <scenario> --record refuses a --quick run and records nothing', () => {
    const before = readdirSync(RESULTS_DIR).map((f) => readFileSync(join(RESULTS_DIR, f), 'utf8'));
    let err: { status?: number; stderr?: string } = {};
    try {
      execFileSync(
        process.execPath,
        [
          '--conditions=fermata-source',
          '--import',
          'tsx',
          'scripts/bench/index.ts',
          'storage',
          '--quick',
          '--record',
        ],
        { cwd: repo, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 },
      );
    } catch (e) {
      err = e as typeof err;
    }
    expect(err.status).toBe(2);
    expect(err.stderr).toContain('--record: a --quick run is not a run of record');
    expect(readdirSync(RESULTS_DIR).map((f) => readFileSync(join(RESULTS_DIR, f), 'utf8'))).toEqual(before);
    expect(existsSync(join(RESULTS_DIR, 'storage.jsonl'))).toBe(true);
  });
});
