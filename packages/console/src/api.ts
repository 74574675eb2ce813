/**
 * The console's only way to the cluster: the node's JSON API (docs/api.md,
 * "HTTP API") with the logged-in token, kept in sessionStorage (gone when the
 * tab closes). Errors keep the API's words: `{code, field, message}` and the
 * HTTP status.
 */

const TOKEN_KEY = 'fermata.console.token';

export function savedToken(): string | null {
  return sessionStorage.getItem(TOKEN_KEY);
}

export function saveToken(token: string): void {
  sessionStorage.setItem(TOKEN_KEY, token);
}

export function forgetToken(): void {
  sessionStorage.removeItem(TOKEN_KEY);
}

/** A refusal, as the API worded it. */
export class ApiError extends Error {
  constructor(
    readonly httpStatus: number,
    readonly code: string,
    readonly field: string,
    message: string,
  ) {
    super(message);
  }

  /** `403 PERMISSION_DENIED: token "x" lacks permission "publish" on topic "y"`. */
  get text(): string {
    return `${this.httpStatus} ${this.code}: ${this.message}`;
  }
}

/** Called on every 401, so the console goes back to its login page. */
let onUnauthenticated: (err: ApiError) => void = () => {};
export function whenUnauthenticated(handler: (err: ApiError) => void): void {
  onUnauthenticated = handler;
}

interface Answer {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

async function send(
  method: string,
  path: string,
  init: { body?: unknown; headers?: Record<string, string> },
) {
  const headers: Record<string, string> = { ...init.headers };
  const token = savedToken();
  if (token) headers['authorization'] = `Bearer ${token}`;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(path, {
    method,
    headers,
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  });
  const text = await res.text();
  let body: Record<string, unknown> = {};
  try {
    body = text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
  } catch {
    body = { message: text.trim() };
  }
  return { status: res.status, body } satisfies Answer;
}

function refusal(a: Answer): ApiError {
  const s = (k: string) => (typeof a.body[k] === 'string' ? (a.body[k] as string) : '');
  const err = new ApiError(a.status, s('code') || `HTTP ${a.status}`, s('field'), s('message') || s('error'));
  if (a.status === 401) onUnauthenticated(err);
  return err;
}

/** `POST /v1/rpc/fermata.v1.{service}/{method}` with the request's JSON; the response's JSON. */
export async function rpc<T>(service: string, method: string, request: object = {}): Promise<T> {
  const a = await send('POST', `/v1/rpc/fermata.v1.${service}/${method}`, { body: request });
  if (a.status !== 200) throw refusal(a);
  return a.body as T;
}

/** The definite result of a cancel or reschedule: the API's `status` (CANCELLED, IN_FLIGHT, ...). */
export interface SettleResult {
  readonly id: string;
  readonly status: string;
  readonly dueAtMs?: number;
  /** The API's words when nothing changed. */
  readonly message?: string;
}

/**
 * Cancel (`DELETE /v1/topics/{topic}/messages/{id}`) or reschedule (`POST
 * .../reschedule` with `Fermata-Deliver-At`) one message. A refusal of the
 * call itself (token, permission, bad value) throws; a definite "not done"
 * (in flight, already done, not found) is a result.
 */
export async function settle(
  topic: string,
  id: string,
  action: { cancel: true } | { deliverAtMs: number },
): Promise<SettleResult> {
  const base = `/v1/topics/${encodeURIComponent(topic)}/messages/${encodeURIComponent(id)}`;
  const a =
    'cancel' in action
      ? await send('DELETE', base, {})
      : await send('POST', `${base}/reschedule`, {
          headers: { 'fermata-deliver-at': String(action.deliverAtMs) },
        });
  const status = a.body['status'];
  if (typeof status !== 'string') throw refusal(a);
  return {
    id: String(a.body['id'] ?? id),
    status,
    ...(typeof a.body['dueAtMs'] === 'number' ? { dueAtMs: a.body['dueAtMs'] } : {}),
    ...(typeof a.body['message'] === 'string' ? { message: a.body['message'] } : {}),
  };
}

/** This node's `/metrics` text, with the token (it needs `monitor` or `admin` on `*` when tokens are on). */
export async function metricsText(): Promise<string> {
  const headers: Record<string, string> = {};
  const token = savedToken();
  if (token) headers['authorization'] = `Bearer ${token}`;
  const res = await fetch('/metrics', { headers });
  const text = await res.text();
  if (!res.ok) {
    let message = text.trim();
    try {
      message = (JSON.parse(text) as { error?: string }).error ?? message;
    } catch {}
    throw new ApiError(res.status, res.status === 401 ? 'UNAUTHENTICATED' : 'PERMISSION_DENIED', '', message);
  }
  return text;
}

/** This node's `/readyz` answer (open: no token). */
export async function readiness(): Promise<{ ready: boolean; reason?: string }> {
  const res = await fetch('/readyz');
  return (await res.json()) as { ready: boolean; reason?: string };
}
