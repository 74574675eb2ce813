/**
 * The total-queue checker: reads a run's History and the final state and
 * reports the first violation of the seven rules (docs/guarantees.md and README.md):
 *  1. acknowledged-publish-ends-as-answered: every acknowledged message ends
 *     delivered and acked, cancelled, expired or dead-lettered, and nothing is
 *     delivered after an ack was answered OK;
 *  2. never-early: no delivery before its due time by the delivering leader's clock,
 *     nor, in true time, before the publish was sent plus its delay (less how far
 *     a leader's clock may run ahead of true time: a stepped clock must not show);
 *  3. cancel-and-reschedule-hold: nothing delivered after CANCELLED, nor before
 *     the new due time after RESCHEDULED;
 *  4. attempts-never-decrease: a new lease of a message never carries a lower attempt;
 *  5. lapsed-tag-settles-nothing / ids-unique-increasing;
 *  6. replicas-converge-and-deliver: equal state digests, nothing left pending;
 *  7. calm-deliveries-timely: once every fault has healed and the backlog it left has
 *     drained, a message due at least CALM_GRACE_MS after the healing reaches a consumer
 *     within TIMELY_MS of its due time.
 * With ordering keys (key-order.ts): key-leased-alone and key-due-order.
 * The eighth, schedule-exactly-once, reads the final leader (schedules.ts); the ninth and
 * tenth, deleted-topic-silent and deletion-completes, the deliveries of the large topic and
 * the final leader (deletions.ts); paused-queue-leases-nothing and no-lease-past-deadline,
 * what the log applied (delivery-controls.ts); rate-within-limit and
 * in-flight-within-limit, every lease the cluster applied for a group with limits (limits.ts).
 */
import type { ControlCall, DeliveryRecord, History, PublishCall, Violation } from './history.js';
import { checkKeyOrder } from './key-order.js';

export type { Violation } from './history.js';

export interface FinalState {
  /** Acknowledged ids the final leader still holds (pending or in flight). */
  readonly stillPresent: ReadonlyMap<bigint, string>;
  /** State digest per live node. */
  readonly digests: ReadonlyMap<string, string>;
  /** Applied index per live node: a lower one names a replica left behind, not one that diverged. */
  readonly applied: ReadonlyMap<string, number>;
  readonly maxAttempts: number;
  /**
   * Source message id -> attempts, for the dead letters the final store holds
   * that left their topic for max attempts. Such a message ended even when the
   * history saw no delivery of its last attempt: a lease counts whether or not
   * its delivery reached a consumer (its stream may have died first).
   */
  readonly deadLettered?: ReadonlyMap<bigint, number>;
  /** Source message ids of the dead letters the final store holds that left their topic past their deadline. */
  readonly deadlineExceeded?: ReadonlySet<bigint>;
  /** The final leader's stamp. */
  readonly endLeaderMs: number;
  /** True time the faults healed (the calm phase began). */
  readonly calmFromMs: number;
  /**
   * A leader's clock minus true time is within [epochMs, epochMs + skew]: a due time by
   * any leader's clock is at most `dueAtMs - epochMs` in true time.
   */
  readonly epochMs: number;
  /**
   * How far leaders' clocks vary ahead of `epochMs` + true time (the skew): a
   * delay measured by leaders ends at most this much early in true time.
   */
  readonly maxClockAheadMs: number;
  /** See TIMELY_MS (default): real processes on a shared machine need more. */
  readonly timelyMs?: number;
  /** How long before its due time a message may be leased (dispatcher.leaseAheadMs): key-due-order. */
  readonly leaseAheadMs?: number;
}

/** Time after the healing for restarts and elections, before the timeliness rule applies. */
export const CALM_GRACE_MS = 3_000;
/** How late, in true time, a message due in the calm phase may reach a consumer. */
export const TIMELY_MS = 500;

export function check(h: History, end: FinalState): Violation | undefined {
  return (
    checkIds(h) ??
    checkDeliveries(h, end.maxClockAheadMs) ??
    checkSettles(h) ??
    checkKeyOrder(h, { ...end, leaseAheadMs: end.leaseAheadMs ?? 0 }) ??
    checkEnds(h, end) ??
    checkConvergence(end) ??
    checkTimely(h, end)
  );
}

