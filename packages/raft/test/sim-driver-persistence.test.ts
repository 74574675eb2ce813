// The persistence contract of the shipped driver (docs/design.md), as scenarios:
// real RaftNodes on simulated disks, network and virtual time (DriverCluster).
// Each scenario runs once with the rule broken (an injected bug that restores the
// old behaviour) and must then break a general invariant, and once as shipped,
// keeping every invariant.
import { describe, expect, it } from 'vitest';
import { InvariantViolation } from '../src/sim/checker.js';
import { DriverCluster } from '../src/sim/driver-cluster.js';
import type { InjectedBug } from '../src/sim/injected-bugs.js';
import type { Message } from '../src/types.js';

const bytes = (s: string) => new TextEncoder().encode(s);
const FIVE = ['n1', 'n2', 'n3', 'n4', 'n5'];
const ignore = () => undefined;
/** Drops every message between `a` and any of `others`, both ways. */
const cut = (m: Message, a: string, others: string[]) =>
  (m.from === a && others.includes(m.to)) || (m.to === a && others.includes(m.from));

async function violation(scenario: () => Promise<void>): Promise<string | undefined> {
  try {
    await scenario();
    return undefined;
  } catch (error) {
    if (error instanceof InvariantViolation) return error.invariant;
    throw error;
  }
}

/**
 * B2: n2 has [P1, P2, P3] in flight when a new leader's append replaces P3; the write
 * lands and is acknowledged. The next write must start at P3: rewriting from P1
 * truncates P1 and P2 first, and a crash in between loses acknowledged, committed entries.
 */
async function rewriteAfterConflict(bug?: InjectedBug): Promise<void> {
  const c = new DriverCluster(FIVE, bug ? { bug } : {});
  await c.elect('n1');
  c.drop = (m) => m.from === 'n1' && ['n2', 'n4', 'n5'].includes(m.to);
  c.node('n1').propose(bytes('P1')).catch(ignore);
  const p2 = c.core('n1').lastIndex() + 1;
  c.node('n1').propose(bytes('P2')).catch(ignore);
  await c.run(30);
  // n2 gets P1..P3 in one append and its write stays in flight.
  c.hold('n2');
  c.drop = (m) => m.from === 'n1' && ['n3', 'n4', 'n5'].includes(m.to);
  c.node('n1').propose(bytes('P3')).catch(ignore);
  const p3 = p2 + 1;
  await c.until('n2 to hold P3 unwritten', () => c.core('n2').lastIndex() === p3);
  // n1 is cut off; n3 leads term 3 with n4 and n5 and commits P1 and P2 with them.
  const quiet = (m: Message) => cut(m, 'n1', ['n2', 'n3', 'n4', 'n5']);
  c.drop = quiet;
  await c.elect('n3');
  c.drop = quiet;
  await c.until(
    'n2 to step the conflicting append',
    () => c.core('n2').termAt(p3) === c.core('n3').status().term,
  );
  // The write lands and is acknowledged; n2's next write starts.
  c.release('n2');
  await c.until('n2 to write again', () => c.sim('n2').log?.term(p3) === c.core('n3').status().term);
  c.hold('n2');
  await c.until('P2 to commit', () => c.checker.canonical(p2) !== undefined);
  // Power loss: the truncation of that write reached the disk, none of its frames did (the
  // first pending change of each file lands).
  c.crashNode('n2', (pending) => Math.min(pending, 1));
  c.restart('n2');
  c.drop = (m) => ['n1', 'n3'].includes(m.from) !== ['n1', 'n3'].includes(m.to);
  await c.run(3000);
  expect(c.applied('n2', p2)).toBe(`2/normal/P2`);
}

describe('the driver never rewrites an entry it holds with the same term', () => {
  it('with the rule broken, the crash loses acknowledged entries', async () => {
    expect(await violation(() => rewriteAfterConflict('rewrite-durable-prefix'))).toBe(
      'acknowledged-entries-survive',
    );
  });

  it('as shipped, P1 and P2 survive the crash and the other side elects a leader that has them', async () => {
    await rewriteAfterConflict();
  });
});

/**
 * B1 (scale 5 -> 4 -> 3): n4 holds both removals (C1: n5, C2: n4) and knew C1 was
 * committed when it crashed. If the commit index it restarts with forgets C1, it uses
 * the five-member configuration, wins with n3 and n5 (a majority of five that shares
 * no member with the {n1, n2} that committed Z under C2) and overwrites Z.
 */
