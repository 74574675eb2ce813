/**
 * The history of a queue workload, as the client saw it: every publish it
 * attempted and how it ended, and every delivery a consumer received. Times
 * are the test process's epoch ms (the containers share this machine's clock).
 */

/** How a publish ended: stored (`ok`), certainly not stored (`fail`), or unknown (`info`, e.g. a timeout). */
export type PublishOutcome = 'ok' | 'fail' | 'info';

export interface PublishOp {
  readonly type: 'publish';
  /** Unique payload of the message. */
  readonly value: string;
  readonly delayMs: number;
  readonly invokedAtMs: number;
  completedAtMs: number;
  outcome: PublishOutcome | 'pending';
  /** Message id (decimal) when `ok`. */
  id?: string;
  /** The server's due time when `ok`. */
  dueAtMs?: number;
  error?: string;
}

export interface DeliveryOp {
  readonly type: 'deliver';
  readonly value: string;
  readonly id: string;
  readonly dueAtMs: number;
  readonly attempt: number;
  readonly consumer: number;
  readonly receivedAtMs: number;
}

export type Op = PublishOp | DeliveryOp;

/** An append-only history shared by the producers and consumers of one run. */
export class History {
  readonly ops: Op[] = [];

  invokePublish(value: string, delayMs: number, nowMs: number): PublishOp {
    const op: PublishOp = {
      type: 'publish',
      value,
      delayMs,
      invokedAtMs: nowMs,
      completedAtMs: -1,
      outcome: 'pending',
    };
    this.ops.push(op);
    return op;
  }

  deliver(op: Omit<DeliveryOp, 'type'>): void {
    this.ops.push({ type: 'deliver', ...op });
  }

  publishes(): PublishOp[] {
    return this.ops.filter((o): o is PublishOp => o.type === 'publish');
  }

  deliveries(): DeliveryOp[] {
    return this.ops.filter((o): o is DeliveryOp => o.type === 'deliver');
  }

  /** Values whose publish succeeded and that no consumer has received yet. */
  undelivered(): string[] {
    const seen = new Set(this.deliveries().map((d) => d.value));
    return this.publishes()
      .filter((p) => p.outcome === 'ok' && !seen.has(p.value))
      .map((p) => p.value);
  }
}
