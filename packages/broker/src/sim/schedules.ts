/**
 * Schedules in the broker simulation: a client creates two recurring
 * schedules (an interval in UTC and a 6-field cron in a zone with a
 * 30-minute DST shift, with jitter) at the start of the chaotic phase,
 * retrying until one answer comes; nobody consumes their topic, so every
 * message made from them is still there at the end. The check, rule
 * `schedule-exactly-once`: on the final leader each occurrence from the
 * schedule's creation to its cursor is exactly one message (less what
 * catch-up skipped, which the record counts), and the materialiser kept up.
 */
import { applyLimitsOf } from '../state/commands/apply-limits.js';
import type { ScheduleDef, ScheduleRec } from '../state/model/schedules.js';
import { OCCURRENCE_HEADER, SCHEDULE_HEADER } from '../state/model/schedules.js';
import type { BrokerReader } from '../state/read/reader.js';
import { occurrencesAfter } from '../state/schedule/spec.js';
import type { BrokerStateMachine } from '../state/state-machine.js';
import { readSchedule } from '../state/stores/schedules.js';
import type { Violation } from './checker.js';
import { type ClientWorld, pickNode, timed } from './clients.js';
import type { SimBrokerNode } from './sim-node.js';

export const SCHEDULE_TOPIC = 'sim.schedules';

const base = {
  topic: SCHEDULE_TOPIC,
  payload: new TextEncoder().encode('tick'),
  headers: {},
  keyTemplate: '',
  startAtMs: 0,
  endAtMs: 0,
  catchUp: 'all',
  dstPolicy: 'both',
  misfireThresholdMs: 0,
  paused: false,
} as const;

export const SIM_SCHEDULES: readonly ScheduleDef[] = [
  // Broken for a while in runs with tenants: STRICT_MIN_INTERVAL_MS is above its interval.
  { ...base, name: 'every-second', spec: 'every 1s', timeZone: '', jitterMs: 0 },
  { ...base, name: 'lord-howe', spec: '*/3 * * * * *', timeZone: 'Australia/Lord_Howe', jitterMs: 400 },
];

/**
 * The minimum schedule interval a client replicates in the chaos (an operator
 * rolling out a stricter limits.minScheduleIntervalMs): `every-second` cannot
 * be computed while it holds, `lord-howe` (every 3 s) can and keeps firing. A
 * leader elected afterwards replicates its own (1 s) again, and the calm
 * phase does too.
 */
export const STRICT_MIN_INTERVAL_MS = 1_500;

/** Replicates `minScheduleIntervalMs` (with the other apply limits as configured), retrying until answered. */
export function replicateMinInterval(
  w: ClientWorld,
  leader: () => SimBrokerNode | undefined,
  minScheduleIntervalMs: number | undefined,
  onDone?: () => void,
): void {
  const attempt = (): void => {
    // The raise is the chaos's: once the calm began it is not tried again.
    if (minScheduleIntervalMs !== undefined && w.calm) return;
    const node = pickNode(w, leader()?.id);
    const retry = (): void => {
      w.sched.at(300, () => 'retry apply-limits', attempt);
    };
    if (!node) {
      retry();
      return;
    }
    const values = {
      ...applyLimitsOf(node.ctx.sm.configuredLimits),
      ...(minScheduleIntervalMs !== undefined ? { minScheduleIntervalMs } : {}),
    };
    timed(
      w,
      () => node.ctx.proposer.run({ kind: 'apply-limits', values }),
      (r) => {
        if (r.kind !== 'apply-limits') {
          retry();
          return;
        }
        w.history.note(
          w.sched.nowMs,
          `apply-limits minScheduleIntervalMs ${values.minScheduleIntervalMs} on ${node.id}`,
        );
        onDone?.();
      },
      retry,
    );
  };
  attempt();
}

/** Creates each schedule through whichever node leads, retrying every 300 ms until an answer comes. */
export function createSchedules(w: ClientWorld, leader: () => SimBrokerNode | undefined): void {
  for (const def of SIM_SCHEDULES) {
    const attempt = (): void => {
      const node = pickNode(w, leader()?.id);
      const retry = (): void => {
        w.sched.at(300, () => `retry schedule ${def.name}`, attempt);
      };
      if (!node) {
        retry();
        return;
      }
      timed(
        w,
        () => node.ctx.proposer.run({ kind: 'schedule', op: { op: 'upsert', def } }),
        (r) => {
          if (r.kind !== 'schedule') {
            retry();
            return;
          }
          w.history.note(w.sched.nowMs, `schedule ${def.name} upserted on ${node.id}`);
        },
        retry,
      );
    };
    attempt();
  }
}

