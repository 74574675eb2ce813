import { type Long, v1 } from '@fermata/protocol';
import type { KVStore, ReadView } from '@fermata/storage';
import { decodeKey, dueField, encodeKey, type QueueHasher, queueName } from '../src/keys.js';
import { decodeKeyHead, type KeyHeadRec, NS } from '../src/state/model/layout.js';

export { NS };

/**
 * Counts the records every batch written to `store` puts or deletes, per
 * namespace name (the state machine's own bookkeeping under `meta` left
 * out): what one node writes for a command.
 */
export function countWrites(store: KVStore): { take(): Record<string, number> } {
  const names = new Map<number, string>(Object.values(NS).map((ns) => [ns.prefix, ns.name]));
  let counts: Record<string, number> = {};
  const batch = store.batch.bind(store);
  store.batch = (ops, options) => {
    for (const op of ops) {
      if (op.key[0] === NS.meta.prefix) continue;
      const name = names.get(op.key[0]!) ?? `0x${op.key[0]!.toString(16)}`;
      counts[name] = (counts[name] ?? 0) + 1;
    }
    return batch(ops, options);
  };
  return {
    take() {
      const out = counts;
      counts = {};
      return out;
    },
  };
}

/** Just the flag the counter check needs, decoded straight from the stored record. */
export function decodeEntryForTest(value: Uint8Array): { inFlight: boolean } {
  return { inFlight: v1.QueueEntry.decode(value).inFlight };
}

/**
 * The entry keys (hex) the open offsets of the stored lease records hold,
 * decoded with protobufjs apart from the state machine's codec, each with
 * its lease id and offset, and whether the record says the entry is all its
 * message has (its side-records bit clear: an ack deletes it unread).
 */
export async function heldKeysForTest(
  view: ReadView,
): Promise<Map<string, { leaseId: string; offset: number; alone: boolean }[]>> {
  const out = new Map<string, { leaseId: string; offset: number; alone: boolean }[]>();
  const settles = new Map<string, Uint8Array>();
  await view.scan(NS.leaseSettles.range(), (k, v) => {
    settles.set(hex(NS.leaseSettles.strip(k)), v1.LeaseSettles.decode(v).settled.slice());
  });
  await view.scan(NS.leases.range(), (k, v) => {
    const leaseId = hex(NS.leases.strip(k));
    const rec = v1.LeaseRecord.decode(v);
    const settled = settles.get(leaseId) ?? new Uint8Array(0);
    const queue = BigInt.asUintN(64, BigInt(String(rec.queue)));
    for (let offset = 0; offset * 24 < rec.keys.length; offset++) {
      if (((settled[offset >> 3] ?? 0) & (1 << (offset & 7))) !== 0) continue;
      const key = rec.keys.subarray(offset * 24, offset * 24 + 24);
      if (decodeKey(key).queueHash !== queue)
        throw new Error(`lease ${leaseId}: key ${hex(key)} of another queue`);
      const alone = ((rec.sideRecords[offset >> 3] ?? 0) & (1 << (offset & 7))) === 0;
      out.set(hex(key), [...(out.get(hex(key)) ?? []), { leaseId, offset, alone }]);
    }
  });
  return out;
}

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

/**
 * Cross-namespace integrity, read straight from the store: every queue entry
 * has its body (a record of its own, or carried in the entry, never both)
 * and an index record naming it (or, never moved, one its body record
 * implies: under the key derived from the body's due time, checked here apart
 * from the state machine's own derivation; or, for a body carried in the
 * entry, the key a publish record lists for it); every live index ref names
 * an existing entry; every expiry entry and key record belongs to a live
 * message, and an expiry entry that names a queue key names one of its
 * message's; every ended key has its window entry; every publish request
 * record has its window entry and no other window entry exists. Returns the
 * problems found (empty = sound).
 */
