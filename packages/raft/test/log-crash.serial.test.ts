// Storage crash test: a child process runs a scripted sequence (store-crash-script.ts)
// on the real LogStore, HardStateFile and SnapshotFiles and is SIGKILLed at each
// fsync boundary in turn; the parent then opens the directory as a restarting node
// does and checks it against the states the script passed through.
//
// A SIGKILL leaves the page cache to the kernel: what was written survives, synced
// or not. The second test models a power loss instead: before a sync, the bytes
// appended to files since their last sync are cut in half or zeroed.
//
// The child runs the sources transpiled by TypeScript (no type checking, same
// code): a tsx start costs about a second of CPU, and there are over a hundred runs.
// The directories are on tmpfs where there is one: what a SIGKILL leaves does not
// depend on the disk, and power loss is modelled explicitly, so waiting for real
// flushes would only slow the runs.
import { spawn } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  truncateSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CorruptionError } from '../src/log/errors.js';
import { parseSegmentFileName, SEGMENT_HEADER_BYTES } from '../src/log/frame.js';
import { HardStateFile } from '../src/log/hard-state.js';
import { LogStore } from '../src/log/log-store.js';
import { SnapshotFiles } from '../src/log/snapshot-store.js';
import type { HardState } from '../src/types.js';
import {
  CRASH_OPS,
  CRASH_SEGMENT_BYTES,
  type CrashState,
  crashStates,
  entryData,
  snapshotData,
} from './fixtures/store-crash-script.js';

const RAFT = resolve(import.meta.dirname, '..');
const STATES = crashStates(CRASH_OPS);
/** At least this many boundaries, or the script no longer exercises what it was written for. */
const MIN_BOUNDARIES = 60;
const CHILDREN_AT_ONCE = 2;

interface SyncLine {
  readonly sync: number;
  readonly file: string | null;
  readonly grown: readonly GrownFile[];
}
interface GrownFile {
  readonly file: string;
  readonly bytes: number;
  readonly synced: number;
}
interface ChildRun {
  readonly issued: Set<number>;
  readonly acked: Set<number>;
  readonly syncs: SyncLine[];
  readonly halt: { halt: number; at: string; grown: GrownFile[] } | undefined;
  readonly done: number | undefined;
  readonly signal: NodeJS.Signals | null;
  readonly code: number | null;
  readonly stderr: string;
}

let work: string;
let childJs: string;

/** Transpiles the child and what it loads into `out`, keeping the relative layout. */
function transpileChild(out: string): string {
  const files = [
    'src/types.ts',
    'src/core/errors.ts',
    ...readdirSync(join(RAFT, 'src/log')).map((f) => `src/log/${f}`),
    'test/fixtures/store-crash-script.ts',
    'test/fixtures/store-crash-child.ts',
  ];
  for (const rel of files) {
    const js = ts.transpileModule(readFileSync(join(RAFT, rel), 'utf8'), {
      fileName: rel,
      compilerOptions: {
        module: ts.ModuleKind.ESNext,
        target: ts.ScriptTarget.ES2022,
        verbatimModuleSyntax: true,
      },
    }).outputText;
    const path = join(out, rel.replace(/\.ts$/, '.js'));
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, js);
  }
  writeFileSync(join(out, 'package.json'), '{ "type": "module" }\n');
  // The log's files import the shared errors from @fermata/base: the child gets its own copy.
  const base = join(out, 'node_modules/@fermata/base');
  for (const f of readdirSync(join(RAFT, '../base/src'))) {
    if (!f.endsWith('.ts')) continue;
    const js = ts.transpileModule(readFileSync(join(RAFT, '../base/src', f), 'utf8'), {
      fileName: f,
      compilerOptions: {
        module: ts.ModuleKind.ESNext,
        target: ts.ScriptTarget.ES2022,
        verbatimModuleSyntax: true,
      },
    }).outputText;
    mkdirSync(join(base, 'src'), { recursive: true });
    writeFileSync(join(base, 'src', f.replace(/\.ts$/, '.js')), js);
  }
  writeFileSync(
    join(base, 'package.json'),
    '{ "name": "@fermata/base", "type": "module", "exports": "./src/index.js" }\n',
  );
  return join(out, 'test/fixtures/store-crash-child.js');
}

