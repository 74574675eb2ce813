// Push groups: throughput and lateness of the leader's HTTP pushes to a local endpoint that
// answers 200 after 1 ms, then one that answers after 100 ms. Each pass publishes N messages
// due within one second (published beforehand) to a topic of its own with one push group of
// the given concurrency, and counts at the endpoint each message's first arrival: lateness =
// arrival minus its due time (Fermata-Due-At; same machine clock), throughput = messages over
// the time from the due second's start to the last first arrival. With a 100 ms answer the
// bound is concurrency / 0.1 s.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FermataClient } from '@fermata/sdk';
import { load1, newClient, payloadFor, startBenchCluster, stats } from './cluster.js';
import { emit, flag, option, round, summary } from './report.js';

interface Endpoint {
  readonly url: string;
  /** Message id -> first arrival (ms). */
  readonly first: Map<string, number>;
  duplicates: number;
  close(): Promise<void>;
}

async function endpoint(answerMs: number): Promise<Endpoint> {
  const first = new Map<string, number>();
  const e = { first, duplicates: 0 };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on('end', () => {
      const id = String(req.headers['fermata-message-id']);
      if (first.has(id)) e.duplicates++;
      else first.set(id, Date.now());
      setTimeout(() => res.writeHead(200).end(), answerMs);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(e, {
    url: `http://127.0.0.1:${port}/hook`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}

interface Pass {
  answer_ms: number;
  concurrency: number;
  delivered: number;
  duplicates: number;
  pushes_per_s: number | null;
  lateness_ms: ReturnType<typeof stats>;
}

async function pass(
  client: FermataClient,
  o: { n: number; answerMs: number; concurrency: number; timeoutMs: number },
): Promise<Pass> {
  const ep = await endpoint(o.answerMs);
  try {
    const topic = `bench-push-${o.answerMs}ms-${process.pid}-${Date.now()}`;
    await client.createTopic(topic);
    await client.createGroup(topic, 'hook', { push: { endpoint: ep.url, concurrency: o.concurrency } });
    // Published ahead of the due second: it starts 2 s after the last publish is expected to end.
    const dueSecond = Date.now() + 2_000 + Math.ceil(o.n / 5);
    const due = new Map<string, number>();
    for (let at = 0; at < o.n; at += 500) {
      const batch = Array.from({ length: Math.min(500, o.n - at) }, (_, k) => ({
        topic,
        payload: payloadFor(at + k),
        deliverAt: dueSecond + ((at + k) % 1000),
      }));
      const ids = await client.publishBatch(batch);
      for (const [k, r] of ids.entries()) due.set(String(r.id), batch[k]!.deliverAt);
    }
    const until = Date.now() + o.timeoutMs + Math.max(0, dueSecond - Date.now());
    while (ep.first.size < o.n && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    const lateness: number[] = [];
    let last = 0;
    for (const [id, at] of ep.first) {
      const d = due.get(id);
      if (d === undefined) continue;
      lateness.push(at - d);
      last = Math.max(last, at);
    }
    const spanS = (last - dueSecond) / 1000;
    return {
      answer_ms: o.answerMs,
      concurrency: o.concurrency,
      delivered: ep.first.size,
      duplicates: ep.duplicates,
      pushes_per_s: ep.first.size === o.n && spanS > 0 ? round(o.n / spanS, 0) : null,
      lateness_ms: stats(lateness),
    };
  } finally {
    await ep.close();
  }
}

export async function run(args: string[]): Promise<void> {
  const quick = flag(args, 'quick');
  const n = option(args, 'messages', quick ? 2_000 : 50_000);
  const concurrency = option(args, 'concurrency', 64);
  const timeoutMs = option(args, 'timeout-ms', quick ? 60_000 : 600_000);
  const cluster = await startBenchCluster(args, { env: { FERMATA_PUSH__ALLOWED_ENDPOINTS: '127.0.0.1' } });
  const client = newClient(cluster);
  try {
    const fast = await pass(client, { n, answerMs: 1, concurrency, timeoutMs });
    const slow = await pass(client, { n, answerMs: 100, concurrency, timeoutMs });
    emit({ scenario: 'push', quick, messages: n, fast, slow, load_avg_1m: load1() });
    for (const p of [fast, slow]) {
      summary(
        `push ${n} msgs due in one second, endpoint answering in ${p.answer_ms} ms, concurrency ${p.concurrency}: ` +
          `${p.delivered} delivered (${p.duplicates} again), ${p.pushes_per_s} pushes/s, lateness p50 ${p.lateness_ms.p50} / p99 ${p.lateness_ms.p99} / max ${p.lateness_ms.max} ms`,
      );
    }
  } finally {
    await client.close();
    await cluster.stop();
  }
}
