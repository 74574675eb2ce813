/**
 * The schedule command (commands.proto `ScheduleCommand`) as plain data, its
 * result, and its encoding both ways.
 */
import { int64FromSafe, type pb, toBigInt, toSafeNumber, toUint64 } from '@fermata/protocol';
import { ValidationError } from '../model/errors.js';
import {
  defFromProto,
  defToProto,
  type ScheduleDef,
  type ScheduleFire,
  type ScheduleRec,
} from '../model/schedules.js';

/** The token an upsert is made for, and the most schedules it may own (0 = no limit). */
export interface ScheduleOwner {
  readonly owner?: string;
  readonly ownerLimit?: number;
}

export type ScheduleOp =
  | ({ readonly op: 'upsert'; readonly def: ScheduleDef } & ScheduleOwner)
  /** Upserts in order, all or none (one refused rolls the command back). */
  | ({ readonly op: 'upsert-many'; readonly defs: readonly ScheduleDef[] } & ScheduleOwner)
  | { readonly op: 'delete' | 'pause' | 'resume'; readonly topic: string; readonly name: string }
  | { readonly op: 'trigger'; readonly topic: string; readonly name: string; readonly firstId: bigint }
  | { readonly op: 'fire'; readonly fires: readonly ScheduleFire[]; readonly firstId: bigint };

export type ScheduleStatus = 'done' | 'not-found' | 'unchanged';

/**
 * Per fire: `fired` = messages made, `stale` = the schedule moved on (nothing
 * stored), `gone` = deleted, `broken` = its next occurrence cannot be
 * computed (nothing stored; the command's other fires go on).
 */
export type FireOutcome =
  | { readonly status: 'fired'; readonly fired: number; readonly skipped: number; readonly rec: ScheduleRec }
  | { readonly status: 'stale'; readonly rec: ScheduleRec }
  | { readonly status: 'broken'; readonly reason: string; readonly rec: ScheduleRec }
  | { readonly status: 'gone' };

export type ScheduleResult =
  | { readonly op: 'upsert'; readonly schedule: ScheduleRec; readonly created: boolean }
  | {
      readonly op: 'upsert-many';
      readonly items: readonly { readonly schedule: ScheduleRec; readonly created: boolean }[];
    }
  | { readonly op: 'status'; readonly status: ScheduleStatus; readonly schedule?: ScheduleRec }
  | {
      readonly op: 'trigger';
      readonly status: ScheduleStatus;
      readonly id?: bigint;
      readonly dueAtMs?: number;
    }
  | { readonly op: 'fire'; readonly outcomes: readonly FireOutcome[] };

const num = (v: Parameters<typeof toSafeNumber>[0], field: string): number => toSafeNumber(v, field);

export function scheduleOpToProto(op: ScheduleOp): pb.ScheduleCommand.$Properties {
  switch (op.op) {
    case 'upsert':
      return { upsert: defToProto(op.def), ...ownerToProto(op) };
    case 'upsert-many':
      return { upsertMany: { schedules: op.defs.map(defToProto) }, ...ownerToProto(op) };
    case 'delete':
    case 'pause':
    case 'resume':
      return { [op.op]: { topic: op.topic, name: op.name } };
    case 'trigger':
      return { trigger: { topic: op.topic, name: op.name, firstId: toUint64(op.firstId) } };
    case 'fire':
      return {
        fire: {
          firstId: toUint64(op.firstId),
          fires: op.fires.map((f) => ({
            topic: f.topic,
            name: f.name,
            generation: toUint64(BigInt(f.generation)),
            afterMs: int64FromSafe(f.afterMs),
            skipToMs: int64FromSafe(f.skipToMs),
            skipped: f.skipped,
            occurrences: f.occurrences.map((o) => int64FromSafe(o)),
          })),
        },
      };
  }
}

function ownerToProto(o: ScheduleOwner): { owner?: string; ownerLimit?: number } {
  return o.owner ? { owner: o.owner, ownerLimit: o.ownerLimit ?? 0 } : {};
}

function ownerFromProto(m: pb.ScheduleCommand.$Properties): ScheduleOwner {
  return m.owner ? { owner: m.owner, ownerLimit: m.ownerLimit ?? 0 } : {};
}

export function scheduleOpFromProto(m: pb.ScheduleCommand.$Properties & { op?: string }): ScheduleOp {
  switch (m.op) {
    case 'upsert':
      return { op: 'upsert', def: defFromProto(m.upsert), ...ownerFromProto(m) };
    case 'upsertMany':
      return {
        op: 'upsert-many',
        defs: (m.upsertMany!.schedules ?? []).map((d) => defFromProto(d)),
        ...ownerFromProto(m),
      };
    case 'delete':
    case 'pause':
    case 'resume': {
      const r = m[m.op]!;
      return { op: m.op, topic: r.topic ?? '', name: r.name ?? '' };
    }
    case 'trigger':
      return {
        op: 'trigger',
        topic: m.trigger!.topic ?? '',
        name: m.trigger!.name ?? '',
        firstId: toBigInt(m.trigger!.firstId),
      };
    case 'fire':
      return {
        op: 'fire',
        firstId: toBigInt(m.fire!.firstId),
        fires: (m.fire!.fires ?? []).map((f, i) => ({
          topic: f.topic ?? '',
          name: f.name ?? '',
          generation: num(f.generation, `fires[${i}].generation`),
          afterMs: num(f.afterMs, `fires[${i}].after_ms`),
          skipToMs: num(f.skipToMs, `fires[${i}].skip_to_ms`),
          skipped: f.skipped ?? 0,
          occurrences: (f.occurrences ?? []).map((o, j) => num(o, `fires[${i}].occurrences[${j}]`)),
        })),
      };
    default:
      throw new ValidationError('schedule', 'names no schedule operation');
  }
}

/** Ids a schedule command uses: one per occurrence fired, one for a trigger. */
export function scheduleIdCount(op: ScheduleOp): number {
  if (op.op === 'trigger') return 1;
  if (op.op !== 'fire') return 0;
  let n = 0;
  for (const f of op.fires) n += f.occurrences.length;
  return n;
}