export async function integrityProblems(view: ReadView, hasher: QueueHasher): Promise<string[]> {
  const problems: string[] = [];
  const rows = async (ns: (typeof NS)[keyof typeof NS]) => {
    const out: { k: Uint8Array; v: Uint8Array }[] = [];
    await view.scan(ns.range(), (k, v) => {
      out.push({ k: ns.strip(k).slice(), v: v.slice() });
    });
    return out;
  };
  const [queue, bodies, index, keys, expiry, windows, requests, requestWindows, topics, publishes] =
    await Promise.all([
      rows(NS.queue),
      rows(NS.body),
      rows(NS.index),
      rows(NS.keys),
      rows(NS.expiry),
      rows(NS.keyWindow),
      rows(NS.requests),
      rows(NS.requestWindow),
      rows(NS.topics),
      rows(NS.publishes),
    ]);
  const bucketOf = new Map(
    topics.map((t) => {
      const rec = v1.TopicRecord.decode(t.v);
      return [rec.name, BigInt(String(rec.settings?.timeBucketMs ?? 0))] as const;
    }),
  );
  // Each publish request record has exactly its window entry, and no window entry is stray.
  const requestWindowSet = new Set(requestWindows.map((w) => hex(w.k)));
  for (const q of requests) {
    const end = BigInt(v1.RequestRecord.decode(q.v).windowEndMs.toString());
    const w = new Uint8Array(8 + q.k.length);
    new DataView(w.buffer).setBigUint64(0, end);
    w.set(q.k, 8);
    if (!requestWindowSet.delete(hex(w))) problems.push(`request record ${hex(q.k)} has no window entry`);
  }
  for (const w of requestWindowSet) problems.push(`request window entry ${w} has no record`);
  const bodyIds = new Set(bodies.map((b) => hex(b.k)));
  const bodyById = new Map(bodies.map((b) => [hex(b.k), v1.StoredMessage.decode(b.v)]));
  // Entries that carry their message's body, by id (such a message has that one entry).
  const carried = new Map<string, { k: Uint8Array; e: ReturnType<typeof v1.QueueEntry.decode> }>();
  for (const q of queue) {
    const e = v1.QueueEntry.decode(q.v);
    if (!e.body) continue;
    const id = hex(q.k.subarray(16));
    if (carried.has(id)) problems.push(`message ${id} carries its body in two entries`);
    carried.set(id, { k: q.k, e });
  }
  // Where publish records say messages were published (id -> queue key).
  const published = new Map<string, string>();
  for (const p of publishes) {
    const rec = v1.PublishRecord.decode(p.v);
    let id = BigInt(`0x${hex(p.k)}`);
    let due = 0n;
    rec.idDeltas.forEach((d, i) => {
      id += BigInt(String(d));
      due += BigInt(String(rec.dueDeltas[i]));
      const q = rec.queues[rec.queueIndex[i]!]!;
      const key = encodeKey(BigInt.asUintN(64, BigInt(String(q))), BigInt.asUintN(64, due), id);
      const idHex = hex(key.subarray(16));
      if (published.has(idHex)) problems.push(`message ${idHex} is in two publish records`);
      published.set(idHex, hex(key));
    });
  }
  // A message with `index_implied` whose entry moved has an index record of 0x00 and the entry's
  // tag: its topic and expiry are its body's, its group `default`.
  const indexById = new Map<string, ReturnType<typeof v1.MessageIndex.decode>>();
  const impliedIndex = (body: { topic: string; expireAtMs: Long }, tag: Uint8Array) =>
    v1.MessageIndex.create({
      topic: body.topic,
      expireAtMs: body.expireAtMs,
      groups: [{ group: 'default', tag }],
    });
  for (const r of index) {
    const id = hex(r.k);
    if (r.v[0] !== 0) {
      indexById.set(id, v1.MessageIndex.decode(r.v));
      continue;
    }
    const body = bodyById.get(id);
    const inline = carried.get(id);
    const implier = body?.indexImplied
      ? body
      : inline?.e.indexImplied && hex(inline.k) === hex(r.v.subarray(1))
        ? inline.e
        : undefined;
    if (r.v.length !== 25 || !implier) {
      problems.push(`index record ${id} of a moved entry (${hex(r.v)}) without a body that implies it`);
      continue;
    }
    indexById.set(id, impliedIndex(implier, r.v.subarray(1)));
  }
  const queueKeys = new Set(queue.map((q) => hex(q.k)));
  // A message published with `index_implied` has no index record until its entry first moves:
  // then it must have exactly one entry, of `default`, at the body's due time, pending and never
  // leased, or leased only in place (a lease in place leaves the entry where it lies).
  for (const [id, body] of bodyById) {
    if (indexById.has(id) || !body.indexImplied) continue;
    const mine = queue.filter((q) => hex(q.k.subarray(16)) === id);
    const e = mine.length === 1 ? v1.QueueEntry.decode(mine[0]!.v) : undefined;
    if (
      e?.group !== 'default' ||
      !e.indexImplied ||
      (e.inFlight && String(e.leaseEndMs) === '0') ||
      (e.attempt !== 0 && !e.indexUnwritten) ||
      String(e.dueAtMs) !== String(body.dueAtMs) ||
      String(e.expireAtMs) !== String(body.expireAtMs)
    ) {
      problems.push(`message ${id} without an index record is not one whose entry never moved`);
      continue;
    }
    // Where readers look for it: the key of `default` at the body's due time, in the topic's buckets.
    const derived = encodeKey(
      hasher(queueName(body.topic, 'default')),
      dueField(BigInt(String(body.dueAtMs)), bucketOf.get(body.topic) ?? 0n),
      BigInt(String(body.id)),
    );
    if (hex(derived) !== hex(mine[0]!.k)) {
      problems.push(`message ${id}: its entry is not under the key its body implies`);
      continue;
    }
    indexById.set(id, impliedIndex(body, mine[0]!.k));
  }
  // A message whose entry carries its body and that has no index record: its entry is where a
  // publish record says it was published, in `default`, never moved.
  for (const [id, { k, e }] of carried) {
    if (indexById.has(id)) continue;
    if (e.group !== 'default' || !e.indexImplied || (e.inFlight && String(e.leaseEndMs) === '0')) {
      problems.push(`message ${id} without an index record is not one whose entry never moved`);
      continue;
    }
    if (published.get(id) !== hex(k)) {
      problems.push(`message ${id}: no publish record names its entry ${hex(k)}`);
      continue;
    }
    indexById.set(id, impliedIndex(e, k));
  }
  // Every open offset of a lease record holds an entry, one offset each, stored as not in flight.
  const held = await heldKeysForTest(view);
  for (const [key, holds] of held) {
    if (holds.length > 1) problems.push(`entry ${key} is held by ${holds.length} open run offsets`);
    if (!queueKeys.has(key))
      problems.push(`open offset ${holds[0]!.leaseId}/${holds[0]!.offset} holds no entry`);
  }
  for (const q of queue) {
    const id = hex(q.k.subarray(16));
    const e = v1.QueueEntry.decode(q.v);
    if (held.has(hex(q.k)) && e.inFlight)
      problems.push(`entry ${hex(q.k)} is held by a run and stored in flight`);
    // An offset whose entry is all its message has: no index record, no expiry, no body record.
    const alone = held.get(hex(q.k))?.[0]?.alone === true;
    if (
      alone &&
      (!e.indexImplied ||
        !e.indexUnwritten ||
        !e.body ||
        String(e.expireAtMs) !== '0' ||
        index.some((r) => hex(r.k) === id) ||
        bodyIds.has(id))
    )
      problems.push(`entry ${hex(q.k)} is held as alone but its message has other records`);
    if (!bodyIds.has(id) && !e.body) problems.push(`entry ${hex(q.k)} has no body`);
    if (bodyIds.has(id) && e.body) problems.push(`entry ${hex(q.k)} carries a body that is also a record`);
    // Ending it deletes no index record: there must be none.
    if (e.indexUnwritten && index.some((r) => hex(r.k) === id))
      problems.push(`entry ${hex(q.k)} says its index was never written, but there is one`);
    const implied = e.indexImplied ? indexById.get(id) : undefined;
    if (
      implied &&
      (implied.key !== '' ||
        implied.groups.length !== 1 ||
        String(implied.expireAtMs) !== String(e.expireAtMs) ||
        implied.topic !== e.topic)
    ) {
      problems.push(`entry ${hex(q.k)} says its index is implied, but the index differs`);
    }
    const idx = indexById.get(id);
    const ref = idx?.groups.find((g) => g.group === e.group);
    if (!idx || idx.done || !ref || hex(ref.tag ?? new Uint8Array()) !== hex(q.k)) {
      problems.push(`entry ${hex(q.k)} (group ${e.group}) is not the one its index names`);
    }
  }
  let liveMessages = 0;
  for (const [id, idx] of indexById) {
    if (idx.done) {
      if (bodyIds.has(id)) problems.push(`ended message ${id} still has a body`);
      continue;
    }
    liveMessages++;
    if (!bodyIds.has(id) && !carried.has(id)) problems.push(`live message ${id} has no body`);
    const live = idx.groups.filter((g) => (g.outcome ?? 0) === 0);
    if (live.length === 0) problems.push(`message ${id} is live with no live group`);
    for (const g of live)
      if (!queueKeys.has(hex(g.tag ?? new Uint8Array())))
        problems.push(`message ${id} names a missing entry`);
  }
  if (bodyIds.size + carried.size !== liveMessages)
    problems.push(`${bodyIds.size} + ${carried.size} bodies for ${liveMessages} live messages`);
  for (const x of expiry) {
    const id = hex(x.k.subarray(8));
    const idx = indexById.get(id);
    if (!idx || idx.done) problems.push(`expiry entry ${hex(x.k)} for a message that ended`);
    // The key it names is where the message's one entry was published (it may have moved since).
    if (x.v.length > 0 && (x.v.length !== 24 || hex(x.v.subarray(16)) !== id))
      problems.push(`expiry entry ${hex(x.k)} names the key ${hex(x.v)} of another message`);
  }
  const windowSet = new Set(windows.map((w) => hex(w.k.subarray(8))));
  for (const k of keys) {
    const rec = v1.KeyRecord.decode(k.v);
    const id = hex(Buffer.from(BigInt(rec.id.toString()).toString(16).padStart(16, '0'), 'hex'));
    const idx = indexById.get(id);
    if (!idx) problems.push(`key ${hex(k.k)} names message ${id} without an index record`);
    else if (Number(rec.endedAtMs) === 0 && idx.done)
      problems.push(`key ${hex(k.k)} live but its message ended`);
    if (Number(rec.endedAtMs) > 0 && !windowSet.has(hex(k.k)))
      problems.push(`ended key ${hex(k.k)} has no window entry`);
  }
  if (windows.length > keys.length) problems.push(`${windows.length} window entries for ${keys.length} keys`);
  problems.push(...(await orderingProblems(view, queue, held)));
  return problems;
}

