/**
 * Backup and restore as an operator runs them: `fermata backup --out FILE`
 * against a three-node cluster of real processes while producers publish and
 * consumers ack, then `fermata restore` into three empty data directories and
 * a new cluster started on them. Every message whose publish was answered
 * before the backup began is there with its due time; nothing whose ack was
 * answered before it began comes back.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { FermataClient, NotFoundError, silentLogger } from '@fermata/sdk';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  type Cluster,
  fermataArgv,
  freePort,
  type NodePorts,
  REPO_ROOT,
  sleep,
  startCluster,
} from '../src/index.js';
import { eventually } from './support.js';

const run = promisify(execFile);

/** Runs the `fermata` CLI; resolves with its output, rejects with it on a non-zero exit. */
async function fermata(args: string[], env: Record<string, string> = {}): Promise<string> {
  const clean: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('FERMATA_')) clean[k] = v;
  const { stdout } = await run(process.execPath, fermataArgv(args), {
    cwd: REPO_ROOT,
    env: { ...clean, ...env },
    maxBuffer: 16 * 1024 * 1024,
  });
  return stdout;
}

interface Published {
  readonly value: string;
  readonly id: bigint;
  readonly dueAtMs: number;
  readonly invokedAtMs: number;
  readonly answeredAtMs: number;
}

const dirs: string[] = [];
const clusters: Cluster[] = [];
const clients: FermataClient[] = [];
let logs = (): string => '';

