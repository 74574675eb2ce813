// Disk faults under the shipped driver, log store and hard-state file (DriverCluster on
// the simulated file system): a failed fsync and a full disk stop the node (fail-stop,
// docs/design.md "Persistence contract"); nothing it acknowledged is lost and nothing it
// did not write is acknowledged.
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
      /^StorageError: (write|rename) of \/data\/hard-state\S* failed \(EIO\)/,
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
    expect(c.failStops[0]?.reason).toMatch(/^StorageError: write of \/data\/snapshot-meta\S* failed \(EIO\)/);
    // The others go on; n2 restarts and catches up.
    const next = c.core('n1').lastIndex() + 1;
    c.node('n1').propose(bytes('after')).catch(ignore);
    c.restart('n2');
    await c.until('n2 to apply what came after', () => c.applied('n2', next) !== undefined);
  });
});

describe('a full disk stops the node (fail-stop)', () => {
  it('a follower whose disk is full stops on its next log write; with room again it restarts and catches up', async () => {
    const c = new DriverCluster(['n1', 'n2', 'n3']);
    await c.elect('n1');
    const fs = c.sim('n3').disk.fs;
    fs.full = true;
    const x = c.core('n1').lastIndex() + 1;
    c.node('n1').propose(bytes('X')).catch(ignore);
    await c.until('n3 to stop', () => !c.sim('n3').running);
    expect(c.failStops[0]?.reason).toMatch(/failed \(ENOSPC\)/);
    await c.until('X to commit without n3', () => c.checker.canonical(x) !== undefined);
    // Still full: the restart stops again at its first write.
    c.restart('n3');
    await c.run(500);
    expect(c.sim('n3').running).toBe(false);
    fs.full = false;
    c.restart('n3');
    await c.until('n3 to apply X', () => c.applied('n3', x) === '2/normal/X');
  });
});
