/**
 * `due-load-counts-the-store`: at the end of a run, the due-load histogram
 * of every queue of the final leader that keeps one equals, at every level
 * and bucket, its pending entries read one by one (docs/design.md,
 * "Due-load forecast"), whatever faults, failovers and snapshots the run
 * went through.
 */
import { DEFAULT_GROUP } from '../keys.js';
import { DUE_LOAD_LEVEL_MS, levelBucketMs } from '../state/model/due-load.js';
import { scanDueLoad } from '../state/stores/due-load.js';
import type { Violation } from './checker.js';
import type { SimBrokerNode } from './sim-node.js';

/** Past any due time a run makes (year 2255). */
const END_MS = 9_000_000_000_000;

export async function checkDueLoad(l: SimBrokerNode): Promise<Violation | undefined> {
  const reader = l.ctx.reader;
  for (const q of await reader.listQueues()) {
    const topic = await reader.getTopic(q.topic);
    // A queue being deleted shrinks in purge steps; its histogram is checked while it lives.
    if (!q.dueLoad || !topic || topic.deleting || !topic.groups.includes(q.group)) continue;
    const dues: number[] = [];
    let pageToken: Uint8Array | undefined;
    do {
      const page = await reader.listMessages(q.topic, { group: q.group, limit: 1_000, pageToken }, 0);
      for (const it of page.items) if (!it.entry.inFlight) dues.push(it.entry.dueAtMs);
      pageToken = page.nextPageToken;
    } while (pageToken);
    for (let level = 0; level < DUE_LOAD_LEVEL_MS.length; level++) {
      const want = new Map<number, number>();
      for (const due of dues) {
        const start = levelBucketMs(level, due);
        want.set(start, (want.get(start) ?? 0) + 1);
      }
      const got = new Map<number, number>();
      await scanDueLoad(reader.view, q.queueHash, level, 0, END_MS, (start, n) => got.set(start, n));
      const starts = new Set([...want.keys(), ...got.keys()]);
      for (const start of starts) {
        if ((want.get(start) ?? 0) === (got.get(start) ?? 0)) continue;
        const name = q.group === DEFAULT_GROUP ? q.topic : `${q.topic}/${q.group}`;
        return {
          rule: 'due-load-counts-the-store',
          message: `${name} on ${l.id}: the histogram counts ${got.get(start) ?? 0} pending at level ${level} bucket ${start}, the store holds ${want.get(start) ?? 0}`,
        };
      }
    }
  }
  return undefined;
}