function checkIds(h: History): Violation | undefined {
  const byId = new Map<bigint, string>();
  for (const p of h.publishes) {
    if (!p.answer) continue;
    const other = byId.get(p.answer.id);
    if (other !== undefined && other !== p.key) {
      return {
        rule: 'ids-unique-increasing',
        id: p.answer.id,
        message: `id given to keys ${other} and ${p.key}`,
      };
    }
    byId.set(p.answer.id, p.key);
  }
  // A message first sent after another was acknowledged gets a higher id (retries keep their first id).
  const firstSentMs = new Map<string, number>();
  for (const p of h.publishes)
    firstSentMs.set(p.key, Math.min(firstSentMs.get(p.key) ?? p.invokedAtMs, p.invokedAtMs));
  const answered = h.publishes
    .filter((p) => p.answer && !p.answer.deduplicated)
    .sort((a, b) => (a.answeredAtMs ?? 0) - (b.answeredAtMs ?? 0));
  // After each answer (in answer order): the highest id answered so far, and the highest of
  // another key than its (a key's own answers never count against it). Linear, for long runs.
  const idOf = (p: PublishCall) => p.answer!.id;
  const prefix: Array<{ top: PublishCall; other: PublishCall | undefined }> = [];
  let top: PublishCall | undefined;
  let other: PublishCall | undefined;
  for (const p of answered) {
    if (!top) top = p;
    else if (p.key === top.key) {
      if (idOf(p) > idOf(top)) top = p;
    } else if (idOf(p) > idOf(top)) {
      other = top;
      top = p;
    } else if (!other || idOf(p) > idOf(other)) other = p;
    prefix.push({ top, other });
  }
  for (const later of answered) {
    const sentMs = firstSentMs.get(later.key)!;
    // The last answer before `later` was first sent.
    let lo = 0;
    let hi = answered.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((answered[mid]!.answeredAtMs ?? 0) < sentMs) lo = mid + 1;
      else hi = mid;
    }
    if (lo === 0) continue;
    const seen = prefix[lo - 1]!;
    const earlier = seen.top.key !== later.key ? seen.top : seen.other;
    if (earlier && idOf(earlier) >= idOf(later)) {
      return {
        rule: 'ids-unique-increasing',
        id: idOf(later),
        message: `${later.key} (first sent ${sentMs}) got id ${idOf(later)} <= ${idOf(earlier)} of ${earlier.key} answered ${earlier.answeredAtMs}`,
      };
    }
  }
  return undefined;
}

function controlsOf(h: History): Map<bigint, ControlCall[]> {
  const out = new Map<bigint, ControlCall[]>();
  for (const c of h.controls) {
    let list = out.get(c.id);
    if (!list) out.set(c.id, (list = []));
    list.push(c);
  }
  return out;
}

