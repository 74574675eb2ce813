/**
 * Applying schedule commands (docs/schedules.md): upsert, pause, resume,
 * delete, trigger, and fire, which turns occurrences computed by the leader
 * into ordinary messages of the topic once each: a fire names the schedule
 * generation and cursor it was computed from, so re-proposing it (a new
 * leader, a retry) stores nothing twice. No clock is read: time is the
 * command's stamp, occurrences come in the command and are checked against
 * the spec.
 */

import type { CommandResult } from '../commands/results.js';
import { LimitError, underField } from '../model/errors.js';
import {
  OCCURRENCE_HEADER,
  SCHEDULE_HEADER,
  type ScheduleDef,
  type ScheduleRec,
} from '../model/schedules.js';
import { checkFire, occurrenceDueMs, renderKey } from '../schedule/fire.js';
import type { FireOutcome, ScheduleOp, ScheduleOwner, ScheduleResult } from '../schedule/ops.js';
import { nextOccurrenceProblem } from '../schedule/spec.js';
import { publishMessage } from './apply-publish.js';
import type { ApplyContext } from './context.js';

const result = (r: ScheduleResult): CommandResult => ({ kind: 'schedule', result: r });

export async function applySchedule(ctx: ApplyContext, op: ScheduleOp): Promise<CommandResult> {
  switch (op.op) {
    case 'upsert':
      return result(await upsert(ctx, op.def, op));
    case 'upsert-many': {
      // One multi-get for the records; a refused item throws, and the command is rolled back whole.
      await ctx.schedules.prefetch(op.defs);
      const items: { schedule: ScheduleRec; created: boolean }[] = [];
      for (const [i, def] of op.defs.entries()) {
        try {
          const { schedule, created } = await upsert(ctx, def, op);
          items.push({ schedule, created });
        } catch (err) {
          throw underField(`schedules[${i}].`, err);
        }
      }
      return result({ op: 'upsert-many', items });
    }
    case 'delete': {
      const rec = await ctx.schedules.get(op.topic, op.name);
      if (!rec) return result({ op: 'status', status: 'not-found' });
      await ctx.schedules.del(rec);
      return result({ op: 'status', status: 'done', schedule: rec });
    }
    case 'pause':
    case 'resume': {
      const rec = await ctx.schedules.get(op.topic, op.name);
      if (!rec) return result({ op: 'status', status: 'not-found' });
      const paused = op.op === 'pause';
      if (rec.paused === paused) return result({ op: 'status', status: 'unchanged', schedule: rec });
      // A resumed schedule fires from now: what fell due while it was paused is not fired.
      const next: ScheduleRec = {
        ...rec,
        paused,
        generation: rec.generation + 1,
        cursorMs: paused ? rec.cursorMs : Math.max(rec.cursorMs, ctx.nowMs),
        updatedAtMs: ctx.nowMs,
      };
      await ctx.schedules.put(next, false);
      return result({ op: 'status', status: 'done', schedule: next });
    }
    case 'trigger': {
      ctx.claimIds(op.firstId, 1, 'first_id');
      const rec = await ctx.schedules.get(op.topic, op.name);
      if (!rec) return result({ op: 'trigger', status: 'not-found' });
      const r = await publishMessage(ctx, occurrenceMessage(ctx, rec.def, ctx.nowMs, true), op.firstId);
      return result({ op: 'trigger', status: 'done', id: r.id, dueAtMs: r.dueAtMs });
    }
    case 'fire':
      return result({ op: 'fire', outcomes: await fire(ctx, op) });
  }
}

async function upsert(
  ctx: ApplyContext,
  def: ScheduleDef,
  by: ScheduleOwner,
): Promise<Extract<ScheduleResult, { op: 'upsert' }>> {
  const now = ctx.nowMs;
  await ctx.topics.ensure(def.topic);
  const existing = await ctx.schedules.get(def.topic, def.name);
  // The same definition again (a retried upsert) changes nothing: no generation, no cursor move.
  if (existing && sameDefinition(existing.def, def))
    return { op: 'upsert', schedule: existing, created: false };
  if (!existing) {
    const inTopic = await ctx.schedules.countOf(def.topic);
    if (inTopic >= ctx.limits.maxSchedulesPerTopic) {
      throw new LimitError('maxSchedulesPerTopic', ctx.limits.maxSchedulesPerTopic, inTopic + 1, 'name');
    }
    const all = await ctx.schedules.countAll();
    if (all >= ctx.limits.maxSchedules)
      throw new LimitError('maxSchedules', ctx.limits.maxSchedules, all + 1, 'name');
    // The limit the leader found for the calling token travels in the command: every node applies it alike.
    if (by.owner && by.ownerLimit) {
      const owned = await ctx.schedules.ownedBy(by.owner);
      if (owned >= by.ownerLimit) {
        const err = new LimitError('maxSchedulesPerToken', by.ownerLimit, owned + 1, 'name');
        err.message = `name: token "${by.owner}" has created ${owned} schedules that exist, its limit maxSchedulesPerToken = ${by.ownerLimit}`;
        throw err;
      }
    }
  }
  // A changed definition fires its occurrences after now; those already materialised stay.
  const rec: ScheduleRec = {
    def,
    paused: def.paused,
    cursorMs: existing ? Math.max(existing.cursorMs, now) : now,
    generation: existing ? existing.generation + 1 : 1,
    createdAtMs: existing?.createdAtMs ?? now,
    updatedAtMs: now,
    fired: existing?.fired ?? 0,
    skipped: existing?.skipped ?? 0,
    lastFiredMs: existing?.lastFiredMs ?? 0,
    // The creator owns it; a later upsert by another token does not take it over.
    ...(existing ? (existing.owner ? { owner: existing.owner } : {}) : by.owner ? { owner: by.owner } : {}),
  };
  await ctx.schedules.put(rec, !existing);
  return { op: 'upsert', schedule: rec, created: !existing };
}

