/** A message body: bytes as they are, or a string (sent as UTF-8). Use {@link json} for values. */
export type Payload = Uint8Array | string;

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

/** The payload as bytes: strings become UTF-8. */
export function toBytes(payload: Payload): Uint8Array {
  if (typeof payload === 'string') return encoder.encode(payload);
  if (payload instanceof Uint8Array) return payload;
  throw new TypeError(
    `payload must be a Uint8Array or a string (use json(value) for values), got ${typeof payload}`,
  );
}

/** A value as a JSON payload (UTF-8 bytes of `JSON.stringify(value)`). */
export function json(value: unknown): Uint8Array {
  const text = JSON.stringify(value);
  if (text === undefined) throw new TypeError('json(value): the value has no JSON form');
  return encoder.encode(text);
}

/** UTF-8 bytes as a string; throws TypeError on invalid UTF-8. */
export function decodeText(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}

/** UTF-8 JSON bytes as a value; throws SyntaxError on bad JSON. */
export function decodeJson<T = unknown>(bytes: Uint8Array): T {
  return JSON.parse(decodeText(bytes)) as T;
}
