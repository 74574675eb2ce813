import type { ScheduleDef, ScheduleRec } from '../src/state/model/schedules.js';

/** A schedule definition of topic `t`, name `s`, with defaults a test overrides. */
export function scheduleDef(spec: string, extra: Partial<ScheduleDef> = {}): ScheduleDef {
  return {
    topic: 't',
    name: 's',
    spec,
    timeZone: '',
    payload: new TextEncoder().encode('tick'),
    headers: {},
    keyTemplate: '',
    startAtMs: 0,
    endAtMs: 0,
    jitterMs: 0,
    catchUp: 'none',
    dstPolicy: 'once',
    misfireThresholdMs: 0,
    paused: false,
    ...extra,
  };
}

/** A stored schedule at `cursorMs`, generation 1. */
export function scheduleRec(spec: string, cursorMs: number, extra: Partial<ScheduleDef> = {}): ScheduleRec {
  return {
    def: scheduleDef(spec, extra),
    paused: false,
    cursorMs,
    generation: 1,
    createdAtMs: 0,
    updatedAtMs: 0,
    fired: 0,
    skipped: 0,
    lastFiredMs: 0,
  };
}
