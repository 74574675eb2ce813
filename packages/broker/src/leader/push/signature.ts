/**
 * The `Fermata-Signature` of a push request: `t=<unix ms>,v1=<hex>` where
 * the hex is HMAC-SHA256 keyed with the group's secret over the ASCII
 * decimal `t`, a dot, and the body's bytes. A receiver recomputes it and
 * refuses a request whose `t` is too old (docs/api.md, "Push groups").
 */
import { createHmac } from 'node:crypto';
import type { PushFilesPolicy } from './files-policy.js';

export const SIGNATURE_HEADER = 'fermata-signature';

export function signature(secret: Uint8Array, timestampMs: number, body: Uint8Array): string {
  const hmac = createHmac('sha256', secret);
  hmac.update(`${timestampMs}.`);
  hmac.update(body);
  return `t=${timestampMs},v1=${hmac.digest('hex')}`;
}

/** How long a secret file read is used before the file is read again. */
const RECHECK_MS = 2_000;

/**
 * Secrets read from files, as the token file is: the file's bytes without a
 * trailing newline, read again every RECHECK_MS (a rotated secret takes
 * effect within RECHECK_MS, no restart). Each read is held to push.filesDir.
 */
export class SecretFiles {
  private readonly cache = new Map<string, { secret: Uint8Array; checkedAtMs: number }>();

  constructor(private readonly files: PushFilesPolicy) {}

  /** `nowMs`: the caller's monotonic clock (Clock.monotonicMs), for how long a read is kept. */
  async read(path: string, nowMs: number): Promise<Uint8Array> {
    const kept = this.cache.get(path);
    if (kept && nowMs - kept.checkedAtMs < RECHECK_MS) return kept.secret;
    // A secret is a few bytes: read again (and judged again) rather than stat'ed.
    let bytes: Uint8Array = await this.files.read(path, 'settings.push.secret_file');
    let end = bytes.length;
    while (end > 0 && (bytes[end - 1] === 0x0a || bytes[end - 1] === 0x0d)) end--;
    bytes = bytes.subarray(0, end);
    if (bytes.length === 0) throw new Error(`settings.push.secret_file: ${path} is empty`);
    this.cache.set(path, { secret: bytes, checkedAtMs: nowMs });
    return bytes;
  }
}
