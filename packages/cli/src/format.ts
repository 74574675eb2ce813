/** Output helpers: aligned tables, times, durations, and JSON with 64-bit values as strings. */

/** Renders rows under a header, columns padded to their widest cell (two spaces apart). */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n') + '\n';
}

/** Label/value pairs, one per line, values aligned. */
export function fields(pairs: readonly (readonly [string, string])[]): string {
  const width = Math.max(0, ...pairs.map(([k]) => k.length));
  return pairs.map(([k, v]) => `${`${k}:`.padEnd(width + 1)}  ${v}`.trimEnd()).join('\n') + '\n';
}

/** Epoch ms as ISO 8601 UTC with ms; '-' for 0/undefined. */
export function isoTime(ms: number | undefined): string {
  if (ms === undefined || ms === 0) return '-';
  return new Date(ms).toISOString();
}

/** Epoch ms as ISO time plus how far from now (`2026-... (in 5m 3s)`). */
export function timeWithRelative(ms: number | undefined, nowMs: number = Date.now()): string {
  if (ms === undefined || ms === 0) return '-';
  const delta = Math.round((ms - nowMs) / 1000) * 1000;
  const rel =
    Math.abs(delta) < 1000 ? 'now' : delta > 0 ? `in ${duration(delta)}` : `${duration(-delta)} ago`;
  return `${isoTime(ms)} (${rel})`;
}

/** Milliseconds as a short human duration: `250ms`, `5s`, `1h 30m`, `2d 3h`. */
export function duration(ms: number): string {
  if (ms < 1000) return `${ms}ms`;
  const parts: string[] = [];
  let rest = Math.floor(ms / 1000);
  for (const [unit, size] of [
    ['d', 86_400],
    ['h', 3_600],
    ['m', 60],
    ['s', 1],
  ] as const) {
    if (rest >= size) {
      parts.push(`${Math.floor(rest / size)}${unit}`);
      rest %= size;
    }
    if (parts.length === 2) break;
  }
  return parts.join(' ');
}

/** A payload for a table cell: text if it is UTF-8, else `<N bytes>`; cut to `max` characters. */
export function payloadCell(payload: Uint8Array, max = 40): string {
  const text = utf8OrUndefined(payload);
  if (text === undefined) return `<${payload.byteLength} bytes>`;
  const oneLine = JSON.stringify(text).slice(1, -1);
  return oneLine.length > max ? `${oneLine.slice(0, max - 1)}…` : oneLine;
}

const strictDecoder = new TextDecoder('utf-8', { fatal: true });

export function utf8OrUndefined(bytes: Uint8Array): string | undefined {
  try {
    return strictDecoder.decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * A payload for JSON output: `{ payload: text }` when it is UTF-8, else
 * `{ payload: base64, payloadEncoding: 'base64' }`.
 */
export function payloadJson(bytes: Uint8Array): { payload: string; payloadEncoding: 'utf8' | 'base64' } {
  const text = utf8OrUndefined(bytes);
  return text === undefined
    ? { payload: Buffer.from(bytes).toString('base64'), payloadEncoding: 'base64' }
    : { payload: text, payloadEncoding: 'utf8' };
}

export function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

/**
 * JSON text of a value: bigints (message ids, Raft terms and indexes) become
 * decimal strings as in the protobuf JSON mapping; Uint8Arrays become hex.
 */
export function toJson(value: unknown, indent?: number): string {
  return JSON.stringify(
    value,
    function (this: Record<string, unknown>, key: string, v: unknown) {
      // Read the original: a Buffer's toJSON has already run on `v`.
      const original = this[key];
      if (original instanceof Uint8Array) return hex(original);
      if (typeof v === 'bigint') return v.toString();
      return v;
    },
    indent,
  );
}

/** Writes a value as one JSON document (pretty) or one JSON line. */
export function printJson(value: unknown, pretty = true): void {
  process.stdout.write(`${toJson(value, pretty ? 2 : undefined)}\n`);
}
