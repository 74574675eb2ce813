import { context, ROOT_CONTEXT, trace } from '@opentelemetry/api';
import { afterEach, describe, expect, it } from 'vitest';
import { FermataClient, TRACEPARENT_HEADER } from '../src/index.js';
import {
  formatTraceparent,
  parseTraceparent,
  resetTraceContextForTests,
  traceContextLookedUpForTests,
} from '../src/trace-context.js';
import { FakeCluster } from './fake-cluster.js';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const SPAN_ID = '00f067aa0ba902b7';

describe('traceparent (W3C Trace Context)', () => {
  it('formats a span context as version 00 with two-digit flags', () => {
    expect(formatTraceparent({ traceId: TRACE_ID, spanId: SPAN_ID, traceFlags: 1 })).toBe(
      `00-${TRACE_ID}-${SPAN_ID}-01`,
    );
    expect(formatTraceparent({ traceId: TRACE_ID, spanId: SPAN_ID, traceFlags: 0 })).toBe(
      `00-${TRACE_ID}-${SPAN_ID}-00`,
    );
  });

  it('formats nothing for an invalid span context (all-zero or malformed ids)', () => {
    expect(formatTraceparent({ traceId: '0'.repeat(32), spanId: SPAN_ID, traceFlags: 1 })).toBeUndefined();
    expect(formatTraceparent({ traceId: TRACE_ID, spanId: '0'.repeat(16), traceFlags: 1 })).toBeUndefined();
    expect(formatTraceparent({ traceId: 'xyz', spanId: SPAN_ID, traceFlags: 1 })).toBeUndefined();
  });

  it('parses a valid value into a remote span context', () => {
    expect(parseTraceparent(`00-${TRACE_ID}-${SPAN_ID}-01`)).toEqual({
      traceId: TRACE_ID,
      spanId: SPAN_ID,
      traceFlags: 1,
      isRemote: true,
    });
  });

  it('accepts fields a later version adds, and rejects them in version 00', () => {
    expect(parseTraceparent(`01-${TRACE_ID}-${SPAN_ID}-01-later`)?.spanId).toBe(SPAN_ID);
    expect(parseTraceparent(`00-${TRACE_ID}-${SPAN_ID}-01-later`)).toBeUndefined();
  });

  it('rejects version ff, all-zero ids, upper case and wrong lengths', () => {
    for (const bad of [
      `ff-${TRACE_ID}-${SPAN_ID}-01`,
      `00-${'0'.repeat(32)}-${SPAN_ID}-01`,
      `00-${TRACE_ID}-${'0'.repeat(16)}-01`,
      `00-${TRACE_ID.toUpperCase()}-${SPAN_ID}-01`,
      `00-${TRACE_ID.slice(1)}-${SPAN_ID}-01`,
      'garbage',
    ]) {
      expect(parseTraceparent(bad), bad).toBeUndefined();
    }
  });
});

describe('publishing with and without @opentelemetry/api', () => {
  let cluster: FakeCluster | undefined;
  let client: FermataClient | undefined;
  afterEach(async () => {
    await client?.close();
    await cluster?.stop();
    resetTraceContextForTests();
  });

  it('looks for the API when a subscription or producer is made, not at its first message', async () => {
    cluster = await FakeCluster.start(1, 0);
    client = new FermataClient({ endpoints: cluster.endpoints, deadlineMs: 5_000 });
    resetTraceContextForTests();
    const sub = client.subscribe('t', {}, () => {});
    expect(traceContextLookedUpForTests()).toBe(true);
    await sub.close();
    resetTraceContextForTests();
    client.producer();
    expect(traceContextLookedUpForTests()).toBe(true);
  });

  it('publishes without trace headers and runs handlers as they are', async () => {
    resetTraceContextForTests(true);
    cluster = await FakeCluster.start(1, 0);
    client = new FermataClient({ endpoints: cluster.endpoints, deadlineMs: 5_000 });
    // An active span context is there, but the SDK has no API to read it through.
    const active = trace.setSpanContext(ROOT_CONTEXT, { traceId: TRACE_ID, spanId: SPAN_ID, traceFlags: 1 });
    await context.with(active, () => client!.publish('t', 'x', { headers: { a: 'b' } }));
    expect(cluster.stored[0]?.headers).toEqual({ a: 'b' });
  });

  it('with the API but no tracer provider and no active trace, a publish carries no trace headers', async () => {
    resetTraceContextForTests();
    cluster = await FakeCluster.start(1, 0);
    client = new FermataClient({ endpoints: cluster.endpoints, deadlineMs: 5_000 });
    await client.publish('t', 'x');
    await client.producer().send('t', 'y');
    expect(cluster.stored.map((m) => m.headers)).toEqual([{}, {}]);
  });

  it('with the API, the same publish carries the active span context', async () => {
    resetTraceContextForTests();
    cluster = await FakeCluster.start(1, 0);
    client = new FermataClient({ endpoints: cluster.endpoints, deadlineMs: 5_000 });
    // No tracer provider: the publish span records nothing and carries its parent's context.
    const active = trace.setSpanContext(ROOT_CONTEXT, { traceId: TRACE_ID, spanId: SPAN_ID, traceFlags: 1 });
    const { AsyncLocalStorageContextManager } = await import('@opentelemetry/context-async-hooks');
    const manager = new AsyncLocalStorageContextManager().enable();
    context.setGlobalContextManager(manager);
    try {
      await context.with(active, () => client!.publish('t', 'x'));
    } finally {
      context.disable();
    }
    expect(cluster.stored[0]?.headers[TRACEPARENT_HEADER]).toBe(`00-${TRACE_ID}-${SPAN_ID}-01`);
  });
});