/**
 * Per-key ordering's records against the queue entries (docs/design.md,
 * "Per-key ordering"): every head record names an entry of its queue and
 * key under a due key (its front); every entry under a waiting key has its
 * wait record (queue, key, due time, id), a head for its key, and was never
 * leased; every wait record names such an entry; a front never leased
 * comes before every message waiting behind it (due time, then id); a head
 * counts its key's wait records, names the first of them truly (each in its
 * place), every one is after its floor, and the due time it keeps of a front
 * never leased is the front's.
 */
async function orderingProblems(
  view: ReadView,
  queue: readonly { k: Uint8Array; v: Uint8Array }[],
  held: ReadonlyMap<string, unknown>,
): Promise<string[]> {
  const problems: string[] = [];
  const heads = new Map<string, bigint>();
  const headRecs = new Map<string, KeyHeadRec>();
  await view.scan(NS.keyHeads.range(), (k, v) => {
    const head = decodeKeyHead(v);
    heads.set(hex(NS.keyHeads.strip(k)), head.front);
    headRecs.set(hex(NS.keyHeads.strip(k)), head);
  });
  // Per (queue, key) as a head's key suffix: the waits in key order (due, id).
  const waits = new Map<string, { dueMs: bigint; id: bigint }[]>();
  const waitSet = new Set<string>();
  await view.scan(NS.keyWaits.range(), (k) => {
    const s = NS.keyWaits.strip(k);
    const len = (s[8]! << 8) | s[9]!;
    const headKey = hex(Buffer.concat([s.subarray(0, 8), s.subarray(10, 10 + len)]));
    const tail = new DataView(s.buffer, s.byteOffset + 10 + len, 16);
    const w = { dueMs: tail.getBigUint64(0), id: tail.getBigUint64(8) };
    waits.set(headKey, [...(waits.get(headKey) ?? []), w]);
    waitSet.add(`${headKey}/${w.dueMs}/${w.id}`);
  });
  const fronts = new Map<string, { e: ReturnType<typeof v1.QueueEntry.decode>; k: Uint8Array }>();
  for (const q of queue) {
    const e = v1.QueueEntry.decode(q.v);
    if (e.orderingKey === '') continue;
    const headKey = hex(Buffer.concat([q.k.subarray(0, 8), Buffer.from(e.orderingKey, 'utf8')]));
    const id = BigInt(`0x${hex(q.k.subarray(16))}`);
    const waiting = q.k.subarray(8, 16).every((b) => b === 0xff);
    if (!waiting) {
      if (heads.get(headKey) === id) fronts.set(headKey, { e, k: q.k });
      continue;
    }
    if (!waitSet.delete(`${headKey}/${String(e.dueAtMs)}/${id}`))
      problems.push(`waiting entry ${hex(q.k)} has no wait record of its key and due time`);
    if (!heads.has(headKey)) problems.push(`waiting entry ${hex(q.k)} of a key without a front`);
    if (e.inFlight || e.attempt !== 0 || held.has(hex(q.k)))
      problems.push(`waiting entry ${hex(q.k)} was leased`);
  }
  for (const w of waitSet) problems.push(`wait record ${w} names no waiting entry`);
  for (const [headKey, id] of heads) {
    const front = fronts.get(headKey);
    if (!front) {
      problems.push(`head record ${headKey} names ${id}, not an entry of its key under a due key`);
      continue;
    }
    const first = waits.get(headKey)?.[0];
    const rec = headRecs.get(headKey);
    const count = waits.get(headKey)?.length ?? 0;
    if (rec?.waits !== undefined && rec.waits !== count)
      problems.push(`head record ${headKey} counts ${rec.waits} waiting; ${count} wait records`);
    const all = waits.get(headKey) ?? [];
    for (const [i, named] of (rec?.next ?? []).entries()) {
      const w = all[i];
      if (named.id !== w?.id || BigInt(named.dueAtMs) !== w.dueMs)
        problems.push(`head record ${headKey} names ${named.id} waiting at ${i}; there is ${w?.id}`);
    }
    const floor = rec?.floor;
    if (
      floor &&
      first &&
      (first.dueMs < BigInt(floor.dueAtMs) || (first.dueMs === BigInt(floor.dueAtMs) && first.id <= floor.id))
    )
      problems.push(`wait ${first.id} of ${headKey} is not after its head's floor ${floor.id}`);
    const f = front.e;
    const delivered = f.attempt > 0 || f.inFlight || held.has(hex(front.k));
    const due = BigInt(String(f.dueAtMs));
    if (first && !delivered && (first.dueMs < due || (first.dueMs === due && first.id < id)))
      problems.push(`front ${id} of ${headKey}, never leased, is after waiting message ${first.id}`);
    if (!delivered && rec?.frontDueAtMs !== undefined && BigInt(rec.frontDueAtMs) !== due)
      problems.push(
        `head record ${headKey} keeps its front ${id} due at ${rec.frontDueAtMs}; it is due at ${due}`,
      );
  }
  return problems;
}
