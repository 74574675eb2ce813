/**
 * The per-key ordering rules of the checker (docs/guarantees.md, "Ordering"),
 * over the messages published with an ordering key in a run whose topic
 * orders by key:
 *  - key-leased-alone: two messages of one key are never leased at once;
 *  - key-due-order: a message of a key that was stored before another of
 *    its key, earlier in due order, is never delivered after that other's
 *    first delivery (its key held the other back until it ended).
 * Both read only what a client sees (deliveries, their lease ends, settles
 * and answers) and excuse whatever the timing leaves open, so a run of a
 * correct broker never breaks them.
 */
import type { DeliveryRecord, History, PublishCall, Violation } from './history.js';

export interface KeyOrderBounds {
  /**
   * A leader's clock minus true time is within [epochMs, epochMs + maxClockAheadMs]: a
   * command applied by true time T carries a stamp at most T + epochMs + maxClockAheadMs.
   */
  readonly epochMs: number;
  readonly maxClockAheadMs: number;
  /** How long before its due time a message may be leased (dispatcher.leaseAheadMs). */
  readonly leaseAheadMs: number;
}

interface Keyed {
  readonly id: bigint;
  readonly pub: PublishCall;
  readonly key: string;
  readonly deliveries: DeliveryRecord[];
}

/** The messages of each ordering key (acknowledged), with their deliveries in history order. */
function byKey(h: History): Map<string, Keyed[]> {
  const out = new Map<string, Keyed[]>();
  const byId = new Map<bigint, Keyed>();
  for (const [id, pub] of h.acknowledged()) {
    if (!pub.orderingKey || !pub.answer) continue;
    const k: Keyed = { id, pub, key: pub.orderingKey, deliveries: [] };
    byId.set(id, k);
    let list = out.get(k.key);
    if (!list) out.set(k.key, (list = []));
    list.push(k);
  }
  for (const d of h.deliveries) if (d.topic === undefined) byId.get(d.id)?.deliveries.push(d);
  return out;
}

/** When the message's expiry removes it, by the state machine's clock (its due time less its delay, plus its TTL). */
function expireAtMs(pub: PublishCall): number {
  if (pub.ttlMs <= 0) return Number.POSITIVE_INFINITY;
  return pub.answer!.dueAtMs - (pub.delayMs ?? 0) + pub.ttlMs;
}

export function checkKeyOrder(h: History, b: KeyOrderBounds): Violation | undefined {
  const keys = byKey(h);
  if (keys.size === 0) return undefined;
  const settledAt = new Map<bigint, number[]>();
  for (const s of h.settles) settledAt.set(s.id, [...(settledAt.get(s.id) ?? []), s.invokedAtMs]);
  const rescheduled = new Set(h.controls.filter((c) => c.kind === 'reschedule').map((c) => c.id));
  for (const [key, messages] of keys) {
    const alone = leasedAlone(key, messages, settledAt);
    if (alone) return alone;
    const order = dueOrder(
      key,
      messages.filter((m) => !rescheduled.has(m.id)),
      b,
    );
    if (order) return order;
  }
  return undefined;
}

/**
 * key-leased-alone. X delivered (sent) first, Y after it, both of the key: X's
 * lease had been applied when Y's was (by true time, X was sent first, so its
 * lease was applied before Y's delivery; by the stamps, Y's lease applied at
 * or before Y was sent, no earlier than X was sent) and still held when Y's
 * was applied if Y was sent before X's lease ended, X had no settle sent
 * before Y arrived, and X could not have expired by then; and the other way
 * round, Y's lease, applied before X was sent, still held when X's was.
 */
function leasedAlone(
  key: string,
  messages: readonly Keyed[],
  settledAt: ReadonlyMap<bigint, readonly number[]>,
): Violation | undefined {
  const all = messages.flatMap((m) => m.deliveries.map((d) => ({ m, d })));
  all.sort((p, q) => p.d.atMs - q.d.atMs);
  for (let j = 0; j < all.length; j++) {
    const y = all[j]!;
    for (let i = 0; i < j; i++) {
      const x = all[i]!;
      if (x.m.id === y.m.id || x.d.atMs === y.d.atMs) continue;
      const xEnd = x.d.leaseEndMs ?? 0;
      if (!(x.d.sentLeaderMs <= y.d.sentLeaderMs && y.d.sentLeaderMs < xEnd)) continue;
      if (y.d.sentLeaderMs >= expireAtMs(x.m.pub) || x.d.sentLeaderMs >= expireAtMs(y.m.pub)) continue;
      const settled = (settledAt.get(x.m.id) ?? []).some((t) => t >= x.d.atMs && t <= y.d.atMs);
      if (settled) continue;
      return {
        rule: 'key-leased-alone',
        id: y.m.id,
        message: `ordering key ${key}: #${y.m.id} attempt ${y.d.attempt} sent at ${y.d.sentLeaderMs} (true ${y.d.atMs}) while #${x.m.id} attempt ${x.d.attempt} sent at ${x.d.sentLeaderMs} (true ${x.d.atMs}) was leased until ${xEnd}, not settled`,
      };
    }
  }
  return undefined;
}

/**
 * key-due-order. A before B in due order (due time, then id), A stored before
 * B's first lease could apply (its publish answered while the state
 * machine's clock was still below B's due time less the lease look-ahead):
 * from B's first lease on, A is never delivered, for until it ends A holds
 * the key (it is B's front, or leased before B) and B waits.
 */
function dueOrder(key: string, messages: readonly Keyed[], b: KeyOrderBounds): Violation | undefined {
  const firstAt = (m: Keyed): number => m.deliveries[0]?.atMs ?? Number.POSITIVE_INFINITY;
  const lastAt = (m: Keyed): number => m.deliveries.at(-1)?.atMs ?? Number.NEGATIVE_INFINITY;
  for (const later of messages) {
    const bFirst = firstAt(later);
    if (bFirst === Number.POSITIVE_INFINITY) continue;
    const bDue = later.pub.answer!.dueAtMs;
    for (const earlier of messages) {
      if (earlier === later) continue;
      const aDue = earlier.pub.answer!.dueAtMs;
      if (aDue > bDue || (aDue === bDue && earlier.id > later.id)) continue;
      const storedBy = (earlier.pub.answeredAtMs ?? Number.POSITIVE_INFINITY) + b.epochMs + b.maxClockAheadMs;
      if (storedBy >= bDue - b.leaseAheadMs) continue;
      if (lastAt(earlier) <= bFirst) continue;
      return {
        rule: 'key-due-order',
        id: earlier.id,
        message: `ordering key ${key}: #${earlier.id} (due ${aDue}, stored by ${storedBy}) delivered at ${lastAt(earlier)}, after #${later.id} (due ${bDue}) was first delivered at ${bFirst}`,
      };
    }
  }
  return undefined;
}
