import type { Command } from './commands.js';
import type { ApplyContext } from './context.js';
import { NS, topicKeySuffix } from './layout.js';
import type { CommandResult, PublishResultItem } from './results.js';
import { resolveDue, validatePublish } from './validation.js';

type PublishCommand = Extract<Command, { kind: 'publish' }>;

/**
 * Publish (atomic): message i gets id firstId + i. Unknown topics are created
 * with default settings. A key still reserved in the topic (its message lives,
 * or ended less than the dedup window ago) answers with the existing id and
 * writes nothing for that message.
 */
export async function applyPublish(ctx: ApplyContext, cmd: PublishCommand): Promise<CommandResult> {
  const now = ctx.nowMs;
  validatePublish(cmd.messages, now, ctx.limits);
  ctx.claimIds(cmd.firstId, cmd.messages.length, 'first_id');
  // One parallel round of reads for every key the batch names.
  const keyed = cmd.messages.filter((m) => m.key);
  if (keyed.length > 0)
    await ctx.txn.prefetch(keyed.map((m) => NS.keys.key(topicKeySuffix(m.topic, m.key!))));

  const results: PublishResultItem[] = [];
  for (let i = 0; i < cmd.messages.length; i++) {
    if ((i & 63) === 63) await ctx.yieldSometimes();
    const m = cmd.messages[i]!;
    const id = cmd.firstId + BigInt(i);
    const topic = await ctx.ensureTopic(m.topic);
    const dueAtMs = resolveDue(m, now, ctx.limits);
    const key = m.key ?? '';
    if (key !== '') {
      const existing = await ctx.getKey(topic.name, key);
      if (existing && (existing.endedAtMs === 0 || existing.windowEndMs > now)) {
        const body = existing.endedAtMs === 0 ? await ctx.getBody(existing.id) : undefined;
        results.push({ id: existing.id, deduplicated: true, dueAtMs: body?.dueAtMs ?? 0 });
        continue;
      }
      if (existing) await ctx.forgetKey(topic.name, key, existing);
      ctx.putKey(topic.name, key, { id, endedAtMs: 0, windowEndMs: 0 });
    }
    const ttlMs = m.ttlMs ?? 0;
    await ctx.addMessage(topic, {
      id,
      topic: topic.name,
      payload: m.payload,
      headers: m.headers ?? {},
      key,
      enqueuedAtMs: now,
      dueAtMs,
      expireAtMs: ttlMs > 0 ? now + ttlMs : 0,
    });
    results.push({ id, deduplicated: false, dueAtMs });
  }
  return { kind: 'publish', results };
}
