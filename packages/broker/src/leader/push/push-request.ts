/**
 * One push: the request a delivery becomes (headers, body, signature), sent
 * with undici through the group's agent, and what its answer means: 2xx
 * acks; 429 or 503 with Retry-After retries after that delay; anything else
 * (another status, a timeout, a connection error) retries after the
 * group's backoff. Redirects are not followed: undici's request follows none.
 */
import { isIP } from 'node:net';
import type { Agent } from 'undici';
import type { PushSettings } from '../../state/model/group-settings.js';
import { type EndpointPolicy, hostOf } from './endpoint-policy.js';
import { SIGNATURE_HEADER, signature } from './signature.js';

/** Most bytes of an answer's body kept (for a dead letter's history and `fermata push test`). */
export const RESPONSE_SNIPPET_BYTES = 256;
/** Most bytes of an answer's body read before the rest is dropped (with its connection). */
const MAX_DRAIN_BYTES = 64 * 1024;

/** What a push sends besides the group's settings: the delivery's own facts. */
export interface PushMessage {
  readonly id: bigint;
  readonly topic: string;
  readonly group: string;
  readonly attempt: number;
  readonly dueAtMs: number;
  readonly key: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly payload: Uint8Array;
}

export type PushResult =
  | {
      readonly kind: 'answered';
      readonly status: number;
      readonly retryAfterMs?: number;
      readonly snippet: string;
    }
  | { readonly kind: 'failed'; readonly error: string; readonly timeout: boolean };

const TOKEN_RE = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const PRINTABLE_RE = /^[\t\x20-\x7e]*$/;

/** A message header's value as a request header: printable ASCII as it is, anything else percent-encoded. */
function headerValue(v: string): string {
  return PRINTABLE_RE.test(v) ? v : encodeURIComponent(v);
}

/**
 * The request's headers. The message's own headers go as
 * `Fermata-Header-<name>` (so a publisher cannot set the group's
 * Authorization, say), its `content-type` as Content-Type.
 */
export function pushHeaders(
  m: PushMessage,
  push: PushSettings,
  signed: string | undefined,
): Record<string, string> {
  const h: Record<string, string> = {};
  for (const [k, v] of Object.entries(push.headers)) h[k.toLowerCase()] = v;
  for (const [k, v] of Object.entries(m.headers)) {
    if (k.toLowerCase() === 'content-type' || !TOKEN_RE.test(k)) continue;
    h[`fermata-header-${k.toLowerCase()}`] = headerValue(v);
  }
  h['content-type'] = headerValue(m.headers['content-type'] ?? 'application/octet-stream');
  h['user-agent'] = 'fermata-push/1';
  h['fermata-message-id'] = m.id.toString();
  h['fermata-topic'] = m.topic;
  h['fermata-group'] = m.group;
  h['fermata-attempt'] = String(m.attempt);
  h['fermata-due-at'] = String(m.dueAtMs);
  if (m.key !== '') h['fermata-key'] = headerValue(m.key);
  // The same on every attempt of this message to this group: a receiver deduplicates on it.
  h['idempotency-key'] = `${m.topic}/${m.group}/${m.id}`;
  if (signed !== undefined) h[SIGNATURE_HEADER] = signed;
  return h;
}

/** The longest Retry-After honoured beyond the group's longest backoff. */
export const MAX_RETRY_AFTER_MS = 3_600_000;

/** An HTTP date (RFC 9110: IMF-fixdate, or the obsolete RFC 850 and asctime forms), roughly: a weekday and a time. */
const HTTP_DATE = /^[A-Z][a-z]{2,8},? [\w -]+ \d{2}:\d{2}:\d{2}( GMT|\s+\d{4})$/;

/**
 * `Retry-After` in ms: delay-seconds or an HTTP date; undefined when absent
 * or not one of those (then the group's backoff applies).
 */
