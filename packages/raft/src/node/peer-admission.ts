/**
 * Which peer messages a node lets into Raft: plain data in, a verdict out, so
 * the rule is one function the driver calls per received batch (the transport
 * has already checked the cluster id and the connection's authentication).
 *
 * - Members speak Raft: a voter or learner of this node's configuration, or a
 *   node added by a conf-change entry this node holds above its commit index
 *   (Raft uses the newest configuration in the log, so a node added there is
 *   already a peer). A node whose configuration is still empty (it is
 *   joining) admits any authenticated sender: its first leader is not known
 *   to it yet.
 * - Vote and pre-vote requests are admitted from any sender not known to be
 *   removed, in every identity mode, and judged by the core: the up-to-date
 *   check, pre-vote and the leader lease (thesis 4.2.1; etcd does the same).
 *   A node that missed the entries adding a member may hold the only vote
 *   that member can win with: refusing it would leave a majority that is up
 *   and connected without a leader for good. On a plaintext port ('claimed')
 *   too: there anything that reaches the port can already send as a member's
 *   id, votes included, so an address condition would protect against
 *   nothing and cost the availability of every membership history it bars.
 *   Admitted, a request still meets one more rule before the core sees it:
 *   its candidate's wall clock must lie within `maxClockOffsetMs` of this
 *   node's, or the driver refuses it (vote-clock.ts).
 * - A node whose configuration is behind the log (a joiner that installed a
 *   snapshot older than the entries adding the current leader, or a follower
 *   that missed them) also admits leader messages (append, heartbeat,
 *   snapshot) at its term or above from a sender whose address it holds and
 *   that is not known to be removed: refusing them would keep it behind for
 *   good, since only that leader can send it the missing entries. When the
 *   transport authenticated the sender (`SenderIdentity` 'verified': a peer
 *   certificate names it; 'authenticated': the connection proved the
 *   cluster's credentials, the cluster secret or a certificate from the
 *   cluster's CA), the address condition is dropped: a node that missed the
 *   conf-change entry carrying the new leader's address holds no address for
 *   it, and only that leader can send the entry. A holder of the cluster's
 *   credentials can already speak as any known member, so requiring a book
 *   entry protects against nothing such a holder cannot already do (etcd's
 *   rafthttp likewise admits a not-removed sender of its cluster). On a
 *   plaintext connection ('claimed': nothing checked) a leader needs its
 *   address in the book, or this node's vote: leader messages of the term
 *   in which this node voted for their sender are admitted, as it elected
 *   that leader (with two voters, the one that missed the entries adding
 *   the other elects it, and would otherwise never catch up from it). A
 *   leader elected without this node's vote had a majority without it; the
 *   leadership can then move to a member whose address it holds.
 * - Known to be removed: this node applied the entry removing the sender, at
 *   term R (`removedAt`), and did not apply a later one adding it back, and
 *   the batch carries a term at or below R. A message of a later term comes
 *   from the sender added again under the same id (docs/operations.md,
 *   "Replacing a lost node"), whose entries this node may be missing, or from
 *   a removed node that never learned of its removal: the core judges both
 *   as it judges any member, and the second steps down once it commits its
 *   own removal. Removed messages are refused, whatever their kind.
 * - Terms are bounded: no term in a message may exceed
 *   `min(term + MAX_TERM_AHEAD, MAX_TERM)`. Pre-vote keeps real terms from
 *   running away, so a term that far ahead is forged or corrupt; accepting it
 *   would make this node refuse every real leader, and a term of MAX_TERM or
 *   more could never be incremented (the wire carries integers below 2^53).
 */
import { MAX_TERM } from '../core/raft-core.js';
import type { Admission, SenderIdentity } from '../transport/admission.js';
import type { Message, NodeId } from '../types.js';

/** How far beyond its own term a node accepts a message's term. */
export const MAX_TERM_AHEAD = 2 ** 20;

/** What the admission rule needs to know about this node. */
export interface AdmissionView {
  readonly term: number;
  /** Whom this node voted for in `term` ('' for nobody). */
  readonly vote: NodeId;
  readonly voters: readonly NodeId[];
  readonly learners: readonly NodeId[];
  /** Nodes added by conf-change entries held above the commit index (not yet in effect). */
  readonly pendingMembers: readonly NodeId[];
  /**
   * The term of the entry removing `id` that this node applied last, unless it
   * applied a later one adding it back (then, and for a node never removed,
   * undefined).
   */
  readonly removedAt: (id: NodeId) => number | undefined;
  /** Nodes whose address this node holds (bootstrap list, conf-change contexts, snapshot book). */
  readonly isKnown: (id: NodeId) => boolean;
}

