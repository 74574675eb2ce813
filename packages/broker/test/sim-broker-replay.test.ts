import { RaftNode } from '@fermata/raft';
import { describe, expect, it, vi } from 'vitest';
import { Proposer } from '../src/leader/proposer.js';
import { FAULT_KINDS } from '../src/sim/run-options.js';
import { runBrokerSeed } from '../src/sim/simulation.js';
import { nextOccurrenceProblem } from '../src/state/schedule/spec.js';
import type { BrokerStateMachine } from '../src/state/state-machine.js';

/** Every fault kind, hostile: the schedule of the long run's findings. */
const ALL_FAULTS = [...FAULT_KINDS, 'hostile' as const];

describe('broker simulation replay', () => {
  it('replaying a seed reproduces the same run (equal trace digests and counts)', async () => {
    for (const options of [
      { seed: 7, nodes: 5 as const, chaosMs: 4_000 },
      { seed: 12, nodes: 3 as const, chaosMs: 4_000 },
    ]) {
      const a = await runBrokerSeed(options);
      const b = await runBrokerSeed(options);
      expect(a.ok, a.violation?.message).toBe(true);
      expect(b.digest).toBe(a.digest);
      expect(b.stats).toEqual(a.stats);
    }
  });

  it('different seeds give different runs', async () => {
    const a = await runBrokerSeed({ seed: 1, nodes: 3, chaosMs: 2_000 });
    const b = await runBrokerSeed({ seed: 2, nodes: 3, chaosMs: 2_000 });
    expect(a.digest).not.toBe(b.digest);
  });

  it('a failing seed replays to the same rule, message and digest', async () => {
    const options = { seed: 2, nodes: 3 as const, chaosMs: 4_000, bug: 'ack-in-memory' as const };
    const a = await runBrokerSeed(options);
    const b = await runBrokerSeed(options);
    expect(a.ok).toBe(false);
    expect([b.violation, b.digest]).toEqual([a.violation, a.digest]);
  });
});

describe('broker simulation findings', () => {
  it('seed 11064: the run that once handed back a lease taken ahead keeps every rule, attempts never decreasing', async () => {
    const r = await runBrokerSeed({
      seed: 11064,
      nodes: 3,
      chaosMs: 8_000,
      faults: ALL_FAULTS,
      // The run this finding was recorded in: schedules take ids and change it.
      schedules: false,
      controls: false,
    });
    expect(r.ok, `${r.violation?.rule}: ${r.violation?.message}`).toBe(true);
    // The leader's apply-limits entry moved this seed's history: the hand-back it showed (id 151
    // delivered twice at attempt 1) no longer happens here, nor in seeds 1-800 or 11000-11400;
    // state-commands.test.ts checks the hand-back itself (a nack of a lease taken ahead that
    // has not started restores the entry at its own due time).
    const attempts = r.history.deliveries.filter((d) => d.id === 151n).map((d) => d.attempt);
    for (let i = 1; i < attempts.length; i++) expect(attempts[i]).toBeGreaterThanOrEqual(attempts[i - 1]!);
  });
});

describe('broker simulation findings: membership', () => {
  it('a node that leads without being a voter of its configuration (a removed leader, as in seed 11452) serves no client, and every message is delivered (seed 11273)', async () => {
    // Seed 11452 found it: an acked message pending on a "removed leader" that no one sent to.
    // A leader whose own removal commits steps down, and the clients talk only to a leader
    // that is a voter of its own configuration. That seed no longer makes a removed leader,
    // nor 11142 since the Raft round changed (a commit index rides the next append or
    // heartbeat, followers apply in batches); seed 11273 does (checked below through what the
    // simulation reads of each node).
    const removedLeaders = new Set<string>();
    const status = RaftNode.prototype.status;
    const spy = vi.spyOn(RaftNode.prototype, 'status').mockImplementation(function (this: RaftNode) {
      const s = status.call(this);
      if (s.role === 'leader' && !s.members.some((m) => m.id === s.id && m.voter)) removedLeaders.add(s.id);
      return s;
    });
    try {
      const r = await runBrokerSeed({
        seed: 11273,
        nodes: 3,
        chaosMs: 8_000,
        faults: ALL_FAULTS,
        schedules: false,
        controls: false,
      });
      expect(r.ok, `${r.violation?.rule}: ${r.violation?.message}`).toBe(true);
    } finally {
      spy.mockRestore();
    }
    expect(removedLeaders.size).toBeGreaterThan(0);
  });
});

