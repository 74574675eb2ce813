import { type Clock, systemClock, type TimerHandle } from '@fermata/base';
import type { Logger } from 'pino';
import { deadLetterIdCount } from '../state/commands/validation.js';
import type { Limits } from '../state/model/limits.js';
import type { BrokerReader } from '../state/read/reader.js';
import type { DeadLetterGate } from './dead-letter-gate.js';
import type { LeaderMetrics } from './metrics.js';
import type { Proposer } from './proposer.js';

/** How often the leader's janitor looks for expired messages and ended dedup windows. */
export const JANITOR_INTERVAL_MS = 200;
/** How long the janitor trusts its list of topics whose dead letters fall back to `<topic>.dlq`. */
const FALLBACK_REFRESH_MS = 1_000;
/**
 * How long after the latest due time of a publish record's messages the
 * janitor first checks whether it may forget it: by then most are acked, so
 * a record is mostly read once.
 */
export const PUBLISH_CHECK_MARGIN_MS = 10_000;
/**
 * The most publish records, and entry keys to check them, the janitor reads
 * per sweep (every JANITOR_INTERVAL_MS): the bound on its cost. At 16,384
 * keys a sweep it checks up to ~80,000 messages a second.
 */
export const PUBLISH_RECORDS_PER_SWEEP = 1_024;
export const PUBLISH_KEYS_PER_SWEEP = 16_384;
/**
 * The shortest time between the starts of two passes over the publish
 * records: a record still needed (its messages not yet all acked) is read
 * again at most this often, not on every sweep.
 */
export const PUBLISH_PASS_INTERVAL_MS = 10_000;

/**
 * The leader's janitor: TTL expiry through the expiry index (remove or
 * dead-letter per topic setting), the end of dedup windows (message keys and
 * publish idempotency keys), and publish records no longer needed, each as
 * batched Raft commands. Expiry is housekeeping, not delivery, so a short
 * poll of two index scans that read only what is already due is enough.
 */
export class Janitor {
  private timer: TimerHandle | undefined;
  private running = false;
  private epoch = 0;
  /** Where the next read of publish records starts (a first id; 0n: from the start). */
  private publishCursor = 0n;
  /** When the current pass over the publish records started, on the monotonic clock. */
  private publishPassAtMs: number | undefined;

  constructor(
    private readonly options: {
      reader: BrokerReader;
      proposer: Proposer;
      metrics: LeaderMetrics;
      log: Logger;
      batch: number;
      limits: Limits;
      /** Default `systemClock`. */
      clock?: Clock;
      /** Whether a topic's dead letters may go to its configured dead-letter topic (default: yes). */
      deadLetterAllowed?: DeadLetterGate;
    },
  ) {
    this.clock = options.clock ?? systemClock;
  }

  private readonly clock: Clock;

  start(): void {
    this.stop();
    const epoch = ++this.epoch;
    this.publishCursor = 0n;
    this.publishPassAtMs = undefined;
    // Every JANITOR_INTERVAL_MS; a tick while a sweep still runs is skipped.
    const tick = (): void => {
      if (epoch !== this.epoch) return;
      this.timer = this.clock.setTimer(tick, JANITOR_INTERVAL_MS);
      if (this.running) return;
      this.running = true;
      this.sweep(epoch)
        .catch((err: unknown) => {
          if (epoch === this.epoch) this.options.log.warn({ err: String(err) }, 'janitor sweep failed');
        })
        .finally(() => {
          this.running = false;
        });
    };
    this.timer = this.clock.setTimer(tick, JANITOR_INTERVAL_MS);
  }

  stop(): void {
    this.epoch++;
    if (this.timer) this.clock.clearTimer(this.timer);
    this.timer = undefined;
  }

  /** The topics whose dead letters may not go to their configured dead-letter topic, read again each second. */
  private fallback: { readonly atMs: number; readonly topics: readonly string[] } | undefined;

  private async deadLetterFallback(): Promise<readonly string[]> {
    const gate = this.options.deadLetterAllowed;
    if (!gate) return [];
    const now = this.clock.monotonicMs();
    if (this.fallback && now - this.fallback.atMs < FALLBACK_REFRESH_MS) return this.fallback.topics;
    const topics = (await this.options.reader.listTopics()).filter((t) => !gate(t)).map((t) => t.name);
    this.fallback = { atMs: now, topics };
    return topics;
  }

