/**
 * The leader's purger: removes the records of deleted topics and groups in
 * bounded steps (state/apply/apply-purge.ts), one purge command in flight at a
 * time, taking the deletions under way in turn. After each step it pauses at
 * least as long as the step took (and at least `pauseMs`): a deletion is
 * background work and takes at most about half of the cluster's time, however
 * loaded the nodes are, so other clients' entries keep their share. What is left
 * to remove is replicated state (a purge record per deletion), so a new
 * leader picks up every deletion where the last applied step left it.
 */

import { type Clock, systemClock, type TimerHandle } from '@fermata/base';
import type { Logger } from 'pino';
import type { BrokerStateMachine } from '../state/state-machine.js';
import type { PurgeName } from '../state/stores/purges.js';
import type { Proposer } from './proposer.js';

/** Pause before a failed step is tried again (leadership moving, a full log). */
export const PURGE_RETRY_PAUSE_MS = 500;

/** What the purger counts (server/metrics.ts implements it). */
export interface PurgeMetrics {
  /** Queue entries and other records (keys, schedules) removed by this node's purge steps. */
  readonly removedRecords: { inc(value?: number): void };
}

export const discardPurgeMetrics: PurgeMetrics = { removedRecords: { inc: () => undefined } };

export interface PurgerOptions {
  readonly sm: BrokerStateMachine;
  readonly proposer: Pick<Proposer, 'run'>;
  readonly log: Pick<Logger, 'warn' | 'info'>;
  readonly metrics?: PurgeMetrics;
  readonly clock?: Clock;
  /** Records one step removes (at most limits.maxIdsPerCommand). */
  readonly maxRecordsPerStep: number;
  /** Least pause between two steps, ms (the pause is at least as long as the step took). */
  readonly pauseMs: number;
}

export class Purger {
  private epoch = 0;
  /** Leading: deletions are worked on (between `start` and `stop`). */
  private active = false;
  private running = false;
  private timer: TimerHandle | undefined;
  /** Where the round-robin over deletions goes next. */
  private turn = 0;
  private readonly clock: Clock;

  constructor(private readonly options: PurgerOptions) {
    this.clock = options.clock ?? systemClock;
  }

  /** On becoming leader: works through every deletion the state machine holds. */
  start(): void {
    this.stop();
    this.active = true;
    this.wake();
  }

  stop(): void {
    this.active = false;
    this.epoch++;
    if (this.timer) this.clock.clearTimer(this.timer);
    this.timer = undefined;
  }

  /** A batch started deletions (whoever proposed it): work on them. */
  noteStarted(): void {
    this.wake();
  }

  private wake(delayMs = 0): void {
    if (!this.active || this.running || this.timer) return;
    const epoch = this.epoch;
    this.timer = this.clock.setTimer(() => {
      this.timer = undefined;
      void this.step(epoch);
    }, delayMs);
  }

  /** One purge step of the next deletion; schedules the next step while any deletion is left. */
  private async step(epoch: number): Promise<void> {
    if (epoch !== this.epoch || this.running) return;
    const { sm, proposer, log } = this.options;
    const all = sm.deleting.list();
    if (all.length === 0) return;
    const target: PurgeName = all[this.turn++ % all.length]!;
    this.running = true;
    let retry = false;
    const startedMs = this.clock.monotonicMs();
    try {
      const maxRecords = Math.max(1, Math.min(this.options.maxRecordsPerStep, sm.limits.maxIdsPerCommand));
      const r = await proposer.run({ kind: 'purge', topic: target.topic, group: target.group, maxRecords });
      if (r.kind === 'purge') {
        this.options.metrics?.removedRecords.inc(r.removedEntries + r.removedRecords);
        if (r.done) log.info({ topic: target.topic, group: target.group || undefined }, 'deletion complete');
      }
    } catch (err) {
      if (epoch === this.epoch) {
        log.warn(
          { err: String(err), topic: target.topic, group: target.group },
          'purge step failed; retrying',
        );
      }
      retry = true;
    } finally {
      this.running = false;
    }
    if (sm.deleting.size === 0) return;
    // Leading again after a stop during this step (a new epoch): its start found this step
    // running and left the next one to it.
    if (epoch !== this.epoch) this.wake();
    else {
      const tookMs = this.clock.monotonicMs() - startedMs;
      this.wake(retry ? PURGE_RETRY_PAUSE_MS : Math.max(this.options.pauseMs, Math.ceil(tookMs)));
    }
  }
}
