import type { RaftCoreOptions } from '../core/raft-core.js';
import type { Message } from '../types.js';
import { SimRaftCore } from './sim-core.js';

/** Known Raft bugs the simulator must catch (each test asserts the invariant that fires). */
export type InjectedBug = 'commit-previous-term' | 'vote-before-persist' | 'truncate-stale-append';

/** §5.4.2 broken: commits an entry of a previous term by counting its replicas (Figure 8). */
class CommitPreviousTermCore extends SimRaftCore {
  protected override canCommitByCounting(_index: number): boolean {
    return true;
  }
}

/** Answers a vote before the vote is durable: a crash can then make the node vote twice in one term. */
class VoteBeforePersistCore extends SimRaftCore {
  protected override sendsAfterPersist(m: Message): boolean {
    if (m.type === 'vote-response') return false;
    return super.sendsAfterPersist(m);
  }
}

/** Truncates its log after every append, even a stale or duplicated one that conflicts with nothing. */
class TruncateOnStaleAppendCore extends SimRaftCore {
  protected override appendFromLeader(m: Message): void {
    // Rewrites the log from the append's first entry, dropping whatever followed it.
    if (m.entries.length > 0) this.appendToLog(m.entries);
  }
}

export function makeCore(options: RaftCoreOptions, bug: InjectedBug | undefined): SimRaftCore {
  switch (bug) {
    case 'commit-previous-term':
      return new CommitPreviousTermCore(options);
    case 'vote-before-persist':
      return new VoteBeforePersistCore(options);
    case 'truncate-stale-append':
      return new TruncateOnStaleAppendCore(options);
    case undefined:
      return new SimRaftCore(options);
  }
}