beforeAll(() => {
  work = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'fermata-store-crash-'));
  childJs = transpileChild(join(work, 'child'));
});
afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

/** Runs the script in a fresh `dir`; at boundary `haltAt` (0: none) the child stops and is SIGKILLed. */
function runChild(dir: string, haltAt: number, at: 'before' | 'after'): Promise<ChildRun> {
  rmSync(dir, { recursive: true, force: true });
  const child = spawn(process.execPath, [childJs, JSON.stringify({ dir, haltAt, at })], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const run = {
    issued: new Set<number>(),
    acked: new Set<number>(),
    syncs: [] as SyncLine[],
    halt: undefined as ChildRun['halt'],
    done: undefined as number | undefined,
    stderr: '',
  };
  let pending = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    pending += chunk;
    let nl = pending.indexOf('\n');
    while (nl >= 0) {
      const line = JSON.parse(pending.slice(0, nl)) as Record<string, unknown>;
      pending = pending.slice(nl + 1);
      nl = pending.indexOf('\n');
      if (typeof line['issue'] === 'number') run.issued.add(line['issue']);
      else if (typeof line['ack'] === 'number') run.acked.add(line['ack']);
      else if (typeof line['sync'] === 'number') run.syncs.push(line as unknown as SyncLine);
      else if (typeof line['done'] === 'number') run.done = line['done'];
      else if (typeof line['halt'] === 'number') {
        run.halt = line as unknown as ChildRun['halt'];
        child.kill('SIGKILL');
      }
    }
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    run.stderr += chunk;
  });
  return new Promise((resolveRun, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolveRun({ ...run, code, signal }));
  });
}

/** Temporary file names carry the pid; compare runs without it. */
const fileKey = (file: string | null) => (file ?? 'directory').replace(/\.\d+\.\d+\.tmp$/, '.tmp');

/** A power loss before the sync: the bytes written since each file's last sync are cut in half or zeroed. */
function loseUnsyncedBytes(dir: string, grown: readonly GrownFile[], zero: boolean): void {
  for (const g of grown) {
    const path = join(dir, g.file);
    // A segment header (28 bytes, within one sector) is written whole or not at all.
    const from = g.file.endsWith('.seg') && g.synced < SEGMENT_HEADER_BYTES ? 0 : g.synced;
    if (zero) {
      const fd = openSync(path, 'r+');
      writeSync(fd, Buffer.alloc(g.bytes - from), 0, g.bytes - from, from);
      closeSync(fd);
    } else {
      const keep = from === 0 && g.file.endsWith('.seg') ? 0 : from + Math.floor((g.bytes - from) / 2);
      truncateSync(path, keep);
    }
  }
}

const sameHardState = (a: HardState, b: HardState) =>
  a.term === b.term && a.vote === b.vote && a.commit === b.commit;
const sameBytes = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));

/** `pick` of the state after the last acknowledged operation, and of the states the operations in flight lead to. */
function acceptable<T>(run: ChildRun, pick: (state: CrashState) => T): { acked: T; inFlight: T[] } {
  let lastAcked = -1;
  for (const j of run.acked) lastAcked = Math.max(lastAcked, j);
  const lastIssued = Math.max(-1, ...run.issued);
  // Operations are acknowledged in order, so states after the last acknowledged one are in flight.
  const inFlight = STATES.slice(lastAcked + 2, lastIssued + 2).map(pick);
  return { acked: pick(STATES[lastAcked + 1]!), inFlight };
}

