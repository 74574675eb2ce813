/**
 * The leader's pusher: one PushEndpoint (a dispatcher consumer that POSTs)
 * per push group, kept in step with the replicated group settings. It reads
 * the push groups when the dispatcher is active (after an election) and
 * again every `reconcileMs` or when told a group changed; an endpoint whose
 * settings changed is closed and made again. Nothing here runs on the Raft
 * loop: requests go out from the dispatcher's sink and settle through the
 * proposer like any consumer's.
 */
import { Agent } from 'undici';
import type { PushSettings } from '../../state/model/group-settings.js';
import { encodePush } from '../../state/model/group-settings.js';
import { PushCounts, type PushFigures } from './push-counts.js';
import { caOf, PushEndpoint, type PushEndpointParts } from './push-endpoint.js';
import { pushHeaders, RESPONSE_SNIPPET_BYTES, sendPush, signOrNot } from './push-request.js';

export interface PushGroup {
  readonly topic: string;
  readonly group: string;
  readonly queue: bigint;
  readonly push: PushSettings;
}

export interface PusherOptions extends PushEndpointParts {
  /** The push groups of the state machine now (not those of topics or groups being deleted). */
  listPushGroups(): Promise<PushGroup[]>;
  /** This node leads and its dispatcher is active. */
  isLeading(): boolean;
  /** How often the push groups are read again (ms). */
  readonly reconcileMs: number;
}

export interface TestPushAnswer {
  readonly status: number;
  readonly body: string;
  readonly latencyMs: number;
  readonly error: string;
  readonly signature: string;
}

const keyOf = (topic: string, group: string): string => `${topic}\u0000${group}`;

/** The settings as one comparable string: an endpoint is made again when it changes. */
const fingerprint = (p: PushSettings): string => JSON.stringify(encodePush(p));

export class Pusher {
  private readonly endpoints = new Map<string, { endpoint: PushEndpoint; fingerprint: string }>();
  private stopTimer: (() => void) | undefined;
  private running = false;
  private again = false;
  private readonly counts = new PushCounts();
  /** What endpoints are made with: the options, their metrics counted per group too. */
  private readonly parts: PushEndpointParts;

  constructor(private readonly options: PusherOptions) {
    this.parts = { ...options, metrics: this.counts.tee(options.metrics) };
  }

  /** Starts keeping the endpoints in step (becoming leader): the groups' figures start from zero. */
  start(): void {
    this.stopTimer?.();
    this.counts.clear();
    this.stopTimer = this.options.clock.every(this.options.reconcileMs, () => this.wake());
    this.wake();
  }

  /** Closes every endpoint (leadership lost, shutdown): their leases run out for the next leader. */
  stop(): void {
    this.stopTimer?.();
    this.stopTimer = undefined;
    for (const { endpoint } of this.endpoints.values()) endpoint.close();
    this.endpoints.clear();
  }

  /** Push groups served now, and their requests in flight (tests, metrics). */
  get served(): ReadonlyMap<string, PushEndpoint> {
    return new Map([...this.endpoints].map(([k, v]) => [k, v.endpoint]));
  }

  /** What was sent for the group since this node became leader (undefined: nothing). */
  figures(topic: string, group: string): PushFigures | undefined {
    return this.counts.of(topic, group);
  }

  /** Reads the push groups again soon (a group was created, changed or deleted). */
  wake(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = true;
    void this.reconcile()
      .catch((err: unknown) =>
        this.options.log.warn({ err: (err as Error).message }, 'reading the push groups failed'),
      )
      .finally(() => {
        this.running = false;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  private async reconcile(): Promise<void> {
    const o = this.options;
    if (!o.isLeading() || this.stopTimer === undefined) return;
    const groups = await o.listPushGroups();
    if (!o.isLeading() || this.stopTimer === undefined) return;
    const seen = new Set<string>();
    for (const g of groups) {
      const key = keyOf(g.topic, g.group);
      seen.add(key);
      const fp = fingerprint(g.push);
      const kept = this.endpoints.get(key);
      if (kept && kept.fingerprint === fp && !kept.endpoint.isClosed) continue;
      kept?.endpoint.close();
      this.endpoints.delete(key);
      // Made whatever its files say: one that cannot read them starts blocked, and reads them again itself.
      const endpoint = new PushEndpoint(g.topic, g.group, g.queue, g.push, this.parts);
      this.endpoints.set(key, { endpoint, fingerprint: fp });
      endpoint.start().catch((err: unknown) => {
        o.log.warn(
          { topic: g.topic, group: g.group, err: (err as Error).message },
          'push group did not start',
        );
      });
    }
    for (const [key, { endpoint }] of this.endpoints) {
      if (seen.has(key)) continue;
      endpoint.close();
      this.endpoints.delete(key);
    }
  }

  /**
   * Sends the group's endpoint a signed test request (a JSON body naming the
   * topic and group; no message is leased) and answers what came back. A
   * secret or CA file that cannot be read (or lies outside push.filesDir)
   * is the answer's error: nothing is sent.
   */
  async test(g: PushGroup): Promise<TestPushAnswer> {
    const o = this.options;
    let ca: string;
    let secret: Uint8Array | undefined;
    try {
      ca = await caOf(o, g.push);
      secret =
        g.push.secretFile !== '' ? await o.secrets.read(g.push.secretFile, o.clock.monotonicMs()) : undefined;
    } catch (err) {
      return { status: 0, body: '', latencyMs: 0, error: (err as Error).message, signature: '' };
    }
    const agent = new Agent({
      connections: 1,
      connect: {
        timeout: g.push.timeoutMs,
        rejectUnauthorized: true,
        ...(ca !== '' ? { ca } : {}),
        lookup: o.policy.lookup(),
      },
    });
    try {
      const body = Buffer.from(JSON.stringify({ test: true, topic: g.topic, group: g.group }));
      const signed = signOrNot(secret, o.wallMs(), body);
      const headers = pushHeaders(
        {
          id: 0n,
          topic: g.topic,
          group: g.group,
          attempt: 0,
          dueAtMs: o.clock.nowMs(),
          key: '',
          headers: { 'content-type': 'application/json' },
          payload: body,
        },
        g.push,
        signed,
      );
      headers['fermata-test'] = '1';
      const started = o.clock.nowMs();
      const r = await sendPush(agent, o.policy, g.push, headers, body, o.wallMs);
      const latencyMs = o.clock.nowMs() - started;
      return r.kind === 'answered'
        ? {
            status: r.status,
            body: r.snippet.slice(0, RESPONSE_SNIPPET_BYTES),
            latencyMs,
            error: '',
            signature: signed ?? '',
          }
        : { status: 0, body: '', latencyMs, error: r.error, signature: signed ?? '' };
    } finally {
      await agent.close().catch(() => {});
    }
  }
}
