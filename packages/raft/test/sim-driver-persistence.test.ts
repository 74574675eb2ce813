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
  // Power loss: the truncation of that write reached the disk, none of its frames did.
  c.crashNode('n2', () => 0);
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
