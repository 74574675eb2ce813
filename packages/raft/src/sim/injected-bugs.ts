import type { RaftCoreOptions } from '../core/raft-core.js';
import { mustPersist } from '../log/hard-state.js';
import { LogStore, type LogStoreOptions } from '../log/log-store.js';
import { RaftNode } from '../node/raft-node.js';
import type { Admission, SenderIdentity } from '../transport/admission.js';
import type { Entry, HardState, Message, NodeId } from '../types.js';
import { SimRaftCore } from './sim-core.js';

/**
 * Known Raft bugs the simulator must catch, each by a general invariant
 * (test-only subclasses of the core and of the driver).
 */
export type InjectedBug =
  | 'commit-previous-term'
  | 'vote-before-persist'
  | 'truncate-stale-append'
  | 'leader-counts-unsynced'
  | 'forget-conf-commit'
  | 'rewrite-durable-prefix'
  | 'hard-state-with-log'
  | 'lead-before-vote-durable'
  | 'member-votes-only'
  | 'removal-done-at-commit'
  | 'no-request-commit-hint'
  | 'voters-only-vote-round';

export const INJECTED_BUGS: readonly InjectedBug[] = [
  'commit-previous-term',
  'vote-before-persist',
  'truncate-stale-append',
  'leader-counts-unsynced',
  'forget-conf-commit',
  'rewrite-durable-prefix',
  'hard-state-with-log',
  'lead-before-vote-durable',
  'member-votes-only',
  'removal-done-at-commit',
  'no-request-commit-hint',
  'voters-only-vote-round',
];

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

/** The leader counts its own entries towards a quorum before they are durable. */
class LeaderCountsUnsyncedCore extends SimRaftCore {
  protected override selfDurableIndex(): number {
    return this.lastIndex();
  }
}

/** A single voter leads in the step it votes for itself, before that vote is durable. */
class LeadBeforeVoteDurableCore extends SimRaftCore {
  protected override ownVoteCountsBeforeDurable(): boolean {
    return true;
  }
}

/** B1: a restart trusts the saved commit index alone (no inference from later conf changes). */
class ForgetConfCommitCore extends SimRaftCore {
  protected override committedByLaterConfChange(): number {
    return 0;
  }
}

/**
 * A vote round as before the fix for the long run's seed 12922: only refusals carry a
 * commit hint, vote requests and granted answers none. Granted answers carry one since
 * the fix for seed 3474, and on their own they let the voters of a hidden commit learn it
 * from the node that knows (it answers their pre-votes): with requests alone stripped, no
 * seed of 104001-108000 is caught.
 */
class NoRequestCommitHintCore extends SimRaftCore {
  protected override requestCommitHint(): undefined {
    return undefined;
  }

  protected override grantCommitHint(): undefined {
    return undefined;
  }
}

/**
 * A vote round as before the fix for the long run's seed 3474: it asks only the voters,
 * and only a refusal carries a commit hint. A configuration change whose commit only a
 * learner heard stays unknown to the one voter left, which keeps counting the removed
 * voter and waits for its vote.
 */
class VotersOnlyVoteRoundCore extends SimRaftCore {
  protected override voteRecipients(): readonly NodeId[] {
    return this.status().conf.voters;
  }

  protected override grantCommitHint(): undefined {
    return undefined;
  }
}

/** B2: advance() confirms a Ready's entries only if its last one is still in the log. */
class RewriteDurablePrefixCore extends SimRaftCore {
  protected override markStable(entries: readonly Entry[]): void {
    const last = entries.at(-1);
    if (last && this.termAt(last.index) === last.term) super.markStable(entries);
  }
}

/** B1: the hard state is saved only when term or vote change; the commit index is volatile. */
class ForgetConfCommitNode extends RaftNode {
  protected override async persist(entries: readonly Entry[], hs: HardState | undefined): Promise<void> {
    if (entries.length > 0) await this.logStore.append(entries);
    if (hs && mustPersist(this.hardState.get(), hs)) await this.hardState.save(hs);
  }
}

