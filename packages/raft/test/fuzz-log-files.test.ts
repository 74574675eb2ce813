/**
 * Fuzzes the readers of the files a node keeps on disk (log segments,
 * snapshot, hard state) with seeded corruption: flipped bytes, truncation,
 * garbage appended, zeroed ranges. A reader either reports the corruption
 * (CorruptionError naming the file) or returns exactly what was written (for
 * the log: a prefix, when only a torn tail was cut off); it never hands out an
 * entry, a snapshot byte or a hard state that differs from what was stored.
 *
 * Seeds: FERMATA_TEST_FUZZ_SEED replays a run; FERMATA_TEST_FUZZ_ITERATIONS
 * makes it longer (scripts/fuzz.sh).
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CorruptionError } from '../src/log/errors.js';
import { HARD_STATE_FILE, HardStateFile } from '../src/log/hard-state.js';
import { LogStore } from '../src/log/log-store.js';
import { SnapshotFiles } from '../src/log/snapshot-store.js';
import type { Entry } from '../src/types.js';
import { fuzzIterations, fuzzSeed, Rng } from './support/rng.js';

const ITERATIONS = fuzzIterations(120);
const ENTRIES = 150;

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'fermata-fuzz-files-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

function entry(index: number, rng: Rng): Entry {
  return { index, term: 1 + Math.floor(index / 40), type: 'normal', data: rng.bytes(rng.int(90)) };
}

type Mutation = { kind: string; file: string; offset: number; detail: string };

/** Corrupts `file` one seeded way; returns what was done (printed when an assertion fails). */
function mutate(file: string, rng: Rng): Mutation {
  const bytes = readFileSync(file);
  const kind = rng.pick(['flip', 'truncate', 'append', 'zero', 'splice']);
  const offset = bytes.length === 0 ? 0 : rng.int(bytes.length);
  let out: Buffer = bytes;
  let detail = '';
  switch (kind) {
    case 'flip': {
      const n = 1 + rng.int(4);
      out = Buffer.from(bytes);
      for (let i = 0; i < n && out.length > 0; i++) {
        const at = (offset + rng.int(64)) % out.length;
        out[at] = (out[at] as number) ^ (1 << rng.int(8));
      }
      detail = `${n} bits`;
      break;
    }
    case 'truncate':
      out = bytes.subarray(0, offset);
      break;
    case 'append': {
      const n = 1 + rng.int(200);
      out = Buffer.concat([bytes, rng.bytes(n)]);
      detail = `${n} bytes`;
      break;
    }
    case 'zero': {
      const n = 1 + rng.int(100);
      out = Buffer.from(bytes);
      out.fill(0, offset, Math.min(out.length, offset + n));
      detail = `${n} bytes`;
      break;
    }
    case 'splice': {
      const n = 1 + rng.int(100);
      out = Buffer.concat([bytes.subarray(0, offset), rng.bytes(n), bytes.subarray(offset + n)]);
      detail = `${n} random bytes`;
      break;
    }
  }
  writeFileSync(file, out);
  return { kind, file, offset, detail };
}

