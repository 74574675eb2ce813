// A push group's settings (admin.proto PushSettings): their bounds, their defaults, and how an
// update mask changes them. Pure and deterministic, so apply may call it: where a node's
// operator lets pushes go (push.allowedEndpoints) is judged before proposing, not here.
import { LimitError, ValidationError } from '../model/errors.js';
import { PUSH_DEFAULTS, type PushSettings, sortedHeaders } from '../model/group-settings.js';

/** A push group's settings as a command names them: absent or zero = the default (create) or unchanged. */
export interface PushSettingsInput {
  readonly endpoint?: string;
  readonly timeoutMs?: number;
  readonly concurrency?: number;
  readonly backoffInitialMs?: number;
  readonly backoffMultiplier?: number;
  readonly backoffMaxMs?: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly secretFile?: string;
  readonly caFile?: string;
}

export const PUSH_LIMITS = Object.freeze({
  maxEndpointBytes: 2048,
  minTimeoutMs: 100,
  maxTimeoutMs: 300_000,
  maxConcurrency: 1000,
  maxBackoffMs: 86_400_000,
  maxBackoffMultiplier: 100,
  maxHeaders: 32,
  maxHeaderNameBytes: 256,
  maxHeaderValueBytes: 4096,
  maxPathBytes: 4096,
});

/** Header names the pusher sets itself (lower case): a group cannot add them. */
const RESERVED_HEADERS = new Set([
  'content-type',
  'content-length',
  'host',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
  'idempotency-key',
]);
const TOKEN_RE = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: a header value may hold no control character but tab.
const CONTROL_RE = /[\u0000-\u0008\u000a-\u001f\u007f]/;
/**
 * A header value's first character that is not printable Latin-1 (tab,
 * U+0020..U+007E, U+00A0..U+00FF): an HTTP header carries one byte a
 * character, and a control character (C0, DEL, C1) splits or ends it.
 */
const NOT_LATIN1_RE = /[^\t\u0020-\u007e\u00a0-\u00ff]/u;

/**
 * Refuses a header value that is not printable Latin-1, naming the header
 * and the character. The leader judges it before proposing a create or an
 * update that sets headers; apply keeps the rule of the versions before it
 * (no control character but tab), so that a group an earlier version
 * committed is applied alike on every node.
 */
