/**
 * Group limits in the broker simulation: some seeds give the consumed
 * group rate and in-flight limits before any consumer subscribes, and lift
 * them when the faults heal; two rules check every lease the cluster applied
 * against them.
 *
 * The rules read the applied log (`AppliedLog`, applied-log.ts: every committed command with
 * its result, recorded by whichever replica applied it first; apply is
 * deterministic, so any replica's result is every replica's), not the
 * consumers' history: a lease counts whether or not its delivery reached a
 * consumer. Leases are judged against the settings in effect where their
 * command lies in the log (a settings change starts a new segment):
 *  - `rate-within-limit`: in any window of W ms, at most
 *    `burst + max_deliveries_per_second * W / 1000` leases of the group start
 *    (a lease's start: its command's time, or its entry's due time when taken ahead);
 *  - `in-flight-within-limit`: at no moment do more than `max_in_flight`
 *    leases of the group run, a lease running from its start until its end,
 *    its ack or nack applied, its message's expiry (TTL) applied, or,
 *    extended, its new end.
 */
import { Prng } from '@fermata/raft/sim-ports';
import { DEFAULT_GROUP } from '../keys.js';
import type { GroupSettingsInput } from '../state/commands/commands.js';
import type { LeaseOutcome } from '../state/commands/results.js';
import { AlreadyExistsError } from '../state/model/errors.js';
import { effectiveGroupSettings } from '../state/model/records.js';
import type { AppliedLog } from './applied-log.js';
import type { Violation } from './checker.js';
import { type ClientWorld, pickNode, TOPIC, timed } from './clients.js';
import type { SimBrokerNode } from './sim-node.js';

/** The limits a seed gives the consumed group, or none (two seeds in three). Drawn from their own stream. */
export function limitsForBrokerSeed(seed: number): GroupSettingsInput | undefined {
  const r = new Prng((seed ^ 0x4c1_1175) >>> 0);
  if (!r.chance(1 / 3)) return undefined;
  const rate = r.chance(0.75) ? r.pick([1, 2, 5, 20]) : 0;
  const maxInFlight = rate === 0 || r.chance(0.75) ? r.int(1, 6) : 0;
  return { maxDeliveriesPerSecond: rate, burst: rate > 0 ? r.int(1, 8) : 0, maxInFlight };
}

const LIMIT_FIELDS = ['max_deliveries_per_second', 'burst', 'max_in_flight'];

/**
 * Sets (`limits`) or lifts (undefined) the consumed group's limits through
 * whichever node leads, retrying every 300 ms until answered; the topic is
 * created first when it does not exist yet. `onDone` runs at the answer.
 */
export function replicateGroupLimits(
  w: ClientWorld,
  leader: () => SimBrokerNode | undefined,
  limits: GroupSettingsInput | undefined,
  onDone: () => void,
): void {
  const settings = limits ?? { maxDeliveriesPerSecond: 0, burst: 0, maxInFlight: 0 };
  const attempt = (): void => {
    // Limits are the chaos's: once the calm began they are not tried again (only lifted).
    if (limits !== undefined && w.calm) return;
    const node = pickNode(w, leader()?.id);
    const retry = (): void => {
      w.sched.at(300, () => 'retry group limits', attempt);
    };
    if (!node) {
      retry();
      return;
    }
    const { proposer, reader } = node.ctx;
    timed(
      w,
      async () => {
        if (!(await reader.getTopic(TOPIC))) {
          await proposer.run({ kind: 'create-topic', name: TOPIC }).catch((e: unknown) => {
            // Created meanwhile by a publish: as good.
            if (!(e instanceof AlreadyExistsError)) throw e;
          });
        }
        return proposer.run({
          kind: 'update-group',
          topic: TOPIC,
          group: DEFAULT_GROUP,
          settings,
          updateMask: LIMIT_FIELDS,
        });
      },
      (r) => {
        if (r.kind !== 'update-group') {
          retry();
          return;
        }
        w.history.note(
          w.sched.nowMs,
          `group limits rate ${settings.maxDeliveriesPerSecond} burst ${settings.burst} in-flight ${settings.maxInFlight} on ${node.id}`,
        );
        onDone();
      },
      retry,
    );
  };
  attempt();
}

interface Lease {
  readonly startMs: number;
  endMs: number;
}

interface Segment {
  readonly rate: number;
  readonly burst: number;
  readonly maxInFlight: number;
  readonly leases: Lease[];
}

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

