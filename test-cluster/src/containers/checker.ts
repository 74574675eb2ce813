/**
 * A total-queue checker in the style of Jepsen's: given the whole history of
 * a delay-queue workload, which promises were broken.
 *
 * - lost: a publish the cluster acknowledged was never delivered;
 * - unexpected: a delivery of a value no publish attempted, or of one whose
 *   publish certainly failed;
 * - early: a delivery received before its delay could have passed (publish
 *   invocation + delay, on the one clock this machine has), or whose due time
 *   the server stamped before the publish was even sent.
 *
 * Duplicates (at-least-once redeliveries) and values stored under two ids
 * are counted, not failures. A pure function: no clock, no I/O.
 */
import type { DeliveryOp, Op, PublishOp } from './history.js';

/** The clocks are one (containers share the host kernel), but Date.now() and the server round to 1 ms. */
export const CLOCK_GRANULARITY_MS = 1;
/** Examples of each problem kept in a result. */
export const MAX_EXAMPLES = 10;

export interface EarlyDelivery {
  readonly value: string;
  /** How much too early, ms. */
  readonly byMs: number;
  readonly reason: 'received-before-due' | 'due-stamped-before-publish';
}

export interface CheckResult {
  readonly valid: boolean;
  readonly attempted: number;
  readonly acknowledged: number;
  readonly failed: number;
  /** Publishes whose outcome is unknown (timeouts, lost connections): either way is correct. */
  readonly indeterminate: number;
  readonly deliveries: number;
  /** Distinct values delivered. */
  readonly delivered: number;
  /** Deliveries beyond the first of each value. */
  readonly duplicates: number;
  /** Values delivered under more than one message id (stored twice). */
  readonly storedTwice: number;
  /** Indeterminate publishes that were delivered (so they were stored). */
  readonly recovered: number;
  readonly lost: number;
  readonly unexpected: number;
  readonly early: number;
  readonly examples: {
    readonly lost: readonly string[];
    readonly unexpected: readonly string[];
    readonly early: readonly EarlyDelivery[];
  };
}

export function checkQueueHistory(history: readonly Op[]): CheckResult {
  const publishes = new Map<string, PublishOp>();
  const deliveries = new Map<string, DeliveryOp[]>();
  for (const op of history) {
    if (op.type === 'publish') {
      if (publishes.has(op.value)) throw new Error(`value ${op.value} was published twice by the workload`);
      publishes.set(op.value, op);
    } else {
      const list = deliveries.get(op.value) ?? [];
      list.push(op);
      deliveries.set(op.value, list);
    }
  }

  const lost: string[] = [];
  let acknowledged = 0;
  let failed = 0;
  let indeterminate = 0;
  let recovered = 0;
  for (const p of publishes.values()) {
    const got = deliveries.has(p.value);
    if (p.outcome === 'ok') {
      acknowledged++;
      if (!got) lost.push(p.value);
    } else if (p.outcome === 'fail') failed++;
    else {
      indeterminate++;
      if (got) recovered++;
    }
  }

  const unexpected: string[] = [];
  const early: EarlyDelivery[] = [];
  let total = 0;
  let duplicates = 0;
  let storedTwice = 0;
  for (const [value, list] of deliveries) {
    total += list.length;
    duplicates += list.length - 1;
    if (new Set(list.map((d) => d.id)).size > 1) storedTwice++;
    const p = publishes.get(value);
    if (p === undefined || p.outcome === 'fail') {
      unexpected.push(value);
      continue;
    }
    const notBeforeMs = p.invokedAtMs + p.delayMs;
    for (const d of list) {
      if (d.receivedAtMs + CLOCK_GRANULARITY_MS < notBeforeMs) {
        early.push({ value, byMs: notBeforeMs - d.receivedAtMs, reason: 'received-before-due' });
      } else if (d.dueAtMs + CLOCK_GRANULARITY_MS < notBeforeMs) {
        early.push({ value, byMs: notBeforeMs - d.dueAtMs, reason: 'due-stamped-before-publish' });
      }
    }
  }

  return {
    valid: lost.length === 0 && unexpected.length === 0 && early.length === 0,
    attempted: publishes.size,
    acknowledged,
    failed,
    indeterminate,
    deliveries: total,
    delivered: deliveries.size,
    duplicates,
    storedTwice,
    recovered,
    lost: lost.length,
    unexpected: unexpected.length,
    early: early.length,
    examples: {
      lost: lost.slice(0, MAX_EXAMPLES),
      unexpected: unexpected.slice(0, MAX_EXAMPLES),
      early: early.slice(0, MAX_EXAMPLES),
    },
  };
}

/** Availability from periodic leader samples: the longest stretch in which no answering node led. */
export interface LeaderSample {
  readonly atMs: number;
  /** Ids of the nodes that answered and reported role leader. */
  readonly leaders: readonly string[];
}

export interface LeaderSummary {
  /** Longest time from the first sample without a leader to the next sample with one, ms. */
  readonly maxNoLeaderMs: number;
  /** Times the observed leader became another node (a gap and the same node again is no change). */
  readonly leaderChanges: number;
  /** Samples in which two nodes both claimed leadership (possible across terms; Raft forbids it within one). */
  readonly multiLeaderSamples: number;
}

export function summarizeLeaders(samples: readonly LeaderSample[]): LeaderSummary {
  let maxGap = 0;
  let gapStart: number | undefined;
  let changes = 0;
  let multi = 0;
  let last: string | undefined;
  for (const s of samples) {
    if (s.leaders.length > 1) multi++;
    const leader = s.leaders.length === 1 ? s.leaders[0] : undefined;
    if (s.leaders.length === 0) {
      gapStart ??= s.atMs;
      continue;
    }
    if (gapStart !== undefined) {
      maxGap = Math.max(maxGap, s.atMs - gapStart);
      gapStart = undefined;
    }
    if (leader !== undefined && leader !== last) {
      if (last !== undefined) changes++;
      last = leader;
    }
  }
  const end = samples[samples.length - 1];
  if (gapStart !== undefined && end !== undefined) maxGap = Math.max(maxGap, end.atMs - gapStart);
  return { maxNoLeaderMs: maxGap, leaderChanges: changes, multiLeaderSamples: multi };
}
