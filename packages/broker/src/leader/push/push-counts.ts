/**
 * What the pusher did for each push group since this node became leader:
 * the same events as its Prometheus metrics, kept per group so that
 * GetTopicStats can answer them (the console shows them).
 */
import type { PushLabels, PushMetrics } from './push-metrics.js';

export interface PushFigures {
  /** Requests by how they ended: `2xx`..`5xx`, `timeout`, `error`. */
  readonly requests: Readonly<Record<string, number>>;
  readonly retries: number;
  readonly deadLetters: number;
  /** Why it sends nothing now: a file it needs cannot be read ('' = it can). */
  readonly blocked: string;
}

interface Figures {
  requests: Record<string, number>;
  retries: number;
  deadLetters: number;
  blocked: string;
}

const keyOf = (l: PushLabels): string => `${l.topic}\u0000${l.group}`;

export class PushCounts {
  private readonly groups = new Map<string, Figures>();

  /** Forgets every count (a new term as leader starts from zero). */
  clear(): void {
    this.groups.clear();
  }

  /** The group's figures, or undefined when nothing was sent for it since leading. */
  of(topic: string, group: string): PushFigures | undefined {
    return this.groups.get(keyOf({ topic, group }));
  }

  /** `metrics`, counting here too. */
  tee(metrics: PushMetrics): PushMetrics {
    return {
      requests: {
        inc: (l) => {
          metrics.requests.inc(l);
          const f = this.figures(l);
          f.requests[l.class] = (f.requests[l.class] ?? 0) + 1;
        },
      },
      latencyMs: metrics.latencyMs,
      retries: {
        inc: (l) => {
          metrics.retries.inc(l);
          this.figures(l).retries++;
        },
      },
      deadLetters: {
        inc: (l) => {
          metrics.deadLetters.inc(l);
          this.figures(l).deadLetters++;
        },
      },
      blocked: {
        set: (l, why) => {
          metrics.blocked.set(l, why);
          this.figures(l).blocked = why;
        },
      },
    };
  }

  private figures(l: PushLabels): Figures {
    const key = keyOf(l);
    let f = this.groups.get(key);
    if (!f) {
      f = { requests: {}, retries: 0, deadLetters: 0, blocked: '' };
      this.groups.set(key, f);
    }
    return f;
  }
}
