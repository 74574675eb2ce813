/** Small helpers shared by the server-*.test.ts suites. */
import { type pb, toBigInt } from '@fermata/protocol';
import { expect } from 'vitest';
import {
  type CallError,
  type Cluster,
  i64,
  isCallError,
  NodeClients,
  type NodeHandle,
  retryUnavailable,
  sleep,
} from '../src/index.js';

export const SETTLE_OK = 1;
export const SETTLE_LEASE_EXPIRED = 2;

export const text = (b: Uint8Array): string => Buffer.from(b).toString();
type WireLong = Parameters<typeof toBigInt>[0] | null | undefined;
export const idOf = (d: { id?: WireLong }): string => toBigInt(d.id ?? 0).toString();
export const ms = (v: WireLong): number => Number(toBigInt(v ?? 0));

let topicCounter = 0;
/** A topic name unique to this test run. */
export function uniqueTopic(label: string): string {
  topicCounter++;
  return `${label}-${process.pid}-${topicCounter}`;
}

/** Clients of the current leader (re-resolved after failover). */
export async function leaderClients(cluster: Cluster): Promise<NodeClients> {
  return new NodeClients((await cluster.leader()).clientAddress);
}

export function publish(
  c: NodeClients,
  messages: pb.PublishMessage.$Properties[],
): Promise<pb.PublishResponse> {
  return retryUnavailable(() => c.publish({ messages }));
}

export function msg(
  topic: string,
  payload: string,
  extra: Partial<{ delayMs: number; ttlMs: number; key: string; headers: Record<string, string> }> = {},
): pb.PublishMessage.$Properties {
  return {
    topic,
    payload: Buffer.from(payload),
    ...(extra.delayMs !== undefined ? { delayMs: i64(extra.delayMs) } : {}),
    ...(extra.ttlMs !== undefined ? { ttlMs: i64(extra.ttlMs) } : {}),
    ...(extra.key !== undefined ? { key: extra.key } : {}),
    ...(extra.headers !== undefined ? { headers: extra.headers } : {}),
  };
}

export interface GroupCounts {
  pending: number;
  inFlight: number;
  deadLettered: number;
}

/** GetTopicStats as plain numbers per group; undefined when the topic does not exist. */
export async function counts(
  c: NodeClients,
  topic: string,
): Promise<Record<string, GroupCounts> | undefined> {
  try {
    const s = await retryUnavailable(() => c.topicStats(topic));
    const out: Record<string, GroupCounts> = {};
    for (const g of s.groups) {
      out[g.group ?? ''] = {
        pending: Number(g.pending),
        inFlight: Number(g.inFlight),
        deadLettered: Number(g.deadLettered),
      };
    }
    return out;
  } catch (err) {
    if (isCallError(err) && err.code === 5) return undefined;
    throw err;
  }
}

/** Polls `fn` until it returns true (liveness only: never a speed requirement). */
export async function eventually(
  fn: () => Promise<boolean> | boolean,
  timeoutMs = 20_000,
  what = 'condition',
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await fn()) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(50);
  }
}

/** Awaits a call that must fail, and returns its CallError. */
export async function failure(p: Promise<unknown>): Promise<CallError> {
  try {
    await p;
  } catch (err) {
    if (isCallError(err)) return err;
    throw err;
  }
  throw new Error('expected the call to fail, it succeeded');
}

/** Asserts a failed call's code and the field / limit it names in metadata and message. */
export async function expectStatus(
  p: Promise<unknown>,
  code: number,
  named: { field?: string; limit?: string } = {},
): Promise<CallError> {
  const err = await failure(p);
  expect({ code: err.code, details: err.details }).toMatchObject({ code });
  if (named.field !== undefined) {
    expect(err.meta['fermata-field']).toBe(named.field);
    expect(err.details).toContain(named.field);
  }
  if (named.limit !== undefined) {
    expect(err.meta['fermata-limit']).toBe(named.limit);
    expect(err.details).toContain(named.limit);
  }
  return err;
}

/**
 * Runs `fn` against the current leader, following leader changes: a call that
 * fails with FAILED_PRECONDITION (not leader) or UNAVAILABLE is retried on the
 * leader found anew, until `timeoutMs`. Use it only for idempotent calls (or
 * publishes with keys).
 */
export async function onLeader<T>(
  cluster: Cluster,
  fn: (c: NodeClients) => Promise<T>,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const c = await leaderClients(cluster);
    try {
      return await fn(c);
    } catch (err) {
      const retry = isCallError(err) && (err.code === 9 || err.code === 14);
      if (!retry || Date.now() > deadline) throw err;
      await sleep(100);
    } finally {
      c.close();
    }
  }
}

/** The value of an unlabelled series on a node's /metrics (a node with http.auth needs the cluster's httpToken). */
export async function metric(node: NodeHandle, name: string): Promise<number> {
  const res = await node.httpGet('/metrics');
  const line = res.body.split('\n').find((l) => l.startsWith(`${name} `));
  if (line === undefined) throw new Error(`${node.id} reports no ${name}`);
  return Number(line.slice(name.length + 1));
}
