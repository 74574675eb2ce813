/**
 * Reads of the time indexes (expiry, key windows, request windows): keys that
 * start with a time, 8 bytes big-endian, so that one range scan from the
 * namespace's start finds everything due by a time.
 */
import type { Namespace, ReadView } from '@fermata/storage';
import { readU64, u64 } from '../model/layout.js';

/**
 * The rows of `ns` whose time is <= nowMs, in time order, at most `limit`:
 * `row` gets each one's time, the rest of its key suffix (a view) and its value.
 */
export async function dueRows<T>(
  view: ReadView,
  ns: Namespace,
  nowMs: number,
  limit: number,
  row: (atMs: number, rest: Uint8Array, value: Uint8Array) => T,
): Promise<T[]> {
  const out: T[] = [];
  await view.scan({ ...ns.range(undefined, u64(nowMs + 1)), limit }, (k, v) => {
    const s = ns.strip(k);
    out.push(row(Number(readU64(s, 0)), s.subarray(8), v));
  });
  return out;
}
