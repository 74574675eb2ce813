/**
 * The three systems of `npm run bench -- peers` behind one small interface, so that one piece
 * of code produces, consumes and times all of them: BullMQ on Redis (the `delay` job option),
 * pg-boss on PostgreSQL (`startAfter`), and Fermata (`deliverAt`) on a three-node cluster.
 * Each gets the message's absolute due time; each hands a delivery's number to the workload
 * when its handler runs, and acknowledges (completes) it when the handler returns.
 */

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FermataClient, Producer, Subscription } from '@fermata/sdk';
import { Queue, Worker } from 'bullmq';
import PgBoss from 'pg-boss';
import { type Cluster, ensureTopic, newClient, startBenchCluster } from '../cluster.js';
import type { PeerServer } from './servers.js';

export const SYSTEM_NAMES = ['bullmq', 'pgboss', 'fermata'] as const;
export type SystemName = (typeof SYSTEM_NAMES)[number];

export interface PeerMessage {
  readonly id: number;
  readonly payload: string;
  /** Deliver no earlier than this (ms since the epoch, this machine's clock). */
  readonly dueAtMs: number;
}

export interface ConsumeOptions {
  /** Handlers running at once (BullMQ's worker concurrency, Fermata's subscription concurrency). */
  readonly consumers: number;
}

/** One queue (BullMQ queue, pg-boss queue, Fermata topic) of one workload. */
export interface PeerQueue {
  /** Resolves once the system has accepted the batch durably. */
  produce(batch: readonly PeerMessage[]): Promise<void>;
  /** Starts the consumers; `onMessage` is called with the message's number in the handler. */
  consume(onMessage: (id: number) => void, options: ConsumeOptions): Promise<void>;
  /** Messages accepted and not yet acknowledged (due later, ready, or being handled). */
  unfinished(): Promise<number>;
  /** Stops this queue's consumers. */
  close(): Promise<void>;
}

export interface PeerSystem {
  readonly name: SystemName;
  /** Client and server versions and the settings that matter. */
  readonly description: string;
  /** Root pids of the server processes: their process trees' CPU and memory count. */
  readonly serverPids: readonly number[];
  /** Where the servers keep their data (disk per pending message). */
  readonly dataDirs: readonly string[];
  openQueue(name: string): Promise<PeerQueue>;
  close(): Promise<void>;
}

const require = createRequire(import.meta.url);

/** The installed version of an npm package (its package.json, found from its entry point). */
function packageVersion(name: string): string {
  let dir = dirname(require.resolve(name));
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === name && pkg.version) return pkg.version;
    } catch {
      // no package.json here
    }
    if (dirname(dir) === dir) return '?';
    dir = dirname(dir);
  }
}

export async function openBullmq(redis: PeerServer): Promise<PeerSystem> {
  const connection = { host: '127.0.0.1', port: redis.port };
  return {
    name: 'bullmq',
    description: `BullMQ ${packageVersion('bullmq')}, Redis ${redis.version} (appendfsync always)`,
    serverPids: [redis.pid],
    dataDirs: [redis.dataDir],
    async openQueue(name) {
      const queue = new Queue(name, { connection });
      // Failures surface through the awaited calls; an unhandled 'error' event would end the run.
      queue.on('error', (e) => process.stderr.write(`bullmq queue: ${e.message}\n`));
      await queue.waitUntilReady();
      let worker: Worker | undefined;
      return {
        async produce(batch) {
          const now = Date.now();
          // BullMQ counts `delay` from the job's own timestamp, taken in addBulk after `now`:
          // a job is never due before dueAtMs.
          await queue.addBulk(
            batch.map((m) => ({
              name: 'm',
              data: { i: m.id, p: m.payload },
              opts: { delay: Math.max(0, m.dueAtMs - now), removeOnComplete: true, removeOnFail: true },
            })),
          );
        },
        async consume(onMessage, options) {
          worker = new Worker(
            name,
            async (job) => {
              onMessage((job.data as { i: number }).i);
            },
            { connection, concurrency: options.consumers },
          );
          worker.on('error', (e) => process.stderr.write(`bullmq worker: ${e.message}\n`));
          await worker.waitUntilReady();
        },
        async unfinished() {
          const c = await queue.getJobCounts('delayed', 'wait', 'prioritized', 'active');
          return Object.values(c).reduce((s, x) => s + x, 0);
        },
        async close() {
          await worker?.close();
          await queue.close();
        },
      };
    },
    async close() {},
  };
}

