/**
 * A delay-queue workload through the SDK, recorded into a History: producers
 * publish unique values with random delays (0..maxDelayMs) one after the
 * other, consumers receive and ack (auto mode), each on its own client.
 */
import {
  AlreadyExistsError,
  FermataClient,
  InvalidArgumentError,
  LimitError,
  type Subscription,
  silentLogger,
} from '@fermata/sdk';
import { History } from './history.js';

export interface WorkloadOptions {
  readonly endpoints: readonly string[];
  readonly topic: string;
  readonly producers: number;
  readonly consumers: number;
  /** Delays are uniform in [0, maxDelayMs]. */
  readonly maxDelayMs: number;
  /** Pause between two publishes of one producer. */
  readonly publishIntervalMs: number;
  /** Lease of each delivery: an unacked delivery comes back after it. */
  readonly leaseMs: number;
  /** Budget of one publish, SDK retries included; past it the outcome is unknown. */
  readonly publishDeadlineMs: number;
  /** Seeded by the caller so a run's delays can be told apart; any source of [0,1). */
  readonly random: () => number;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Errors after which the message was certainly not stored. */
const definitelyNotStored = (err: unknown) =>
  err instanceof InvalidArgumentError || err instanceof LimitError;

export class Workload {
  readonly history = new History();
  private readonly clients: FermataClient[] = [];
  private readonly subscriptions: Subscription[] = [];
  private producing = false;
  private producerLoops: Promise<void>[] = [];
  private readonly consumerErrors: string[] = [];

  constructor(private readonly options: WorkloadOptions) {}

  private client(): FermataClient {
    const c = new FermataClient({
      endpoints: [...this.options.endpoints],
      deadlineMs: this.options.publishDeadlineMs,
      logger: silentLogger,
      channelOptions: { 'grpc.keepalive_time_ms': 2_000, 'grpc.keepalive_timeout_ms': 2_000 },
    });
    this.clients.push(c);
    return c;
  }

  async start(): Promise<void> {
    const admin = this.client();
    await admin.createTopic(this.options.topic).catch((err: unknown) => {
      if (!(err instanceof AlreadyExistsError)) throw err;
    });
    for (let c = 0; c < this.options.consumers; c++) {
      const client = this.client();
      this.subscriptions.push(
        client.subscribe(
          this.options.topic,
          {
            leaseMs: this.options.leaseMs,
            concurrency: 8,
            drainTimeoutMs: 5_000,
            onError: (e) => this.consumerErrors.push(`consumer ${c}: ${e.message}`),
          },
          async (m) => {
            this.history.deliver({
              value: m.text(),
              id: m.id.toString(),
              dueAtMs: m.dueAtMs,
              attempt: m.attempt,
              consumer: c,
              receivedAtMs: Date.now(),
            });
          },
        ),
      );
    }
    this.producing = true;
    this.producerLoops = Array.from({ length: this.options.producers }, (_, p) => this.produce(p));
  }

  private async produce(p: number): Promise<void> {
    const client = this.client();
    for (let seq = 0; this.producing; seq++) {
      const value = `${this.options.topic}/p${p}/${seq}`;
      const delayMs = Math.floor(this.options.random() * (this.options.maxDelayMs + 1));
      const op = this.history.invokePublish(value, delayMs, Date.now());
      try {
        const r = await client.publishDetailed(this.options.topic, value, { delayMs });
        op.outcome = 'ok';
        op.id = r.id.toString();
        op.dueAtMs = r.dueAtMs;
      } catch (err) {
        op.outcome = definitelyNotStored(err) ? 'fail' : 'info';
        op.error = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
      }
      op.completedAtMs = Date.now();
      await sleep(this.options.publishIntervalMs);
    }
  }

  /** Stops publishing; resolves when every producer's last publish has completed. */
  async stopProducers(): Promise<void> {
    this.producing = false;
    await Promise.all(this.producerLoops);
  }

  /** Waits until every acknowledged publish has been delivered, or `timeoutMs` passed. */
  async drain(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.history.undelivered().length > 0 && Date.now() < deadline) await sleep(200);
  }

  /** Successful publishes so far (for "the cluster serves again" waits). */
  acknowledgedSince(sinceMs: number): number {
    return this.history.publishes().filter((p) => p.outcome === 'ok' && p.invokedAtMs >= sinceMs).length;
  }

  get errors(): readonly string[] {
    return this.consumerErrors;
  }

  async close(): Promise<void> {
    this.producing = false;
    await Promise.allSettled(this.producerLoops);
    await Promise.allSettled(this.subscriptions.map((s) => s.close()));
    await Promise.allSettled(this.clients.map((c) => c.close()));
  }
}