async function restartAfterTwoRemovals(bug?: InjectedBug): Promise<void> {
  const c = new DriverCluster(FIVE, bug ? { bug } : {});
  await c.elect('n1');
  const committed = (index: number) => c.checker.canonical(index) !== undefined;
  c.drop = (m) => cut(m, 'n4', FIVE) || cut(m, 'n5', FIVE);
  const c1 = c.core('n1').lastIndex() + 1;
  c.node('n1').removeMember('n5').catch(ignore);
  await c.until('C1 to commit', () => committed(c1) && c.core('n1').confIndex() === c1);
  c.drop = (m) => cut(m, 'n3', FIVE) || cut(m, 'n5', FIVE);
  const c2 = c.core('n1').lastIndex() + 1;
  c.node('n1').removeMember('n4').catch(ignore);
  await c.until('C2 to commit with n4', () => committed(c2) && (c.sim('n4').log?.lastIndex() ?? 0) >= c2);
  c.crashNode('n4');
  c.restart('n4');
  // Z commits under C2 = {n1, n2, n3} with n1 and n2.
  c.drop = (m) => ['n3', 'n4', 'n5'].includes(m.from) || ['n3', 'n4', 'n5'].includes(m.to);
  const z = c.core('n1').lastIndex() + 1;
  c.node('n1').propose(bytes('Z')).catch(ignore);
  await c.until('Z to commit', () => committed(z));
  c.drop = (m) => ['n1', 'n2'].includes(m.from) !== ['n1', 'n2'].includes(m.to);
  await c.run(3000);
}

describe('the commit index that set the configuration is durable before the acknowledgements that depend on it', () => {
  it('with the commit index volatile, the restarted node wins with an old majority and Z is lost', async () => {
    expect(await violation(() => restartAfterTwoRemovals('forget-conf-commit'))).toBe('leader-completeness');
  });

  it('as shipped, the restarted node uses the four-member configuration and cannot win without n1 or n2', async () => {
    await restartAfterTwoRemovals();
  });
});

/**
 * B3: F (n5) holds X1, X2 from a deposed leader. Its first message of the new term is
 * an append that truncates them and carries a commit index past them: one Ready with
 * a new term, a truncation and that commit index. If the hard state lands before the
 * log write, a crash leaves the stale X1, X2 below the saved commit index, and the
 * restarted node applies them.
 */
async function hardStateBeforeLog(bug?: InjectedBug): Promise<void> {
  const c = new DriverCluster(FIVE, bug ? { bug } : {});
  await c.elect('n1');
  c.drop = (m) => m.from === 'n1' && m.to !== 'n5';
  const x1 = c.core('n1').lastIndex() + 1;
  c.node('n1').propose(bytes('X1')).catch(ignore);
  c.node('n1').propose(bytes('X2')).catch(ignore);
  await c.until('F to hold X1 and X2', () => (c.sim('n5').log?.lastIndex() ?? 0) === x1 + 1);
  const aside = (m: Message) => cut(m, 'n1', FIVE) || cut(m, 'n5', FIVE);
  c.drop = aside;
  await c.elect('n2');
  c.drop = aside;
  const z = c.core('n2').lastIndex() + 2;
  c.node('n2').propose(bytes('Y')).catch(ignore);
  c.node('n2').propose(bytes('Z')).catch(ignore);
  await c.until('Z to commit', () => c.checker.canonical(z) !== undefined);
  // F hears n2's heartbeat (new term, answered at once); its hard state does not land; n2's append is kept.
  c.hold('n5', ['hard-state']);
  const kept: Message[] = [];
  c.drop = (m) => {
    if (cut(m, 'n1', FIVE)) return true;
    if (m.from === 'n2' && m.to === 'n5' && m.type === 'append' && m.entries.length > 0) {
      kept.push(m);
      return true;
    }
    return (m.from === 'n5' || m.to === 'n5') && m.from !== 'n2' && m.to !== 'n2';
  };
  await c.until('n2 to send F an append', () => kept.length > 0);
  c.crashNode('n5');
  c.restart('n5');
  await c.until('F to restart', () => c.sim('n5').running);
  // F's first message of the new term: the append (truncation + commit past X1, X2). The log write stays in flight.
  c.hold('n5', ['log']);
  c.drop = (m) => cut(m, 'n1', FIVE) || cut(m, 'n5', FIVE);
  c.deliver(kept[0] as Message);
  await c.run(30);
  c.crashNode('n5');
  c.restart('n5');
  c.drop = (m) => cut(m, 'n1', FIVE);
  await c.run(2000);
  expect(c.applied('n5', x1)).toBe(c.applied('n2', x1));
}