/** The first lease of `topic`/`group` that broke `rate-within-limit` or `in-flight-within-limit`, if any. */
export function checkGroupLimits(
  log: AppliedLog,
  topic = TOPIC,
  group = DEFAULT_GROUP,
): Violation | undefined {
  const segments: Segment[] = [];
  let current: Segment | undefined;
  const byTag = new Map<string, Lease>();
  /** Each message's last lease: an expiry (its TTL) ends it, running or not. */
  const byId = new Map<bigint, Lease>();
  const lease = (o: LeaseOutcome) => {
    if (o.status !== 'leased' || !o.newTag || !current) return;
    const l = { startMs: o.startsAtMs!, endMs: o.leaseExpiresAtMs! };
    current.leases.push(l);
    byTag.set(hex(o.newTag), l);
    if (o.id !== undefined) byId.set(o.id, l);
  };
  const end = (tag: Uint8Array, atMs: number): void => {
    const l = byTag.get(hex(tag));
    if (l) l.endMs = Math.min(l.endMs, atMs);
  };
  for (const { cmd, result, nowMs } of log.commands()) {
    if ((result.kind === 'update-group' || result.kind === 'create-group') && result.topic.name === topic) {
      const s = effectiveGroupSettings(result.topic, group);
      const same =
        current &&
        current.rate === s.maxDeliveriesPerSecond &&
        current.burst === s.burst &&
        current.maxInFlight === s.maxInFlight;
      if (!same) {
        current = { rate: s.maxDeliveriesPerSecond, burst: s.burst, maxInFlight: s.maxInFlight, leases: [] };
        segments.push(current);
      }
    } else if (cmd.kind === 'lease' && result.kind === 'lease') {
      if (cmd.topic === topic && (cmd.group || DEFAULT_GROUP) === group)
        for (const o of result.outcomes) lease(o);
    } else if (cmd.kind === 'lease-runs' && result.kind === 'lease') {
      let at = 0;
      for (const run of cmd.runs) {
        const outcomes = result.outcomes.slice(at, (at += run.tags.length));
        if (run.topic === topic && (run.group || DEFAULT_GROUP) === group) for (const o of outcomes) lease(o);
      }
    } else if (cmd.kind === 'expire' && result.kind === 'expire') {
      for (const o of result.outcomes) {
        const l = o.status === 'expired' || o.status === 'dead-lettered' ? byId.get(o.id) : undefined;
        if (l) l.endMs = Math.min(l.endMs, nowMs);
      }
    } else if (cmd.kind === 'ack' && result.kind === 'ack') {
      for (const o of result.outcomes) if (o.status === 'ok') end(o.tag, nowMs);
    } else if (cmd.kind === 'nack' && result.kind === 'nack') {
      if (result.outcome.status === 'ok') end(cmd.tag, nowMs);
    } else if (cmd.kind === 'extend' && result.kind === 'extend') {
      const { status, newTag, dueAtMs } = result.outcome;
      const l = byTag.get(hex(cmd.tag));
      if (status === 'ok' && newTag && l && dueAtMs !== undefined) {
        l.endMs = dueAtMs;
        byTag.set(hex(newTag), l);
      }
    }
  }
  for (const s of segments) {
    const v = checkRate(s, topic, group) ?? checkInFlight(s, topic, group);
    if (v) return v;
  }
  return undefined;
}

/** Over every window at once: n leases starting in [a, b] need n <= burst + rate * (b - a) / 1000. */
function checkRate(s: Segment, topic: string, group: string): Violation | undefined {
  if (s.rate === 0) return undefined;
  const starts = s.leases.map((l) => l.startMs).sort((a, b) => a - b);
  if (starts.length === 0) return undefined;
  const t0 = starts[0]!;
  // count(i..j) = j - i + 1 <= burst + rate * (t_j - t_i) / 1000  <=>  g(j) - g(i) <= burst - 1
  let minG = Number.POSITIVE_INFINITY;
  let minAt = 0;
  for (let j = 0; j < starts.length; j++) {
    const g = j - ((starts[j]! - t0) * s.rate) / 1000;
    if (g < minG) {
      minG = g;
      minAt = j;
    }
    if (g - minG > s.burst - 1 + 1e-6) {
      const w = starts[j]! - starts[minAt]!;
      return {
        rule: 'rate-within-limit',
        message: `${j - minAt + 1} leases of ${topic}/${group} started within ${w} ms (${starts[minAt]}..${starts[j]}), over burst ${s.burst} + ${s.rate}/s x ${w} ms`,
      };
    }
  }
  return undefined;
}

/** At each lease's start, the leases running (start <= t < end) are at most max_in_flight. */
function checkInFlight(s: Segment, topic: string, group: string): Violation | undefined {
  if (s.maxInFlight === 0) return undefined;
  const events: Array<{ atMs: number; d: number }> = [];
  for (const l of s.leases) {
    if (l.endMs <= l.startMs) continue;
    events.push({ atMs: l.startMs, d: 1 }, { atMs: l.endMs, d: -1 });
  }
  // Ends before starts at one time: a lease over at t no longer runs at t.
  events.sort((a, b) => a.atMs - b.atMs || a.d - b.d);
  let running = 0;
  for (const e of events) {
    running += e.d;
    if (running > s.maxInFlight) {
      return {
        rule: 'in-flight-within-limit',
        message: `${running} leases of ${topic}/${group} ran at ${e.atMs}, over max_in_flight ${s.maxInFlight}`,
      };
    }
  }
  return undefined;
}
