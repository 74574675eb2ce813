/**
 * Push groups in the SDK: their settings as a client gives and reads them,
 * and `verifyPushSignature`, which a receiver of pushes calls to refuse
 * forged and replayed requests (docs/api.md, "Push groups").
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { pb } from '@fermata/protocol';

/** Where and how the leader POSTs a push group's messages. Omitted or 0: the default (create), unchanged (update). */
export interface PushSettings {
  /** `http://` or `https://` URL, within the nodes' push.allowedEndpoints. */
  endpoint?: string;
  /** How long a request may take, ms (default 10,000; 100..300,000). */
  timeoutMs?: number;
  /** Most requests in flight at once (default 8; 1..1,000). */
  concurrency?: number;
  /** First retry's delay, ms (default 1,000). */
  backoffInitialMs?: number;
  /** Each next retry's delay is the last one times this (default 2; 1..100). */
  backoffMultiplier?: number;
  /** Longest retry delay, ms (default 300,000). */
  backoffMaxMs?: number;
  /** Added to every request (at most 32; no Fermata-*, Content-Type, Host, Idempotency-Key...). */
  headers?: Record<string, string>;
  /** Absolute path on every node of the file holding the signing secret; '' = unsigned. */
  secretFile?: string;
  /** Absolute path on every node of a PEM CA bundle for the endpoint's TLS; '' = the system's CAs. */
  caFile?: string;
}

/** A push group's settings as the cluster holds them, defaults filled in. */
export type PushSettingsView = Required<PushSettings>;

/** What {@link FermataClient.testPush} got back from the endpoint. */
export interface PushTestResult {
  /** The HTTP status; 0 when no answer came (see `error`). */
  status: number;
  /** The start of the answer's body. */
  body: string;
  latencyMs: number;
  /** Why no answer came ('' when one did). */
  error: string;
  /** The Fermata-Signature the request carried ('' = the group has no secret). */
  signature: string;
}

const PUSH_FIELDS = {
  endpoint: 'endpoint',
  timeoutMs: 'timeout_ms',
  concurrency: 'concurrency',
  backoffInitialMs: 'backoff_initial_ms',
  backoffMultiplier: 'backoff_multiplier',
  backoffMaxMs: 'backoff_max_ms',
  headers: 'headers',
  secretFile: 'secret_file',
  caFile: 'ca_file',
} as const satisfies Record<keyof PushSettings, string>;

export const PUSH_OPTION_NAMES = Object.keys(PUSH_FIELDS) as (keyof PushSettings)[];

/** Every field present: 0 or '' where the input has none (the wire's "default" on create). */
function filled(p: { [K in keyof PushSettings]?: PushSettings[K] | null }): PushSettingsView {
  return {
    endpoint: p.endpoint ?? '',
    timeoutMs: p.timeoutMs ?? 0,
    concurrency: p.concurrency ?? 0,
    backoffInitialMs: p.backoffInitialMs ?? 0,
    backoffMultiplier: p.backoffMultiplier ?? 0,
    backoffMaxMs: p.backoffMaxMs ?? 0,
    headers: { ...(p.headers ?? {}) },
    secretFile: p.secretFile ?? '',
    caFile: p.caFile ?? '',
  };
}

export const pushToWire = (p: PushSettings): pb.PushSettings.$Properties => filled(p);
export const pushFromWire = (p: pb.PushSettings.$Properties): PushSettingsView => filled(p);

/** The update mask of the push fields given (`push.<field>`); `null` (end the push) is `push`. */
export function pushUpdateMask(p: PushSettings | null): string[] {
  if (p === null) return ['push'];
  return (Object.keys(PUSH_FIELDS) as (keyof PushSettings)[])
    .filter((k) => p[k] !== undefined)
    .map((k) => `push.${PUSH_FIELDS[k]}`);
}

/** How old a signed request may be, by default, before `verifyPushSignature` refuses it (5 minutes). */
export const DEFAULT_SIGNATURE_TOLERANCE_MS = 5 * 60_000;

export interface VerifyPushOptions {
  /** Refuse a request signed longer ago (or further ahead) than this, ms. Default 5 minutes. */
  toleranceMs?: number;
  /** The receiver's clock, epoch ms (default Date.now()). */
  nowMs?: number;
}

/**
 * Whether a push request is genuine: its `Fermata-Signature` header
 * (`t=<unix ms>,v1=<hex>`) is HMAC-SHA256 keyed with `secret` over `t`, a
 * dot and the raw body, and `t` is within `toleranceMs` of now. Pass the
 * body's bytes as received, before any parsing.
 */
export function verifyPushSignature(
  secret: string | Uint8Array,
  header: string | undefined,
  body: string | Uint8Array,
  options: VerifyPushOptions = {},
): boolean {
  if (!header) return false;
  const parts = new Map<string, string[]>();
  for (const item of header.split(',')) {
    const at = item.indexOf('=');
    if (at <= 0) continue;
    const k = item.slice(0, at).trim();
    parts.set(k, [...(parts.get(k) ?? []), item.slice(at + 1).trim()]);
  }
  const t = parts.get('t')?.[0];
  if (t === undefined || !/^\d{1,16}$/.test(t)) return false;
  const tolerance = options.toleranceMs ?? DEFAULT_SIGNATURE_TOLERANCE_MS;
  if (Math.abs((options.nowMs ?? Date.now()) - Number(t)) > tolerance) return false;
  const expected = createHmac('sha256', secret).update(`${t}.`).update(body).digest();
  // Several v1 values may come while a secret is being rotated: any one that matches will do.
  return (parts.get('v1') ?? []).some((hex) => {
    if (!/^[0-9a-f]{64}$/i.test(hex)) return false;
    return timingSafeEqual(Buffer.from(hex, 'hex'), expected);
  });
}
