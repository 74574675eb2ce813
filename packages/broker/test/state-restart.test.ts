import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Entry } from '@fermata/raft';
import { openStore } from '@fermata/storage';
import { afterEach, describe, expect, it } from 'vitest';
import { createQueueHasher } from '../src/keys.js';
import { BrokerStateMachine, LeaderNotReadyError, SnapshotFormatError } from '../src/state/index.js';
import { META } from '../src/state/model/layout.js';
import { type Cmd, Harness, text } from './state-harness.js';

const dirs: string[] = [];
async function tempDir(): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), 'fermata-state-'));
  dirs.push(d);
  return d;
}
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

const script: Cmd[] = [
  { kind: 'create-topic', name: 'jobs', settings: { maxAttempts: 2, dedupWindowMs: 10_000 } },
  { kind: 'create-group', topic: 'jobs', group: 'audit' },
  {
    kind: 'publish',
    messages: [
      { topic: 'jobs', payload: text('a'), key: 'ka', ttlMs: 50_000 },
      { topic: 'jobs', payload: text('b'), delayMs: 1_000 },
      { topic: 'other', payload: text('c') },
    ],
  },
];

/** Builds the entries of a longer run on a leader harness, returning them for replay elsewhere. */
async function buildRun(h: Harness): Promise<Entry[]> {
  const all: Entry[] = [];
  const exec = async (cmds: Cmd[]) => {
    const entries: Entry[] = cmds.map((c, i) => ({
      term: 1,
      index: h.index + 1 + i,
      type: 'normal',
      data: h.encode(c),
    }));
    await h.applyEntries(entries);
    all.push(...entries);
  };
  await exec(script);
  const due = await h.due('jobs');
  await exec([{ kind: 'lease', topic: 'jobs', group: 'default', tags: due.map((d) => d.tag), leaseMs: 500 }]);
  h.now += 2_000;
  const due2 = await h.due('jobs');
  await exec([
    { kind: 'lease', topic: 'jobs', group: 'default', tags: due2.map((d) => d.tag), leaseMs: 500 },
    { kind: 'publish', messages: [{ topic: 'jobs', payload: text('d'), key: 'kd' }] },
  ]);
  h.now += 1_000;
  const due3 = await h.due('jobs');
  await exec([
    { kind: 'lease', topic: 'jobs', group: 'default', tags: due3.map((d) => d.tag), leaseMs: 500 },
    { kind: 'cancel', topic: 'jobs', target: { key: 'kd' } },
  ]);
  return all;
}

