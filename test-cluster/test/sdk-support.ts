/** Helpers shared by the sdk-*.test.ts suites (the SDK against real `fermata serve` processes). */
import { type ClientOptions, FermataClient, type Logger, type Message } from '@fermata/sdk';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { type Cluster, startCluster } from '../src/index.js';

/** One line the SDK logged. */
export interface LogLine {
  level: 'debug' | 'warn' | 'error';
  message: string;
  context: Record<string, unknown> | undefined;
}

/** A logger that keeps what the SDK says (so a test can assert on a warning) and prints nothing. */
export function recordingLogger(): Logger & { lines: LogLine[] } {
  const lines: LogLine[] = [];
  const at =
    (level: LogLine['level']) =>
    (message: string, context?: Record<string, unknown>): void => {
      lines.push({ level, message, context });
    };
  return { lines, debug: at('debug'), warn: at('warn'), error: at('error') };
}

/** A client of `cluster` with a recording logger; generous deadline (liveness, not speed). */
export function clientOf(
  cluster: Cluster,
  extra: Partial<ClientOptions> = {},
): FermataClient & { log: LogLine[] } {
  const logger = recordingLogger();
  const client = new FermataClient({
    endpoints: [...cluster.endpoints],
    deadlineMs: 60_000,
    retry: { initialMs: 50, multiplier: 2, maxMs: 500, jitter: 0.5 },
    logger,
    ...extra,
  });
  return Object.assign(client, { log: logger.lines });
}

/** The cluster and client a suite's tests share (`threeNodeSuite`); set before the first test. */
export interface Suite {
  cluster: Cluster;
  client: FermataClient & { log: LogLine[] };
}

/**
 * Three `fermata serve` processes and a client for the tests of one describe
 * block: started before the first, stopped after the last; a failed test
 * prints the cluster's last `logLines` log lines.
 */
export function threeNodeSuite(logLines = 40): Suite {
  const suite = {} as Suite;
  beforeAll(async () => {
    suite.cluster = await startCluster({ nodes: 3 });
    suite.client = clientOf(suite.cluster);
  }, 300_000);
  afterEach((ctx) => {
    if (ctx.task.result?.state === 'fail') console.error(suite.cluster.logs(logLines));
  });
  afterAll(async () => {
    await suite.client?.close();
    await suite.cluster?.stop();
  });
  return suite;
}

/** What a handler saw of one delivery, with the local time it ran (same host as the server). */
export interface Seen {
  id: bigint;
  text: string;
  key: string;
  attempt: number;
  dueAtMs: number;
  leaseExpiresAtMs: number;
  tag: string;
  receivedAtMs: number;
}

export function seen(m: Message): Seen {
  return {
    id: m.id,
    text: m.text(),
    key: m.key,
    attempt: m.attempt,
    dueAtMs: m.dueAtMs,
    leaseExpiresAtMs: m.leaseExpiresAtMs,
    tag: Buffer.from(m.tag).toString('hex'),
    receivedAtMs: Date.now(),
  };
}

/** Awaits a promise that must reject, and returns the rejection (asserting its class). */
export async function rejection<E extends Error>(
  p: Promise<unknown> | (() => unknown),
  cls: abstract new (...args: never[]) => E,
): Promise<E> {
  let error: unknown;
  try {
    await (typeof p === 'function' ? p() : p);
  } catch (e) {
    error = e;
  }
  expect(error, 'expected a rejection').toBeDefined();
  expect(error).toBeInstanceOf(cls);
  return error as E;
}

/** A new topic, created (consuming never creates one): `topicName(label)` with the given settings. */
export async function createdTopic(
  client: FermataClient,
  label: string,
  settings?: Parameters<FermataClient['createTopic']>[1],
): Promise<string> {
  const topic = topicName(label);
  await client.createTopic(topic, settings);
  return topic;
}

let counter = 0;
/** A topic name unique to this run (names are [A-Za-z0-9._-]). */
export function topicName(label: string): string {
  counter++;
  return `sdk-${label}-${process.pid}-${counter}`;
}
