import { admitPeerMessages } from '../../src/node/peer-admission.js';
import type { Admission } from '../../src/transport/admission.js';
import type { Message, NodeId } from '../../src/types.js';

/** The driver's admission rule over a fixed set of voters (term 0), for transport tests without a node. */
export function admitVoters(
  voters: () => Iterable<NodeId>,
): (id: NodeId, messages: readonly Message[]) => Admission {
  return (id, messages) =>
    admitPeerMessages(
      {
        term: 0,
        vote: '',
        voters: [...voters()],
        learners: [],
        pendingMembers: [],
        removedAt: () => undefined,
        isKnown: () => false,
      },
      id,
      messages,
    );
}
