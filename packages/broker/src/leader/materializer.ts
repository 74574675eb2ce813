/**
 * The leader's schedule materialiser: turns each schedule's occurrences into
 * messages a little ahead of their instants (SCHEDULE_AHEAD_MS), through fire
 * commands (state/apply/apply-schedule.ts) that carry the instants it computed and
 * the schedule cursor they follow. A fire applied twice (a new leader
 * re-proposing what the old one's entry already did) is stale the second
 * time and stores nothing; one never applied is computed again from the
 * cursor, so no occurrence is lost either. After an outage, occurrences
 * missed by more than the misfire threshold follow the schedule's catch_up.
 *
 * Work is ordered by due time (the occurrence plus its deterministic jitter),
 * not by occurrence: when many schedules share an instant, those whose jitter
 * puts them first are stored first, so a drain of one instant's occurrences
 * follows their due times instead of storing some after they fell due.
 *
 * When more schedules fall due together than the cluster stores in
 * SCHEDULE_AHEAD_MS, the window opens earlier by the time storing them takes
 * at the measured rate (materialize-lead.ts), up to maxScheduleAheadMs: a
 * herd of 100,000 at 00:00 is stored before 00:00 instead of after it.
 */

import { type Clock, systemClock, type TimerHandle } from '@fermata/base';
import type { Logger } from 'pino';
import type { CommandResult } from '../state/commands/results.js';
import type { Limits } from '../state/model/limits.js';
import type { ScheduleFire, ScheduleRec } from '../state/model/schedules.js';
import { occurrenceDueMs, planFire } from '../state/schedule/fire.js';
import { occurrencesAfter } from '../state/schedule/spec.js';
import type { BrokerStateMachine } from '../state/state-machine.js';
import { readSchedules, type ScheduleName, scanAllSchedules } from '../state/stores/schedules.js';
import { materializeLeadMs, StoreRate } from './materialize-lead.js';
import type { Proposer } from './proposer.js';

/** How far ahead of its instant an occurrence becomes a message (so it is delivered on time). */
export const SCHEDULE_AHEAD_MS = 2_000;
/**
 * Fire commands one materialiser round has in flight at once. One: each carries up to
 * maxScheduleFiresPerCommand messages for every replica to apply, and more at once has not
 * been shown to help a loaded cluster (larger apply batches delay its heartbeats).
 */
export const MAX_FIRES_IN_FLIGHT = 1;
/** How often the lead (materialize-lead.ts) is computed again: a walk over every schedule. */
const LEAD_RECOMPUTE_MS = 1_000;
/** Changed schedules the materialiser reads back per multi-get. */
const REFRESH_READ_BATCH = 1000;
/** How often the materialiser looks for schedules due within SCHEDULE_AHEAD_MS. */
export const MATERIALIZE_INTERVAL_MS = 250;

/** What the materialiser counts (server/metrics.ts implements it). */
export interface ScheduleMetrics {
  /** Schedules known to the leader. */
  readonly schedules: { set(value: number): void };
  /** Of those, the schedules whose next occurrence cannot be computed (they fire nothing). */
  readonly brokenSchedules: { set(value: number): void };
  readonly occurrencesFired: { inc(value?: number): void };
  readonly occurrencesSkipped: { inc(value?: number): void };
  /** For each occurrence: when its message was stored minus its instant, ms (0 when stored ahead). */
  readonly materializeLatenessMs: { observe(value: number): void };
}

const ignore = (): void => {};
export const discardScheduleMetrics: ScheduleMetrics = {
  schedules: { set: ignore },
  brokenSchedules: { set: ignore },
  occurrencesFired: { inc: ignore },
  occurrencesSkipped: { inc: ignore },
  materializeLatenessMs: { observe: ignore },
};

/** A schedule that cannot fire: why, and the state machine's limitsVersion it was judged with. */
interface Broken {
  readonly reason: string;
  readonly limitsVersion: number;
}

interface Slot {
  readonly key: string;
  /** When the schedule next needs a fire: see `nextAtMs`. */
  readonly atMs: number;
  readonly seq: number;
}

const keyOf = (topic: string, name: string): string => `${topic}\u0000${name}`;

