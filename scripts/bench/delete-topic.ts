// delete-topic: fills a topic with --messages (default 1,000,000; --quick 20,000) pending
// messages on three nodes; another topic then takes single publishes from 4 closed-loop clients,
// alone for --before-s (60; --quick 1) and then while the big topic is deleted. Prints the other
// topic's publish latency before and during the removal (p99 the figure), the time DeleteTopic
// takes to answer and the time until every record is gone, the elections and each node's
// event-loop lag in both phases (this machine's own stalls, beside the deletion's), the most
// records one applied command touched, and each node's peak RSS over the whole run against the
// Kubernetes manifests' memory limit (1 GiB). Use --dist to run the built CLI, as a deployment
// does (the RSS figures are then comparable to a pod's).
import { FermataError } from '@fermata/sdk';
import {
  eventLoopLag,
  load1,
  newClient,
  payloadFor,
  produceStreams,
  rssBytes,
  serverGauge,
  sleep,
  startBenchCluster,
  stats,
} from './cluster.js';
import { emit, flag, option, printTargets, reported, round, summary, target } from './report.js';

/** The memory limit of deploy/k8s/base/statefulset.yaml. */
const MANIFEST_LIMIT_MB = 1024;
const MB = 1024 * 1024;

export async function run(args: string[]): Promise<void> {
  const quick = flag(args, 'quick');
  const messages = option(args, 'messages', quick ? 20_000 : 1_000_000);
  const cluster = await startBenchCluster(args);
  const client = newClient(cluster);
  const big = 'bench-delete-big';
  const other = 'bench-delete-other';
  const peakRss = new Map<string, number>(cluster.nodes.map((n) => [n.id, 0]));
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      for (const n of cluster.nodes) peakRss.set(n.id, Math.max(peakRss.get(n.id) ?? 0, rssBytes(n.pid)));
      await sleep(200);
    }
  })();
  try {
    await client.createTopic(big);
    const atStart = await raftCounts(cluster);
    const t0 = performance.now();
    const fill = await produceStreams(client, {
      total: messages,
      producers: 8,
      batch: 1_000,
      topic: big,
      make: (i) => ({ payload: payloadFor(i), delayMs: 3_600_000 }),
      latencies: false,
    });
    const fillS = (performance.now() - t0) / 1000;
    summary(`delete-topic: ${messages} messages in ${big} in ${round(fillS, 1)} s (${fill.failed} failed)`);

    // The other topic: 4 clients, one publish at a time each, throughout.
    let phase: 'before' | 'during' | 'after' = 'before';
    const latency = { before: [] as number[], during: [] as number[] };
    const failures = { before: 0, during: 0 };
    let publishing = true;
    const publishers = Array.from({ length: 4 }, async (_, w) => {
      for (let i = 0; publishing; i++) {
        const p = phase;
        const at = performance.now();
        try {
          await client.publish(other, payloadFor(w * 1_000_000 + i), { delayMs: 3_600_000 });
          if (p !== 'after') latency[p].push(performance.now() - at);
        } catch {
          if (p !== 'after') failures[p]++;
        }
      }
    });
    // The same load without a deletion first, as long as a deletion of the default size takes
    // here, for the comparison: leader changes and event-loop stalls this machine has anyway.
    const filled = await raftCounts(cluster);
    await lagOf(cluster); // resets each node's event-loop histogram
    await sleep(option(args, 'before-s', quick ? 1 : 60) * 1000);
    const lagBefore = await lagOf(cluster);
    const beforeDelete = await raftCounts(cluster);
    phase = 'during';
    const deleteAt = performance.now();
    const removed = await client.deleteTopic(big);
    const answerMs = performance.now() - deleteAt;
    // Gone once GetTopicStats answers NOT_FOUND (its last purge step removed the topic record).
    for (;;) {
      try {
        await client.topicStats(big);
      } catch (err) {
        if (err instanceof FermataError && err.code === 5) break;
      }
      await sleep(100);
    }
    const removeS = (performance.now() - deleteAt) / 1000;
    phase = 'after';
    publishing = false;
    await Promise.all(publishers);
    const lag = await lagOf(cluster);
    const afterDelete = await raftCounts(cluster);
    // The counter counts a change to none too: an election is two.
    const changesDuring = afterDelete.changes - beforeDelete.changes;
    const changesQuiet = beforeDelete.changes - filled.changes;
    const changesFill = filled.changes - atStart.changes;
    // Elections: the term rises with each (a follower that missed heartbeats and was refused
    // its pre-vote counts a change to none and back, with no election).
    const electionsDuring = afterDelete.term - beforeDelete.term;
    const electionsQuiet = beforeDelete.term - filled.term;
    const electionsFill = filled.term - atStart.term;
    const mostRecords = Math.max(
      ...(await Promise.all(cluster.nodes.map((n) => serverGauge(n, 'fermata_apply_command_records_max')))),
    );
    const bound = await serverGauge(cluster.nodes[0]!, 'fermata_apply_command_bound_records');
    const before = stats(latency.before);
    const during = stats(latency.during);
    sampling = false;
    await sampler;
    const rss = Object.fromEntries([...peakRss].map(([id, b]) => [id, round(b / MB, 1)]));
    const maxRss = Math.max(...Object.values(rss));
    const record = {
      scenario: 'delete-topic',
      messages,
      removed_messages: Number(removed),
      fill_s: round(fillS, 1),
      delete_answer_ms: round(answerMs, 1),
      remove_all_s: round(removeS, 1),
      other_publish_before: before,
      other_publish_during: during,
      other_publish_failed_during: failures.during,
      elections_during: electionsDuring,
      elections_before: electionsQuiet,
      elections_fill: electionsFill,
      leader_changes_during: changesDuring,
      leader_changes_fill: changesFill,
      leader_changes_before: changesQuiet,
      event_loop_lag_before_ms: lagBefore,
      event_loop_lag_during_ms: lag,
      apply_command_records_max: mostRecords,
      apply_command_bound_records: bound,
      peak_rss_mb: rss,
      manifest_memory_limit_mb: MANIFEST_LIMIT_MB,
      load1: load1(),
      targets: [
        target('other_publish_p99_during_ms', during.p99, '<=', 1_000, !quick),
        target('peak_rss_mb', maxRss, '<=', MANIFEST_LIMIT_MB, !quick),
        target('elections_during', electionsDuring, '<=', 0, !quick),
        reported('remove_all_s', round(removeS, 1)),
      ],
    };
    emit(record);
    summary(
      `delete-topic: DeleteTopic answered in ${round(answerMs, 1)} ms, every record gone after ${round(removeS, 1)} s; ` +
        `other topic's publishes p99 ${before.p99} ms before, ${during.p99} ms during (${during.n} answered, ${failures.during} failed); ` +
        `elections ${electionsDuring} during, ${electionsQuiet} before, ${electionsFill} while filling ` +
        `(leader changes seen, a change to none counted too: ${changesDuring}, ${changesQuiet}, ${changesFill}); ` +
        `event-loop lag max ${maxLag(lag)} ms during, ${maxLag(lagBefore)} ms before; most records one command touched ${mostRecords} (bound ${bound}); ` +
        `peak RSS ${Object.entries(rss)
          .map(([id, mb]) => `${id} ${mb} MB`)
          .join(', ')} (limit ${MANIFEST_LIMIT_MB} MB)`,
    );
    printTargets('delete-topic', record.targets);
  } finally {
    sampling = false;
    await sampler;
    await client.close();
    await cluster.stop();
  }
}

/**
 * Leader changes the nodes counted (a change to none counted too) and the Raft term, the most
 * any node reports (a node that was down misses some).
 */
async function raftCounts(cluster: {
  nodes: readonly Parameters<typeof serverGauge>[0][];
}): Promise<{ changes: number; term: number }> {
  const most = async (name: string): Promise<number> => {
    const each = await Promise.all(cluster.nodes.map((n) => serverGauge(n, name)));
    return Math.max(...each.filter((c) => Number.isFinite(c)));
  };
  return { changes: await most('fermata_raft_leader_changes_total'), term: await most('fermata_raft_term') };
}

/** Each node's event-loop lag since the previous scrape. */
async function lagOf(cluster: {
  nodes: readonly (Parameters<typeof eventLoopLag>[0] & { id: string })[];
}): Promise<Record<string, { p99: number; max: number } | undefined>> {
  return Object.fromEntries(
    await Promise.all(cluster.nodes.map(async (n) => [n.id, await eventLoopLag(n)] as const)),
  );
}

function maxLag(lag: Record<string, { max: number } | undefined>): number {
  return Math.max(...Object.values(lag).map((l) => l?.max ?? 0));
}
