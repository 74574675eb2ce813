// A consumer in a process of its own, for `burst --probe`: so that the probe's lateness leaves
// out the event-loop stalls of the burst's consumers in the benchmark process.
//   node --conditions=fermata-source --import tsx scripts/bench/probe-consumer.ts <topic> <prefetch> <endpoint>...
// Prints `ready` once subscribed, then one line `<seq> <receivedAtMs>` per message (acked
// manually). A `start` line on stdin starts its event-loop lag histogram anew. On stdin's end
// it prints `lag <p99> <max>`: its own event-loop lag (ms) since `start` (or since it
// subscribed), which delays the SDK's release of held deliveries; then it ends its
// subscription and exits.

import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { FermataClient, silentLogger } from '@fermata/sdk';
import { ensureTopic, seqOf } from './cluster.js';

const [topic, prefetchText, ...endpoints] = process.argv.slice(2);
const prefetch = Number(prefetchText);
if (!topic || !Number.isInteger(prefetch) || prefetch < 1 || endpoints.length === 0) {
  process.stderr.write('usage: probe-consumer.ts <topic> <prefetch> <endpoint>...\n');
  process.exit(2);
}
const client = new FermataClient({ endpoints, logger: silentLogger });
await ensureTopic(client, topic);
const sub = client.subscribe(topic, { prefetch, concurrency: prefetch, mode: 'manual' }, async (m) => {
  process.stdout.write(`${seqOf(m)} ${m.receivedAtMs}\n`);
  await m.ack();
});
while (!sub.connected) await new Promise((r) => setTimeout(r, 20));
const lag = monitorEventLoopDelay({ resolution: 1 });
lag.enable();
process.stdout.write('ready\n');
createInterface({ input: process.stdin }).on('line', (line) => {
  if (line === 'start') lag.reset();
});
process.stdin.on('end', () => {
  lag.disable();
  process.stdout.write(`lag ${lag.percentile(99) / 1e6} ${lag.max / 1e6}\n`);
  void sub
    .close()
    .then(() => client.close())
    .finally(() => process.exit(0));
});
