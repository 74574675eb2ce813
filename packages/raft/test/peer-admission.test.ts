import { describe, expect, it } from 'vitest';
import { type AdmissionView, admitPeerMessages } from '../src/node/peer-admission.js';
import { message } from '../src/sim/manual-cluster.js';

/**
 * The broker simulation's seed 2532: n5 joined, installed n1's snapshot at index 103
 * (configuration n1,n2,n3, before the entries adding n4 and n5), then n4 led term 6.
 * n5 refused n4 as "not a member" and stayed at index 103 while the others reached 268.
 */
const behind: AdmissionView = {
  term: 5,
  voters: ['n1', 'n2', 'n3'],
  learners: [],
  pendingMembers: [],
  isRemoved: (id) => id === 'n6',
  isKnown: (id) => ['n1', 'n2', 'n3', 'n4', 'n6'].includes(id),
};

describe('peer admission', () => {
  it('a node behind the log admits leader messages at its term or above from a known non-member', () => {
    for (const type of ['append', 'heartbeat', 'snapshot'] as const) {
      for (const term of [5, 6]) {
        const m = message({ type, from: 'n4', to: 'n5', term });
        expect(admitPeerMessages(behind, 'n4', [m]), `${type} at term ${term}`).toEqual({ admitted: true });
      }
    }
  });

  it('a known non-member is refused for anything but current leader messages', () => {
    const stale = message({ type: 'append', from: 'n4', to: 'n5', term: 4 });
    const vote = message({ type: 'vote', from: 'n4', to: 'n5', term: 6 });
    const mixed = [message({ type: 'heartbeat', from: 'n4', to: 'n5', term: 6 }), vote];
    for (const batch of [[stale], [vote], mixed])
      expect(admitPeerMessages(behind, 'n4', batch)).toMatchObject({ admitted: false, reason: 'not-member' });
  });

  it('a node that holds no address for the current leader admits its leader messages when the transport authenticated it, not on plaintext', () => {
    // The broker simulation's seed 4201: n4 (configuration n1..n5, commit 110) missed the
    // entries that removed n1 and added n6, then n6 led term 9; n4 held no address for n6.
    const missedTheAdd: AdmissionView = {
      ...behind,
      isKnown: (id) => ['n1', 'n2', 'n3', 'n4', 'n5'].includes(id),
    };
    for (const type of ['append', 'heartbeat', 'snapshot'] as const) {
      const m = message({ type, from: 'zz', to: 'n5', term: 6 });
      expect(admitPeerMessages(missedTheAdd, 'zz', [m], 'verified'), type).toEqual({ admitted: true });
      expect(admitPeerMessages(missedTheAdd, 'zz', [m], 'authenticated'), type).toEqual({ admitted: true });
      expect(admitPeerMessages(missedTheAdd, 'zz', [m], 'claimed'), type).toMatchObject({
        admitted: false,
        reason: 'not-member',
      });
    }
  });

  it('an authenticated non-member is refused for anything but current leader messages, and an authenticated removed member for everything', () => {
    const stale = message({ type: 'append', from: 'zz', to: 'n5', term: 4 });
    const vote = message({ type: 'vote', from: 'zz', to: 'n5', term: 6 });
    const preVote = message({ type: 'pre-vote', from: 'zz', to: 'n5', term: 6 });
    const removed = message({ type: 'heartbeat', from: 'n6', to: 'n5', term: 6 });
    for (const identity of ['verified', 'authenticated'] as const) {
      for (const batch of [[stale], [vote], [preVote]])
        expect(admitPeerMessages(behind, 'zz', batch, identity), identity).toMatchObject({ admitted: false });
      expect(admitPeerMessages(behind, 'n6', [removed], identity), identity).toMatchObject({
        admitted: false,
        reason: 'not-member',
      });
    }
  });

  it('a stranger and a removed member stay refused, even with leader messages', () => {
    for (const from of ['zz', 'n6']) {
      const m = message({ type: 'heartbeat', from, to: 'n5', term: 6 });
      expect(admitPeerMessages(behind, from, [m]), from).toMatchObject({
        admitted: false,
        reason: 'not-member',
      });
    }
  });
});