/** The first violation of `schedule-exactly-once` on the final leader, if any. */
export function checkSchedules(
  l: SimBrokerNode,
  stats: { scheduleMessages: number },
): Promise<Violation | undefined> {
  const { sm, reader } = l.ctx;
  return checkScheduleOccurrences(
    { sm, reader, nowMs: l.ctx.proposer.nowMs() },
    SCHEDULE_TOPIC,
    SIM_SCHEDULES.map((d) => d.name),
    stats,
  );
}

/** A replica to check: its state machine, its reader and its leader's time. */
export interface ScheduleCheckTarget {
  readonly sm: BrokerStateMachine;
  readonly reader: BrokerReader;
  readonly nowMs: number;
}

/**
 * `schedule-exactly-once` over one replica's store: each named schedule of
 * `topic` exists, every occurrence of its spec from its creation to its cursor
 * is exactly one message (less what catch-up counted as skipped), none is for
 * an instant that is no occurrence, and the materialiser kept up with `nowMs`.
 * The cluster runs (npm run chaos) check their final leader's store with it too.
 */
export async function checkScheduleOccurrences(
  target: ScheduleCheckTarget,
  topic: string,
  names: readonly string[],
  stats: { scheduleMessages: number },
): Promise<Violation | undefined> {
  const { sm, reader, nowMs: now } = target;
  const byName = new Map<string, Map<number, bigint[]>>();
  let pageToken: Uint8Array | undefined;
  if (await reader.getTopic(topic)) {
    for (;;) {
      const page = await reader.listMessages(
        topic,
        { limit: 1000, ...(pageToken ? { pageToken } : {}) },
        now,
      );
      for (const { message } of page.items) {
        if (!message) continue;
        const name = message.headers[SCHEDULE_HEADER] ?? '';
        const occ = Number(message.headers[OCCURRENCE_HEADER]);
        const m = byName.get(name) ?? new Map<number, bigint[]>();
        m.set(occ, [...(m.get(occ) ?? []), message.id]);
        byName.set(name, m);
      }
      if (!page.nextPageToken) break;
      pageToken = page.nextPageToken;
    }
  }
  for (const m of byName.values()) stats.scheduleMessages += m.size;
  for (const name of names) {
    const rec: ScheduleRec | undefined = await readSchedule(sm.store, topic, name);
    const fail = (message: string): Violation => ({
      rule: 'schedule-exactly-once',
      message: `${name}: ${message}`,
    });
    if (!rec) return fail('never created (the upsert was retried until answered)');
    const def = rec.def;
    const got = byName.get(name) ?? new Map<number, bigint[]>();
    for (const [occ, ids] of got)
      if (ids.length > 1) return fail(`occurrence ${occ} became messages ${ids.join(', ')}`);
    let expected: readonly number[];
    try {
      expected = occurrencesAfter(def, sm.limits, rec.createdAtMs, 1_000_000, rec.cursorMs);
    } catch (err) {
      return fail(`still broken at the end: ${(err as Error).message}`);
    }
    const have = new Set(got.keys());
    const missing = expected.filter((o) => !have.has(o));
    if (missing.length > rec.skipped) {
      return fail(
        `${missing.length} occurrences have no message (skipped ${rec.skipped}), first ${missing[0]}`,
      );
    }
    const extra = [...have].filter((o) => !expected.includes(o));
    if (extra.length > 0)
      return fail(`messages for ${extra.length} instants that are no occurrence, first ${extra[0]}`);
    if (got.size !== rec.fired) return fail(`${got.size} messages, the record counts ${rec.fired} fired`);
    const next = occurrencesAfter(def, sm.limits, rec.cursorMs, 1)[0] ?? Number.POSITIVE_INFINITY;
    if (next < now - 5_000)
      return fail(`the materialiser fell behind: next occurrence ${next}, leader time ${now}`);
  }
  return undefined;
}
