import type { Command, PublishInput, PublishSpan } from '../commands/commands.js';
import type { CommandResult, PublishResultItem } from '../commands/results.js';
import { resolveDue } from '../commands/validation.js';
import { type StateError, topicDeleting, ValidationError } from '../model/errors.js';
import type { BodyRec, TopicRec } from '../model/records.js';
import type { ApplyContext } from './context.js';

type PublishCommand = Extract<Command, { kind: 'publish' }>;

/**
 * Publish (atomic): message i gets id firstId + i. Unknown topics are created
 * with default settings. A key still reserved in the topic (its message lives,
 * or ended less than the dedup window ago) answers with the existing id and
 * writes nothing for that message. A request whose idempotency key was applied
 * within limits.publishDedupWindowMs answers that request's results again and
 * writes nothing; with another number of messages it is refused alone
 * (`refused`), the entry's other requests are applied.
 */
export async function applyPublish(ctx: ApplyContext, cmd: PublishCommand): Promise<CommandResult> {
  // The command was validated as a whole before it got here (state-machine.ts `execute`).
  const now = ctx.nowMs;
  ctx.claimIds(cmd.firstId, cmd.messages.length, 'first_id');
  const spans: readonly PublishSpan[] = cmd.requests?.length
    ? cmd.requests
    : [{ idempotencyKey: '', count: cmd.messages.length }];
  // One parallel round of reads for every request and message key the batch names.
  // A key without a request record (request-filter.ts) has nothing to read.
  const requests: string[] = [];
  for (const s of spans)
    if (s.idempotencyKey !== '' && ctx.requests.mayHave(s.idempotencyKey)) requests.push(s.idempotencyKey);
  const keys: { topic: string; key: string }[] = [];
  for (const m of cmd.messages) if (m.key) keys.push({ topic: m.topic, key: m.key });
  if (requests.length + keys.length > 0) {
    await ctx.prefetch([...ctx.requests.reads(requests), ...ctx.messages.keyReads(keys)]);
  }

  const results: PublishResultItem[] = [];
  const refused: { request: number; error: StateError }[] = [];
  let i = 0;
  for (const [r, span] of spans.entries()) {
    const end = i + span.count;
    // Asked again, not reused from above: an earlier span of this entry may have used the same key.
    const earlier =
      span.idempotencyKey !== '' && ctx.requests.mayHave(span.idempotencyKey)
        ? await ctx.requests.get(span.idempotencyKey)
        : undefined;
    if (earlier && earlier.windowEndMs > now) {
      if (earlier.results.length === span.count) {
        for (const x of earlier.results) results.push({ ...x, deduplicated: true });
      } else {
        refused.push({
          request: r,
          error: new ValidationError(
            'idempotency_key',
            `"${span.idempotencyKey}" was applied ${now - earlier.appliedAtMs} ms ago to a request of ${earlier.results.length} messages; this one has ${span.count}`,
          ),
        });
      }
      i = end;
      continue;
    }
    const deleting = await deletingTopicOf(ctx, cmd, i, end);
    if (deleting) {
      refused.push({ request: r, error: topicDeleting(deleting) });
      i = end;
      continue;
    }
    const first = i;
    const start = results.length;
    for (; i < end; i++) {
      if ((i & 63) === 63) await ctx.yieldSometimes();
      const r = publishOne(ctx, cmd, i);
      results.push(r instanceof Promise ? await r : r);
    }
    if (span.idempotencyKey !== '') {
      if (earlier) ctx.requests.forget(span.idempotencyKey, earlier);
      ctx.requests.put(span.idempotencyKey, {
        firstId: cmd.firstId + BigInt(first),
        appliedAtMs: now,
        results: results.slice(start),
        windowEndMs: now + ctx.limits.publishDedupWindowMs,
      });
    }
  }
  return refused.length > 0 ? { kind: 'publish', results, refused } : { kind: 'publish', results };
}

