import { describe, expect, it } from 'vitest';
import { AddressBook } from '../src/node/members.js';
import { type AdmissionView, admitPeerMessages } from '../src/node/peer-admission.js';
import { message } from '../src/sim/manual-cluster.js';

/**
 * The broker simulation's seed 2532: n5 joined, installed n1's snapshot at index 103
 * (configuration n1,n2,n3, before the entries adding n4 and n5), then n4 led term 6.
 * n5 refused n4 as "not a member" and stayed at index 103 while the others reached 268.
 */
const behind: AdmissionView = {
  term: 5,
  vote: '',
  voters: ['n1', 'n2', 'n3'],
  learners: [],
  pendingMembers: [],
  // n6 was removed by an entry of term 5.
  removedAt: (id) => (id === 'n6' ? 5 : undefined),
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

  it('a known non-member is refused for stale leader messages and for anything but leader messages and vote requests', () => {
    const stale = message({ type: 'append', from: 'n4', to: 'n5', term: 4 });
    const response = message({ type: 'append-response', from: 'n4', to: 'n5', term: 6 });
    const mixed = [
      message({ type: 'heartbeat', from: 'n4', to: 'n5', term: 6 }),
      message({ type: 'vote', from: 'n4', to: 'n5', term: 6 }),
    ];
    for (const batch of [[stale], [response], mixed])
      expect(admitPeerMessages(behind, 'n4', batch)).toMatchObject({ admitted: false, reason: 'not-member' });
  });

  it('vote and pre-vote requests from any sender not known to be removed are admitted, in every identity mode, for the core to judge (thesis 4.2.1)', () => {
    // The review's N1: n3 missed the entries adding n4, the only node that can win.
    for (const from of ['n4', 'zz']) {
      for (const type of ['vote', 'pre-vote'] as const) {
        for (const term of [4, 5, 6]) {
          const m = message({ type, from, to: 'n5', term });
          for (const identity of ['verified', 'authenticated', 'claimed'] as const)
            expect(admitPeerMessages(behind, from, [m], identity), `${type} ${from} ${identity}`).toEqual({
              admitted: true,
            });
        }
      }
    }
  });

  it('a removed member is refused at the term of its removal and below, whatever it sends', () => {
    for (const type of ['vote', 'pre-vote', 'append', 'heartbeat', 'snapshot', 'append-response'] as const) {
      for (const term of [3, 5]) {
        const m = message({ type, from: 'n6', to: 'n5', term });
        for (const identity of ['verified', 'authenticated', 'claimed'] as const)
          expect(admitPeerMessages(behind, 'n6', [m], identity), `${type} ${term} ${identity}`).toMatchObject(
            {
              admitted: false,
              reason: 'not-member',
              details: 'node "n6" was removed',
            },
          );
      }
    }
  });

  it('a member added again under the id of a removed one speaks at a later term: its vote requests and leader messages are admitted', () => {
    // docs/operations.md "Replacing a lost node": remove n6, add n6 back; this node missed the re-add.
    for (const type of ['vote', 'pre-vote', 'append', 'heartbeat', 'snapshot'] as const) {
      const m = message({ type, from: 'n6', to: 'n5', term: 6 });
      expect(admitPeerMessages(behind, 'n6', [m], 'verified'), type).toEqual({ admitted: true });
      // Plaintext: n6's address is in the book (it was a member).
      expect(admitPeerMessages(behind, 'n6', [m], 'claimed'), type).toEqual({ admitted: true });
    }
    // A batch that carries the removal's term is the removed incarnation's.
    const mixed = [
      message({ type: 'heartbeat', from: 'n6', to: 'n5', term: 6 }),
      message({ type: 'heartbeat', from: 'n6', to: 'n5', term: 5 }),
    ];
    expect(admitPeerMessages(behind, 'n6', mixed, 'verified')).toMatchObject({ admitted: false });
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

  it('an authenticated non-member is refused for stale leader messages and responses, and an authenticated removed member for everything', () => {
    const stale = message({ type: 'append', from: 'zz', to: 'n5', term: 4 });
    const response = message({ type: 'vote-response', from: 'zz', to: 'n5', term: 5 });
    const removed = message({ type: 'heartbeat', from: 'n6', to: 'n5', term: 5 });
    for (const identity of ['verified', 'authenticated'] as const) {
      for (const batch of [[stale], [response]])
        expect(admitPeerMessages(behind, 'zz', batch, identity), identity).toMatchObject({ admitted: false });
      expect(admitPeerMessages(behind, 'n6', [removed], identity), identity).toMatchObject({
        admitted: false,
        reason: 'not-member',
      });
    }
  });

  it('on plaintext, the leader messages of the term in which this node voted for their sender are admitted: it elected that leader', () => {
    // Two voters {n2, zz}: n2 missed the entries adding zz and holds no address for it, and
    // zz holds entries n2 lacks: only zz can win, with n2's vote, and only zz can send n2 them.
    const voted: AdmissionView = { ...behind, term: 6, vote: 'zz' };
    for (const type of ['append', 'heartbeat', 'snapshot'] as const) {
      const m = message({ type, from: 'zz', to: 'n5', term: 6 });
      expect(admitPeerMessages(voted, 'zz', [m], 'claimed'), type).toEqual({ admitted: true });
      // A later term: elected without this node's vote.
      expect(admitPeerMessages(voted, 'zz', [{ ...m, term: 7 }], 'claimed'), type).toMatchObject({
        admitted: false,
      });
      expect(admitPeerMessages({ ...voted, vote: 'n4' }, 'zz', [m], 'claimed'), type).toMatchObject({
        admitted: false,
      });
    }
  });

  it('on plaintext, a stranger stays refused with leader messages, and a removed member at its removal term too', () => {
    for (const [from, term] of [
      ['zz', 6],
      ['n6', 5],
    ] as const) {
      const m = message({ type: 'heartbeat', from, to: 'n5', term });
      expect(admitPeerMessages(behind, from, [m]), from).toMatchObject({
        admitted: false,
        reason: 'not-member',
      });
    }
  });
});

describe('the address book keeps each removal with its term', () => {
  const memoryFile = (initial?: string) => {
    let bytes = initial === undefined ? undefined : new TextEncoder().encode(initial);
    return {
      read: () => bytes,
      write: async (b: Uint8Array) => {
        bytes = b.slice();
      },
    };
  };

  it('saves and reads back the term of each removal; an addition clears it', async () => {
    const file = memoryFile();
    const book = new AddressBook(file);
    book.setRemoved('n6', 5);
    book.setRemoved('n7', 9);
    book.setRemoved('n7', undefined);
    await book.save();
    const again = new AddressBook(file);
    expect([again.removedAt('n6'), again.removedAt('n7')]).toEqual([5, undefined]);
  });

  it('takes a removal saved without its term (an older version) to be of the highest term the node has seen', () => {
    const book = new AddressBook(memoryFile('{"members":{},"removed":["n6"]}'), 12);
    expect(book.removedAt('n6')).toBe(12);
  });
});
