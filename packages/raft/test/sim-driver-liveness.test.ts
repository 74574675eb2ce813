// Availability as a promise (docs/design.md): a majority of voters that is up and
// connected elects a leader, whatever membership history brought it there. Shipped
// RaftNodes (peer admission included) on simulated disks, network and virtual time
// (DriverCluster).
import { describe, expect, it } from 'vitest';
import { DriverCluster } from '../src/sim/driver-cluster.js';
import type { InjectedBug } from '../src/sim/injected-bugs.js';
import type { SenderIdentity } from '../src/transport/admission.js';
import type { Message, NodeId } from '../src/types.js';

const bytes = (s: string) => new TextEncoder().encode(s);
const ignore = () => undefined;
const FIVE = ['n1', 'n2', 'n3', 'n4', 'n5'];

/** Processes events until `p` settles (it must resolve). */
async function settleOn(c: DriverCluster, what: string, p: Promise<unknown>): Promise<void> {
  let done = false;
  let failure: unknown;
  p.then(
    () => (done = true),
    (error: unknown) => (failure = error ?? new Error(`${what} failed`)),
  );
  await c.until(what, () => {
    if (failure !== undefined) throw failure;
    return done;
  });
}

const leaderAmong = (c: DriverCluster, ids: readonly NodeId[]) =>
  ids.filter((id) => c.sim(id).running && c.core(id).status().role === 'leader');

/**
 * The review's N1: {n1,n2,n3}; n3 is cut off; n1 is replaced by n4 (add, promote, remove
 * n1); Z commits under {n2,n3,n4} with n2 and n4; n2 fails for good; n3 comes back. n3
 * and n4 are two of three voters, up and connected; only n4 can win (it holds Z), and
 * n3, which missed the entries adding n4, must take n4's (pre-)votes.
 */
async function replacedWhileAway(
  options: { bug?: InjectedBug; identity?: SenderIdentity } = {},
): Promise<DriverCluster> {
  const c = new DriverCluster(['n1', 'n2', 'n3'], options);
  await c.elect('n1');
  const away = new Set(['n3']);
  c.drop = (m: Message) => away.has(m.from) || away.has(m.to);
  c.join('n4');
  await settleOn(c, 'add n4', c.node('n1').addMember('n4', 'n4', 'n4'));
  c.node('n1').removeMember('n1').catch(ignore);
  const newConf = (id: NodeId) => c.core(id).status().conf.voters.join() === 'n2,n3,n4';
  await c.until('a leader of {n2,n3,n4}', () => leaderAmong(c, ['n2', 'n4']).some(newConf));
  if (leaderAmong(c, ['n2', 'n4'])[0] === 'n4') {
    // n2 is to be the leader that fails (a leader n4 would reach n3 through the leader-message rule).
    await settleOn(c, 'transfer to n2', c.node('n4').transferLeadership('n2'));
  }
  const z = c.core('n2').lastIndex() + 1;
  c.node('n2').propose(bytes('Z')).catch(ignore);
  await c.until('Z to commit', () => c.checker.canonical(z) !== undefined);
  await c.run(500);
  expect(c.core('n3').status().conf.voters).toEqual(['n1', 'n2', 'n3']);
  c.crashNode('n2');
  away.clear();
  return c;
}

