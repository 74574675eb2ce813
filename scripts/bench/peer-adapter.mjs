// Fermata adapter for the peer harness (/work/shared/peer-bench, lib/adapter.mjs contract):
//   node run.mjs --adapter /work/main/scripts/bench/peer-adapter.mjs \
//     --url 127.0.0.1:7001,127.0.0.1:7002,127.0.0.1:7003 --messages 20000 --consumers 32
// Uses the built SDK (npm run build). Optional: FERMATA_BENCH_PIDS (comma-separated server
// pids, for memory figures) and FERMATA_BENCH_DATA_DIR (one node's data dir, for disk).
import { AlreadyExistsError, FermataClient, silentLogger } from '../../packages/sdk/dist/index.js';

export default function create(opts) {
  const client = new FermataClient({ endpoints: opts.url ?? '127.0.0.1:7001', logger: silentLogger });
  const topic = opts.queue;
  let sub;
  return {
    async setup() {
      await client.createTopic(topic).catch((e) => {
        if (!(e instanceof AlreadyExistsError)) throw e;
      });
    },
    async produce(batch) {
      // The harness's due time is Date.now() before produce() + delayMs: the same instant, absolute.
      const now = Date.now();
      await client.publishBatch(
        batch.map((m) => ({
          topic,
          payload: m.payload,
          headers: { i: String(m.id) },
          deliverAt: now + m.delayMs,
        })),
      );
    },
    async consume(onMessage) {
      const concurrency = opts.consumers ?? 8;
      sub = client.subscribe(topic, { concurrency, prefetch: Math.max(2 * concurrency, 1000) }, async (m) => {
        await onMessage(Number(m.headers.i), m.receivedAtMs);
      });
      while (!sub.connected) await new Promise((r) => setTimeout(r, 20));
    },
    async pendingCount() {
      const s = await client.topicStats(topic);
      return s.groups.reduce((n, g) => n + g.pending + g.inFlight, 0);
    },
    async serverPids() {
      return (process.env.FERMATA_BENCH_PIDS ?? '').split(',').filter(Boolean).map(Number);
    },
    async dataDir() {
      return process.env.FERMATA_BENCH_DATA_DIR ?? null;
    },
    async info() {
      return { client: '@fermata/sdk 0.1.0 (built dist)', server: 'fermata, 3 nodes, durability quorum' };
    },
    async teardown({ cleanup }) {
      await sub?.close();
      if (cleanup) await client.deleteTopic(topic).catch(() => undefined);
      await client.close();
    },
  };
}