afterEach((ctx) => {
  if (ctx.task.result?.state === 'fail') console.error(logs());
});
afterAll(async () => {
  await Promise.allSettled(clients.map((c) => c.close()));
  await Promise.allSettled(clusters.map((c) => c.stop()));
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function client(endpoints: readonly string[]): FermataClient {
  const c = new FermataClient({ endpoints: [...endpoints], deadlineMs: 20_000, logger: silentLogger });
  clients.push(c);
  return c;
}

describe('fermata backup and fermata restore', () => {
  it('a new cluster restored from a backup taken under load holds every message acknowledged before it began, and nothing acked', {
    timeout: 240_000,
  }, async () => {
    const source = await startCluster({ nodes: 3 });
    clusters.push(source);
    logs = () => source.logs(30);
    const topic = 'orders';
    const admin = client(source.endpoints);
    await admin.createTopic(topic);

    // Producers: near deliveries (consumed meanwhile) and far ones (still pending at the end).
    const published: Published[] = [];
    const acked = new Map<string, number>(); // value -> when its ack was answered OK
    const firstDelivery = new Map<string, number>(); // value -> when it was first delivered
    let producing = true;
    const producers = [0, 1].map(async (p) => {
      const c = client(source.endpoints);
      for (let seq = 0; producing; seq++) {
        const value = `p${p}-${seq}`;
        const delayMs = seq % 3 === 0 ? 3_600_000 + seq : (seq * 37) % 1_500;
        const invokedAtMs = Date.now();
        try {
          const r = await c.publishDetailed(topic, value, { delayMs, key: value });
          published.push({ value, id: r.id, dueAtMs: r.dueAtMs, invokedAtMs, answeredAtMs: Date.now() });
        } catch {
          // an unanswered publish may or may not be stored: neither is checked
        }
        await sleep(5);
      }
    });
    const consumer = client(source.endpoints);
    const sub = consumer.subscribe(topic, { leaseMs: 10_000, concurrency: 4, mode: 'manual' }, async (m) => {
      if (!firstDelivery.has(m.text())) firstDelivery.set(m.text(), Date.now());
      // Every fifth delivery is left unacked (released from the handler, never settled): it
      // may be in flight when the backup is taken.
      if (Number(m.id % 5n) === 0) return;
      await m.ack();
      acked.set(m.text(), Date.now());
    });

    // Let the load build up, then back up while it runs.
    await sleep(4_000);
    const workDir = mkdtempSync(join(tmpdir(), 'fermata-backup-'));
    dirs.push(workDir);
    const file = join(workDir, 'cluster.fmbk');
    const beganMs = Date.now();
    const out = await fermata(['backup', '--out', file, '--json', '-e', source.endpoints.join(',')]);
    const endedMs = Date.now();
    const summary = JSON.parse(out) as {
      appliedIndex: number;
      messages: number;
      sha256: string;
      clusterId: string;
    };
    await sleep(1_000);
    producing = false;
    await Promise.all(producers);
    await sub.close();
    // No node stopped for the backup.
    for (const n of source.nodes) expect(n.exits).toEqual([]);
    expect(summary.clusterId).toBe('fermata-test');
    expect(summary.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(existsSync(file)).toBe(true);
    expect(existsSync(`${file}.partial`)).toBe(false);

    const before = published.filter((p) => p.answeredAtMs < beganMs);
    const ackedBefore = new Set([...acked].filter(([, at]) => at < beganMs).map(([v]) => v));
    const publishedAfter = published.filter((p) => p.invokedAtMs > endedMs);
    expect(before.length).toBeGreaterThan(50);
    expect(ackedBefore.size).toBeGreaterThan(10);
    expect(publishedAfter.length).toBeGreaterThan(0);
    console.info(
      `backup at index ${summary.appliedIndex}: ${summary.messages} messages; ${before.length} publishes and ${ackedBefore.size} acks answered before it began, ${publishedAfter.length} publishes sent after it ended`,
    );

    // The new cluster: its own ports, a new cluster id, every node restored from the same file.
    const ports: NodePorts[] = [];
    for (let i = 0; i < 3; i++)
      ports.push({ client: await freePort(), peer: await freePort(), http: await freePort() });
    const members = ports.map((p, i) => `n${i + 1}=127.0.0.1:${p.peer}/127.0.0.1:${p.client}`).join(',');
    const baseDir = join(workDir, 'restored');
    const restoreArgs = (i: number) => [
      'restore',
      '--from',
      file,
      '--data',
      join(baseDir, `n${i + 1}`),
      '--node-id',
      `n${i + 1}`,
      '--initial-members',
      members,
    ];
    // Every node of the new cluster is restored from the same file (the refusals are unit tests).
    await Promise.all([0, 1, 2].map((i) => fermata([...restoreArgs(i), '--cluster-id', 'restored'])));
    await source.stop();
    const restored = await startCluster({
      nodes: 3,
      baseDir,
      ports,
      env: { FERMATA_CLUSTER_ID: 'restored' },
    });
    clusters.push(restored);
    logs = () => restored.logs(40);
    const c = client(restored.endpoints);
    const info = await c.clusterInfo();
    expect(info.clusterId).toBe('restored');
    // The new leader's first entry follows the backup's index (any node answers, a follower
    // once it applied it).
    await eventually(
      async () => (await c.clusterInfo()).appliedIndex > summary.appliedIndex,
      30_000,
      'the restored cluster to apply past the backup',
    );

    // Every message published before the backup began and not acked before it is there, with its due time.
    for (const p of before) {
      if (ackedBefore.has(p.value)) continue;
      let details: Awaited<ReturnType<FermataClient['getMessage']>> | undefined;
      try {
        details = await c.getMessage(topic, p.id);
      } catch (err) {
        if (!(err instanceof NotFoundError)) throw err;
      }
      const group = details?.groups.find((g) => g.group === 'default');
      // Acked after the backup began (so maybe before it was taken) is the only other end.
      if (!details || group?.state === 'done') {
        expect(acked.has(p.value), `${p.value} (id ${p.id}) is missing from the restored cluster`).toBe(true);
        continue;
      }
      expect(Buffer.from(details.message.payload).toString()).toBe(p.value);
      expect(details.message.dueAtMs).toBe(p.dueAtMs);
    }
    // Nothing acked before the backup began comes back.
    for (const v of ackedBefore) {
      const p = published.find((x) => x.value === v)!;
      const details = await c.getMessage(topic, p.id).catch((err: unknown) => {
        if (err instanceof NotFoundError) return undefined;
        throw err;
      });
      expect(details?.groups.find((g) => g.group === 'default')?.state ?? 'done').toBe('done');
    }
    // Nothing sent after the backup ended is there.
    for (const p of publishedAfter) {
      await expect(c.getMessage(topic, { key: p.value })).rejects.toThrow(NotFoundError);
    }

    // The restored cluster delivers what was due, leases in flight at the backup come back
    // when they run out, and no delivery is of a message acked before the backup began.
    const delivered = new Map<string, number>();
    const sub2 = c.subscribe(topic, { leaseMs: 30_000 }, async (m) => {
      delivered.set(m.text(), m.attempt);
    });
    const t0 = Date.now();
    const near = before.filter((p) => !acked.has(p.value) && p.dueAtMs - beganMs < 60_000);
    const deadline = Date.now() + 60_000;
    while (near.some((p) => !delivered.has(p.value)) && Date.now() < deadline) await sleep(250);
    await sub2.close();
    console.info(`restored: ${near.length} due messages delivered within ${Date.now() - t0} ms`);
    expect(near.filter((p) => !delivered.has(p.value)).map((p) => p.value)).toEqual([]);
    expect([...delivered.keys()].filter((v) => ackedBefore.has(v))).toEqual([]);
    // A delivery made before the backup began counts in the restored attempt: it comes back as a later one.
    const redelivered = [...delivered].filter(([v]) => (firstDelivery.get(v) ?? Infinity) < beganMs);
    expect(redelivered.length).toBeGreaterThan(0);
    expect(redelivered.filter(([, attempt]) => attempt < 2)).toEqual([]);
    // The new cluster takes writes.
    await c.publish(topic, 'after restore', { delayMs: 3_600_000 });
  });
});
