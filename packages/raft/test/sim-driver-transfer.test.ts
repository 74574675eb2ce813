// Leadership transfer under the shipped RaftNode (DriverCluster: simulated disks, network
// and virtual time). The core gives a transfer up when it has not finished within an
// election timeout; the node's transferLeadership() answers then, not later.
import { describe, expect, it } from 'vitest';
import { NodeTimeoutError } from '../src/node/errors.js';
import { DriverCluster } from '../src/sim/driver-cluster.js';
import { ELECTION_TICKS, TICK_MS } from '../src/sim/sim-cluster.js';
import type { NodeId } from '../src/types.js';

const ELECTION_TIMEOUT_MS = ELECTION_TICKS * TICK_MS;

/** Starts a transfer from `from` to `to`; resolves with the id it moved to, or the error, and when. */
async function transfer(
  c: DriverCluster,
  from: NodeId,
  to: NodeId,
): Promise<{ outcome: unknown; afterMs: number }> {
  const start = c.nowMs();
  let outcome: unknown;
  c.node(from)
    .transferLeadership(to)
    .then(
      (id) => (outcome = id),
      (error: unknown) => (outcome = error),
    );
  await c.until('the transfer to end', () => outcome !== undefined);
  return { outcome, afterMs: c.nowMs() - start };
}

describe('a leadership transfer', () => {
  it('to a live voter moves leadership to it', async () => {
    const c = new DriverCluster(['n1', 'n2', 'n3']);
    await c.elect('n1');
    const { outcome } = await transfer(c, 'n1', 'n2');
    expect(outcome).toBe('n2');
    expect(c.core('n2').status().role).toBe('leader');
  });

  it('to a voter that is down fails once the core gives it up, an election timeout on, and the leader leads on', async () => {
    const c = new DriverCluster(['n1', 'n2', 'n3']);
    await c.elect('n1');
    c.crashNode('n3');
    const { outcome, afterMs } = await transfer(c, 'n1', 'n3');
    expect(outcome).toBeInstanceOf(NodeTimeoutError);
    expect(String(outcome)).toMatch(
      /leadership to move to n3: the transfer was given up after an election timeout/,
    );
    // Not three election timeouts, the node's own bound: every node of a cluster stopped at
    // once (each hands leadership to another on SIGTERM) would wait that long for nothing.
    expect(afterMs).toBeGreaterThanOrEqual(ELECTION_TIMEOUT_MS);
    expect(afterMs).toBeLessThan(2 * ELECTION_TIMEOUT_MS);
    expect(c.core('n1').status()).toMatchObject({ role: 'leader', transferee: '' });
  });
});
