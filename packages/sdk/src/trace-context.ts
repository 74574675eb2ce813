/**
 * W3C trace context (`traceparent`, `tracestate`) through `@opentelemetry/api`
 * when the application has it (an optional peer dependency, looked for once,
 * when a subscription or producer is made or at the first publish, so the SDK
 * runs without it and costs nothing then).
 *
 * A publish runs in a `publish <topic>` span (kind producer) whose context
 * goes into each message's headers; a handler runs in a `process <topic>`
 * span (kind consumer), the child of that publish span, so one trace spans the
 * publish, the delay and the handling. The headers are written and read in
 * the W3C format by this module, whatever propagator the application set: a
 * message carries the same two headers for every consumer.
 */
import { createRequire } from 'node:module';
import { ignore } from './options.js';

/** The header names of the W3C Trace Context recommendation. */
export const TRACEPARENT_HEADER = 'traceparent';
export const TRACESTATE_HEADER = 'tracestate';
/** Longest `tracestate` carried (the recommendation's 32 members of up to 256 bytes, roughly). */
export const MAX_TRACESTATE_CHARS = 8192;

// The part of @opentelemetry/api used here, structurally, so the SDK's
// declarations do not name a package the application may not have.
interface TraceState {
  serialize(): string;
}
interface SpanContext {
  traceId: string;
  spanId: string;
  traceFlags: number;
  isRemote?: boolean;
  traceState?: TraceState;
}
type Attributes = Record<string, string | number>;
interface Span {
  spanContext(): SpanContext;
  /** False without a tracer provider (the API's no-op span) or when the sampler dropped it. */
  isRecording(): boolean;
  setStatus(status: { code: number; message?: string }): unknown;
  recordException(exception: Error | string): unknown;
  end(): void;
}
type Context = object;
interface Tracer {
  startSpan(name: string, options: { kind: number; attributes: Attributes }, context: Context): Span;
}
interface OtelApi {
  context: {
    active(): Context;
    with<R>(context: Context, fn: () => R): R;
  };
  trace: {
    getTracer(name: string): Tracer;
    setSpan(context: Context, span: Span): Context;
    setSpanContext(context: Context, spanContext: SpanContext): Context;
  };
  ROOT_CONTEXT: Context;
  createTraceState(text?: string): TraceState;
  SpanKind: { PRODUCER: number; CONSUMER: number };
  SpanStatusCode: { ERROR: number };
}

const OTEL_API = '@opentelemetry/api';
let loaded: { api: OtelApi | undefined; tracer?: Tracer } | undefined;

/** `@opentelemetry/api` as the application resolves it, or undefined when it has none. */
function otel(): OtelApi | undefined {
  if (loaded === undefined) {
    let api: OtelApi | undefined;
    try {
      api = createRequire(import.meta.url)(OTEL_API) as OtelApi;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') throw e;
    }
    loaded = { api };
  }
  return loaded.api;
}

/**
 * The SDK's tracer. The API hands out a proxy that finds a provider the
 * application registers later, so one is kept for good.
 */
function tracerOf(api: OtelApi): Tracer {
  if (loaded!.tracer === undefined) loaded!.tracer = api.trace.getTracer('@fermata/sdk');
  return loaded!.tracer;
}

/** The trace headers of a span context, or undefined when it is not a valid one. */
function headersOf(sc: SpanContext | undefined): Record<string, string> | undefined {
  const traceparent = sc === undefined ? undefined : formatTraceparent(sc);
  if (traceparent === undefined) return undefined;
  const headers: Record<string, string> = { [TRACEPARENT_HEADER]: traceparent };
  const state = sc?.traceState?.serialize();
  if (state) headers[TRACESTATE_HEADER] = state;
  return headers;
}

/** Whether `@opentelemetry/api` is there (loads it on the first ask). */
export function traceContextAvailable(): boolean {
  return otel() !== undefined;
}

/** @internal For tests: whether the API was looked for yet. */
export function traceContextLookedUpForTests(): boolean {
  return loaded !== undefined;
}

