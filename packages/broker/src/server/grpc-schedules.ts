/**
 * The `fermata.v1.Schedules` service (schedules.proto): recurring schedules
 * whose occurrences become messages of their topic (docs/schedules.md).
 * Writes are Raft commands on the leader; reads are linearizable.
 */

import { invariant } from '@fermata/base';
import type { SchedulesHandlers } from '@fermata/protocol';
import { int64FromSafe, type pb, toUint64, v1 } from '@fermata/protocol';
import type * as grpc from '@grpc/grpc-js';
import { validateClientHeaders } from '../state/commands/client-headers.js';
import {
  validateDefinition,
  validateDefinitions,
  validateScheduleName,
} from '../state/commands/validate-schedule.js';
import { validateTopicName } from '../state/commands/validation.js';
import { NotFoundError, underField, ValidationError } from '../state/model/errors.js';
import { DEFAULT_LIST_LIMIT, type Limits } from '../state/model/limits.js';
import { defFromProto, defToProto, type ScheduleRec } from '../state/model/schedules.js';
import type { ScheduleResult, ScheduleStatus } from '../state/schedule/ops.js';
import { nextOccurrenceProblem, occurrencesAfter } from '../state/schedule/spec.js';
import { listSchedules, readSchedule } from '../state/stores/schedules.js';
import { callerName, field, linearizable, requireLeader, type ServerContext, unary } from './context.js';
import { checkPublishTopics } from './topic-check.js';

/** Most next fire times one schedule answers with. */
export const MAX_NEXT_FIRE_TIMES = 100;

const STATUS: Record<ScheduleStatus, number> = {
  done: v1.ScheduleStatus.SCHEDULE_STATUS_DONE,
  'not-found': v1.ScheduleStatus.SCHEDULE_STATUS_NOT_FOUND,
  unchanged: v1.ScheduleStatus.SCHEDULE_STATUS_UNCHANGED,
};

/** Re-raises a validation or limit error with its field under `prefix` (the request's field path). */
function under<T>(prefix: string, fn: () => T): T {
  try {
    return field(prefix, fn);
  } catch (err) {
    throw underField(prefix, err);
  }
}

/**
 * The last occurrence whose instant has passed: the record's last fired one
 * (the latest materialised), unless that one lies ahead (occurrences are made
 * into messages up to limits.maxScheduleAheadMs before their instant, due
 * then); then the spec's latest occurrence at or before `nowMs` and after the
 * schedule was created (0: none yet), found in windows doubling back from now.
 */
export function lastFiredAtOrBefore(rec: ScheduleRec, limits: Limits, nowMs: number): number {
  if (rec.lastFiredMs <= nowMs) return rec.lastFiredMs;
  const since = rec.createdAtMs;
  for (let w = 1_000; ; w *= 2) {
    const from = Math.max(nowMs - w, since - 1);
    const occ = occurrencesAfter(rec.def, limits, from, 1_000, nowMs + 1);
    if (occ.length > 0) return occ[occ.length - 1]!;
    if (from <= since - 1) return 0;
  }
}

/**
 * A schedule as the API shows it, with its next fire times, or why they
 * cannot be computed (`broken`): never an error, so an answer about a
 * broken schedule is an answer, not INTERNAL.
 */
export function scheduleProto(ctx: ServerContext, rec: ScheduleRec, next: number): pb.Schedule.$Properties {
  const n = Math.min(Math.max(next, 0), MAX_NEXT_FIRE_TIMES);
  const now = ctx.proposer.nowMs();
  const broken = nextOccurrenceProblem(rec.def, ctx.sm.limits, Math.max(rec.cursorMs, now)) ?? '';
  let fireTimes: readonly number[] = [];
  if (!rec.paused && n > 0 && broken === '') fireTimes = occurrencesAfter(rec.def, ctx.sm.limits, now, n);
  let lastFiredMs = rec.lastFiredMs;
  try {
    lastFiredMs = lastFiredAtOrBefore(rec, ctx.sm.limits, now);
  } catch {
    // The spec cannot be evaluated back then (a broken schedule): the record's own value.
  }
  return {
    definition: defToProto(rec.def),
    paused: rec.paused,
    createdAtMs: int64FromSafe(rec.createdAtMs),
    updatedAtMs: int64FromSafe(rec.updatedAtMs),
    fired: toUint64(BigInt(rec.fired)),
    skipped: toUint64(BigInt(rec.skipped)),
    lastFiredMs: int64FromSafe(lastFiredMs),
    nextFireMs: fireTimes.map((t) => int64FromSafe(t)),
    broken,
  };
}

/** The calling token and its schedule limit, for an upsert (none with authentication off). */
function ownerOf(ctx: ServerContext, metadata: grpc.Metadata): { owner?: string; ownerLimit?: number } {
  const owner = callerName(ctx, metadata);
  if (owner === '') return {};
  return { owner, ownerLimit: ctx.tokenLimits?.of(owner).schedules ?? 0 };
}