async function fire(ctx: ApplyContext, op: Extract<ScheduleOp, { op: 'fire' }>): Promise<FireOutcome[]> {
  const outcomes: FireOutcome[] = [];
  let total = 0;
  for (const f of op.fires) total += f.occurrences.length;
  let claimed = false;
  let offset = 0;
  // One multi-get for the command's records: a get each cost ~150 µs per occurrence in a profile.
  await ctx.schedules.prefetch(op.fires);
  for (const f of op.fires) {
    const first = offset;
    offset += f.occurrences.length;
    const rec = await ctx.schedules.get(f.topic, f.name);
    // A schedule of a topic being deleted fires nothing: it goes with the topic.
    if (!rec || (await ctx.topics.get(f.topic))?.deleting) {
      outcomes.push({ status: 'gone' });
      continue;
    }
    // A schedule whose occurrences cannot be computed any more fires nothing; the others go on.
    const problem = nextOccurrenceProblem(rec.def, ctx.limits, rec.cursorMs);
    if (problem !== undefined) {
      outcomes.push({ status: 'broken', reason: problem, rec });
      continue;
    }
    if (checkFire(rec, f, ctx.limits, ctx.nowMs) === 'stale') {
      outcomes.push({ status: 'stale', rec });
      continue;
    }
    if (!claimed && total > 0) {
      // Ids of the whole command, claimed once the first fire is accepted (a fully stale replay claims none).
      ctx.claimIds(op.firstId, total, 'first_id');
      claimed = true;
    }
    // Each occurrence copies the definition's payload: past this command's bound the rest of the
    // fire waits for the next one (the cursor stops at the last occurrence stored).
    let n = 0;
    for (const [i, occ] of f.occurrences.entries()) {
      // Room for this occurrence and for the schedule's record, which holds the payload too.
      if (!ctx.fits(2, 2 * rec.def.payload.length)) break;
      await publishMessage(ctx, occurrenceMessage(ctx, rec.def, occ, false), op.firstId + BigInt(first + i));
      n++;
    }
    if (n === 0 && f.occurrences.length > 0) {
      outcomes.push({ status: 'stale', rec });
      continue;
    }
    const next: ScheduleRec = {
      ...rec,
      cursorMs: n > 0 ? f.occurrences[n - 1]! : f.skipToMs,
      fired: rec.fired + n,
      skipped: rec.skipped + f.skipped,
      lastFiredMs: n > 0 ? f.occurrences[n - 1]! : rec.lastFiredMs,
    };
    await ctx.schedules.put(next, false);
    outcomes.push({ status: 'fired', fired: n, skipped: f.skipped, rec: next });
  }
  return outcomes;
}

function sameDefinition(a: ScheduleDef, b: ScheduleDef): boolean {
  const ha = Object.entries(a.headers).sort();
  const hb = Object.entries(b.headers).sort();
  return (
    a.spec === b.spec &&
    a.timeZone === b.timeZone &&
    a.keyTemplate === b.keyTemplate &&
    a.startAtMs === b.startAtMs &&
    a.endAtMs === b.endAtMs &&
    a.jitterMs === b.jitterMs &&
    a.catchUp === b.catchUp &&
    a.dstPolicy === b.dstPolicy &&
    a.misfireThresholdMs === b.misfireThresholdMs &&
    a.paused === b.paused &&
    Buffer.from(a.payload).equals(Buffer.from(b.payload)) &&
    JSON.stringify(ha) === JSON.stringify(hb)
  );
}

function occurrenceMessage(ctx: ApplyContext, def: ScheduleDef, occurrenceMs: number, manual: boolean) {
  const headers: Record<string, string> = {
    ...def.headers,
    [SCHEDULE_HEADER]: def.name,
    [OCCURRENCE_HEADER]: String(occurrenceMs),
  };
  if (manual) headers['fermata-trigger'] = 'manual';
  return {
    topic: def.topic,
    payload: def.payload,
    headers,
    delayMs: undefined,
    deliverAtMs: manual ? occurrenceMs : occurrenceDueMs(ctx.hasher, def, occurrenceMs),
    ttlMs: 0,
    key: renderKey(def.keyTemplate, def.name, occurrenceMs),
  };
}
