/**
 * Bugs the broker simulation can inject (`--bug NAME`), each a test-only
 * subclass or hook handed to a simulated node, never reachable from the
 * server's configuration. Each must be caught by a general rule of the
 * checker (checker.ts), not by a check written for its mechanism.
 */
import type { Clock } from '../leader/clock.js';
import { Proposer } from '../leader/proposer.js';
import type { CommandBody } from '../leader/proposer.js';
import type { CommandResult, SettleOutcome } from '../state/results.js';

export const INJECTED_BUGS = [
  'early-lease',
  'ack-in-memory',
  'reschedule-answer',
  'withdraw-ignored',
] as const;
export type InjectedBug = (typeof INJECTED_BUGS)[number];

export interface BrokerBugs {
  readonly proposer?: typeof Proposer;
  readonly dispatcherClock?: (clock: Clock) => Clock;
  readonly withdrawIgnored?: boolean;
}

/** How early the `early-lease` dispatcher believes it is. */
const EARLY_MS = 1_500;

/** The ack is answered from the leader's memory and never replicated. */
class AckInMemoryProposer extends Proposer {
  override ack(tags: readonly Uint8Array[]): Promise<readonly SettleOutcome[]> {
    return Promise.resolve(tags.map((tag) => ({ tag, status: 'ok' as const })));
  }
}

/** A reschedule answers a due time later than the one it stored. */
class RescheduleAnswerProposer extends Proposer {
  override async run(body: CommandBody, nowMs?: number): Promise<CommandResult> {
    const r = await super.run(body, nowMs);
    if (r.kind === 'reschedule' && r.result.status === 'rescheduled' && r.result.dueAtMs !== undefined) {
      return { ...r, result: { ...r.result, dueAtMs: r.result.dueAtMs + 5_000 } };
    }
    return r;
  }
}

export function brokerBugs(bug: InjectedBug | undefined): BrokerBugs {
  switch (bug) {
    case undefined:
      return {};
    case 'early-lease':
      // The dispatcher leases and pushes by a clock EARLY_MS ahead of the leader's.
      return { dispatcherClock: (clock) => ({ ...bindClock(clock), nowMs: () => clock.nowMs() + EARLY_MS }) };
    case 'ack-in-memory':
      return { proposer: AckInMemoryProposer };
    case 'reschedule-answer':
      return { proposer: RescheduleAnswerProposer };
    case 'withdraw-ignored':
      // Leases taken ahead that a cancel or reschedule withdrew are still pushed.
      return { withdrawIgnored: true };
  }
}

function bindClock(clock: Clock): Clock {
  return {
    nowMs: () => clock.nowMs(),
    monotonicMs: () => clock.monotonicMs(),
    setTimer: (fn, ms) => clock.setTimer(fn, ms),
    clearTimer: (h) => clock.clearTimer(h),
  };
}