export class ScheduleMaterializer {
  private timer: TimerHandle | undefined;
  private epoch = 0;
  private running = false;
  /** Per schedule: the sequence number of its live heap slot (older slots are ignored). */
  private readonly live = new Map<string, { seq: number; topic: string; name: string }>();
  private readonly heap: Slot[] = [];
  private seq = 0;
  private readonly dirty = new Map<string, ScheduleName>();
  /** Schedules whose next occurrence cannot be computed, with why: they fire nothing, the others do. */
  private readonly broken = new Map<string, Broken>();
  /** The state machine's limitsVersion when the broken schedules were last looked through. */
  private brokenCheckedLimits = -1;
  private readonly clock: Clock;
  private readonly storeRate = new StoreRate();
  private leadMs = 0;
  private leadAtMs = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly options: {
      sm: BrokerStateMachine;
      proposer: Proposer;
      log: Pick<Logger, 'warn'>;
      metrics?: ScheduleMetrics;
      clock?: Clock;
      aheadMs?: number;
      /** Open the window earlier for herds (default true). */
      lead?: boolean;
    },
  ) {
    this.clock = options.clock ?? systemClock;
  }

  private get limits(): Limits {
    return this.options.sm.limits;
  }

  private get metrics(): ScheduleMetrics {
    return this.options.metrics ?? discardScheduleMetrics;
  }

  private get aheadMs(): number {
    return Math.min(this.options.aheadMs ?? SCHEDULE_AHEAD_MS, this.limits.maxScheduleAheadMs);
  }

  /** Starts on becoming leader: reads every schedule, then materialises every MATERIALIZE_INTERVAL_MS. */
  async start(): Promise<void> {
    this.stop();
    const epoch = await this.load();
    if (epoch !== this.epoch) return;
    const tick = (): void => {
      if (epoch !== this.epoch) return;
      this.timer = this.clock.setTimer(tick, MATERIALIZE_INTERVAL_MS);
      if (this.running) return;
      this.running = true;
      this.round(epoch)
        .catch((err: unknown) => {
          if (epoch === this.epoch)
            this.options.log.warn({ err: String(err) }, 'schedule materialiser round failed');
        })
        .finally(() => {
          this.running = false;
        });
    };
    this.timer = this.clock.setTimer(tick, 0);
  }

  /** Reads every schedule (what `start` does before its first round); returns the epoch it loaded for. */
  async load(): Promise<number> {
    const epoch = ++this.epoch;
    this.live.clear();
    this.heap.length = 0;
    this.dirty.clear();
    this.broken.clear();
    const recs: ScheduleRec[] = [];
    await scanAllSchedules(this.options.sm.store, (rec) => recs.push(rec));
    if (epoch !== this.epoch) return epoch;
    for (const rec of recs) this.track(rec);
    this.report();
    return epoch;
  }

  stop(): void {
    this.epoch++;
    if (this.timer) this.clock.clearTimer(this.timer);
    this.timer = undefined;
  }

  /** Applied batches report the schedules they changed (whoever proposed them). */
  noteChanged(names: readonly ScheduleName[]): void {
    for (const n of names) this.dirty.set(keyOf(n.topic, n.name), n);
  }

  /**
   * One round: fires every schedule with an occurrence due within the window, in
   * commands of up to maxScheduleFiresPerCommand occurrences, MAX_FIRES_IN_FLIGHT at once
   * (each names other schedules, so they commute).
   */
  async round(epoch = this.epoch): Promise<void> {
    // A limit that broke a schedule may have changed back (an apply-limits entry touches no
    // schedule record): compute again each one judged with other limits than today's.
    const limitsVersion = this.options.sm.limitsVersion;
    if (this.broken.size > 0 && limitsVersion !== this.brokenCheckedLimits) {
      this.brokenCheckedLimits = limitsVersion;
      for (const [key, b] of this.broken) {
        const live = this.live.get(key);
        if (live && b.limitsVersion !== limitsVersion)
          this.dirty.set(key, { topic: live.topic, name: live.name });
      }
    }
    await this.refreshDirty();
    const { proposer } = this.options;
    const inFlight = new Set<Promise<void>>();
    try {
      for (;;) {
        if (epoch !== this.epoch) return;
        const now = proposer.nowMs();
        const fires: ScheduleFire[] = [];
        let total = 0;
        const cap = this.limits.maxScheduleFiresPerCommand;
        const windowMs = this.windowMs(now);
        while (total < cap && this.headDue(now, windowMs)) {
          // The due schedules this command may take (each fires at least one occurrence), read at once.
          const due: ScheduleName[] = [];
          while (due.length < cap - total && this.headDue(now, windowMs)) {
            const slot = this.pop();
            const live = this.live.get(slot.key);
            if (live && live.seq === slot.seq) due.push(live);
          }
          const recs = await readSchedules(this.options.sm.store, due);
          if (epoch !== this.epoch) return;
          for (const [i, rec] of recs.entries()) {
            if (!rec) {
              this.forget(keyOf(due[i]!.topic, due[i]!.name));
              continue;
            }
            let fire: ScheduleFire | undefined;
            try {
              fire =
                total < cap
                  ? planFire(rec, this.limits, now, windowMs, cap - total, this.dueOf(rec))
                  : undefined;
            } catch (err) {
              this.markBroken(rec, err);
              continue;
            }
            if (!fire) {
              this.track(rec);
              continue;
            }
            fires.push(fire);
            total += fire.occurrences.length;
          }
        }
        if (fires.length === 0) return;
        const p: Promise<void> = this.propose(fires, total, now, epoch).finally(() => inFlight.delete(p));
        inFlight.add(p);
        if (inFlight.size >= MAX_FIRES_IN_FLIGHT) await Promise.race(inFlight);
        if (total < cap) return;
      }
    } finally {
      await Promise.all(inFlight);
    }
  }

  private async propose(fires: ScheduleFire[], total: number, now: number, epoch: number): Promise<void> {
    const { proposer } = this.options;
    let result: CommandResult;
    try {
      const firstId = proposer.reserveIds(total);
      const startedMs = this.clock.monotonicMs();
      result = await proposer.run({ kind: 'schedule', op: { op: 'fire', fires, firstId } }, now);
      this.storeRate.observe(total, this.clock.monotonicMs() - startedMs);
    } catch (err) {
      // Not applied (lost leadership, a refused entry): read the schedules again next round.
      for (const f of fires) this.dirty.set(keyOf(f.topic, f.name), f);
      throw err;
    }
    if (epoch !== this.epoch) return;
    if (result.kind === 'schedule' && result.result.op === 'fire') {
      for (const [i, o] of result.result.outcomes.entries()) {
        const f = fires[i]!;
        const key = keyOf(f.topic, f.name);
        // Only a fire that stored writes the record, noting it changed: the outcome holds it as
        // the fire left it, so no re-read (a stale record only makes the next fire stale). Any
        // other outcome wrote nothing, so a note of the schedule came from a later entry (an
        // upsert, a delete) already applied: it stays, and the next round reads the record.
        if (o.status === 'gone') {
          this.forget(key);
          continue;
        }
        // 'broken' was judged with the limits at the entry's place in the log; an apply-limits
        // entry after it may have changed them since. track() judges with today's limits, so
        // the schedule is marked broken with the version it was judged with, or fires again.
        if (o.status === 'fired') {
          this.dirty.delete(key);
          this.metrics.occurrencesFired.inc(o.fired);
          if (o.skipped > 0) this.metrics.occurrencesSkipped.inc(o.skipped);
          const appliedAt = proposer.nowMs();
          const due = this.dueOf(o.rec);
          for (const occ of f.occurrences)
            this.metrics.materializeLatenessMs.observe(Math.max(0, appliedAt - due(occ)));
        }
        this.track(o.rec);
      }
    }
    this.report();
  }

  /**
   * When the schedule next needs a fire, if ever: its next occurrence's due time
   * (instant plus jitter), or the occurrence after it when that comes first (a
   * jitter longer than the interval: the fire takes both, in order), so no
   * occurrence is stored after its due time for want of being looked at.
   */
  nextAtMs(rec: ScheduleRec): number | undefined {
    if (rec.paused) return undefined;
    if (rec.def.jitterMs <= 0) return occurrencesAfter(rec.def, this.limits, rec.cursorMs, 1)[0];
    const [next, after] = occurrencesAfter(rec.def, this.limits, rec.cursorMs, 2);
    if (next === undefined) return undefined;
    const due = occurrenceDueMs(this.options.sm.hasher, rec.def, next);
    return after === undefined ? due : Math.min(due, after);
  }

  /** Whether the heap's first schedule needs a fire within `windowMs` of `nowMs`. */
  private headDue(nowMs: number, windowMs: number): boolean {
    return this.heap.length > 0 && this.heap[0]!.atMs <= nowMs + windowMs;
  }

  /** How far ahead of `nowMs` this round materialises: SCHEDULE_AHEAD_MS plus the lead. */
  private windowMs(nowMs: number): number {
    if (this.options.lead === false) return this.aheadMs;
    const now = this.clock.monotonicMs();
    if (now - this.leadAtMs >= LEAD_RECOMPUTE_MS) {
      this.leadAtMs = now;
      const max = this.limits.maxScheduleAheadMs;
      this.leadMs = materializeLeadMs(this.liveDueTimes(), nowMs, this.aheadMs, max, this.storeRate.perS);
    }
    return Math.min(this.aheadMs + this.leadMs, this.limits.maxScheduleAheadMs);
  }

  private *liveDueTimes(): Generator<number> {
    for (const slot of this.heap) if (this.live.get(slot.key)?.seq === slot.seq) yield slot.atMs;
  }

  private dueOf(rec: ScheduleRec): (occurrenceMs: number) => number {
    const { hasher } = this.options.sm;
    return (o) => occurrenceDueMs(hasher, rec.def, o);
  }

  private async refreshDirty(): Promise<void> {
    if (this.dirty.size === 0) return;
    const names = [...this.dirty.values()];
    this.dirty.clear();
    for (let i = 0; i < names.length; i += REFRESH_READ_BATCH) {
      const batch = names.slice(i, i + REFRESH_READ_BATCH);
      const recs = await readSchedules(this.options.sm.store, batch);
      for (const [j, rec] of recs.entries()) {
        if (rec) this.track(rec);
        else this.forget(keyOf(batch[j]!.topic, batch[j]!.name));
      }
    }
    this.report();
  }

  /** The schedules that cannot fire, with why (GetSchedule says the same of each). */
  brokenSchedules(): ReadonlyMap<string, string> {
    return new Map([...this.broken].map(([key, b]) => [key, b.reason]));
  }

  private report(): void {
    this.metrics.schedules.set(this.live.size);
    this.metrics.brokenSchedules.set(this.broken.size);
  }

  private forget(key: string): void {
    this.live.delete(key);
    this.broken.delete(key);
  }

  /**
   * Tracks the schedule for its next fire. One whose next occurrence cannot
   * be computed is broken: it is kept (counted, reported) but never fires
   * until it changes; no other schedule waits for it.
   */
  private track(rec: ScheduleRec): void {
    const key = keyOf(rec.def.topic, rec.def.name);
    let at: number | undefined;
    try {
      at = this.nextAtMs(rec);
    } catch (err) {
      this.markBroken(rec, err);
      return;
    }
    this.broken.delete(key);
    const seq = ++this.seq;
    this.live.set(key, { seq, topic: rec.def.topic, name: rec.def.name });
    if (at !== undefined) this.push({ key, atMs: at, seq });
  }

  /** Marks the schedule broken; `err` must come from the limits in effect now. */
  private markBroken(rec: ScheduleRec, err: unknown): void {
    const key = keyOf(rec.def.topic, rec.def.name);
    const reason = typeof err === 'string' ? err : (err as Error).message || String(err);
    // Its heap slot, if any, is dropped: a new sequence number without a slot.
    this.live.set(key, { seq: ++this.seq, topic: rec.def.topic, name: rec.def.name });
    if (this.broken.get(key)?.reason !== reason) {
      this.options.log.warn(
        { topic: rec.def.topic, schedule: rec.def.name, reason },
        'schedule is broken: its next occurrence cannot be computed; it fires nothing until changed',
      );
    }
    this.broken.set(key, { reason, limitsVersion: this.options.sm.limitsVersion });
  }

  private push(slot: Slot): void {
    const h = this.heap;
    h.push(slot);
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (h[p]!.atMs <= slot.atMs) break;
      h[i] = h[p]!;
      i = p;
    }
    h[i] = slot;
  }

  private pop(): Slot {
    const h = this.heap;
    const top = h[0]!;
    const last = h.pop()!;
    if (h.length > 0) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= h.length) break;
        const r = l + 1;
        const c = r < h.length && h[r]!.atMs < h[l]!.atMs ? r : l;
        if (h[c]!.atMs >= last.atMs) break;
        h[i] = h[c]!;
        i = c;
      }
      h[i] = last;
    }
    return top;
  }
}
