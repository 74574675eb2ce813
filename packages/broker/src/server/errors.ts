/**
 * The typed errors of the server's own refusals (the state machine's are in
 * state/model/errors.ts, raft's in @fermata/raft). grpc-status.ts maps each to its
 * status; no handler builds a status by hand.
 */

/** The node cannot serve the call now (it is shutting down, ...): UNAVAILABLE, the client retries elsewhere or later. */
export class UnavailableError extends Error {
  override readonly name = 'UnavailableError';
}

/** A graceful stop did not finish within shutdown.graceMs; the process exits non-zero with it. */
export class ShutdownTimeoutError extends Error {
  override readonly name = 'ShutdownTimeoutError';
}

/** This server's configuration refuses the request; the message names the setting: FAILED_PRECONDITION. */
export class RefusedByConfigError extends Error {
  override readonly name = 'RefusedByConfigError';
}