  /** One pass: expire what is due, purge ended key windows; repeats while full batches come back. */
  async sweep(epoch = this.epoch): Promise<void> {
    const { reader, proposer, metrics, limits } = this.options;
    // A command names at most maxIdsPerCommand ids or keys (else every sweep would be refused).
    const batch = Math.min(this.options.batch, limits.maxIdsPerCommand);
    for (;;) {
      const now = proposer.nowMs();
      const expired = await reader.dueExpiries(now, batch);
      if (epoch !== this.epoch) return;
      if (expired.length > 0) {
        const ids = expired.map((e) => e.id);
        // Where each message's one entry was published (empty: none named): no lookup by id.
        const keys = expired.some((e) => e.key.length > 0) ? expired.map((e) => e.key) : undefined;
        // Ids for the dead-letter copies the command may make (one per group of each message).
        const idCount = deadLetterIdCount({ kind: 'expire', ids }, limits);
        const fallback = await this.deadLetterFallback();
        if (epoch !== this.epoch) return;
        const firstId = proposer.reserveIds(idCount);
        const r = await proposer.run(
          {
            kind: 'expire',
            ids,
            firstId,
            idCount,
            ...(keys ? { keys } : {}),
            // Which record each id came from: a deadline's, or one moved to a lease's end.
            atMs: expired.map((e) => e.expireAtMs),
            ...(fallback.length > 0 ? { deadLetterFallbackTopics: fallback } : {}),
          },
          now,
        );
        if (r.kind === 'expire') {
          let n = 0;
          for (const o of r.outcomes) {
            if (o.deadline) {
              for (const g of o.deadline.groups)
                metrics.deadlineExceeded?.inc({ topic: o.deadline.topic, group: g.group, action: g.action });
            } else if (o.status === 'expired' || o.status === 'dead-lettered') n++;
          }
          if (n > 0) metrics.expirations.inc(n);
        }
      }
      const keys = await reader.dueKeyPurges(now, batch);
      const requests = await reader.dueRequestPurges(now, batch);
      if (epoch !== this.epoch) return;
      if (keys.length > 0 || requests.length > 0) {
        await proposer.run(
          { kind: 'purge-keys', keys: keys.map(({ topic, key }) => ({ topic, key })), requests },
          now,
        );
      }
      if (expired.length < batch && keys.length < batch && requests.length < batch) break;
    }
    await this.forgetPublishes(epoch);
  }

  /**
   * One bounded read of the publish records from where the last stopped
   * (PUBLISH_RECORDS_PER_SWEEP records, PUBLISH_KEYS_PER_SWEEP entry keys),
   * and the deletion of those none of whose messages is at its published key.
   * A pass from the first record starts at most every PUBLISH_PASS_INTERVAL_MS.
   */
  private async forgetPublishes(epoch: number): Promise<void> {
    const { reader, proposer, metrics, limits } = this.options;
    if (this.publishCursor === 0n) {
      const at = this.clock.monotonicMs();
      if (this.publishPassAtMs !== undefined && at - this.publishPassAtMs < PUBLISH_PASS_INTERVAL_MS) return;
      this.publishPassAtMs = at;
    }
    const now = proposer.nowMs();
    const found = await reader.forgettablePublishes({
      from: this.publishCursor,
      nowMs: now,
      marginMs: PUBLISH_CHECK_MARGIN_MS,
      maxRecords: PUBLISH_RECORDS_PER_SWEEP,
      maxKeys: PUBLISH_KEYS_PER_SWEEP,
    });
    if (epoch !== this.epoch) return;
    this.publishCursor = found.next;
    metrics.publishRecords?.inc({ what: 'read' }, found.recordsRead);
    metrics.publishRecords?.inc({ what: 'keys_read' }, found.keysRead);
    for (let at = 0; at < found.firstIds.length; at += limits.maxIdsPerCommand) {
      const firstIds = found.firstIds.slice(at, at + limits.maxIdsPerCommand);
      await proposer.run({ kind: 'forget-publishes', firstIds }, now);
      if (epoch !== this.epoch) return;
      metrics.publishRecords?.inc({ what: 'forgotten' }, firstIds.length);
    }
  }
}