describe('the hard state is saved after the log append it depends on, never concurrently', () => {
  it('with both written at once, the restarted node applies entries that were never committed', async () => {
    expect(await violation(() => hardStateBeforeLog('hard-state-with-log'))).toMatch(
      /committed-prefix|applied-prefix/,
    );
  });

  it('as shipped, the hard state waits for the log and the restart applies only committed entries', async () => {
    await hardStateBeforeLog();
  });
});

/**
 * B1 on the way up (3 -> 5 by learner and promotion): n2 gets promote n4, add-learner n5
 * and promote n5 in one append and crashes. Restarting with the three-member
 * configuration, it would win with n3 alone against the {n1, n4, n5} that committed Z.
 */
async function restartAfterGrowth(bug?: InjectedBug): Promise<void> {
  const c = new DriverCluster(['n1', 'n2', 'n3'], bug ? { bug } : {});
  await c.elect('n1');
  const committed = (index: number) => c.checker.canonical(index) !== undefined;
  const change = async (what: string, run: () => Promise<unknown>) => {
    const at = c.core('n1').lastIndex() + 1;
    run().catch(ignore);
    await c.until(what, () => committed(at) && c.core('n1').confIndex() >= at);
    return at;
  };
  c.join('n4');
  await change('add-learner n4', () => c.node('n1').addMember('n4', 'n4', 'n4', { learnerOnly: true }));
  c.drop = (m) => cut(m, 'n2', FIVE) || cut(m, 'n5', FIVE);
  await c.until('n4 to catch up', () => (c.sim('n4').log?.lastIndex() ?? 0) >= c.core('n1').status().commit);
  await change('promote n4', () => c.node('n1').addMember('n4', 'n4', 'n4'));
  c.join('n5');
  c.drop = (m) => cut(m, 'n2', FIVE);
  await change('add-learner n5', () => c.node('n1').addMember('n5', 'n5', 'n5', { learnerOnly: true }));
  c.drop = (m) => cut(m, 'n3', FIVE);
  await c.until('n5 to catch up', () => (c.sim('n5').log?.lastIndex() ?? 0) >= c.core('n1').status().commit);
  const p5 = await change('promote n5', () => c.node('n1').addMember('n5', 'n5', 'n5'));
  await c.until('n2 to hold promote n5', () => (c.sim('n2').log?.lastIndex() ?? 0) >= p5);
  c.crashNode('n2');
  c.restart('n2');
  c.drop = (m) => ['n2', 'n3'].includes(m.from) || ['n2', 'n3'].includes(m.to);
  const z = c.core('n1').lastIndex() + 1;
  c.node('n1').propose(bytes('Z')).catch(ignore);
  await c.until('Z to commit', () => committed(z));
  // n3's vote requests and answers carry its commit index, which would teach n2 the
  // four-member configuration (a commit hint). n3 loses power too, and its requests are
  // lost: with the commit index volatile it restarts knowing less than n2 holds, so only
  // n2's durable commit index stands between it and the three-member majority.
  c.crashNode('n3');
  c.restart('n3');
  c.drop = (m) =>
    ['n2', 'n3'].includes(m.from) !== ['n2', 'n3'].includes(m.to) ||
    (m.from === 'n3' && (m.type === 'vote' || m.type === 'pre-vote'));
  await c.run(3000);
}

describe('the configuration a restart uses is at most one change behind the log (growing the cluster)', () => {
  it('with the commit index volatile, the restarted node wins with the three-member majority and Z is lost', async () => {
    expect(await violation(() => restartAfterGrowth('forget-conf-commit'))).toBe('leader-completeness');
  });

  it('as shipped, the restarted node needs three of four and cannot win with n3 alone', async () => {
    await restartAfterGrowth();
  });
});

/**
 * A single voter a with a learner b; a's hard-state writes are held across two restarts.
 * Leading in the step it votes for itself, a would lead term T with its no-op landed and
 * its vote not; restart at T (its log's last term) with that write held; lead T+1 while
 * it is in flight, so its first Ready as leader writes and sends the no-op and P1 of T+1;
 * and, crashing before T+1 is written, restart at T and lead T+1 again, with P2 at P1's
 * index and term. Leading only once its vote is durable, a never leads a term twice.
 */