function checkDeliveries(h: History, maxClockAheadMs: number): Violation | undefined {
  const acked = h.acknowledged();
  const controls = controlsOf(h);
  const okAcks = new Map<bigint, number>();
  for (const s of h.settles) {
    if (s.kind === 'ack' && s.outcome === 'ok' && s.answeredAtMs !== undefined) {
      okAcks.set(s.id, Math.min(okAcks.get(s.id) ?? Number.POSITIVE_INFINITY, s.answeredAtMs));
    }
  }
  // A retried publish (the same key) was first sent by its first attempt, whichever answer came.
  const firstSentMs = new Map<string, number>();
  for (const p of h.publishes)
    firstSentMs.set(p.key, Math.min(firstSentMs.get(p.key) ?? p.invokedAtMs, p.invokedAtMs));
  const last = new Map<bigint, DeliveryRecord>();
  for (const d of h.deliveries) {
    const where = `delivery of ${d.id} attempt ${d.attempt} at ${d.atMs} on ${d.node}`;
    if (d.handoverLeaderMs < d.dueAtMs) {
      return {
        rule: 'never-early',
        id: d.id,
        message: `${where}: handed over at ${d.handoverLeaderMs} < due ${d.dueAtMs}`,
      };
    }
    const pub = acked.get(d.id);
    const mine = controls.get(d.id) ?? [];
    const reschedBefore = mine.filter((c) => c.kind === 'reschedule' && c.invokedAtMs <= d.atMs);
    if (
      pub?.answer &&
      d.attempt === 1 &&
      reschedBefore.length === 0 &&
      d.handoverLeaderMs < pub.answer.dueAtMs
    ) {
      return {
        rule: 'never-early',
        id: d.id,
        message: `${where}: handed over at ${d.handoverLeaderMs} < the publish answer's due ${pub.answer.dueAtMs}`,
      };
    }
    // In true time: a delay measured by leaders whose clocks run at most maxClockAheadMs ahead
    // ends no earlier than the publish was sent plus the delay, less that (a first delivery,
    // no reschedule sent before it). A delivery held until its lease starts is handed over
    // that much after it arrived.
    const trueHandoverMs = d.atMs + Math.max(0, d.handoverLeaderMs - d.sentLeaderMs);
    const sentMs = pub ? (firstSentMs.get(pub.key) ?? pub.invokedAtMs) : 0;
    if (
      pub?.delayMs !== undefined &&
      d.attempt === 1 &&
      reschedBefore.length === 0 &&
      trueHandoverMs + maxClockAheadMs < sentMs + pub.delayMs
    ) {
      return {
        rule: 'never-early',
        id: d.id,
        message: `${where}: handed over at true time ${trueHandoverMs}, ${sentMs + pub.delayMs - trueHandoverMs} ms before the publish first sent at ${sentMs} plus its delay ${pub.delayMs}`,
      };
    }
    const cancelled = mine.find(
      (c) => c.kind === 'cancel' && c.status === 'cancelled' && c.answeredAtMs! < d.atMs,
    );
    if (cancelled) {
      return {
        rule: 'cancel-and-reschedule-hold',
        id: d.id,
        message: `${where}: after CANCELLED answered at ${cancelled.answeredAtMs}`,
      };
    }
    const lastResched = reschedBefore.at(-1);
    if (
      lastResched?.status === 'rescheduled' &&
      lastResched.answeredAtMs! < d.atMs &&
      d.attempt === 1 &&
      d.handoverLeaderMs < lastResched.dueAtMs!
    ) {
      return {
        rule: 'cancel-and-reschedule-hold',
        id: d.id,
        message: `${where}: handed over at ${d.handoverLeaderMs} before the RESCHEDULED due ${lastResched.dueAtMs}`,
      };
    }
    const ackAt = okAcks.get(d.id);
    if (ackAt !== undefined && ackAt < d.atMs) {
      return {
        rule: 'acknowledged-publish-ends-as-answered',
        id: d.id,
        message: `${where}: after an ack answered OK at ${ackAt}`,
      };
    }
    const prev = last.get(d.id);
    if (prev) {
      // A lease taken ahead and handed back before it started (a nack landing before the start,
      // applyNack) does not count its attempt, so the next lease may carry the same one.
      const bad = prev.tag === d.tag ? prev.attempt !== d.attempt : d.attempt < prev.attempt;
      if (bad) {
        return {
          rule: 'attempts-never-decrease',
          id: d.id,
          message: `${where} (tag ${d.tag.slice(-8)}) follows attempt ${prev.attempt} (tag ${prev.tag.slice(-8)}) at ${prev.atMs}`,
        };
      }
    }
    last.set(d.id, d);
  }
  return undefined;
}

function checkSettles(h: History): Violation | undefined {
  const byId = new Map<bigint, DeliveryRecord[]>();
  for (const d of h.deliveries) {
    let list = byId.get(d.id);
    if (!list) byId.set(d.id, (list = []));
    list.push(d);
  }
  for (const s of h.settles) {
    if (s.outcome !== 'ok') continue;
    const own = (byId.get(s.id) ?? []).find((d) => d.tag === s.tag);
    if (!own) continue; // an extended tag: its delivery is the one it extended
    const newer = (byId.get(s.id) ?? []).find((d) => d.attempt > own.attempt && d.atMs < s.invokedAtMs);
    if (newer) {
      return {
        rule: 'lapsed-tag-settles-nothing',
        id: s.id,
        message: `${s.kind} of attempt ${own.attempt}'s tag answered OK at ${s.answeredAtMs}, after attempt ${newer.attempt} was delivered at ${newer.atMs}`,
      };
    }
  }
  return undefined;
}