describe('restart', () => {
  it('reopening the leveldb store and replaying the entries after the stored applied index gives the same digest', async () => {
    const hasher = await createQueueHasher();
    // Reference: everything applied in one life, in memory.
    const leader = await Harness.create({ hasher });
    const entries = await buildRun(leader);
    const reference = await leader.digest();

    const path = await tempDir();
    const first = await openStore({ engine: 'leveldb', path });
    const sm1 = await BrokerStateMachine.open({ store: first, hasher });
    const cut = 5;
    await sm1.apply([{ term: 1, index: 1, type: 'normal', data: new Uint8Array(0) }]);
    await sm1.apply(entries.slice(0, cut));
    await first.close();

    const second = await openStore({ engine: 'leveldb', path });
    const sm2 = await BrokerStateMachine.open({ store: second, hasher });
    expect(sm2.appliedIndex()).toBe(1 + cut);
    expect(sm2.ids.lastId).toBe(sm1.ids.lastId);
    const rest = entries.filter((e) => e.index > sm2.appliedIndex());
    await sm2.apply(rest);
    const { digestStore } = await import('@fermata/storage');
    expect(await digestStore(second)).toBe(reference);
    await second.close();
  });

  it('one storage batch per apply call, written without sync; flush syncs the applied index', async () => {
    const h = await Harness.create();
    const before = { ...h.store.stats };
    await h.runAll(script);
    expect(h.store.stats.batches - before.batches).toBe(1);
    expect(h.store.stats.syncedBatches - before.syncedBatches).toBe(0);
    expect(await h.sm.flush()).toBe(h.index);
    expect(h.store.stats.syncedBatches - before.syncedBatches).toBe(1);
  });

  it('no-op and conf-change entries only advance the applied index', async () => {
    const h = await Harness.create();
    await h.runAll(script);
    const content = async () =>
      (await import('@fermata/storage')).digestStore(h.store, { lt: Uint8Array.of(0x09) });
    const before = await content();
    const r = await h.applyEntries([
      { term: 1, index: h.index + 1, type: 'normal', data: new Uint8Array(0) },
      { term: 1, index: h.index + 2, type: 'conf-change', data: text('add n4') },
    ]);
    expect(r).toEqual([undefined, undefined]);
    expect(h.sm.appliedIndex()).toBe(h.index);
    expect(await content()).toBe(before);
    const raw = await h.store.get(META.appliedIndex);
    expect(Buffer.from(raw!).readBigUInt64BE(0)).toBe(BigInt(h.index));
  });

  it('flush never records an index behind the data, even when called while an apply is running', async () => {
    const h = await Harness.create();
    const data = h.encode(script[2]!);
    const applying = h.sm.apply([{ term: 1, index: h.index + 1, type: 'normal', data }]);
    const flushed = h.sm.flush();
    await applying;
    h.index++;
    expect(await flushed).toBe(h.index);
    const raw = await h.store.get(META.appliedIndex);
    expect(Buffer.from(raw!).readBigUInt64BE(0)).toBe(BigInt(h.index));
  });

  it('entries must follow the applied index without gaps', async () => {
    const h = await Harness.create();
    await expect(
      h.sm.apply([{ term: 1, index: h.index + 2, type: 'normal', data: new Uint8Array(0) }]),
    ).rejects.toThrow(/consecutive/);
  });
});

describe('event ids across restart and failover', () => {
  it('a new leader assigns no id before it applied an entry of its term, then only ids above every observed one', async () => {
    const hasher = await createQueueHasher();
    const path = await tempDir();
    const h = await Harness.create({ store: await openStore({ engine: 'leveldb', path }), hasher });
    const [, , c] = (
      await h.ok({ kind: 'publish', messages: script[2]!.kind === 'publish' ? script[2]!.messages : [] })
    ).results;
    await h.store.close();

    const store = await openStore({ engine: 'leveldb', path });
    const sm = await BrokerStateMachine.open({ store, hasher });
    expect(sm.ids.lastId).toBe(c!.id);
    expect(() => sm.ids.nextIds(1)).toThrow(LeaderNotReadyError);
    sm.ids.beginLeadership(2);
    expect(() => sm.ids.nextIds(1)).toThrow(/has not applied an entry of its term/);
    // An entry of the old term (committed by the previous leader) does not make it ready.
    await sm.apply([{ term: 1, index: sm.appliedIndex() + 1, type: 'normal', data: new Uint8Array(0) }]);
    expect(sm.ids.canAssign()).toBe(false);
    await sm.apply([{ term: 2, index: sm.appliedIndex() + 1, type: 'normal', data: new Uint8Array(0) }]);
    expect(sm.ids.canAssign()).toBe(true);
    const first = sm.ids.nextIds(3);
    expect(first).toBe(c!.id + 1n);
    expect(sm.ids.nextIds(1)).toBe(c!.id + 4n);
    sm.ids.endLeadership();
    expect(() => sm.ids.nextIds(1)).toThrow(LeaderNotReadyError);
    await store.close();
  });

  it('ids observed while applying another leader’s entries are never handed out again', async () => {
    const leader = await Harness.create();
    const follower = await Harness.create({ hasher: leader.hasher });
    const data = leader.encode({ kind: 'publish', messages: [{ topic: 't', payload: text('x') }] });
    await leader.applyEntries([{ term: 1, index: 2, type: 'normal', data }]);
    await follower.applyEntries([{ term: 1, index: 2, type: 'normal', data }]);
    follower.sm.ids.beginLeadership(2);
    await follower.applyEntries([{ term: 2, index: 3, type: 'normal', data: new Uint8Array(0) }]);
    expect(follower.sm.ids.nextIds(1)).toBe(leader.sm.ids.lastId + 1n);
  });
});

