/**
 * W3C trace context through the SDK, with a real in-process OpenTelemetry SDK
 * (in-memory exporter) against one real `fermata serve` process: the publish
 * runs in a producer span whose context the message carries
 * (`traceparent`/`tracestate`), and the handler runs in a consumer span, its
 * child, so one trace holds the publish, the delay and the handling.
 */

import { type FermataClient, type Message, TRACEPARENT_HEADER, TRACESTATE_HEADER } from '@fermata/sdk';
import { context, createTraceState, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, startCluster } from '../src/index.js';
import { clientOf, createdTopic, type LogLine } from './sdk-support.js';
import { eventually } from './support.js';

const DELAY_MS = 300;
const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const contextManager = new AsyncLocalStorageContextManager();
const tracer = () => trace.getTracer('fermata-test');

/** What a handler saw: the message and the span it ran in. */
interface Handled {
  message: Message;
  traceId: string | undefined;
  spanId: string | undefined;
}

const spanTime = (t: [number, number]) => t[0] * 1000 + t[1] / 1e6;

function spansNamed(name: string): ReadableSpan[] {
  return exporter.getFinishedSpans().filter((s) => s.name === name);
}

describe('trace context through the SDK', () => {
  let cluster: Cluster;
  let client: FermataClient & { log: LogLine[] };

  beforeAll(async () => {
    trace.setGlobalTracerProvider(provider);
    context.setGlobalContextManager(contextManager.enable());
    cluster = await startCluster({ nodes: 1 });
    client = clientOf(cluster);
  });
  afterEach((ctx) => {
    exporter.reset();
    if (ctx.task.result?.state === 'fail') console.error(cluster.logs(30));
  });
  afterAll(async () => {
    await client?.close();
    await cluster?.stop();
    context.disable();
    trace.disable();
  });

  /** Subscribes to `topic` and collects each delivery with the active span of its handler. */
  function collect(topic: string, onMessage?: (m: Message) => void): Handled[] {
    const handled: Handled[] = [];
    client.subscribe(topic, async (message) => {
      const sc = trace.getActiveSpan()?.spanContext();
      handled.push({ message, traceId: sc?.traceId, spanId: sc?.spanId });
      onMessage?.(message);
    });
    return handled;
  }

  it('a handler runs in a consumer span, the child of the publish span in the publisher trace', async () => {
    const topic = await createdTopic(client, 'trace-child');
    const handled = collect(topic);
    const request = tracer().startSpan('request');
    await context.with(trace.setSpan(ROOT_CONTEXT, request), () =>
      client.publish(topic, 'hi', { delayMs: DELAY_MS }),
    );
    request.end();

    await eventually(() => spansNamed(`process ${topic}`).length >= 1, 20_000, '1 process span(s)');
    const [publish] = spansNamed(`publish ${topic}`);
    const [processSpan] = spansNamed(`process ${topic}`);
    const traceId = request.spanContext().traceId;
    expect(publish?.kind).toBe(SpanKind.PRODUCER);
    expect(publish?.spanContext().traceId).toBe(traceId);
    expect(publish?.parentSpanContext?.spanId).toBe(request.spanContext().spanId);
    expect(handled[0]?.message.headers[TRACEPARENT_HEADER]).toBe(
      `00-${traceId}-${publish?.spanContext().spanId}-01`,
    );

    expect(processSpan?.kind).toBe(SpanKind.CONSUMER);
    expect(processSpan?.spanContext().traceId).toBe(traceId);
    expect(processSpan?.parentSpanContext?.spanId).toBe(publish?.spanContext().spanId);
    expect(processSpan?.parentSpanContext?.isRemote).toBe(true);
    expect(processSpan?.attributes['messaging.message.id']).toBe(handled[0]?.message.id.toString());
    // The handler's active span is the consumer span.
    expect(handled[0]?.spanId).toBe(processSpan?.spanContext().spanId);
    // The trace spans the delay: the handling starts once the message is due, not before.
    expect(spanTime(processSpan!.startTime) - spanTime(publish!.startTime)).toBeGreaterThanOrEqual(
      DELAY_MS - 50,
    );
  });

  it('tracestate travels with the message into the consumer span', async () => {
    const topic = await createdTopic(client, 'trace-state');
    const handled = collect(topic);
    const remote = trace.setSpanContext(ROOT_CONTEXT, {
      traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
      spanId: '00f067aa0ba902b7',
      traceFlags: 1,
      isRemote: true,
      traceState: createTraceState('fermata=t61rcWkgMzE,other=x'),
    });
    await context.with(remote, () => client.publish(topic, 'hi'));

    await eventually(() => spansNamed(`process ${topic}`).length >= 1, 20_000, '1 process span(s)');
    expect(handled[0]?.message.headers[TRACESTATE_HEADER]).toBe('fermata=t61rcWkgMzE,other=x');
    const [processSpan] = spansNamed(`process ${topic}`);
    expect(processSpan?.spanContext().traceId).toBe('4bf92f3577b34da6a3ce929d0e0e4736');
    expect(processSpan?.spanContext().traceState?.serialize()).toBe('fermata=t61rcWkgMzE,other=x');
  });

  it('a failed handling is a failed span, and the redelivery is another child of the same publish span', async () => {
    const topic = await createdTopic(client, 'trace-retry');
    let calls = 0;
    client.subscribe(
      topic,
      { retryBackoff: { initialMs: 100, multiplier: 1, maxMs: 100, jitter: 0 } },
      async () => {
        calls++;
        if (calls === 1) throw new Error('first attempt fails');
      },
    );
    await context.with(trace.setSpan(ROOT_CONTEXT, tracer().startSpan('request')), () =>
      client.publish(topic, 'x'),
    );

    await eventually(() => spansNamed(`process ${topic}`).length >= 2, 20_000, '2 process span(s)');
    const [publish] = spansNamed(`publish ${topic}`);
    const [first, second] = spansNamed(`process ${topic}`);
    expect(first?.status.code).toBe(SpanStatusCode.ERROR);
    expect(first?.status.message).toBe('first attempt fails');
    expect(first?.attributes['messaging.fermata.attempt']).toBe(1);
    expect(second?.status.code).not.toBe(SpanStatusCode.ERROR);
    expect(second?.attributes['messaging.fermata.attempt']).toBe(2);
    for (const span of [first, second])
      expect(span?.parentSpanContext?.spanId).toBe(publish?.spanContext().spanId);
  });

  it('each message of a batch and of the producer carries its own publish span', async () => {
    const topic = await createdTopic(client, 'trace-batch');
    const handled = collect(topic);
    const producer = client.producer();
    await context.with(trace.setSpan(ROOT_CONTEXT, tracer().startSpan('request')), async () => {
      await client.publishBatch([
        { topic, payload: 'a' },
        { topic, payload: 'b' },
      ]);
      await producer.send(topic, 'c');
    });
    await producer.close();

    await eventually(() => spansNamed(`process ${topic}`).length >= 3, 20_000, '3 process span(s)');
    const publishIds = new Set(spansNamed(`publish ${topic}`).map((s) => s.spanContext().spanId));
    expect(publishIds.size).toBe(3);
    const parents = handled.map((h) => h.message.headers[TRACEPARENT_HEADER]?.split('-')[2]);
    expect(new Set(parents)).toEqual(publishIds);
  });

  it('a traceparent the publisher sets itself wins over the active context', async () => {
    const topic = await createdTopic(client, 'trace-own');
    const handled = collect(topic);
    const own = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    await client.publish(topic, 'x', { headers: { [TRACEPARENT_HEADER]: own } });

    await eventually(() => spansNamed(`process ${topic}`).length >= 1, 20_000, '1 process span(s)');
    expect(handled[0]?.message.headers[TRACEPARENT_HEADER]).toBe(own);
    expect(spansNamed(`process ${topic}`)[0]?.parentSpanContext?.spanId).toBe('b7ad6b7169203331');
  });
});
