/** What the pusher counts per push group: the server's Prometheus metrics implement it (server/metrics.ts). */

export interface PushLabels {
  readonly topic: string;
  readonly group: string;
}

export interface PushMetrics {
  /** Requests by how they ended: `2xx`..`5xx`, `timeout`, `error` (no answer). */
  readonly requests: { inc(labels: PushLabels & { class: string }): void };
  /** Request time, ms (to the answer's body read, or the failure). */
  readonly latencyMs: { observe(labels: PushLabels, value: number): void };
  /** Requests not acknowledged, so nacked for a retry (or, the last attempt, a dead letter). */
  readonly retries: { inc(labels: PushLabels): void };
  /** Nacks of a last attempt: the message goes to the dead-letter topic. */
  readonly deadLetters: { inc(labels: PushLabels): void };
  /** Why the group sends nothing: a file it needs cannot be read (its field and path; '' = it can). */
  readonly blocked: { set(labels: PushLabels, why: string): void };
}

const ignore = (): void => {};

export const discardPushMetrics: PushMetrics = {
  requests: { inc: ignore },
  latencyMs: { observe: ignore },
  retries: { inc: ignore },
  deadLetters: { inc: ignore },
  blocked: { set: ignore },
};