function checkEnds(h: History, end: FinalState): Violation | undefined {
  const controls = controlsOf(h);
  const ended = new Map<bigint, string>();
  for (const s of h.settles) {
    if (s.kind === 'ack' && (s.outcome === 'ok' || s.outcome === 'unknown')) ended.set(s.id, 'acked');
  }
  for (const d of h.deliveries) if (d.attempt >= end.maxAttempts) ended.set(d.id, 'dead-lettered');
  for (const [id, attempts] of end.deadLettered ?? []) {
    if (attempts >= end.maxAttempts) ended.set(id, 'dead-lettered');
  }
  for (const id of end.deadlineExceeded ?? []) ended.set(id, 'dead-lettered');
  for (const [id, pub] of h.acknowledged()) {
    if (end.stillPresent.has(id)) {
      return {
        rule: 'replicas-converge-and-deliver',
        id,
        message: `${pub.key} still pending after quiescence (${end.stillPresent.get(id)})`,
      };
    }
    if (ended.has(id)) continue;
    const mine = controls.get(id) ?? [];
    if (mine.some((c) => c.kind === 'cancel' && (c.status === 'cancelled' || c.status === 'unknown')))
      continue;
    if (pub.ttlMs > 0) continue; // may have expired (the janitor ends it by the leader's clock)
    const delivered = h.deliveries.some((d) => d.id === id);
    return {
      rule: 'acknowledged-publish-ends-as-answered',
      id,
      message: `${pub.key} (acknowledged at ${pub.answeredAtMs}) is gone, ${delivered ? 'delivered but never acked' : 'never delivered'}, not cancelled, no TTL`,
    };
  }
  return undefined;
}

function checkConvergence(end: FinalState): Violation | undefined {
  const distinct = new Set(end.digests.values());
  if (distinct.size <= 1) return undefined;
  return {
    rule: 'replicas-converge-and-deliver',
    message: `state digests differ (digest@applied): ${[...end.digests].map(([n, d]) => `${n}=${d.slice(0, 12)}@${end.applied.get(n)}`).join(' ')}`,
  };
}

/**
 * With no faults left, nothing should hold a due message back: a message acknowledged
 * before it falls due, due at least CALM_GRACE_MS after the healing and not before the
 * backlog drained, with no TTL and no cancel or reschedule, reaches a consumer (its first
 * delivery, held ahead or not) at most TIMELY_MS after its due time. A stall of the
 * dispatcher (a queue left behind its cursor, a timer armed late) breaks this rule while
 * every message is still delivered in the end.
 *
 * The backlog is what fell due before the healing and reached a consumer only after it:
 * it is handed out in due order at the pace the consumers settle (their prefetch over
 * their handling time), so a message due while it drains waits behind it. The rule
 * begins when its last delivery was sent; the drain's own pace is not checked.
 */
function checkTimely(h: History, end: FinalState): Violation | undefined {
  const calm = calmWindow(h, end);
  for (const { id, pub, dueMs } of calm.checked) {
    const at = calm.firstAt.get(id);
    if (at !== undefined && at > dueMs + (end.timelyMs ?? TIMELY_MS)) {
      return {
        rule: 'calm-deliveries-timely',
        id,
        message: `${pub.key} due by ${dueMs} (true time, healed at ${end.calmFromMs}, backlog drained at ${calm.drainedMs}) first reached a consumer at ${at}, ${at - dueMs} ms late`,
      };
    }
  }
  return undefined;
}

export interface CalmWindow {
  /** When the last delivery of the backlog was sent (the healing, if none was left). */
  readonly drainedMs: number;
  /** The messages calm-deliveries-timely holds to TIMELY_MS: a run that checks none proves nothing. */
  readonly checked: ReadonlyArray<{ id: bigint; pub: PublishCall; dueMs: number }>;
  readonly firstAt: ReadonlyMap<bigint, number>;
}

/** The messages calm-deliveries-timely applies to, and where it begins. */
export function calmWindow(h: History, end: FinalState): CalmWindow {
  const controlled = new Set(h.controls.map((c) => c.id));
  const firstAt = new Map<bigint, number>();
  let drainedMs = end.calmFromMs;
  for (const d of h.deliveries) {
    if (!firstAt.has(d.id)) firstAt.set(d.id, d.atMs);
    if (d.atMs >= end.calmFromMs && d.dueAtMs - end.epochMs < end.calmFromMs)
      drainedMs = Math.max(drainedMs, d.atMs);
  }
  const fromMs = Math.max(end.calmFromMs + CALM_GRACE_MS, drainedMs);
  const checked: Array<{ id: bigint; pub: PublishCall; dueMs: number }> = [];
  for (const [id, pub] of h.acknowledged()) {
    // A message of an ordering key waits for the others of its key: its lateness is theirs.
    if (!pub.answer || pub.ttlMs > 0 || controlled.has(id) || pub.orderingKey) continue;
    const dueMs = pub.answer.dueAtMs - end.epochMs;
    if (dueMs < fromMs || (pub.answeredAtMs ?? dueMs) > dueMs) continue;
    checked.push({ id, pub, dueMs });
  }
  return { drainedMs, checked, firstAt };
}