/** What only a leader sends: a node behind the log accepts these from a known or authenticated non-member. */
const LEADER_MESSAGES: ReadonlySet<Message['type']> = new Set(['append', 'heartbeat', 'snapshot']);
/** What a candidate sends: admitted from any sender not known to be removed. */
const VOTE_REQUESTS: ReadonlySet<Message['type']> = new Set(['vote', 'pre-vote']);

const ADMITTED: Admission = { admitted: true };

/** Whether `from` may hand these (decoded, addressed to us) messages to Raft. */
export function admitPeerMessages(
  view: AdmissionView,
  from: NodeId,
  messages: readonly Message[],
  identity: SenderIdentity = 'claimed',
): Admission {
  const removed = isRemoved(view, from, messages);
  if (
    !isPeer(view, from, removed) &&
    !isVoteRequest(messages, removed) &&
    !isCurrentLeader(view, from, messages, identity, removed)
  ) {
    const why = removed ? `node "${from}" was removed` : `node "${from}" is not a member`;
    return { admitted: false, reason: 'not-member', details: why };
  }
  const limit = termLimit(view.term);
  for (const m of messages) {
    const highest = highestTerm(m);
    if (highest > limit) {
      return {
        admitted: false,
        reason: 'term-bound',
        details: `${m.type} from "${from}" carries term ${highest}, beyond the bound ${limit} (own term ${view.term} + MAX_TERM_AHEAD ${MAX_TERM_AHEAD}, at most MAX_TERM ${MAX_TERM})`,
      };
    }
  }
  return ADMITTED;
}

/** The batch comes from a sender this node removed, at a term its removal covers (see the header). */
function isRemoved(view: AdmissionView, id: NodeId, messages: readonly Message[]): boolean {
  const removedAt = view.removedAt(id);
  return removedAt !== undefined && messages.some((m) => m.term <= removedAt);
}

function isPeer(view: AdmissionView, id: NodeId, removed: boolean): boolean {
  if (view.voters.includes(id) || view.learners.includes(id)) return true;
  if (view.pendingMembers.includes(id)) return true;
  if (removed) return false;
  return view.voters.length === 0 && view.learners.length === 0;
}

function isVoteRequest(messages: readonly Message[], removed: boolean): boolean {
  return !removed && messages.length > 0 && messages.every((m) => VOTE_REQUESTS.has(m.type));
}

function isCurrentLeader(
  view: AdmissionView,
  id: NodeId,
  messages: readonly Message[],
  identity: SenderIdentity,
  removed: boolean,
): boolean {
  if (removed || !messages.every((m) => LEADER_MESSAGES.has(m.type) && m.term >= view.term)) return false;
  if (identity !== 'claimed' || view.isKnown(id)) return true;
  return view.vote === id && messages.every((m) => m.term === view.term);
}

/** The highest term a message may carry at a node whose term is `term`. */
export function termLimit(term: number): number {
  return Math.min(term + MAX_TERM_AHEAD, MAX_TERM);
}

function highestTerm(m: Message): number {
  let t = Math.max(m.term, m.logTerm, m.hintTerm, m.snapshot?.term ?? 0);
  for (const e of m.entries) if (e.term > t) t = e.term;
  return t;
}

/**
 * Why a node must not start with this stored term (undefined when it may), or
 * a warning: a term past MAX_TERM can never be incremented, and one far past
 * the log's last term makes every real leader's messages look stale.
 * `fermata repair reset-term` rewrites it.
 */
export function storedTermProblem(
  term: number,
  lastLogTerm: number,
): { readonly fatal: boolean; readonly message: string } | undefined {
  const repair = 'stop the node and run `fermata repair reset-term --data <dataDir>` (docs/operations.md)';
  if (term >= MAX_TERM) {
    return {
      fatal: true,
      message: `hard state term ${term} is at or beyond MAX_TERM ${MAX_TERM} and can never be incremented: ${repair}`,
    };
  }
  if (term > lastLogTerm + MAX_TERM_AHEAD) {
    return {
      fatal: false,
      message: `hard state term ${term} is more than MAX_TERM_AHEAD ${MAX_TERM_AHEAD} past the log's last term ${lastLogTerm}: the other members refuse this node's messages; ${repair}`,
    };
  }
  return undefined;
}
