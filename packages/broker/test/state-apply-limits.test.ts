// The limits apply validates against travel in the log (state/commands/apply-limits.ts): nodes
// configured with different limits apply the same entries the same way.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Entry } from '@fermata/raft';
import { openStore } from '@fermata/storage';
import { describe, expect, it } from 'vitest';
import { createQueueHasher } from '../src/keys.js';
import { applyLimitsOf } from '../src/state/commands/apply-limits.js';
import { encodeCommand } from '../src/state/commands/commands.js';
import type { CommandResult } from '../src/state/commands/results.js';
import { DEFAULT_LIMITS } from '../src/state/model/limits.js';
import { BrokerStateMachine } from '../src/state/state-machine.js';

const T0 = 1_700_000_000_000;
const KIB = 1024;

/** The leader's no-op, the leader's apply-limits entry (if any), then a publish of a 1.5 KiB payload. */
function log(leaderLimits: { maxPayloadBytes: number } | undefined): Entry[] {
  const entries: Entry[] = [{ term: 1, index: 1, type: 'normal', data: new Uint8Array(0) }];
  if (leaderLimits) {
    const values = applyLimitsOf({ ...DEFAULT_LIMITS, maxBatchPayloadBytes: 4 * KIB, ...leaderLimits });
    entries.push({
      term: 1,
      index: 2,
      type: 'normal',
      data: encodeCommand({ kind: 'apply-limits', nowMs: T0, values }),
    });
  }
  entries.push({
    term: 1,
    index: entries.length + 1,
    type: 'normal',
    data: encodeCommand({
      kind: 'publish',
      nowMs: T0,
      firstId: 1n << 20n,
      messages: [{ topic: 'orders', payload: new Uint8Array(1536) }],
    }),
  });
  return entries;
}

async function node(maxPayloadBytes: number, path?: string): Promise<BrokerStateMachine> {
  const store = await openStore(path ? { engine: 'leveldb', path } : { engine: 'memory' });
  return BrokerStateMachine.open({
    store,
    hasher: await createQueueHasher(),
    limits: { maxPayloadBytes, maxBatchPayloadBytes: 4 * KIB },
  });
}

async function publishOutcome(sm: BrokerStateMachine, entries: Entry[]): Promise<string> {
  const results = (await sm.apply(entries)) as CommandResult[];
  const r = results.at(-1)!;
  return r.kind === 'error' ? `refused: ${r.error.message}` : r.kind;
}

describe('every node applies a command with the replicated limits, not its own configuration', () => {
  it('two nodes with different maxPayloadBytes apply the same publish identically once the leader replicated its limits', async () => {
    const entries = log({ maxPayloadBytes: 2 * KIB });
    const roomy = await node(2 * KIB);
    const tight = await node(1 * KIB);
    const a = await publishOutcome(roomy, entries);
    const b = await publishOutcome(tight, entries);
    expect(a).toBe('publish');
    expect(b).toBe(a);
    expect(tight.limits.maxPayloadBytes).toBe(2 * KIB);
    expect(tight.configuredLimits.maxPayloadBytes).toBe(1 * KIB);
  });

  it('without an apply-limits entry each node falls back to its own configuration (a store written before the record existed)', async () => {
    const entries = log(undefined);
    const a = await publishOutcome(await node(2 * KIB), entries);
    const b = await publishOutcome(await node(1 * KIB), entries);
    expect(a).toBe('publish');
    expect(b).toMatch(/maxPayloadBytes/);
  });

  it('a leader proposes apply limits only when its configured ones differ from the replicated ones', async () => {
    const sm = await node(1 * KIB);
    expect(sm.applyLimitsToPropose()?.maxPayloadBytes).toBe(1 * KIB); // nothing replicated yet
    await sm.apply(log({ maxPayloadBytes: 1 * KIB }).slice(0, 2));
    expect(sm.applyLimitsToPropose()).toBeUndefined();
    const other = await node(2 * KIB);
    await other.apply(log({ maxPayloadBytes: 1 * KIB }).slice(0, 2));
    expect(other.applyLimitsToPropose()?.maxPayloadBytes).toBe(2 * KIB);
  });

  it('the replicated limits survive a restart (leveldb) and travel in snapshots', async () => {
    const path = await mkdtemp(join(tmpdir(), 'fermata-apply-limits-'));
    const first = await node(2 * KIB, path);
    await first.apply(log({ maxPayloadBytes: 2 * KIB }).slice(0, 2));
    await first.flush();
    const snap = await first.snapshot();
    const chunks: Uint8Array[] = [];
    for await (const c of snap.chunks) chunks.push(c);
    await first.store.close();

    const reopened = await node(1 * KIB, path);
    expect(reopened.limits.maxPayloadBytes).toBe(2 * KIB);
    expect(await publishOutcome(reopened, log({ maxPayloadBytes: 2 * KIB }).slice(2))).toBe('publish');
    await reopened.store.close();

    const joiner = await node(1 * KIB);
    expect(joiner.limits.maxPayloadBytes).toBe(1 * KIB);
    await joiner.restore(
      (async function* () {
        yield* chunks;
      })(),
    );
    expect(joiner.limits.maxPayloadBytes).toBe(2 * KIB);
  });

  it('an apply-limits entry naming an unknown limit is refused with the field, and changes nothing', async () => {
    const sm = await node(1 * KIB);
    const results = (await sm.apply([
      { term: 1, index: 1, type: 'normal', data: new Uint8Array(0) },
      {
        term: 1,
        index: 2,
        type: 'normal',
        data: encodeCommand({
          kind: 'apply-limits',
          nowMs: T0,
          values: { ...applyLimitsOf(DEFAULT_LIMITS), maxListLimit: 5 },
        }),
      },
    ])) as CommandResult[];
    const r = results[1]!;
    expect(r.kind).toBe('error');
    expect(r.kind === 'error' && r.error.message).toMatch(/apply_limits\.maxListLimit/);
    expect(sm.replicatedApplyLimits()).toBeUndefined();
  });
});