export function checkHeaderValues(headers: Readonly<Record<string, string>>): void {
  for (const [name, value] of Object.entries(headers)) {
    const bad = NOT_LATIN1_RE.exec(value);
    if (!bad) continue;
    const code = bad[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
    throw new ValidationError(
      `${F}.headers["${name}"]`,
      `value holds U+${code}: a header value is printable Latin-1 (tab, U+0020..U+007E, U+00A0..U+00FF)`,
    );
  }
}

const PUSH_FIELDS = [
  'endpoint',
  'timeout_ms',
  'concurrency',
  'backoff_initial_ms',
  'backoff_multiplier',
  'backoff_max_ms',
  'headers',
  'secret_file',
  'ca_file',
] as const;
type PushField = (typeof PUSH_FIELDS)[number];
/** Update-mask names of a group's push settings: `push` (all of them) and `push.<field>`. */
export const PUSH_MASK_FIELDS: readonly string[] = ['push', ...PUSH_FIELDS.map((f) => `push.${f}`)];

const F = 'settings.push';
const bytes = (s: string): number => Buffer.byteLength(s, 'utf8');

function checkRange(value: number, field: string, limit: string, min: number, max: number): void {
  if (!Number.isSafeInteger(value)) throw new ValidationError(field, `must be an integer, got ${value}`);
  if (value < min) throw new ValidationError(field, `must be >= ${min}, got ${value}`);
  if (value > max) throw new LimitError(limit, max, value, field);
}

function checkPath(path: string, field: string): void {
  if (path === '') return;
  if (bytes(path) > PUSH_LIMITS.maxPathBytes)
    throw new LimitError('maxPathBytes', PUSH_LIMITS.maxPathBytes, bytes(path), field);
  if (!path.startsWith('/') || path.includes('\u0000'))
    throw new ValidationError(field, `must be an absolute path on the nodes, got "${path}"`);
}

/** The endpoint's URL, checked: http(s), a host, no credentials or fragment. */
export function parseEndpoint(endpoint: string, field = `${F}.endpoint`): URL {
  if (endpoint === '')
    throw new ValidationError(field, 'a push group needs an endpoint (http:// or https://)');
  const n = bytes(endpoint);
  if (n > PUSH_LIMITS.maxEndpointBytes)
    throw new LimitError('maxEndpointBytes', PUSH_LIMITS.maxEndpointBytes, n, field);
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new ValidationError(field, `"${endpoint}" is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ValidationError(field, `must be http:// or https://, got ${url.protocol}//`);
  if (url.hostname === '') throw new ValidationError(field, 'names no host');
  if (url.username !== '' || url.password !== '')
    throw new ValidationError(field, 'may hold no user or password (add an Authorization header instead)');
  if (url.hash !== '') throw new ValidationError(field, 'may hold no #fragment');
  return url;
}

/** Every field within its bounds (settings resolved: no zero defaults left). */
export function checkPushSettings(p: PushSettings): void {
  parseEndpoint(p.endpoint);
  const L = PUSH_LIMITS;
  checkRange(p.timeoutMs, `${F}.timeout_ms`, 'maxTimeoutMs', L.minTimeoutMs, L.maxTimeoutMs);
  checkRange(p.concurrency, `${F}.concurrency`, 'maxConcurrency', 1, L.maxConcurrency);
  checkRange(p.backoffInitialMs, `${F}.backoff_initial_ms`, 'maxBackoffMs', 1, L.maxBackoffMs);
  checkRange(p.backoffMaxMs, `${F}.backoff_max_ms`, 'maxBackoffMs', 1, L.maxBackoffMs);
  if (p.backoffMaxMs < p.backoffInitialMs)
    throw new ValidationError(
      `${F}.backoff_max_ms`,
      `must be >= backoff_initial_ms (${p.backoffInitialMs}), got ${p.backoffMaxMs}`,
    );
  const m = p.backoffMultiplier;
  if (!Number.isFinite(m) || m < 1)
    throw new ValidationError(`${F}.backoff_multiplier`, `must be >= 1, got ${m}`);
  if (m > L.maxBackoffMultiplier)
    throw new LimitError('maxBackoffMultiplier', L.maxBackoffMultiplier, m, `${F}.backoff_multiplier`);
  const names = Object.keys(p.headers);
  if (names.length > L.maxHeaders)
    throw new LimitError('maxPushHeaders', L.maxHeaders, names.length, `${F}.headers`);
  const seen = new Set<string>();
  for (const name of names) {
    const field = `${F}.headers["${name}"]`;
    const lower = name.toLowerCase();
    if (!TOKEN_RE.test(name)) throw new ValidationError(field, 'is not a valid header name');
    if (bytes(name) > L.maxHeaderNameBytes)
      throw new LimitError('maxHeaderNameBytes', L.maxHeaderNameBytes, bytes(name), field);
    if (RESERVED_HEADERS.has(lower) || lower.startsWith('fermata-'))
      throw new ValidationError(field, 'is set by the pusher itself and cannot be added');
    if (seen.has(lower)) throw new ValidationError(field, 'is named twice (header names ignore case)');
    seen.add(lower);
    const value = p.headers[name] ?? '';
    if (bytes(value) > L.maxHeaderValueBytes)
      throw new LimitError('maxHeaderValueBytes', L.maxHeaderValueBytes, bytes(value), field);
    if (CONTROL_RE.test(value)) throw new ValidationError(field, 'value holds a control character');
  }
  checkPath(p.secretFile, `${F}.secret_file`);
  checkPath(p.caFile, `${F}.ca_file`);
}

const orDefault = (v: number | undefined, d: number): number => (v === undefined || v === 0 ? d : v);

/** Takes `field` from `input` when `take` says so, else keeps `current`'s (defaults for a new one). */
function merged(
  current: PushSettings | undefined,
  input: PushSettingsInput,
  take: (f: PushField) => boolean,
): PushSettings {
  const d = PUSH_DEFAULTS;
  const c: PushSettings = current ?? {
    endpoint: '',
    timeoutMs: d.timeoutMs,
    concurrency: d.concurrency,
    backoffInitialMs: d.backoffInitialMs,
    backoffMultiplier: d.backoffMultiplier,
    backoffMaxMs: d.backoffMaxMs,
    headers: {},
    secretFile: '',
    caFile: '',
  };
  return {
    endpoint: take('endpoint') ? (input.endpoint ?? '') : c.endpoint,
    timeoutMs: take('timeout_ms') ? orDefault(input.timeoutMs, d.timeoutMs) : c.timeoutMs,
    concurrency: take('concurrency') ? orDefault(input.concurrency, d.concurrency) : c.concurrency,
    backoffInitialMs: take('backoff_initial_ms')
      ? orDefault(input.backoffInitialMs, d.backoffInitialMs)
      : c.backoffInitialMs,
    backoffMultiplier: take('backoff_multiplier')
      ? orDefault(input.backoffMultiplier, d.backoffMultiplier)
      : c.backoffMultiplier,
    backoffMaxMs: take('backoff_max_ms') ? orDefault(input.backoffMaxMs, d.backoffMaxMs) : c.backoffMaxMs,
    headers: sortedHeaders(take('headers') ? (input.headers ?? {}) : c.headers),
    secretFile: take('secret_file') ? (input.secretFile ?? '') : c.secretFile,
    caFile: take('ca_file') ? (input.caFile ?? '') : c.caFile,
  };
}

/** A new group's push settings: absent = not a push group; zero fields take the defaults. */
export function pushForCreate(input: PushSettingsInput | undefined): PushSettings | undefined {
  if (input === undefined) return undefined;
  return merged(undefined, input, () => true);
}

/**
 * The push settings after an update. `push` in the mask replaces them whole
 * (an absent input ends the push); `push.<field>` changes that field, zero =
 * its default; an empty mask takes every non-zero field of the input.
 */
export function pushForUpdate(
  current: PushSettings | undefined,
  input: PushSettingsInput | undefined,
  mask: readonly string[],
): PushSettings | undefined {
  if (mask.includes('push')) return pushForCreate(input);
  if (mask.length > 0) {
    const named = PUSH_FIELDS.filter((f) => mask.includes(`push.${f}`));
    if (named.length === 0) return current;
    return merged(current, input ?? {}, (f) => named.includes(f));
  }
  if (input === undefined) return current;
  const given: Record<PushField, boolean> = {
    endpoint: !!input.endpoint,
    timeout_ms: !!input.timeoutMs,
    concurrency: !!input.concurrency,
    backoff_initial_ms: !!input.backoffInitialMs,
    backoff_multiplier: !!input.backoffMultiplier,
    backoff_max_ms: !!input.backoffMaxMs,
    headers: Object.keys(input.headers ?? {}).length > 0,
    secret_file: !!input.secretFile,
    ca_file: !!input.caFile,
  };
  if (!Object.values(given).some((g) => g)) return current;
  return merged(current, input, (f) => given[f]);
}

/**
 * The value an update with this input and mask may set `field` to (so the
 * caller checks the node's policy for it), or undefined when it leaves it.
 */
export function pushFieldOfUpdate(
  input: PushSettingsInput | undefined,
  mask: readonly string[],
  field: 'endpoint' | 'secret_file' | 'ca_file',
): string | undefined {
  if (mask.length > 0 && !mask.includes('push') && !mask.includes(`push.${field}`)) return undefined;
  const value =
    field === 'endpoint' ? input?.endpoint : field === 'secret_file' ? input?.secretFile : input?.caFile;
  return value || undefined;
}