export function retryAfterMs(value: string | string[] | undefined, nowMs: number): number | undefined {
  const v = (Array.isArray(value) ? value[0] : value)?.trim();
  if (v === undefined || v === '') return undefined;
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  if (!HTTP_DATE.test(v)) return undefined;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

/** Reads at most RESPONSE_SNIPPET_BYTES of the body as text; drops the body past MAX_DRAIN_BYTES. */
async function snippetOf(body: AsyncIterable<Uint8Array> & { destroy(): void }): Promise<string> {
  const kept: Buffer[] = [];
  let keptBytes = 0;
  let read = 0;
  for await (const chunk of body) {
    read += chunk.length;
    if (keptBytes < RESPONSE_SNIPPET_BYTES) {
      const part = Buffer.from(chunk).subarray(0, RESPONSE_SNIPPET_BYTES - keptBytes);
      kept.push(part);
      keptBytes += part.length;
    }
    if (read > MAX_DRAIN_BYTES) {
      body.destroy();
      break;
    }
  }
  // A character cut at the end decodes as U+FFFD: the snippet stays within its bytes' worth.
  return Buffer.concat(kept).toString('utf8');
}

/**
 * Sends one request and reads its answer within `timeoutMs` (default: the
 * group's). Never throws: a refused address, a timeout or a connection
 * error is a `failed` result naming it.
 */
export async function sendPush(
  agent: Agent,
  policy: EndpointPolicy,
  push: PushSettings,
  headers: Record<string, string>,
  body: Uint8Array,
  /** The system clock (ms): an HTTP-date Retry-After is read against it. */
  wallMs: () => number,
  { signal: abort, timeoutMs = push.timeoutMs }: { signal?: AbortSignal; timeoutMs?: number } = {},
): Promise<PushResult> {
  const url = new URL(push.endpoint);
  const host = hostOf(url);
  // A literal address is never looked up, so the policy's lookup would not see it.
  if (isIP(host) !== 0) {
    const why = policy.refusal(host, host);
    if (why) return { kind: 'failed', error: `push refused: ${why}`, timeout: false };
  }
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = abort ? AbortSignal.any([timeout, abort]) : timeout;
  try {
    const res = await agent.request({
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method: 'POST',
      headers,
      body: Buffer.from(body.buffer, body.byteOffset, body.byteLength),
      signal,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    const snippet = await snippetOf(res.body);
    const after = retryAfterMs(res.headers['retry-after'], wallMs());
    return {
      kind: 'answered',
      status: res.statusCode,
      ...(after !== undefined ? { retryAfterMs: after } : {}),
      snippet,
    };
  } catch (err) {
    const timedOut = timeout.aborted;
    const e = err as Error & { code?: string; cause?: Error & { code?: string } };
    const cause = e.cause?.code ?? e.code;
    const error = timedOut
      ? `timed out after ${timeoutMs} ms`
      : `${cause ? `${cause}: ` : ''}${e.cause?.message ?? e.message}`;
    return { kind: 'failed', error, timeout: timedOut };
  }
}

/** What a delivery's push comes to: ack, or a retry after `delayMs` with `error` for its history. */
export type PushVerdict =
  | { readonly ack: true; readonly statusClass: string }
  | { readonly ack: false; readonly delayMs: number; readonly error: string; readonly statusClass: string };

/** The group's backoff before attempt `attempt + 1`: initial x multiplier^(attempt-1), at most max. */
export function backoffMs(push: PushSettings, attempt: number): number {
  const raw = push.backoffInitialMs * push.backoffMultiplier ** Math.max(0, attempt - 1);
  return Math.round(Math.min(push.backoffMaxMs, raw));
}

export function verdictOf(result: PushResult, push: PushSettings, attempt: number): PushVerdict {
  if (result.kind === 'failed') {
    return {
      ack: false,
      delayMs: backoffMs(push, attempt),
      error: result.error,
      statusClass: result.timeout ? 'timeout' : 'error',
    };
  }
  const s = result.status;
  const statusClass = `${Math.floor(s / 100)}xx`;
  if (s >= 200 && s < 300) return { ack: true, statusClass };
  const error = `HTTP ${s}${result.snippet !== '' ? `: ${result.snippet}` : ''}`;
  // One answer cannot park a message for years: a Retry-After is honoured up to an hour, or the
  // group's longest backoff when that is longer.
  if ((s === 429 || s === 503) && result.retryAfterMs !== undefined) {
    const delayMs = Math.min(result.retryAfterMs, Math.max(push.backoffMaxMs, MAX_RETRY_AFTER_MS));
    return { ack: false, delayMs, error, statusClass };
  }
  return { ack: false, delayMs: backoffMs(push, attempt), error, statusClass };
}

/** The signature of a request about to go, or undefined for a group without a secret. */
export function signOrNot(
  secret: Uint8Array | undefined,
  nowMs: number,
  body: Uint8Array,
): string | undefined {
  return secret ? signature(secret, nowMs, body) : undefined;
}
