// `fermata repair reset-term` (term-repair.ts) on real files: the repaired term is
// above every term the node may have voted in, so a repaired node never votes twice
// in a term (review N3).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_TERM } from '../src/core/raft-core.js';
import { encodeRecord, writeFileAtomic } from '../src/log/atomic-file.js';
import { HARD_STATE_FILE, HardStateFile } from '../src/log/hard-state.js';
import { LogStore } from '../src/log/log-store.js';
import { resetStoredTerm, TermRepairError } from '../src/node/term-repair.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A Raft directory whose log ends with an entry of `lastLogTerm`. */
async function raftDir(lastLogTerm: number): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'fermata-repair-'));
  dirs.push(dir);
  const log = LogStore.open({ dir });
  await log.append([
    { index: 1, term: 1, type: 'normal', data: new Uint8Array(0) },
    { index: 2, term: lastLogTerm, type: 'normal', data: new Uint8Array(0) },
  ]);
  await log.close();
  return dir;
}

describe('term repair never takes a term at or below one the node may have voted in', () => {
  it('a node that voted in term 7 with a log of term 5, then took a forged term, is repaired to term 8', async () => {
    const dir = await raftDir(5);
    const hs = HardStateFile.open(dir);
    await hs.save({ term: 7, vote: 'n2', commit: 2 });
    await hs.save({ term: MAX_TERM, vote: '', commit: 2 }); // the forged heartbeat
    const { before, after } = await resetStoredTerm(dir);
    expect(before).toMatchObject({ lastLogTerm: 5, votedTerm: 7, hardState: { term: MAX_TERM } });
    // Term 6 or 7 would let it vote again in term 7, for another candidate.
    expect(after).toEqual({ term: 8, vote: '', commit: 2 });
    expect(HardStateFile.open(dir).get()).toEqual(after);
    expect(HardStateFile.open(dir).votedTerm()).toBe(7);
  });

  it('a term asked for at or below the highest term the node voted in is refused, and nothing is written', async () => {
    const dir = await raftDir(5);
    const hs = HardStateFile.open(dir);
    await hs.save({ term: 7, vote: 'n2', commit: 2 });
    await hs.save({ term: MAX_TERM, vote: '', commit: 2 });
    await expect(resetStoredTerm(dir, { term: 7 })).rejects.toThrow(
      /new term 7 must be an integer above .* highest term this node voted in, 7/,
    );
    expect(HardStateFile.open(dir).get().term).toBe(MAX_TERM);
  });

  it('a hard state written before votes were recorded bounds them by its own term: the repair needs the majority’s term', async () => {
    const dir = await raftDir(5);
    // The older format: term, vote and commit only.
    const old = encodeRecord(Buffer.from(JSON.stringify({ term: MAX_TERM, vote: '', commit: 2 })));
    await writeFileAtomic(join(dir, HARD_STATE_FILE), old);
    await expect(resetStoredTerm(dir)).rejects.toThrow(TermRepairError);
    await expect(resetStoredTerm(dir)).rejects.toThrow(/--endpoints/);
    expect(HardStateFile.open(dir).get().term).toBe(MAX_TERM);
    // A majority of the other voters reports at most term 9.
    const { after, votedTermBound } = await resetStoredTerm(dir, { clusterTerm: 9 });
    expect(after).toEqual({ term: 10, vote: '', commit: 2 });
    expect(votedTermBound).toBe(9);
    // The file now records the bound, so a later repair needs no majority.
    expect(HardStateFile.open(dir).votedTerm()).toBe(9);
  });

  it('the recorded bound survives saves that clear the vote, including saves queued behind the vote', async () => {
    const dir = await raftDir(1);
    const hs = HardStateFile.open(dir);
    const saves = [
      hs.save({ term: 3, vote: 'n1', commit: 0 }),
      hs.save({ term: 4, vote: '', commit: 0 }),
      hs.save({ term: 4, vote: '', commit: 1 }),
    ];
    await Promise.all(saves);
    expect(HardStateFile.open(dir).votedTerm()).toBe(3);
  });
});