describe('broker simulation findings: a replica behind the configuration', () => {
  // Each left one member behind for good: its log (or the snapshot it installed while
  // joining) predated the entry adding the current leader, so it refused that leader's
  // messages as "not a member" and never got the entries (2532: n5 stayed at index 103 of
  // 268; 2445: n1 at 17 of 190; 2923: n5 at 122 of 230, all in the run before recurring
  // schedules; 2467 with schedules: n7 at 103 of 237). A node admits leader messages at its
  // term from a sender whose address it holds (peer-admission.ts).
  const NO_HOSTILE = ALL_FAULTS.filter((f) => f !== 'hostile');
  for (const [seed, nodes, faults, schedules] of [
    [2445, 5, NO_HOSTILE, false],
    [2532, 3, ALL_FAULTS, false],
    [2923, 5, NO_HOSTILE, false],
    [2467, 5, NO_HOSTILE, true],
  ] as const) {
    it(`seed ${seed}: every member of the final configuration reaches the leader's state`, async () => {
      const r = await runBrokerSeed({ seed, nodes, chaosMs: 8_000, faults, schedules, controls: false });
      expect(r.ok, `${r.violation?.rule}: ${r.violation?.message}`).toBe(true);
    });
  }
});

describe('broker simulation findings: a replica that holds no address for the leader', () => {
  // Each left one member behind for good: it missed the conf-change entry that added the
  // current leader (n6 in each), so it held no address for it and refused its messages as
  // "not a member" (4201: n4 stayed at index 110 of 236; 8313: n5 at 45 of 261; 9059: n2 at 27
  // of 215; 12807: n3 at 77 of 221). A node admits leader messages at its term from a sender
  // whose identity the transport verified (peer TLS; the simulated peers prove theirs) and
  // whose removal it did not apply (peer-admission.ts).
  const NO_HOSTILE = ALL_FAULTS.filter((f) => f !== 'hostile');
  for (const seed of [4201, 8313, 9059, 12807]) {
    it(`seed ${seed}: the member that missed the new leader's addition reaches the leader's state`, async () => {
      const r = await runBrokerSeed({ seed, nodes: 5, chaosMs: 8_000, faults: NO_HOSTILE, controls: false });
      expect(r.ok, `${r.violation?.rule}: ${r.violation?.message}`).toBe(true);
    });
  }
});

describe('broker simulation findings: a deletion at the end of the faults', () => {
  it('seed 12792: the calm phase waits for a fill the faults delayed, then for its deletion', async () => {
    // The broker long run found it: the faults held sim.big's fill back until 9,113 ms, after
    // the calm phase's first look at 9,000 ms, which took a deletion not yet begun for one
    // over and ended the run; the delete was answered at 9,133 ms and its purge was still
    // under way at the end (deletion-completes).
    const r = await runBrokerSeed({
      seed: 12792,
      nodes: 3,
      chaosMs: 8_000,
      faults: ALL_FAULTS,
      controls: false,
    });
    expect(r.ok, `${r.violation?.rule}: ${r.violation?.message}`).toBe(true);
    expect(r.deletion.filledAtMs).toBeGreaterThan(9_000);
    expect(r.deletion.answeredAtMs).toBeGreaterThan(r.deletion.filledAtMs!);
  });
});

describe('broker simulation findings: a limit set back while a fire was in flight', () => {
  it('seed 6428: a fire answered broken under the raised limit, read after the limit was set back, leaves the schedule firing', async () => {
    // The broker long run found it: every-second's fire, computed under minScheduleIntervalMs
    // 1 s, committed after the client's raise to 1.5 s and before the calm phase set it back;
    // apply answered it broken, and the leader marked it broken with the limits version of
    // the revert, already applied when it read the answer, so no round computed it again:
    // its next occurrence stayed at 8,000 ms until the end (15,266 ms, leader time).
    const mendable: string[] = [];
    const run = Proposer.prototype.run;
    const spy = vi.spyOn(Proposer.prototype, 'run').mockImplementation(async function (
      this: Proposer,
      ...args
    ) {
      const r = await run.apply(this, args);
      if (r.kind === 'schedule' && r.result.op === 'fire') {
        const { limits } = (this as unknown as { sm: BrokerStateMachine }).sm;
        for (const o of r.result.outcomes)
          if (o.status === 'broken' && nextOccurrenceProblem(o.rec.def, limits, o.rec.cursorMs) === undefined)
            mendable.push(o.rec.def.name);
      }
      return r;
    });
    try {
      const r = await runBrokerSeed({
        seed: 6428,
        nodes: 3,
        chaosMs: 8_000,
        faults: ALL_FAULTS,
        controls: false,
      });
      expect(r.ok, `${r.violation?.rule}: ${r.violation?.message}`).toBe(true);
    } finally {
      spy.mockRestore();
    }
    // The seed still makes the race: a fire answered broken that the limits in effect can compute.
    expect(mendable).toContain('every-second');
  });
});
