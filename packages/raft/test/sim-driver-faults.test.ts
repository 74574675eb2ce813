// Disk faults under the shipped driver, log store and hard-state file (DriverCluster on
// the simulated file system): a failed fsync stops the node (fail-stop, docs/design.md
// "Persistence contract"); a full disk makes it refuse writes and wait for room, then go
// on by itself. Nothing it acknowledged is lost and nothing it did not write is acknowledged.
import { describe, expect, it } from 'vitest';
import { DriverCluster } from '../src/sim/driver-cluster.js';
import type { Message } from '../src/types.js';

const bytes = (s: string) => new TextEncoder().encode(s);
const ignore = () => undefined;

describe('a failed fsync stops the node; it never retries and acknowledges', () => {
  it('a failed log write stops the follower with a StorageError naming the file; the entry is never acknowledged by it, commits without it, and reaches it after a restart', async () => {
    const c = new DriverCluster(['n1', 'n2', 'n3']);
    await c.elect('n1');
    const acks: Message[] = [];
    c.drop = (m) => {
      if (m.from === 'n2' && m.type === 'append-response' && !m.reject) acks.push(m);
      return false;
    };
    c.failNextSync('n2', /\/log\//);
    const x = c.core('n1').lastIndex() + 1;
    c.node('n1').propose(bytes('X')).catch(ignore);
    await c.until('n2 to stop', () => !c.sim('n2').running);
    expect(c.failStops).toEqual([
      {
        id: 'n2',
        reason: expect.stringMatching(/^StorageError: write of \/data\/log\/\S+\.seg failed \(EIO\)/),
      },
    ]);
    await c.until('X to commit', () => c.checker.canonical(x) !== undefined);
    expect(acks.filter((m) => m.index >= x)).toEqual([]);
    c.restart('n2');
    await c.until('n2 to apply X', () => c.applied('n2', x) === '2/normal/X');
  });

  it('a failed hard-state write stops a voter before its vote leaves', async () => {
    const c = new DriverCluster(['n1', 'n2', 'n3']);
    await c.elect('n1');
    const votes: Message[] = [];
    c.drop = (m) => {
      if (m.from === 'n2' && m.type === 'vote-response') votes.push(m);
      return false;
    };
    c.failNextSync('n2', /hard-state/);
    c.crashNode('n1');
    await c.until('n2 to stop', () => !c.sim('n2').running);
    expect(c.failStops[0]?.reason).toMatch(
      /^StorageError: (write|fsync|rename) of \/data\/hard-state\S* failed \(EIO\)/,
    );
    expect(votes.filter((m) => !m.reject)).toEqual([]);
  });

  it('a failed write while recording a snapshot stops the node (it used to spin, retrying the snapshot in a loop)', async () => {
    const c = new DriverCluster(['n1', 'n2', 'n3'], { snapshotEveryEntries: 5 });
    await c.elect('n1');
    c.failNextSync('n2', /snapshot-meta/);
    for (let i = 0; i < 8; i++)
      c.node('n1')
        .propose(bytes(`p${i}`))
        .catch(ignore);
    await c.until('n2 to stop', () => !c.sim('n2').running);
    expect(c.failStops[0]?.reason).toMatch(
      /^StorageError: (write|fsync) of \/data\/snapshot-meta\S* failed \(EIO\)/,
    );
    // The others go on; n2 restarts and catches up.
    const next = c.core('n1').lastIndex() + 1;
    c.node('n1').propose(bytes('after')).catch(ignore);
    c.restart('n2');
    await c.until('n2 to apply what came after', () => c.applied('n2', next) !== undefined);
  });
});

describe('a full disk: the node refuses writes, never acknowledges what it could not write, and goes on by itself once there is room', () => {
  it('a follower whose log disk is full does not acknowledge the entry; it commits without it; with room again the follower writes and applies it without a restart', async () => {
    const c = new DriverCluster(['n1', 'n2', 'n3']);
    await c.elect('n1');
    const acks: Message[] = [];
    c.drop = (m) => {
      if (m.from === 'n3' && m.type === 'append-response' && !m.reject) acks.push(m);
      return false;
    };
    const fs = c.sim('n3').disk.fs;
    fs.full = true;
    const x = c.core('n1').lastIndex() + 1;
    c.node('n1').propose(bytes('X')).catch(ignore);
    await c.until('X to commit without n3', () => c.checker.canonical(x) !== undefined);
    await c.until('n3 to find its disk full', () => c.node('n3').diskFull() !== undefined);
    expect(c.node('n3').diskFull()).toMatchObject({ disk: 'log', path: expect.stringMatching(/^\/data\//) });
    await c.run(500);
    expect(c.sim('n3').running).toBe(true);
    expect(c.failStops).toEqual([]);
    expect(acks.filter((m) => m.index >= x)).toEqual([]);
    expect(c.applied('n3', x)).toBeUndefined();
    // A full node takes no proposal: a precise, retryable refusal.
    await expect(c.node('n3').propose(bytes('Y'))).rejects.toThrow(/disk of this node is full \(\/data\//);
    fs.full = false;
    await c.until('n3 to apply X', () => c.applied('n3', x) === '2/normal/X');
    expect(c.node('n3').diskFull()).toBeUndefined();
    await c.until('n3 to acknowledge X, once written', () => acks.some((m) => m.index >= x));
    expect(c.failStops).toEqual([]);
  });

  it('a leader whose log disk is full does not count itself and loses its leadership; the others commit; with room again it catches up', async () => {
    const c = new DriverCluster(['n1', 'n2', 'n3']);
    await c.elect('n1');
    const fs = c.sim('n1').disk.fs;
    fs.full = true;
    const x = c.core('n1').lastIndex() + 1;
    let outcome: string | undefined;
    c.node('n1')
      .propose(bytes('X'))
      .then(
        () => (outcome = 'applied'),
        (e: unknown) => (outcome = String(e)),
      );
    await c.until('n1 to find its disk full', () => c.node('n1').diskFull() !== undefined);
    // Another leader, elected by the two with room, commits a new entry.
    await c.until('a leader with room', () =>
      ['n2', 'n3'].some((id) => c.core(id).status().role === 'leader'),
    );
    const leader = ['n2', 'n3'].find((id) => c.core(id).status().role === 'leader') as string;
    const y = c.core(leader).lastIndex() + 1;
    c.node(leader).propose(bytes('Y')).catch(ignore);
    await c.until('Y to commit', () => c.checker.canonical(y) !== undefined);
    expect(c.sim('n1').running).toBe(true);
    fs.full = false;
    await c.until(
      'n1 to apply Y',
      () => c.applied('n1', y) === c.applied(leader, y) && c.applied('n1', y) !== undefined,
    );
    expect(c.failStops).toEqual([]);
    expect(c.node('n1').diskFull()).toBeUndefined();
    // X was proposed to a leader that could not write it: it is applied only if a majority
    // wrote it (then committed by the next leader), and is answered either way.
    await c.until('X answered', () => outcome !== undefined);
    if (outcome === 'applied') expect(c.checker.canonical(x)).toBeDefined();
  });
});