/** The first topic of messages [from, to) being deleted, if any: the request is refused alone. */
async function deletingTopicOf(
  ctx: ApplyContext,
  cmd: PublishCommand,
  from: number,
  to: number,
): Promise<string | undefined> {
  let checked = '';
  for (let i = from; i < to; i++) {
    const name = cmd.messages[i]!.topic;
    if (name === checked) continue;
    checked = name;
    const topic = ctx.topics.cached(name) ?? (await ctx.topics.get(name));
    if (topic?.deleting) return name;
  }
  return undefined;
}

/**
 * One message of a publish. Synchronous in the usual case (topic and queue
 * records already loaded by this batch, no key): no promise per message.
 */
function publishOne(
  ctx: ApplyContext,
  cmd: PublishCommand,
  i: number,
): PublishResultItem | Promise<PublishResultItem> {
  const m = cmd.messages[i]!;
  const topic = ctx.topics.cached(m.topic);
  if (!topic || (m.key ?? '') !== '') return publishOneAsync(ctx, cmd, i);
  const id = cmd.firstId + BigInt(i);
  const dueAtMs = resolveDue(m, ctx.nowMs, ctx.limits);
  const adding = ctx.entries.addMessage(topic, messageBody(ctx, topic, m, id, dueAtMs, ''));
  const result = { id, deduplicated: false, dueAtMs };
  return adding ? adding.then(() => result) : result;
}

function messageBody(
  ctx: ApplyContext,
  topic: TopicRec,
  m: PublishInput,
  id: bigint,
  dueAtMs: number,
  key: string,
): BodyRec {
  const ttlMs = m.ttlMs ?? 0;
  return {
    id,
    topic: topic.name,
    payload: m.payload,
    headers: m.headers ?? {},
    key,
    enqueuedAtMs: ctx.nowMs,
    dueAtMs,
    expireAtMs: ttlMs > 0 ? ctx.nowMs + ttlMs : 0,
    // The shape addMessage gives an implied-index body: one shape for every published body.
    deadLetter: undefined,
    indexImplied: undefined,
    // Its own ordering key, else its dedup key when the topic says so.
    orderingKey: m.orderingKey || (topic.settings.orderingKeyFromKey ? key : ''),
    deliverBeforeMs: deadlineOf(topic, m, dueAtMs),
  };
}

/**
 * A message's deadline, fixed at publish: its own `deliverBeforeMs`, else its
 * due time plus the topic's `maxLatenessMs` (0 = none).
 */
export function deadlineOf(topic: TopicRec, m: PublishInput, dueAtMs: number): number {
  if (m.deliverBeforeMs) return m.deliverBeforeMs;
  return topic.settings.maxLatenessMs > 0 ? dueAtMs + topic.settings.maxLatenessMs : 0;
}

function publishOneAsync(ctx: ApplyContext, cmd: PublishCommand, i: number): Promise<PublishResultItem> {
  return publishMessage(ctx, cmd.messages[i]!, cmd.firstId + BigInt(i));
}

/** One message under its id (a key still reserved answers the existing id): publish and schedule occurrences. */
export async function publishMessage(
  ctx: ApplyContext,
  m: PublishInput,
  id: bigint,
): Promise<PublishResultItem> {
  const now = ctx.nowMs;
  const topic = await ctx.topics.ensure(m.topic);
  const dueAtMs = resolveDue(m, now, ctx.limits);
  const key = m.key ?? '';
  if (key !== '') {
    const existing = await ctx.messages.getKey(topic.name, key);
    if (existing && (existing.endedAtMs === 0 || existing.windowEndMs > now)) {
      const body = existing.endedAtMs === 0 ? await ctx.messages.getBody(existing.id) : undefined;
      return { id: existing.id, deduplicated: true, dueAtMs: body?.dueAtMs ?? 0 };
    }
    if (existing) await ctx.messages.forgetKey(topic.name, key, existing);
    ctx.messages.putKey(topic.name, key, { id, endedAtMs: 0, windowEndMs: 0 });
  }
  await ctx.entries.addMessage(topic, messageBody(ctx, topic, m, id, dueAtMs, key));
  return { id, deduplicated: false, dueAtMs };
}
