/**
 * Availability while faults come and go (docs/design.md: a majority of voters
 * that is up and connected elects a leader within a bound, whatever membership
 * history brought it there), checked after every step of the chaotic phase,
 * not only once every fault has healed:
 *
 * whenever a majority of the current configuration's voters has been up and
 * connected for LIVE_MAJORITY_BOUND_MS of virtual time, a leader existed at
 * some moment of that time.
 *
 * The configuration that binds a set of voters is the newest one known committed
 * (a node takes a configuration when it learns it committed) by a running node
 * that can send to them (a slow one too: its vote requests carry its commit
 * index) or by a member shut down after its removal was reported done (what
 * such a member knew committed stays the cluster's once it is gone). A
 * configuration only a cut-off node knows committed binds no one: the others
 * still count the older one, and may need a member the newer one removed
 * (4 -> 3 with the leader cut off right after the commit: the other two need
 * the removed node's vote).
 * Up: running, not shut down after its removal, its disk taking at most
 * HEALTHY_DISK_MS a write (Raft's liveness needs a disk well faster than an
 * election timeout), and not full for ROOM_RETRY_MAX_MS (a node retries a
 * write the disk refused for room with backoff up to that long, so it may
 * notice room that long after it came back). Connected: no cut link between any two of
 * them, either way, and the network loses at most HEALTHY_LOSS of messages. A
 * leader: a running node that leads and is a voter of its own configuration
 * (a removed leader only hands over).
 */
import { ROOM_RETRY_MAX_MS } from '../node/raft-node.js';
import type { NodeId } from '../types.js';
import { InvariantViolation } from './checker.js';
import type { SimNetwork } from './sim-network.js';
import type { SimNode } from './sim-node.js';

/** How long a majority may be up and connected with no leader (10 to 20 election timeouts). */
export const LIVE_MAJORITY_BOUND_MS = 2_000;
/** A disk slower than this per write does not count as up. */
export const HEALTHY_DISK_MS = 40;
/** Message loss above this does not count as connected. */
export const HEALTHY_LOSS = 0.05;

export class LivenessWatch {
  /** Since when the condition has held (undefined: it does not). */
  private since: number | undefined;
  private leaderSeenMs = 0;
  /** Times the condition held for the whole bound (with a leader in it): how often the rule was put to the test. */
  tested = 0;
  private testedSince: number | undefined;

  /** The most a node shut down after its removal knew committed, and that configuration's voters. */
  private retired: { commit: number; voters: readonly NodeId[] } | undefined;

  constructor(private readonly network: SimNetwork) {}

  /**
   * A member whose removal was reported done, as it is shut down for good: what it knew
   * committed stays the cluster's once it is gone (the 2 -> 1 removal: the last voter must
   * have learned it, or it still counts the member and never leads).
   */
  retire(n: SimNode): void {
    const s = n.core?.status();
    if (s && (!this.retired || s.commit > this.retired.commit))
      this.retired = { commit: s.commit, voters: s.conf.voters };
  }

  /** After every step of the chaotic phase. */
  check(nowMs: number, nodes: readonly SimNode[]): void {
    if (nodes.some((n) => isLeader(n))) this.leaderSeenMs = nowMs;
    const majority = this.liveMajority(nowMs, nodes);
    if (!majority) {
      this.since = undefined;
      return;
    }
    this.since ??= nowMs;
    const from = Math.max(this.since, this.leaderSeenMs);
    if (nowMs - this.since >= LIVE_MAJORITY_BOUND_MS && this.testedSince !== this.since) {
      this.testedSince = this.since;
      this.tested++;
    }
    if (nowMs - from <= LIVE_MAJORITY_BOUND_MS) return;
    throw new InvariantViolation('liveness', {
      rule: `a majority of the voters up and connected for ${LIVE_MAJORITY_BOUND_MS} ms has a leader`,
      upAndConnected: majority.live,
      voters: majority.voters,
      sinceMs: this.since,
      lastLeaderMs: this.leaderSeenMs,
      nodes: nodes
        .filter((n) => n.core)
        .map((n) => {
          const s = n.core!.status();
          return `${n.id}:${s.role}@${s.term} commit=${s.commit}/${s.lastIndex} voters=${s.conf.voters.join('+')}`;
        }),
    });
  }

  /**
   * Up and connected voters that are a majority of the configuration that binds them, or
   * undefined. Each configuration a node holds is tried: its voters' largest up and connected
   * set must be a majority of it, and it must be the newest known committed by a running node
   * that can reach that set (its vote requests carry its commit index, even from a slow disk)
   * or by a member retired after its removal was reported done. A configuration only a
   * cut-off node knows committed binds no one: the others still count the older one.
   */
  private liveMajority(
    nowMs: number,
    nodes: readonly SimNode[],
  ): { voters: NodeId[]; live: NodeId[] } | undefined {
    const faults = this.network.faults;
    if (faults.lossRate > HEALTHY_LOSS) return undefined;
    const byId = new Map(nodes.map((n) => [n.id, n]));
    const known = new Map<SimNode, { commit: number; voters: readonly NodeId[] }>();
    for (const n of nodes) {
      const s = n.core?.status();
      if (s) known.set(n, { commit: s.commit, voters: s.conf.voters });
    }
    const configs = [...known.values()];
    if (this.retired) configs.push(this.retired);
    for (const conf of configs) {
      const up = conf.voters.filter((id) => {
        const n = byId.get(id);
        return n !== undefined && isUp(n, nowMs);
      });
      const quorum = Math.floor(conf.voters.length / 2) + 1;
      if (up.length < quorum) continue;
      const live = largestClique(
        up,
        (a, b) => !faults.blocked.has(`${a}>${b}`) && !faults.blocked.has(`${b}>${a}`),
      );
      if (live.length < quorum) continue;
      let newest = this.retired;
      for (const [n, k] of known) {
        const reaches = live.some((id) => id === n.id || !faults.blocked.has(`${n.id}>${id}`));
        if (n.running && reaches && (!newest || k.commit > newest.commit)) newest = k;
      }
      if (newest && sameVoters(newest.voters, conf.voters)) return { voters: [...conf.voters], live };
    }
    return undefined;
  }
}

function sameVoters(a: readonly NodeId[], b: readonly NodeId[]): boolean {
  return a.length === b.length && a.every((id) => b.includes(id));
}

function isUp(n: SimNode, nowMs: number): boolean {
  const fs = n.disk.fs;
  return (
    n.running &&
    !n.decommissioned &&
    n.disk.latencyMs[1] <= HEALTHY_DISK_MS &&
    !fs.full &&
    nowMs - fs.roomAtMs >= ROOM_RETRY_MAX_MS
  );
}

function isLeader(n: SimNode): boolean {
  const s = n.core?.status();
  return n.running && s !== undefined && s.role === 'leader' && s.conf.voters.includes(n.id);
}

/** The largest set of `ids` connected pairwise (a handful of nodes: every subset is tried). */
function largestClique(ids: readonly NodeId[], linked: (a: NodeId, b: NodeId) => boolean): NodeId[] {
  let all = true;
  for (const a of ids) for (const b of ids) if (a < b && !linked(a, b)) all = false;
  if (all) return [...ids];
  let best: NodeId[] = [];
  for (let mask = 1; mask < 1 << ids.length; mask++) {
    const set = ids.filter((_, i) => mask & (1 << i));
    if (set.length <= best.length) continue;
    if (set.every((a) => set.every((b) => a >= b || linked(a, b)))) best = set;
  }
  return best;
}