/** Opens `dir` as a restarting node does and lists every rule the recovered state breaks. */
async function violations(dir: string, run: ChildRun): Promise<string[]> {
  const out: string[] = [];
  const lastIssued = Math.max(-1, ...run.issued);
  const reachable = STATES.slice(0, lastIssued + 2);
  let store: LogStore;
  try {
    store = LogStore.open({ dir, segmentBytes: CRASH_SEGMENT_BYTES });
  } catch (err) {
    return [`the log does not open: ${(err as Error).message}`];
  }
  const first = store.firstIndex();
  const last = store.lastIndex();
  const meta = store.snapshotMeta();
  const terms = new Map<number, number>();
  for (let i = first; i <= last; i++) terms.set(i, store.term(i)!);
  const lastTerm = store.term(last);
  const shown = `log [${first}, ${last}] terms ${[...terms.values()].join(',')} snapshot ${meta.index}/${meta.term}`;
  try {
    for (const e of store.entries(first, last + 1, Number.MAX_SAFE_INTEGER)) {
      if (!sameBytes(e.data, entryData(e.index, e.term)))
        out.push(`entry ${e.index} has data it was never given`);
    }
  } catch (err) {
    out.push(`reading the recovered log fails: ${(err as Error).message}`);
  }
  // No mix of states: the log and its snapshot are one state the script passed through, maybe with a shorter tail.
  const isPrefixOf = (s: CrashState) =>
    s.meta.index === meta.index &&
    s.meta.term === meta.term &&
    [...terms].every(([i, t]) => s.entries.get(i) === t);
  if (!reachable.some(isPrefixOf)) out.push(`${shown} is no state the script passed through`);
  // Nothing acknowledged is lost, unless an operation issued since legitimately replaced it.
  for (const j of run.acked) {
    const op = CRASH_OPS[j]!;
    if (op.kind === 'recordSnapshot' || op.kind === 'installSnapshot') {
      if (meta.index < op.index) out.push(`acknowledged snapshot at ${op.index} lost: ${shown}`);
    }
    if (op.kind !== 'append') continue;
    op.terms.forEach((t, k) => {
      const i = op.from + k;
      const stillThere = STATES.slice(j + 1, lastIssued + 2).every((s) => s.entries.get(i) === t);
      const kept = terms.get(i) === t || (i < first && i <= meta.index);
      if (stillThere && !kept)
        out.push(`entry ${i} term ${t} acknowledged by operation ${j} is lost: ${shown}`);
    });
  }
  await store.close();

  const again = LogStore.open({ dir, segmentBytes: CRASH_SEGMENT_BYTES });
  if (again.firstIndex() !== first || again.lastIndex() !== last || again.term(last) !== lastTerm)
    out.push(`a second open recovers [${again.firstIndex()}, ${again.lastIndex()}], the first ${shown}`);
  await again.close();

  try {
    const hs = HardStateFile.open(dir).get();
    const { acked, inFlight } = acceptable(run, (s) => s.hardState);
    if (!sameHardState(hs, acked) && !inFlight.some((s) => sameHardState(hs, s)))
      out.push(
        `hard state ${JSON.stringify(hs)} is neither the acknowledged ${JSON.stringify(acked)} nor one in flight`,
      );
  } catch (err) {
    out.push(`the hard state does not open: ${(err as Error).message}`);
  }

  try {
    const reader = await new SnapshotFiles(join(dir, 'snap')).read();
    const got = reader && { index: reader.meta.index, term: reader.meta.term };
    const { acked, inFlight } = acceptable(run, (s) => s.snapshotFile);
    const same = (s: CrashState['snapshotFile']) => s?.index === got?.index && s?.term === got?.term;
    if (!same(acked) && !inFlight.some(same))
      out.push(
        `snapshot file ${JSON.stringify(got)} is neither the acknowledged ${JSON.stringify(acked)} nor one in flight`,
      );
    if (reader) {
      const chunks: Uint8Array[] = [];
      for await (const chunk of reader.chunks) chunks.push(chunk);
      if (!sameBytes(Buffer.concat(chunks), snapshotData(reader.meta.index)))
        out.push(`snapshot file at ${reader.meta.index} holds other data`);
    }
  } catch (err) {
    out.push(`the snapshot file does not read: ${(err as Error).message}`);
  }

  // Damage before the tail is never mistaken for a torn write: a frame header with entries after it.
  const segments = readdirSync(join(dir, 'log')).sort();
  const secondStart = segments[1] === undefined ? last + 1 : parseSegmentFileName(segments[1])!;
  if (segments[0] !== undefined && secondStart - first >= 2) {
    const path = join(dir, 'log', segments[0]);
    const fd = openSync(path, 'r+');
    writeSync(fd, Buffer.from([0xff]), 0, 1, SEGMENT_HEADER_BYTES + 6);
    closeSync(fd);
    try {
      LogStore.open({ dir, segmentBytes: CRASH_SEGMENT_BYTES });
      out.push(`a damaged first frame of ${segments[0]} opens without error`);
    } catch (err) {
      if (!(err instanceof CorruptionError) || err.file !== path || err.offset !== SEGMENT_HEADER_BYTES)
        out.push(`a damaged first frame of ${segments[0]} fails with ${(err as Error).message}`);
    }
  }
  return out;
}

