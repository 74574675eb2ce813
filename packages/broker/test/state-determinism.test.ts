import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Entry } from '@fermata/raft';
import { openStore } from '@fermata/storage';
import { describe, expect, it } from 'vitest';
import { decodeKey, tagEntryKey } from '../src/keys.js';
import { decodeCommand } from '../src/state/commands/commands.js';
import { decodeEntryForTest, heldKeysForTest, integrityProblems, NS } from './state-determinism-support.js';
import { type Cmd, Harness, rng, text } from './state-harness.js';

const SEEDS = Number(process.env['FERMATA_STATE_SEEDS'] ?? 200);
const STEPS = 40;

const TOPICS = ['a', 'b', 'c.x'];
const KEYS = ['k1', 'k2', 'k3', 'k4'];
const REQUEST_KEYS = ['r1', 'r2', 'r3', ''];
/** Short enough for request keys to end their window within a seed's run. */
const LIMITS = { publishDedupWindowMs: 5_000 };

/** One random command (valid or not) chosen with a view of A's current state. */
async function randomCommand(h: Harness, r: () => number, tags: Uint8Array[], ids: bigint[]): Promise<Cmd> {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
  const int = (lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
  const topics = await h.sm.reader.listTopics();
  const roll = r();
  if (roll < 0.3) {
    const n = int(1, 4);
    // Half of the publishes coalesce requests, some with idempotency keys (repeats are retries).
    const requests: { idempotencyKey: string; count: number }[] = [];
    if (r() < 0.5) {
      for (let left = n; left > 0; ) {
        const count = int(1, left);
        requests.push({ idempotencyKey: pick(REQUEST_KEYS), count });
        left -= count;
      }
    }
    return {
      kind: 'publish',
      ...(requests.length > 0 ? { requests } : {}),
      // Bodies in their entry (this version's leader) or records of their own (earlier versions).
      ...(r() < 0.3 ? { inlineBodies: false } : {}),
      messages: Array.from({ length: n }, () => {
        const bad = r() < 0.05;
        const m = {
          topic: bad && r() < 0.5 ? 'bad name!' : pick(TOPICS),
          payload: text(`p${int(0, 999)}`),
          ...(r() < 0.3 ? { headers: { h: String(int(0, 9)) } } : {}),
          ...(r() < 0.4 ? { key: pick(KEYS) } : {}),
          ...(r() < 0.3 ? { ttlMs: int(1, 8_000) } : {}),
          // Per-key ordering: a few keys, in topics and groups that order by key or not.
          ...(r() < 0.4 ? { orderingKey: pick(['o1', 'o2']) } : {}),
        };
        const s = r();
        if (bad) return { ...m, delayMs: -int(1, 10) };
        if (s < 0.4) return { ...m, delayMs: int(0, 5_000) };
        if (s < 0.6) return { ...m, deliverAtMs: h.now + int(-3_000, 3_000) };
        return m;
      }),
    };
  }
  if (roll < 0.5 && topics.length > 0) {
    const t = pick(topics);
    const group = pick(t.groups);
    const due = await h.sm.reader.dueEntriesOf(t.name, group, h.now, int(1, 5));
    const chosen = due.map((d) => d.tag);
    if (r() < 0.2 && tags.length > 0) chosen.push(tagEntryKey(pick(tags)));
    if (chosen.length === 0) chosen.push(new Uint8Array(24));
    // Every lease: of a run (this version's leader), in place or moved (leaders of earlier versions).
    const leaseMs = r() < 0.03 ? 0 : int(1, 4_000);
    h.leaseRuns = r() < 0.6;
    if (h.leaseRuns && r() < 0.5) {
      // Runs of several queues in one command (this version's dispatcher), a queue now and then twice.
      const runs = [{ topic: t.name, group, tags: chosen, leaseMs, leaseId: 0n }];
      for (let more = int(0, 2); more > 0; more--) {
        const u = pick(topics);
        const g = pick(u.groups);
        const due = await h.sm.reader.dueEntriesOf(u.name, g, h.now, int(1, 4));
        if (due.length > 0)
          runs.push({ topic: u.name, group: g, tags: due.map((d) => d.tag), leaseMs, leaseId: 0n });
      }
      return { kind: 'lease-runs', runs };
    }
    return { kind: 'lease', topic: t.name, group, tags: chosen, leaseMs, inPlace: r() < 0.7 };
  }
  if (roll < 0.62 && tags.length > 0) {
    const n = int(1, 3);
    const chosen = Array.from({ length: n }, () => pick(tags));
    if (r() < 0.05) chosen.push(new Uint8Array(7));
    return { kind: 'ack', tags: chosen };
  }
  if (roll < 0.67 && tags.length > 0) return { kind: 'nack', tag: pick(tags), delayMs: int(0, 3_000) };
  if (roll < 0.71 && tags.length > 0) return { kind: 'extend', tag: pick(tags), leaseMs: int(1, 3_000) };
  if (roll < 0.78) {
    const target = r() < 0.5 && ids.length > 0 ? { id: pick(ids) } : { key: pick(KEYS) };
    const topic = r() < 0.05 ? 'missing' : pick(TOPICS);
    if (r() < 0.5) return { kind: 'cancel', topic, target };
    return r() < 0.5
      ? { kind: 'reschedule', topic, target, delayMs: int(0, 4_000) }
      : { kind: 'reschedule', topic, target, deliverAtMs: h.now + int(-1_000, 4_000) };
  }
  if (roll < 0.81 && h.sm.deleting.size > 0) {
    const p = pick(h.sm.deleting.list());
    return { kind: 'purge', topic: p.topic, group: p.group, maxRecords: int(1, 6) };
  }
  if (roll < 0.84) {
    const due = await h.sm.reader.dueExpiries(h.now, 5);
    const list = due.map((d) => d.id);
    // The keys the expiry records name, now and then a key of another message's entry.
    const keys = due.map((d) => (r() < 0.1 && tags.length > 0 ? tagEntryKey(pick(tags)) : d.key));
    if (r() < 0.3 && ids.length > 0) list.push(pick(ids));
    if (list.length === 0) list.push(BigInt(int(1, 50)));
    while (keys.length < list.length) keys.push(new Uint8Array(0));
    return { kind: 'expire', ids: list, ...(r() < 0.8 ? { keys } : {}) };
  }
  if (roll < 0.86) {
    // What the leader's janitor finds; never a record it did not find (apply trusts it).
    const found = await h.sm.reader.forgettablePublishes({
      from: 0n,
      nowMs: h.now,
      marginMs: 0,
      maxRecords: int(1, 20),
      maxKeys: 100,
    });
    if (found.firstIds.length > 0) return { kind: 'forget-publishes', firstIds: found.firstIds };
    if (r() < 0.3) return { kind: 'forget-publishes', firstIds: [h.sm.ids.lastId + 1_000n] };
  }
  if (roll < 0.88) {
    const due = await h.sm.reader.dueKeyPurges(h.now, 5);
    const keys = due.map(({ topic, key }) => ({ topic, key }));
    if (keys.length === 0 && r() < 0.5) keys.push({ topic: pick(TOPICS), key: pick(KEYS) });
    const requests = await h.sm.reader.dueRequestPurges(h.now, 5);
    if (r() < 0.2) requests.push(pick(REQUEST_KEYS.filter((k) => k !== '')));
    if (keys.length === 0 && requests.length === 0) requests.push('r1');
    return { kind: 'purge-keys', keys, requests };
  }
  const a = r();
  if (a < 0.3) {
    return {
      kind: 'create-topic',
      name: pick(TOPICS),
      settings: {
        maxAttempts: int(1, 3),
        expiryAction: pick(['drop', 'dead-letter'] as const),
        dedupWindowMs: pick([0, 500, 5_000]),
        timeBucketMs: pick([0, 0, 100]),
        defaultLeaseMs: int(1, 5_000),
        ordering: pick(['none', 'key', 'key'] as const),
      },
    };
  }
  if (a < 0.55) {
    const ordering = pick([undefined, 'none', 'key'] as const);
    return {
      kind: 'create-group',
      topic: pick(TOPICS),
      group: pick(['g1', 'g2']),
      ...(ordering ? { settings: { ordering } } : {}),
    };
  }
  if (a < 0.7) return { kind: 'delete-group', topic: pick(TOPICS), group: pick(['g1', 'g2', 'default']) };
  if (a < 0.85) {
    return {
      kind: 'update-topic',
      name: pick(TOPICS),
      settings: {
        maxAttempts: int(1, 4),
        dedupWindowMs: pick([0, 700]),
        timeBucketMs: pick([0, 100]),
        ordering: pick(['none', 'key'] as const),
      },
      updateMask: r() < 0.5 ? [] : ['max_attempts', 'dedup_window_ms', 'ordering'],
    };
  }
  return { kind: 'delete-topic', name: pick(TOPICS) };
}

/** Counters must equal what a full scan finds. */
async function checkCounters(h: Harness, seed: number): Promise<void> {
  const counted = new Map<bigint, { pending: number; inFlight: number }>();
  // In flight: leased in place or moved (in the entry), or held by a run lease's open offset.
  const held = await heldKeysForTest(h.store);
  await h.store.scan(NS.queue.range(), (k, v) => {
    const q = decodeKey(NS.queue.strip(k)).queueHash;
    const e = decodeEntryForTest(v);
    const c = counted.get(q) ?? { pending: 0, inFlight: 0 };
    if (e.inFlight || held.has(Buffer.from(NS.queue.strip(k)).toString('hex'))) c.inFlight++;
    else c.pending++;
    counted.set(q, c);
  });
  for (const q of await h.sm.reader.listQueues()) {
    const c = counted.get(q.queueHash) ?? { pending: 0, inFlight: 0 };
    expect({ seed, queue: `${q.topic}/${q.group}`, ...c }).toEqual({
      seed,
      queue: `${q.topic}/${q.group}`,
      pending: q.pending,
      inFlight: q.inFlight,
    });
    counted.delete(q.queueHash);
  }
  expect({ seed, orphanQueues: counted.size }).toEqual({ seed, orphanQueues: 0 });
}

/** What the generated sequences did, so the test shows it exercised every path. */
const tally = new Map<string, number>();
const bump = (k: string): void => {
  tally.set(k, (tally.get(k) ?? 0) + 1);
};

function record(res: unknown): void {
  if (!res || typeof res !== 'object') return;
  const cr = res as {
    kind: string;
    error?: { name: string };
    outcomes?: { status: string }[];
    outcome?: { status: string };
    result?: { status: string };
    results?: { deduplicated: boolean }[];
    purged?: number;
  };
  if (cr.kind === 'error') {
    bump(`error:${cr.error?.name}`);
    return;
  }
  bump(cr.kind);
  for (const o of cr.outcomes ?? []) bump(`${cr.kind}:${o.status}`);
  if (cr.outcome) bump(`${cr.kind}:${cr.outcome.status}`);
  // The leases of runs, and settles of their 20-byte tags.
  const run = (tag: Uint8Array | undefined) => tag?.length === 20;
  for (const o of (cr.outcomes ?? []) as { status: string; tag?: Uint8Array; newTag?: Uint8Array }[]) {
    if (run(o.newTag) && cr.kind === 'lease') bump('lease:run');
    if (run(o.tag) && cr.kind === 'ack') bump(`ack:run-${o.status}`);
  }
  const one = cr.outcome as { status: string; tag?: Uint8Array } | undefined;
  if (one && run(one.tag)) bump(`${cr.kind}:run-${one.status}`);
  if (cr.result) bump(`${cr.kind}:${cr.result.status}`);
  if (cr.results?.some((x) => x.deduplicated)) bump('publish:deduplicated');
  if (cr.purged) bump('purge-keys:purged');
  if (cr.kind === 'purge' && (cr as { done?: boolean }).done) bump('purge:done');
}

async function runSeed(seed: number, engineA: 'memory' | 'leveldb' = 'memory'): Promise<void> {
  const r = rng(seed);
  const dir = engineA === 'leveldb' ? await mkdtemp(join(tmpdir(), 'fermata-det-')) : undefined;
  const a = await Harness.create({
    limits: LIMITS,
    cacheEntries: 64,
    ...(dir ? { store: await openStore({ engine: 'leveldb', path: dir }) } : {}),
  });
  // B reads the store for everything (no record cache), A through a small cache that evicts.
  const b = await Harness.create({ limits: LIMITS, hasher: a.hasher, cacheEntries: 0 });
  const batches: Entry[][] = [];
  const tags: Uint8Array[] = [];
  const ids: bigint[] = [];
  for (let step = 0; step < STEPS; ) {
    a.now += Math.floor(r() * 2_500);
    const size = 1 + Math.floor(r() * 4);
    const entries: Entry[] = [];
    for (let i = 0; i < size && step < STEPS; i++, step++) {
      const index = a.index + 1 + i;
      const x = r();
      if (x < 0.04) entries.push({ term: 1, index, type: 'normal', data: new Uint8Array(0) });
      else if (x < 0.06) entries.push({ term: 1, index, type: 'conf-change', data: text('conf') });
      else if (x < 0.07) entries.push({ term: 1, index, type: 'normal', data: Uint8Array.of(0x0a, 0xff) });
      else
        entries.push({
          term: 1,
          index,
          type: 'normal',
          data: a.encode(await randomCommand(a, r, tags, ids)),
        });
    }
    const results = await a.applyEntries(entries);
    batches.push(entries);
    results.forEach((res, i) => {
      const data = entries[i]!.data;
      if (data.length > 2 && (res as { kind?: string } | undefined)?.kind === 'lease') {
        if (decodeCommand(data).kind === 'lease-runs') bump('lease-runs');
      }
    });
    for (const res of results) {
      record(res);
      if (!res || typeof res !== 'object') continue;
      const cr = res as { kind: string; outcomes?: { newTag?: Uint8Array }[]; results?: { id: bigint }[] };
      for (const o of cr.outcomes ?? []) if (o.newTag) tags.push(o.newTag);
      for (const p of cr.results ?? []) ids.push(p.id);
    }
    if (tags.length > 30) tags.splice(0, tags.length - 30);
  }
  // Deletions still under way are purged to their end, as the leader's purger would.
  for (let guard = 0; a.sm.deleting.size > 0 && guard < 10_000; guard++) {
    const p = a.sm.deleting.list()[0]!;
    const entry: Entry = {
      term: 1,
      index: a.index + 1,
      type: 'normal',
      data: a.encode({ kind: 'purge', topic: p.topic, group: p.group, maxRecords: 7 }),
    };
    record((await a.applyEntries([entry]))[0]);
    batches.push([entry]);
  }
  // B applies the same entries one at a time: batch boundaries and the cache must not matter.
  for (const batch of batches) for (const e of batch) await b.applyEntries([e]);
  const digestA = await a.digest();
  expect({ seed, digest: await b.digest() }).toEqual({ seed, digest: digestA });
  await checkCounters(a, seed);
  expect({ seed, problems: await integrityProblems(a.store, a.hasher) }).toEqual({ seed, problems: [] });

  // Snapshot A, restore into a third store: byte-identical.
  const c = await Harness.create({ store: await openStore({ engine: 'memory' }), hasher: a.hasher });
  const snap = await a.sm.snapshot();
  expect(snap.index).toBe(a.sm.appliedIndex());
  expect(await c.sm.restore(snap.chunks)).toBe(a.sm.appliedIndex());
  expect({ seed, digest: await c.digest() }).toEqual({ seed, digest: digestA });
  expect(c.sm.ids.lastId).toBe(a.sm.ids.lastId);
  await Promise.all([a.store.close(), b.store.close(), c.store.close()]);
  if (dir) await rm(dir, { recursive: true, force: true });
}

describe('determinism', () => {
  it(`the same random command sequence gives identical stores, and snapshot -> restore is byte-identical (${SEEDS} seeds)`, async () => {
    for (let seed = 1; seed <= SEEDS; seed++) {
      try {
        await runSeed(seed);
      } catch (err) {
        (err as Error).message = `seed ${seed}: ${(err as Error).message}`;
        throw err;
      }
    }
    const wanted = [
      'publish',
      'publish:deduplicated',
      'lease:leased',
      'lease:dead-lettered',
      'lease:gone',
      'lease:run',
      'lease-runs',
      'ack:run-ok',
      'ack:run-lease-expired',
      'nack:run-ok',
      'extend:run-ok',
      'ack:ok',
      'ack:lease-expired',
      'nack:ok',
      'extend:ok',
      'cancel:cancelled',
      'cancel:in-flight',
      'cancel:already-done',
      'cancel:not-found',
      'reschedule:rescheduled',
      'expire:expired',
      'expire:dead-lettered',
      'purge-keys:purged',
      'forget-publishes',
      'create-topic',
      'update-topic',
      'delete-topic',
      'create-group',
      'delete-group',
      'purge',
      'purge:done',
      'error:ConflictError',
      'error:ValidationError',
      'error:NotFoundError',
    ];
    if (SEEDS >= 200) expect(wanted.filter((k) => !tally.get(k))).toEqual([]);
    if (process.env['FERMATA_STATE_TALLY']) console.log(Object.fromEntries([...tally].sort()));
  });

  it('a leveldb store and a memory store end byte-identical for the same entries (10 seeds)', async () => {
    for (let seed = 1001; seed <= 1010; seed++) {
      try {
        await runSeed(seed, 'leveldb');
      } catch (err) {
        (err as Error).message = `seed ${seed} (leveldb): ${(err as Error).message}`;
        throw err;
      }
    }
  });
});
