/**
 * When a node is ready to serve clients: it knows a leader and has applied
 * nearly everything it knows committed. One rule for /readyz and gRPC health.
 */

/** What the server reports about itself; the HTTP and health endpoints know nothing else of the node. */
export interface NodeStatus {
  readonly nodeId: string;
  readonly clusterId?: string;
  /** The Raft role ('leader', 'follower', 'candidate', 'pre-candidate', 'learner'). */
  readonly role: string;
  readonly term: number;
  /** '' while no leader is known. */
  readonly leaderId: string;
  /** The leader's client address; '' when unknown. */
  readonly leaderAddress: string;
  readonly commit: number;
  readonly applied: number;
  /** True once shutdown began: not ready, so load balancers stop sending. */
  readonly stopping?: boolean;
  /** How long the state machine's apply running now has been running (ms); 0 or absent while none runs. */
  readonly applyRunningMs?: number;
  /** The disk a write found full ('log' or 'state') and the path, until the node has room again. */
  readonly diskFull?: { readonly disk: string; readonly path: string };
  readonly members?: readonly {
    readonly id: string;
    readonly clientAddress: string;
    readonly peerAddress: string;
    readonly role?: string;
  }[];
}

export type Readiness = { readonly ready: true } | { readonly ready: false; readonly reason: string };

/**
 * Ready: not stopping, no disk full, a leader known, applied within `maxLagEntries` of the
 * commit index, and no apply running for longer than `maxApplyMs` (a node
 * busy in one long apply answers nothing else meanwhile).
 */
export function readiness(
  status: NodeStatus,
  maxLagEntries: number,
  maxApplyMs = Number.POSITIVE_INFINITY,
): Readiness {
  if (status.stopping === true) return { ready: false, reason: 'shutting down' };
  if (status.diskFull) {
    return {
      ready: false,
      reason: `the ${status.diskFull.disk} disk is full (${status.diskFull.path}): writes refused until it has room`,
    };
  }
  if (status.leaderId === '') return { ready: false, reason: `no leader known (term ${status.term})` };
  const applyMs = status.applyRunningMs ?? 0;
  if (applyMs > maxApplyMs) {
    return {
      ready: false,
      reason: `one apply has been running for ${Math.round(applyMs)} ms (most allowed ${maxApplyMs})`,
    };
  }
  const lag = status.commit - status.applied;
  if (lag > maxLagEntries) {
    return {
      ready: false,
      reason: `applied index ${status.applied} is ${lag} entries behind commit index ${status.commit} (most allowed ${maxLagEntries})`,
    };
  }
  return { ready: true };
}

/** Readiness from a provider that may throw (a node still starting, a bug): never ready then. */
export function readinessOf(
  status: () => NodeStatus,
  maxLagEntries: number,
  maxApplyMs = Number.POSITIVE_INFINITY,
): Readiness {
  try {
    return readiness(status(), maxLagEntries, maxApplyMs);
  } catch (err) {
    return { ready: false, reason: `status unavailable: ${(err as Error).message}` };
  }
}