function ref(req: { topic?: string | null; name?: string | null }, ctx: ServerContext) {
  const topic = req.topic ?? '';
  const name = req.name ?? '';
  validateTopicName(topic, ctx.sm.limits, 'topic');
  validateScheduleName(name, ctx.sm.limits, 'name');
  return { topic, name };
}

export function schedulesHandlers(ctx: ServerContext): SchedulesHandlers {
  const run = async (op: Parameters<typeof runSchedule>[1]): Promise<ScheduleResult> => runSchedule(ctx, op);
  const status = (r: ScheduleResult) => {
    invariant(r.op === 'status', () => `schedule command answered with ${r.op}`);
    return {
      status: STATUS[r.status],
      ...(r.schedule ? { schedule: scheduleProto(ctx, r.schedule, 1) } : {}),
    };
  };
  return {
    upsertSchedule: unary(ctx, async (req, call) => {
      requireLeader(ctx);
      if (!req.schedule) throw new ValidationError('schedule', 'must be set');
      const def = under('schedule.', () => defFromProto(req.schedule));
      under('schedule.', () => validateDefinition(def, ctx.proposer.nowMs(), ctx.sm.limits));
      validateClientHeaders(def.headers, 'schedule.headers');
      await checkPublishTopics(ctx, [def], () => 'schedule.topic');
      const r = await run({ op: 'upsert', def, ...ownerOf(ctx, call.metadata) });
      invariant(r.op === 'upsert', () => `upsert answered with ${r.op}`);
      return { schedule: scheduleProto(ctx, r.schedule, 5), created: r.created };
    }),
    upsertSchedules: unary(ctx, async (req, call) => {
      requireLeader(ctx);
      const defs = (req.schedules ?? []).map((d, i) => under(`schedules[${i}].`, () => defFromProto(d)));
      validateDefinitions(defs, ctx.proposer.nowMs(), ctx.sm.limits);
      defs.forEach((d, i) => {
        validateClientHeaders(d.headers, `schedules[${i}].headers`);
      });
      await checkPublishTopics(ctx, defs, (i) => `schedules[${i}].topic`);
      const r = await run({ op: 'upsert-many', defs, ...ownerOf(ctx, call.metadata) });
      invariant(r.op === 'upsert-many', () => `bulk upsert answered with ${r.op}`);
      return {
        results: r.items.map((it) => ({ schedule: scheduleProto(ctx, it.schedule, 1), created: it.created })),
      };
    }),
    getSchedule: unary(ctx, async (req) => {
      const { topic, name } = ref(req, ctx);
      await linearizable(ctx);
      const rec = await readSchedule(ctx.sm.store, topic, name);
      if (!rec) throw new NotFoundError('schedule', `${topic}/${name}`);
      return { schedule: scheduleProto(ctx, rec, req.next || 5) };
    }),
    listSchedules: unary(ctx, async (req) => {
      const topic = req.topic ?? '';
      validateTopicName(topic, ctx.sm.limits, 'topic');
      const limit = Math.min(req.limit || DEFAULT_LIST_LIMIT, ctx.sm.limits.maxListLimit);
      await linearizable(ctx);
      const recs = await listSchedules(ctx.sm.store, topic, req.afterName ?? '', limit);
      return { schedules: recs.map((r) => scheduleProto(ctx, r, req.next || 1)) };
    }),
    pauseSchedule: unary(ctx, async (req) => status(await run({ op: 'pause', ...ref(req, ctx) }))),
    resumeSchedule: unary(ctx, async (req) => status(await run({ op: 'resume', ...ref(req, ctx) }))),
    deleteSchedule: unary(ctx, async (req) => status(await run({ op: 'delete', ...ref(req, ctx) }))),
    triggerSchedule: unary(ctx, async (req) => {
      const target = ref(req, ctx);
      requireLeader(ctx);
      const r = await run({ op: 'trigger', ...target, firstId: ctx.proposer.reserveIds(1) });
      invariant(r.op === 'trigger', () => `trigger answered with ${r.op}`);
      return {
        status: STATUS[r.status],
        id: toUint64(r.id ?? 0n),
        dueAtMs: int64FromSafe(r.dueAtMs ?? 0),
      };
    }),
  };
}

async function runSchedule(
  ctx: ServerContext,
  op: Parameters<ServerContext['proposer']['run']>[0] extends infer B
    ? B extends { kind: 'schedule'; op: infer O }
      ? O
      : never
    : never,
): Promise<ScheduleResult> {
  requireLeader(ctx);
  const r = await ctx.proposer.run({ kind: 'schedule', op });
  invariant(r.kind === 'schedule', () => `schedule command answered with ${r.kind}`);
  return r.result;
}
