/**
 * What the leader layer counts, as an interface: the server's Prometheus
 * metrics (server/metrics.ts) implement it, and a simulation can pass
 * `discardLeaderMetrics` or its own recorder.
 */

export interface TopicCounter {
  inc(labels: { topic: string }, value?: number): void;
}

export interface LeaderMetrics {
  /** Deliveries written to consumer streams, by topic. */
  readonly deliveries: TopicCounter;
  /** Deliveries moved to a dead-letter topic (or dropped) at lease time, by source topic. */
  readonly deadLetters: TopicCounter;
  /** Messages expired by the janitor. */
  readonly expirations: { inc(value?: number): void };
  /** Group entries ended at their deadline, by topic, group and what became of them. */
  readonly deadlineExceeded?: {
    inc(labels: { topic: string; group: string; action: 'dead-letter' | 'drop' }, value?: number): void;
  };
  /** Send time minus due time of each delivery, ms. */
  readonly deliveryLatenessMs: { observe(value: number): void };
  /**
   * Leases of deliveries that a group's rate or in-flight limit held back
   * past their due time (one per lease so held), by topic, group and the
   * limit that held them last.
   */
  readonly deliveryThrottled?: {
    inc(labels: { topic: string; group: string; limit: 'rate' | 'in_flight' }, value?: number): void;
  };
  /** Pushes held back because the node's buffer for all consume streams was full. */
  readonly consumeBufferFull?: { inc(value?: number): void };
  /**
   * The janitor's work on publish records: records it read (`read`), entry
   * keys it read to check them (`keys_read`), records it had forgotten (`forgotten`).
   */
  readonly publishRecords?: { inc(labels: { what: PublishRecordWork }, value?: number): void };
}

export type PublishRecordWork = 'read' | 'keys_read' | 'forgotten';

const ignore = (): void => {};

export const discardLeaderMetrics: LeaderMetrics = {
  deliveries: { inc: ignore },
  deadLetters: { inc: ignore },
  expirations: { inc: ignore },
  deliveryLatenessMs: { observe: ignore },
};