describe('snapshots', () => {
  it('streams in chunks (frames straddle chunk edges) and restores byte-identically over an existing store', async () => {
    const hasher = await createQueueHasher();
    const src = await Harness.create({ hasher, limits: { snapshotChunkBytes: 64 } });
    await buildRun(src);
    const snap = await src.sm.snapshot();
    const chunks: Uint8Array[] = [];
    for await (const c of snap.chunks) chunks.push(c);
    expect(chunks.length).toBeGreaterThan(5);
    const dst = await Harness.create({ hasher });
    await dst.runAll([
      { kind: 'publish', messages: [{ topic: 'stale', payload: text('gone after restore') }] },
    ]);
    async function* replay() {
      for (const c of chunks) yield c;
    }
    expect(await dst.sm.restore(replay())).toBe(snap.index);
    expect(await dst.digest()).toBe(await src.digest());
    expect(dst.sm.appliedIndex()).toBe(src.sm.appliedIndex());
    expect(await dst.sm.reader.getTopic('stale')).toBeUndefined();
  });

  it('the snapshot is consistent: writes after it began are not in it', async () => {
    const src = await Harness.create();
    await src.runAll(script);
    const snap = await src.sm.snapshot();
    const digestAtSnapshot = await src.digest();
    await src.runAll([{ kind: 'publish', messages: [{ topic: 'later', payload: text('x') }] }]);
    const dst = await Harness.create({ hasher: src.hasher });
    expect(await dst.sm.restore(snap.chunks)).toBe(snap.index);
    expect(await dst.digest()).toBe(digestAtSnapshot);
  });

  it('a stream that is not a snapshot is refused', async () => {
    const dst = await Harness.create();
    async function* junk() {
      yield text('definitely not a snapshot');
    }
    await expect(dst.sm.restore(junk())).rejects.toThrow(SnapshotFormatError);
  });

  it('a restore whose stream breaks off leaves an empty store at index 0, never half a state', async () => {
    const src = await Harness.create({ limits: { snapshotChunkBytes: 64 } });
    await buildRun(src);
    const snap = await src.sm.snapshot();
    const chunks: Uint8Array[] = [];
    for await (const c of snap.chunks) chunks.push(c);
    const dst = await Harness.create({ hasher: src.hasher });
    await dst.runAll(script);
    async function* broken() {
      yield* chunks.slice(0, 3);
      throw new Error('peer went away');
    }
    await expect(dst.sm.restore(broken())).rejects.toThrow(/peer went away/);
    expect(dst.sm.appliedIndex()).toBe(0);
    let entries = 0;
    await dst.store.scan({}, () => {
      entries++;
    });
    expect(entries).toBe(0);
    async function* whole() {
      yield* chunks;
    }
    expect(await dst.sm.restore(whole())).toBe(snap.index);
    expect(await dst.digest()).toBe(await src.digest());
  });

  it('a truncated stream is refused', async () => {
    const src = await Harness.create();
    await src.runAll(script);
    const snap = await src.sm.snapshot();
    const chunks: Uint8Array[] = [];
    for await (const c of snap.chunks) chunks.push(c);
    const all = Buffer.concat(chunks);
    const dst = await Harness.create({ hasher: src.hasher });
    async function* cut() {
      yield all.subarray(0, all.length - 3);
    }
    await expect(dst.sm.restore(cut())).rejects.toThrow(/truncated/);
  });

  it('a store left mid-restore is cleared at open (the node then needs a snapshot again)', async () => {
    const hasher = await createQueueHasher();
    const path = await tempDir();
    const h = await Harness.create({ store: await openStore({ engine: 'leveldb', path }), hasher });
    await h.runAll(script);
    await h.store.batch([{ type: 'put', key: META.restoring, value: Uint8Array.of(1) }], { sync: true });
    await h.store.close();
    const store = await openStore({ engine: 'leveldb', path });
    const sm = await BrokerStateMachine.open({ store, hasher });
    expect(sm.appliedIndex()).toBe(0);
    expect(await sm.reader.listTopics()).toEqual([]);
    await store.close();
  });
});