describe('vote admission: a live majority elects a leader whatever membership history brought it there', () => {
  it.each(['verified', 'authenticated', 'claimed'] as const)(
    'a voter that missed the entries adding a member grants that member its vote, and the majority elects it (N1; sender identity %s)',
    async (identity) => {
      // On a plaintext port ('claimed') n3 holds no address for n4: it takes n4's leader
      // messages because it voted for n4 in their term.
      const c = await replacedWhileAway({ identity });
      await c.until('n3 and n4 to elect a leader', () => leaderAmong(c, ['n3', 'n4']).length > 0, 20_000);
      expect(leaderAmong(c, ['n3', 'n4'])).toEqual(['n4']);
      // n3 catches up from its new leader and takes the new configuration.
      await c.until(
        'n3 to apply the configuration',
        () => c.core('n3').status().conf.voters.join() === 'n2,n3,n4',
      );
      const after = c.core('n4').lastIndex() + 1;
      c.node('n4').propose(bytes('after')).catch(ignore);
      await c.until('n3 to apply a new entry', () => c.applied('n3', after) !== undefined);
    },
  );

  it('with vote requests from non-members refused (the injected bug member-votes-only: admission before the fix), the two live voters never elect a leader', async () => {
    const c = await replacedWhileAway({ bug: 'member-votes-only' });
    await c.run(20_000);
    expect(leaderAmong(c, ['n3', 'n4'])).toEqual([]);
  });

  /**
   * docs/operations.md, "Replacing a lost node": remove n5, add n5 back with an empty disk.
   * n2 applied the removal and was away for the re-add: it knows n5 only as removed.
   */
  async function readdedWhileAway(): Promise<{ c: DriverCluster; away: Set<NodeId> }> {
    const c = new DriverCluster(FIVE);
    await c.elect('n1');
    await settleOn(c, 'remove n5', c.node('n1').removeMember('n5'));
    await c.until(
      'n2 to apply the removal',
      () => c.core('n2').status().conf.voters.join() === 'n1,n2,n3,n4',
    );
    c.crashNode('n5'); // its volume is lost
    const away = new Set(['n2']);
    c.drop = (m: Message) => away.has(m.from) || away.has(m.to);
    c.join('n5'); // an empty data directory, the same id
    await settleOn(c, 'add n5 back', c.node('n1').addMember('n5', 'n5', 'n5'));
    return { c, away };
  }

  it('a voter that applied the removal of an id and missed its re-add grants the re-added member its vote', async () => {
    const { c, away } = await readdedWhileAway();
    // Z commits with n1, n3 and n5; then n1 and n3 fail for good and n2 comes back: of
    // n2, n4 and n5 (three of five voters), only n5 holds Z, and it needs n2's vote.
    away.add('n4');
    const z = c.core('n1').lastIndex() + 1;
    c.node('n1').propose(bytes('Z')).catch(ignore);
    await c.until('Z to commit', () => c.checker.canonical(z) !== undefined);
    await c.run(200);
    c.crashNode('n1');
    c.crashNode('n3');
    away.clear();
    await c.until(
      'n2, n4 and n5 to elect a leader',
      () => leaderAmong(c, ['n2', 'n4', 'n5']).length > 0,
      20_000,
    );
    expect(leaderAmong(c, ['n2', 'n4', 'n5'])).toEqual(['n5']);
    await c.until('n2 to apply the re-add', () => c.core('n2').status().conf.voters.length === 5);
  });

  it('a voter that applied the removal of an id and missed its re-add follows the re-added member when it leads', async () => {
    const { c, away } = await readdedWhileAway();
    await settleOn(c, 'transfer to n5', c.node('n1').transferLeadership('n5'));
    away.clear();
    const after = c.core('n5').lastIndex() + 1;
    c.node('n5').propose(bytes('after')).catch(ignore);
    await c.until('n2 to apply what n5 committed', () => c.applied('n2', after) !== undefined);
    expect(c.core('n2').status().leader).toBe('n5');
  });
});

/**
 * Removes `removed` (the leader) as an operator does: RemoveMember on the leader, called
 * again on the leader of the moment when it fails, and the removed node shut down the
 * moment a call returns, when `failing` fail for good too. The announcement of the
 * commit to `unaware` (messages from `removed` carrying a commit index at or past the
 * removal, and timeout-now) is lost for the first second. Resolves with the removal index.
 */
async function removeLeaderAndShutItDown(
  c: DriverCluster,
  removed: NodeId,
  unaware: readonly NodeId[],
  failing: readonly NodeId[],
): Promise<number> {
  const removal = c.core(removed).lastIndex() + 1;
  let dropping = true;
  c.drop = (m: Message) =>
    dropping &&
    m.from === removed &&
    unaware.includes(m.to) &&
    (m.type === 'timeout-now' || m.commit >= removal);
  let returned = false;
  const ids = [...c.nodes.keys()];
  const call = (on: NodeId) =>
    c
      .node(on)
      .removeMember(removed)
      .then(
        () => {
          returned = true;
          c.crashNode(removed); // decommissioned
          for (const id of failing) c.crashNode(id);
        },
        () => c.at(100, () => 'remove again', retry),
      );
  const retry = () => {
    const leader = ids.find((id) => c.sim(id).running && c.core(id).status().role === 'leader');
    if (leader) void call(leader);
    else c.at(100, () => 'remove again', retry);
  };
  void call(removed);
  await c.run(1_000);
  dropping = false;
  await c.until('RemoveMember to return', () => returned);
  return removal;
}