describe.runIf(process.platform === 'linux')('storage crash at every fsync boundary', () => {
  let dry: ChildRun;
  beforeAll(async () => {
    dry = await runChild(join(work, 'dry'), 0, 'after');
  });

  it('the script runs to its end and its final state is what the script describes', async () => {
    expect(dry.stderr).toBe('');
    expect([dry.code, dry.done]).toEqual([0, dry.syncs.length]);
    expect(dry.acked.size).toBe(CRASH_OPS.length);
    expect(dry.syncs.length).toBeGreaterThanOrEqual(MIN_BOUNDARIES);
    expect(await violations(join(work, 'dry'), dry)).toEqual([]);
  });

  /** Runs `crash` for every boundary, CHILDREN_AT_ONCE at a time (a child mostly waits); the violations in order. */
  async function eachBoundary(ks: readonly number[], crash: (k: number) => Promise<string[]>) {
    const found: string[][] = [];
    let next = 0;
    const worker = async () => {
      while (next < ks.length) {
        const i = next++;
        found[i] = await crash(ks[i]!);
      }
    };
    await Promise.all(Array.from({ length: CHILDREN_AT_ONCE }, worker));
    return found.flat();
  }

  /** Runs the script halting at `k`, checks the child stopped there, and returns the violations found after `prepare`. */
  async function crashAt(k: number, at: 'before' | 'after', prepare?: (dir: string, run: ChildRun) => void) {
    const dir = join(work, `${at}-${k}`);
    const run = await runChild(dir, k, at);
    const expected = dry.syncs[k - 1]!;
    expect(run.signal, `${at} sync ${k}: ${run.stderr}`).toBe('SIGKILL');
    expect(run.halt?.halt).toBe(k);
    // The script is deterministic: the same sync at the same place as in the full run.
    expect(run.syncs.map((s) => fileKey(s.file))).toEqual(dry.syncs.slice(0, k).map((s) => fileKey(s.file)));
    prepare?.(dir, run);
    const found = await violations(dir, run);
    rmSync(dir, { recursive: true, force: true });
    return found.map((v) => `${at} sync ${k} (${fileKey(expected.file)}): ${v}`);
  }

  it('a SIGKILL right after any fsync loses nothing acknowledged as durable, keeps the hard state old or new and the log a state of the script', async () => {
    const all = Array.from({ length: dry.syncs.length }, (_, i) => i + 1);
    expect(await eachBoundary(all, (k) => crashAt(k, 'after'))).toEqual([]);
  }, 180_000);

  it('a power loss before any fsync that follows appended bytes (cut or zeroed) loses nothing acknowledged, and the torn tail is cut', async () => {
    const torn = dry.syncs.filter((s) => s.grown.length > 0).map((s) => s.sync);
    expect(torn.length).toBeGreaterThanOrEqual(MIN_BOUNDARIES / 2);
    const found = await eachBoundary(torn, (k) =>
      crashAt(k, 'before', (dir, run) => {
        expect(run.halt?.grown.length).toBeGreaterThan(0);
        loseUnsyncedBytes(dir, run.halt!.grown, k % 2 === 1);
      }),
    );
    expect(found).toEqual([]);
  }, 180_000);
});
