/**
 * Points of apply where the broker simulation injects bugs (`--bug`, the
 * broker's sim/injected-bugs.ts), as a test-only subclass does elsewhere.
 * The server never sets them (`BrokerStateMachine.applyHooks` stays
 * undefined), so apply pays one undefined check at each point. A hook must
 * be a function of the replicated state alone, as apply is: every replica
 * runs it.
 */
import type { RunHold, TopicRec } from '../model/records.js';
import type { ApplyContext } from './context.js';

export interface ApplyHooks {
  /** The open offset a run tag names, given the one it names (shipped: that one). */
  readonly runTagHold?: (ctx: ApplyContext, named: RunHold) => RunHold;
  /** An ack removed the entry `hold` held and settled its offset. */
  readonly acked?: (ctx: ApplyContext, topic: TopicRec, hold: RunHold) => Promise<void> | undefined;
}