describe('a removal is done for the caller once a majority of the new configuration knows it committed', () => {
  it('with RemoveMember done at the commit (the injected bug removal-done-at-commit: before the fix), the last voter never leads', async () => {
    const c = new DriverCluster(['n1', 'n2'], { bug: 'removal-done-at-commit' });
    await c.elect('n2');
    await removeLeaderAndShutItDown(c, 'n2', ['n1'], []);
    await c.run(20_000);
    expect(leaderAmong(c, ['n1'])).toEqual([]);
  });

  it('two voters, the leader removes itself and is shut down once RemoveMember returns: the last voter leads (review, 2 -> 1)', async () => {
    const c = new DriverCluster(['n1', 'n2']);
    await c.elect('n2');
    await removeLeaderAndShutItDown(c, 'n2', ['n1'], []);
    await c.until('n1 to lead', () => leaderAmong(c, ['n1']).length > 0, 20_000);
    expect(c.core('n1').status().conf.voters).toEqual(['n1']);
    const after = c.core('n1').lastIndex() + 1;
    c.node('n1').propose(bytes('after')).catch(ignore);
    await c.until('n1 to apply a new entry', () => c.applied('n1', after) !== undefined);
  });

  it('four voters, the leader removes itself and is shut down once RemoveMember returns, then one more fails: the other two lead (4 -> 3)', async () => {
    // Only n1 hears of the commit while the announcement is lost to n2 and n3; n1 then
    // fails for good. Two of the three remaining voters are up: one of them must know.
    const c = new DriverCluster(['n1', 'n2', 'n3', 'n4']);
    await c.elect('n4');
    await removeLeaderAndShutItDown(c, 'n4', ['n2', 'n3'], ['n1']);
    await c.until('n2 and n3 to elect a leader', () => leaderAmong(c, ['n2', 'n3']).length > 0, 20_000);
    const leader = leaderAmong(c, ['n2', 'n3'])[0]!;
    expect(c.core(leader).status().conf.voters).toEqual(['n1', 'n2', 'n3']);
  });

  it('RemoveMember called again for a member already removed returns once the new configuration confirms it', async () => {
    const c = new DriverCluster(['n1', 'n2', 'n3']);
    await c.elect('n1');
    await settleOn(c, 'remove n3', c.node('n1').removeMember('n3'));
    await settleOn(c, 'remove n3 again', c.node('n1').removeMember('n3'));
    expect(c.core('n1').status().conf.voters).toEqual(['n1', 'n2']);
  });
});

/**
 * The Raft long run's seed 3474: voters {n1, n2} and a learner n3; leader n2 removes n1,
 * and the removal commits with n1's acknowledgement. n2 tells n3 at once (a leader's
 * messages leave before its hard state), then loses power before its hard state with
 * that commit is durable; n1 is down. n2 restarts counting {n1, n2} (the removal is the
 * last change in its log, so nothing tells it that it committed) and needs n1's vote;
 * only the learner n3 knows that {n2} is in effect. Resolves with the removal index.
 */
async function removalOnlyALearnerHeard(bug?: InjectedBug): Promise<{ c: DriverCluster; removal: number }> {
  const c = new DriverCluster(['n1', 'n2'], bug ? { bug } : {});
  await c.elect('n2');
  c.join('n3');
  await settleOn(c, 'add learner n3', c.node('n2').addMember('n3', 'n3', 'n3', { learnerOnly: true }));
  // n3 caught up, so that the leader streams to it and the commit rides the next append.
  const x = c.core('n2').lastIndex() + 1;
  c.node('n2').propose(bytes('x')).catch(ignore);
  await c.until('n3 to apply x', () => c.applied('n3', x) !== undefined);
  const removal = c.core('n2').lastIndex() + 1;
  c.hold('n2', ['hard-state']);
  c.node('n2').removeMember('n1').catch(ignore);
  await c.until('n3 to learn that the removal committed', () => c.core('n3').status().commit >= removal);
  c.crashNode('n1');
  c.crashNode('n2');
  c.restart('n2');
  await c.until('n2 to restart', () => c.sim('n2').running);
  expect(c.core('n2').status().conf.voters).toEqual(['n1', 'n2']);
  expect(c.core('n2').status().commit).toBeLessThan(removal);
  return { c, removal };
}

describe('a configuration change whose commit only a learner heard', () => {
  it('a candidate asks the learners too, learns the commit from their answer and leads alone (seed 3474)', async () => {
    const { c } = await removalOnlyALearnerHeard();
    await c.until('n2 to lead', () => leaderAmong(c, ['n2']).length > 0, 20_000);
    expect(c.core('n2').status().conf.voters).toEqual(['n2']);
    const after = c.core('n2').lastIndex() + 1;
    c.node('n2').propose(bytes('after')).catch(ignore);
    await c.until('n3 to apply a new entry', () => c.applied('n3', after) !== undefined);
  });

  it('with vote rounds that ask only the voters (the injected bug voters-only-vote-round: before the fix), the last voter never leads', async () => {
    const { c } = await removalOnlyALearnerHeard('voters-only-vote-round');
    await c.run(20_000);
    expect(leaderAmong(c, ['n2'])).toEqual([]);
    expect(c.core('n2').status().conf.voters).toEqual(['n1', 'n2']);
  });
});