/** pg-boss's consumers: `workers` work() loops, each fetching up to `batch` due jobs per poll. */
export interface PgBossOptions {
  readonly workers: number;
  readonly batch: number;
  readonly pollMs: number;
  /** The most produce() calls at once: each holds a connection. */
  readonly producers: number;
}

export async function openPgBoss(postgres: PeerServer, o: PgBossOptions): Promise<PeerSystem> {
  const boss = new PgBoss({
    connectionString: postgres.url,
    // A connection per producer and worker, and a few for pg-boss's own maintenance.
    max: o.producers + o.workers + 4,
    supervise: true,
    schedule: false,
  });
  boss.on('error', (e) => process.stderr.write(`pg-boss: ${e.message}\n`));
  await boss.start();
  // pg-boss polls at most every 0.5 s.
  const pollingIntervalSeconds = Math.max(0.5, o.pollMs / 1000);
  return {
    name: 'pgboss',
    description:
      `pg-boss ${packageVersion('pg-boss')}, PostgreSQL ${postgres.version} (initdb defaults: fsync, synchronous_commit on); ` +
      `${o.workers} workers x ${o.batch} jobs per fetch, poll ${pollingIntervalSeconds} s`,
    serverPids: [postgres.pid],
    dataDirs: [postgres.dataDir],
    async openQueue(name) {
      await boss.createQueue(name);
      let working = false;
      return {
        async produce(batch) {
          await boss.insert(
            batch.map((m) => ({ name, data: { i: m.id, p: m.payload }, startAfter: new Date(m.dueAtMs) })),
          );
        },
        async consume(onMessage) {
          working = true;
          for (let w = 0; w < o.workers; w++) {
            await boss.work<{ i: number }>(
              name,
              { batchSize: o.batch, pollingIntervalSeconds },
              async (jobs) => {
                for (const j of jobs) onMessage(j.data.i);
              },
            );
          }
        },
        // States before `completed`: created, retry and active.
        unfinished: () => boss.getQueueSize(name, { before: 'completed' }),
        async close() {
          if (working) await boss.offWork(name);
        },
      };
    },
    async close() {
      await boss.stop({ graceful: true, wait: true, timeout: 10_000 });
    },
  };
}

export async function openFermata(args: string[]): Promise<PeerSystem> {
  const cluster: Cluster = await startBenchCluster(args);
  const client: FermataClient = newClient(cluster);
  return {
    name: 'fermata',
    description: 'Fermata, 3 nodes on this machine, durability quorum (a majority fdatasynced)',
    serverPids: cluster.nodes.map((nd) => nd.pid ?? 0).filter((pid) => pid > 0),
    dataDirs: cluster.nodes.map((nd) => nd.dataDir),
    async openQueue(topic) {
      await client.createTopic(topic);
      let sub: Subscription | undefined;
      // The SDK's high-rate producer (one PublishStream each), one per produce() call running
      // at once: the workload's producers each get a stream of their own.
      const idle: Producer[] = [];
      const all: Producer[] = [];
      return {
        async produce(batch) {
          let p = idle.pop();
          if (!p) {
            p = client.producer({ maxBatchMessages: batch.length, lingerMs: 1 });
            all.push(p);
          }
          try {
            await Promise.all(
              batch.map((m) =>
                p.send(topic, m.payload, { deliverAt: m.dueAtMs, headers: { i: String(m.id) } }),
              ),
            );
          } finally {
            idle.push(p);
          }
        },
        async consume(onMessage, options) {
          const concurrency = options.consumers;
          await ensureTopic(client, topic);
          sub = client.subscribe(topic, { concurrency, prefetch: Math.max(2 * concurrency, 1_000) }, (m) => {
            onMessage(Number(m.headers['i']));
          });
          while (!sub.connected) await new Promise((r) => setTimeout(r, 20));
        },
        async unfinished() {
          const s = await client.topicStats(topic);
          return s.groups.reduce((n, g) => n + g.pending + g.inFlight, 0);
        },
        async close() {
          await sub?.close();
          await Promise.all(all.map((p) => p.close()));
        },
      };
    },
    async close() {
      await client.close();
      await cluster.stop();
    },
  };
}