/** @internal For tests: forget what was loaded (or pretend nothing is there with `absent`). */
export function resetTraceContextForTests(absent = false): void {
  loaded = absent ? { api: undefined } : undefined;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const ZERO_TRACE_ID = '0'.repeat(32);
const ZERO_SPAN_ID = '0'.repeat(16);

/** The `traceparent` value of a span context, or undefined when the context is not valid. */
export function formatTraceparent(sc: SpanContext): string | undefined {
  if (!/^[0-9a-f]{32}$/.test(sc.traceId) || sc.traceId === ZERO_TRACE_ID) return undefined;
  if (!/^[0-9a-f]{16}$/.test(sc.spanId) || sc.spanId === ZERO_SPAN_ID) return undefined;
  return `00-${sc.traceId}-${sc.spanId}-${(sc.traceFlags & 0xff).toString(16).padStart(2, '0')}`;
}

/**
 * The span context a `traceparent` value names, or undefined when it is not
 * one (the recommendation: version ff is invalid, version 00 has exactly four
 * fields, ids are not all zeros; a later version may add fields).
 */
export function parseTraceparent(value: string): SpanContext | undefined {
  const m = TRACEPARENT.exec(value.trim());
  if (m === null) return undefined;
  const [, version, traceId, spanId, flags, rest] = m as unknown as [
    string,
    string,
    string,
    string,
    string,
    string?,
  ];
  if (version === 'ff' || (version === '00' && rest !== undefined)) return undefined;
  if (traceId === ZERO_TRACE_ID || spanId === ZERO_SPAN_ID) return undefined;
  return { traceId, spanId, traceFlags: Number.parseInt(flags, 16), isRemote: true };
}

/** The publish spans of one request: the headers each message carries, and their end. */
export interface PublishTrace {
  /** Trace headers for message `i` (to merge under the message's own headers). */
  headers(i: number): Record<string, string> | undefined;
  /** Ends every span, as failed when `error` is given. */
  end(error?: unknown): void;
}

function failSpan(api: OtelApi, span: Span, error: unknown): void {
  span.recordException(error instanceof Error ? error : String(error));
  span.setStatus({
    code: api.SpanStatusCode.ERROR,
    message: error instanceof Error ? error.message : String(error),
  });
}

function publishSpan(api: OtelApi, topic: string, count: number, parent: Context): Span {
  return tracerOf(api).startSpan(
    `publish ${topic}`,
    {
      kind: api.SpanKind.PRODUCER,
      attributes: {
        'messaging.system': 'fermata',
        'messaging.operation.type': 'send',
        'messaging.destination.name': topic,
        ...(count > 1 ? { 'messaging.batch.message_count': count } : {}),
      },
    },
    parent,
  );
}

/**
 * Starts a `publish <topic>` span per message in the caller's context, or
 * returns undefined without `@opentelemetry/api`. When the first span does not
 * record (no tracer provider, or the sampler dropped it) no more are made and
 * there is nothing to end: every message carries that span's context (the
 * caller's own, or an unsampled one) when it is a valid one, so the trace
 * still reaches the consumer, and nothing at all is done when it is not.
 */
export function startPublishTrace(topics: readonly string[]): PublishTrace | undefined {
  const api = otel();
  if (api === undefined || topics.length === 0) return undefined;
  const parent = api.context.active();
  const first = publishSpan(api, topics[0]!, topics.length, parent);
  if (!first.isRecording()) {
    const headers = headersOf(first.spanContext());
    return headers === undefined ? undefined : { headers: () => headers, end: ignore };
  }
  const spans = topics.map((topic, i) => (i === 0 ? first : publishSpan(api, topic, topics.length, parent)));
  return {
    headers: (i) => headersOf(spans[i]?.spanContext()),
    end(error) {
      for (const span of spans) {
        if (error !== undefined) failSpan(api, span, error);
        span.end();
      }
    },
  };
}

/** What {@link runInMessageContext} needs of a delivery. */
export interface TracedDelivery {
  readonly id: bigint;
  readonly topic: string;
  readonly group: string;
  readonly attempt: number;
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * Runs `handle` in a `process <topic>` span, the child of the context the
 * message's `traceparent` names (a new trace when it names none); without
 * `@opentelemetry/api`, just runs it. The span fails when `handle` throws or
 * rejects, and ends when it settles.
 */
export async function runInMessageContext(message: TracedDelivery, handle: () => unknown): Promise<unknown> {
  const api = otel();
  if (api === undefined) return handle();
  let parent = api.ROOT_CONTEXT;
  const traceparent = message.headers[TRACEPARENT_HEADER];
  const remote = traceparent === undefined ? undefined : parseTraceparent(traceparent);
  if (remote !== undefined) {
    const state = message.headers[TRACESTATE_HEADER];
    if (state !== undefined && state.length <= MAX_TRACESTATE_CHARS)
      remote.traceState = api.createTraceState(state);
    parent = api.trace.setSpanContext(parent, remote);
  }
  const span = tracerOf(api).startSpan(
    `process ${message.topic}`,
    {
      kind: api.SpanKind.CONSUMER,
      attributes: {
        'messaging.system': 'fermata',
        'messaging.operation.type': 'process',
        'messaging.destination.name': message.topic,
        'messaging.consumer.group.name': message.group,
        'messaging.message.id': message.id.toString(),
        'messaging.fermata.attempt': message.attempt,
      },
    },
    parent,
  );
  // Nothing records and there is no trace to continue: run it as it is.
  if (remote === undefined && !span.isRecording()) return handle();
  try {
    return await api.context.with(api.trace.setSpan(parent, span), handle);
  } catch (e) {
    failSpan(api, span, e);
    throw e;
  } finally {
    span.end();
  }
}