/** B2: the store is asked to rewrite entries it already holds with the same term. */
class RewriteDurablePrefixNode extends RaftNode {
  protected override assertNoIdenticalRewrite(): void {}
}

/** B2 in the store: an append truncates from the first entry handed in, matching or not (and rewrites them). */
class RewriteDurablePrefixLogStore extends LogStore {
  static openRewriting(options: LogStoreOptions): LogStore {
    return new RewriteDurablePrefixLogStore(options);
  }

  protected override matchingPrefix(): number {
    return 0;
  }
}

/** The log store a run opens with `bug` (undefined: the shipped LogStore). */
export function openLogWithBug(options: LogStoreOptions, bug: InjectedBug | undefined): LogStore | undefined {
  return bug === 'rewrite-durable-prefix' ? RewriteDurablePrefixLogStore.openRewriting(options) : undefined;
}

/**
 * Review N1: vote and pre-vote requests are refused from a sender outside the
 * configuration (admission before the fix): a voter that missed the entries adding a
 * member refuses the only candidate that can win.
 */
class MemberVotesOnlyNode extends RaftNode {
  override admit(id: NodeId, messages: readonly Message[], identity?: SenderIdentity): Admission {
    const v = this.admissionView();
    const votes = messages.every((m) => m.type === 'vote' || m.type === 'pre-vote');
    const noConf = v.voters.length === 0 && v.learners.length === 0;
    const member = v.voters.includes(id) || v.learners.includes(id) || v.pendingMembers.includes(id);
    if (votes && !member && !noConf)
      return { admitted: false, reason: 'not-member', details: `node "${id}" is not a member` };
    return super.admit(id, messages, identity);
  }
}

/**
 * The review's 2 -> 1 case: RemoveMember returns once the removal committed, before a
 * majority of the new configuration is known to hold that commit; the removed node is
 * then shut down while a remaining voter may still count it.
 */
class RemovalDoneAtCommitNode extends RaftNode {
  protected override removalConfirmed(): boolean {
    return true;
  }
}

/** B3: the log append and the hard-state save run concurrently. */
class HardStateWithLogNode extends RaftNode {
  protected override async persist(
    entries: readonly Entry[],
    hs: HardState | undefined,
    confIndex: number,
  ): Promise<void> {
    const writes: Promise<void>[] = [];
    if (entries.length > 0) writes.push(this.logStore.append(entries));
    const saved = this.hardState.get();
    if (hs && (mustPersist(saved, hs) || confIndex > saved.commit)) writes.push(this.hardState.save(hs));
    await Promise.all(writes);
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
    case 'leader-counts-unsynced':
      return new LeaderCountsUnsyncedCore(options);
    case 'forget-conf-commit':
      return new ForgetConfCommitCore(options);
    case 'rewrite-durable-prefix':
      return new RewriteDurablePrefixCore(options);
    case 'lead-before-vote-durable':
      return new LeadBeforeVoteDurableCore(options);
    case 'no-request-commit-hint':
      return new NoRequestCommitHintCore(options);
    case 'voters-only-vote-round':
      return new VotersOnlyVoteRoundCore(options);
    default:
      return new SimRaftCore(options);
  }
}

/** The driver class a run opens (RaftNode itself unless the bug is in the driver). */
export function nodeClass(bug: InjectedBug | undefined): typeof RaftNode {
  switch (bug) {
    case 'forget-conf-commit':
      return ForgetConfCommitNode;
    case 'rewrite-durable-prefix':
      return RewriteDurablePrefixNode;
    case 'hard-state-with-log':
      return HardStateWithLogNode;
    case 'member-votes-only':
      return MemberVotesOnlyNode;
    case 'removal-done-at-commit':
      return RemovalDoneAtCommitNode;
    default:
      return RaftNode;
  }
}