describe('fuzz: log segments', () => {
  it('a corrupted segment is reported (at open, or when the damaged data of a sealed segment is read) or cut back to a torn tail; no entry ever differs from what was written', async () => {
    const seed = fuzzSeed(0x10c5);
    const rng = new Rng(seed);
    const base = join(root, 'log-base');
    const written = Array.from({ length: ENTRIES }, (_, i) => entry(i + 1, rng));
    const store = LogStore.open({ dir: base, segmentBytes: 4096 });
    await store.append(written);
    await store.close();
    const segments = readdirSync(join(base, 'log')).sort();
    expect(segments.length).toBeGreaterThan(2);

    let reported = 0;
    let cut = 0;
    for (let i = 0; i < ITERATIONS; i++) {
      const dir = join(root, `log-${i}`);
      cpSync(base, dir, { recursive: true });
      const name = rng.pick(segments);
      const last = name === segments[segments.length - 1];
      const m = mutate(join(dir, 'log', name), rng);
      const what = `seed ${seed} iteration ${i}: ${m.kind} at ${m.offset} (${m.detail}) of ${name}${last ? ' (last)' : ''}`;
      let opened: LogStore | undefined;
      try {
        opened = LogStore.open({ dir, segmentBytes: 4096 });
      } catch (err) {
        expect(err, what).toBeInstanceOf(CorruptionError);
        expect(String((err as Error).message), what).toContain('log');
        reported++;
      }
      if (opened) {
        const lastIndex = opened.lastIndex();
        // A sealed segment's data checksums are checked when entries are read, not at open.
        let got: Entry[] = [];
        try {
          got = opened.entries(opened.firstIndex(), lastIndex + 1, Number.MAX_SAFE_INTEGER);
        } catch (err) {
          expect(err, what).toBeInstanceOf(CorruptionError);
          expect(last, `${what}: only a sealed segment is reported on read`).toBe(false);
          reported++;
          await opened.close();
          rmSync(dir, { recursive: true, force: true });
          continue;
        }
        expect(opened.firstIndex(), what).toBe(1);
        for (const e of got) {
          const want = written[e.index - 1] as Entry;
          expect(e.term, what).toBe(want.term);
          expect(Buffer.from(e.data).equals(Buffer.from(want.data)), `${what}: entry ${e.index}`).toBe(true);
        }
        // Anything before the last segment is never silently dropped.
        if (!last) expect(lastIndex, what).toBe(ENTRIES);
        if (lastIndex < ENTRIES) cut++;
        await opened.close();
      }
      rmSync(dir, { recursive: true, force: true });
    }
    // The run exercised both outcomes (so the fuzzer reaches the checks it claims to make).
    expect(reported).toBeGreaterThan(0);
    expect(cut + reported).toBeGreaterThan(0);
  });
});

describe('fuzz: snapshot file', () => {
  it('a corrupted snapshot is a CorruptionError before any byte is handed out, or reads back identical', async () => {
    const seed = fuzzSeed(0x5a4b);
    const rng = new Rng(seed);
    const base = join(root, 'snap-base');
    const payload = rng.bytes(20_000);
    const files = new SnapshotFiles(base, { chunkBytes: 4096 });
    const meta = { index: 77, term: 3, conf: { voters: ['n1', 'n2', 'n3'], learners: [] } };
    await files.write(
      meta,
      (async function* () {
        yield payload;
      })(),
    );
    let reported = 0;
    for (let i = 0; i < ITERATIONS; i++) {
      const dir = join(root, `snap-${i}`);
      cpSync(base, dir, { recursive: true });
      const copy = new SnapshotFiles(dir, { chunkBytes: 4096 });
      const m = mutate(copy.path, rng);
      const what = `seed ${seed} iteration ${i}: ${m.kind} at ${m.offset} (${m.detail}) of ${statSync(copy.path).size} bytes`;
      try {
        const reader = await copy.read();
        const chunks: Uint8Array[] = [];
        for await (const c of reader?.chunks ?? []) chunks.push(c);
        expect(reader?.meta, what).toEqual(meta);
        expect(Buffer.concat(chunks).equals(payload), what).toBe(true);
      } catch (err) {
        expect(err, what).toBeInstanceOf(CorruptionError);
        reported++;
      }
      rmSync(dir, { recursive: true, force: true });
    }
    expect(reported).toBeGreaterThan(ITERATIONS / 2);
  });
});

describe('fuzz: hard state file', () => {
  it('a corrupted hard state is a CorruptionError or reads back as saved', async () => {
    const seed = fuzzSeed(0x4a2d);
    const rng = new Rng(seed);
    const base = join(root, 'hs-base');
    const saved = { term: 12, vote: 'n2', commit: 345 };
    await HardStateFile.open(base).save(saved);
    let reported = 0;
    for (let i = 0; i < ITERATIONS; i++) {
      const dir = join(root, `hs-${i}`);
      cpSync(base, dir, { recursive: true });
      const m = mutate(join(dir, HARD_STATE_FILE), rng);
      const what = `seed ${seed} iteration ${i}: ${m.kind} at ${m.offset} (${m.detail})`;
      try {
        expect(HardStateFile.open(dir).get(), what).toEqual(saved);
      } catch (err) {
        expect(err, what).toBeInstanceOf(CorruptionError);
        reported++;
      }
      rmSync(dir, { recursive: true, force: true });
    }
    expect(reported).toBeGreaterThan(ITERATIONS / 2);
  });
});
