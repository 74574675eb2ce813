// Recovery: with N messages pending (24 h delay; 64 producers x batches of 100) and 100
// messages already due but not yet consumed:
//  - node: SIGKILL one follower, start it again: time from spawn to /livez and to /readyz;
//  - cluster: stop all three (SIGTERM), start them again: time from spawn to the first
//    /readyz, to a ready leader, and to the first delivery to a consumer that was waiting.
// Times include the process start itself (tsx loading the source: see `livez_ms`).
import { UnavailableError } from '@fermata/sdk';
import {
  ensureTopic,
  load1,
  newClient,
  nodeFigures,
  payloadFor,
  produceStreams,
  sleep,
  startBenchCluster,
} from './cluster.js';
import { emit, flag, option, round, summary } from './report.js';

const DAY_MS = 86_400_000;

export async function run(args: string[]): Promise<void> {
  const quick = flag(args, 'quick');
  const pending = option(args, 'pending', quick ? 20_000 : 1_000_000);
  const cluster = await startBenchCluster(args);
  let client = newClient(cluster);
  const topic = 'bench-recovery';
  try {
    const payload = payloadFor(0);
    const r = await produceStreams(client, {
      total: pending,
      producers: 64,
      batch: 100,
      topic,
      make: () => ({ payload, delayMs: DAY_MS }),
      latencies: false,
    });
    await client.publishBatch(
      Array.from({ length: 100 }, (_, i) => ({ topic, payload: payloadFor(i), delayMs: 0 })),
    );
    const figures = await nodeFigures(cluster);

    // One follower: SIGKILL (no flush), start again.
    const leader = await cluster.leader();
    const follower = cluster.others(leader)[0]!;
    await follower.kill('SIGKILL');
    let t0 = Date.now();
    await follower.start();
    const nodeLivez = Date.now() - t0;
    await follower.waitReady(600_000);
    const nodeReady = Date.now() - t0;
    emit({
      scenario: 'recovery',
      quick,
      restart: 'follower (SIGKILL)',
      pending,
      publish_msgs_per_s: round(pending / r.seconds, 0),
      disk_bytes: figures.find((f) => f.node === follower.id)?.disk_bytes,
      livez_ms: nodeLivez,
      readyz_ms: nodeReady,
      load_avg_1m: load1(),
    });
    summary(
      `recovery: follower with ${pending} pending, SIGKILL + start: /livez after ${nodeLivez} ms, /readyz after ${nodeReady} ms`,
    );

    // The whole cluster: graceful stop, start, first delivery.
    await client.close();
    await Promise.all(cluster.nodes.map((nd) => nd.stop()));
    client = newClient(cluster);
    let firstDeliveryAt = 0;
    t0 = Date.now();
    const starting = cluster.nodes.map((nd) => nd.start());
    // A node opens its client port once it has recovered, which can take longer than one connect:
    // ask again until one answers, so the consumer subscribes at once rather than after a backoff.
    for (;;) {
      try {
        await ensureTopic(client, topic);
        break;
      } catch (err) {
        if (!(err instanceof UnavailableError)) throw err;
      }
      await sleep(20);
    }
    const sub = client.subscribe(topic, { prefetch: 100, concurrency: 100 }, () => {
      firstDeliveryAt ||= Date.now();
    });
    await Promise.all(starting);
    const livez = Date.now() - t0;
    const firstReady = await Promise.race(
      cluster.nodes.map((nd) => nd.waitReady(600_000).then(() => Date.now() - t0)),
    );
    await cluster.leader(600_000);
    const leaderReady = Date.now() - t0;
    while (!firstDeliveryAt && Date.now() - t0 < 600_000) await sleep(5);
    const firstDelivery = firstDeliveryAt - t0;
    await sub.close();
    emit({
      scenario: 'recovery',
      quick,
      restart: 'cluster (SIGTERM all, start all)',
      pending,
      livez_ms: livez,
      first_readyz_ms: firstReady,
      leader_ready_ms: leaderReady,
      first_delivery_ms: firstDelivery,
      load_avg_1m: load1(),
    });
    summary(
      `recovery: cluster with ${pending} pending restarted: all /livez ${livez} ms, first /readyz ${firstReady} ms, ` +
        `ready leader ${leaderReady} ms, first delivery ${firstDelivery} ms`,
    );
  } finally {
    await client.close();
    await cluster.stop();
  }
}