async function singleVoterLeadsAgain(bug?: InjectedBug): Promise<void> {
  const c = new DriverCluster(['a'], bug ? { bug } : {});
  const a = c.sim('a');
  const leads = () => a.running && c.core('a').status().role === 'leader';
  await c.until('a to lead', leads);
  c.join('b');
  const added = c.core('a').lastIndex() + 1;
  c.node('a').addMember('b', 'b', 'b', { learnerOnly: true }).catch(ignore);
  await c.until('b to hold the log', () => (c.sim('b').log?.lastIndex() ?? 0) >= added);
  const restartHoldingHardState = async () => {
    c.crashNode('a');
    c.release('a');
    c.restart('a');
    c.hold('a', ['hard-state']);
    await c.run(400);
  };
  await restartHoldingHardState();
  await restartHoldingHardState();
  if (leads()) c.node('a').propose(bytes('P1')).catch(ignore);
  // The held hard state lands; what a writes next stays in flight.
  const held = JSON.stringify(a.disk.durableHardState());
  c.release('a');
  await c.until('the held hard state to land', () => JSON.stringify(a.disk.durableHardState()) !== held);
  c.hold('a', ['log', 'hard-state']);
  await c.run(50);
  c.crashNode('a');
  c.release('a');
  c.restart('a');
  await c.until('a to lead', leads);
  const p2 = c.core('a').lastIndex() + 1;
  c.node('a').propose(bytes('P2')).catch(ignore);
  // b applies what a committed (every apply is checked against the canonical history).
  await c.until('b to apply P2', () => c.applied('b', p2) !== undefined);
  expect(c.applied('b', p2)).toBe(c.applied('a', p2));
}

describe('a candidate counts its own vote once it is durable', () => {
  it('with a single voter leading before its vote is written, it leads a term twice: election safety breaks', async () => {
    expect(await violation(() => singleVoterLeadsAgain('lead-before-vote-durable'))).toBe('election-safety');
  });

  it('as shipped, a single voter leads only once its vote is written, and the learner follows it', async () => {
    await singleVoterLeadsAgain();
  });
});

/**
 * Simulator seeds 2324 and 13050 (on earlier code): the hard state is written after the
 * log append, so a crash between them keeps entries of a term the saved term never
 * reached. n2, cut off while n3 was elected in term T, takes n3's first append: its
 * entries of term T land, its hard state (term T) is held. Restarted at the saved term
 * T - 1, it would be free to vote for anyone in term T and to lead it, with entries of
 * term T it did not write passing for its own.
 */
async function restartBelowLogTerm(): Promise<{ savedTerm: number; logTerm: number; restarted: number }> {
  const c = new DriverCluster(FIVE);
  await c.elect('n1');
  // n3 is elected in term T while n2 hears nothing; n3's append to n2 is kept.
  const kept: Message[] = [];
  const quiet = (m: Message) => cut(m, 'n2', FIVE) || cut(m, 'n1', FIVE);
  c.drop = (m) => {
    if (m.from === 'n3' && m.to === 'n2' && m.type === 'append' && m.entries.length > 0) kept.push(m);
    return quiet(m);
  };
  await c.elect('n3');
  await c.until('n3 to send n2 an append', () => kept.length > 0);
  const term = c.core('n3').status().term;
  // n2's first message of term T is that append: the log write lands, the hard state is held.
  c.drop = (m) => quiet(m);
  c.hold('n2', ['hard-state']);
  c.deliver(kept[0] as Message);
  await c.until(
    'n2 to hold an entry of term T',
    () => c.sim('n2').log?.term(c.sim('n2').log?.lastIndex() ?? 0) === term,
  );
  await c.run(20);
  const savedTerm = c.sim('n2').disk.durableHardState()?.term ?? 0;
  c.crashNode('n2');
  c.restart('n2');
  await c.until('n2 to restart', () => c.sim('n2').running);
  return { savedTerm, logTerm: term, restarted: c.core('n2').status().term };
}

describe('a restart takes at least its log’s last term (seeds 2324, 13050)', () => {
  it('a node whose log holds entries of a term its saved hard state never reached restarts in that term, with no vote', async () => {
    const { savedTerm, logTerm, restarted } = await restartBelowLogTerm();
    expect(savedTerm).toBeLessThan(logTerm);
    expect(restarted).toBeGreaterThanOrEqual(logTerm);
  });
});
