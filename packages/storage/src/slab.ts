/**
 * Short-lived small byte arrays (store keys, encoded records) carved from a
 * shared slab, the way Node pools small Buffers: V8 makes every Uint8Array of
 * its own an ArrayBuffer with a separately tracked backing store, which costs
 * far more to allocate and to collect than the few bytes it holds, and apply
 * makes a dozen such arrays per message. A view keeps its whole slab alive,
 * so whatever is kept beyond the write that needed it must be copied (the
 * record cache copies; delivery tags are never slab views).
 */
const SLAB_BYTES = 16 * 1024;
/** Larger arrays get their own memory. */
const MAX_SLAB_ALLOCATION = SLAB_BYTES / 8;

let slab = new Uint8Array(SLAB_BYTES);
let used = 0;

/** `n` zeroed bytes, from the shared slab when small. */
export function slabBytes(n: number): Uint8Array {
  if (n > MAX_SLAB_ALLOCATION) return new Uint8Array(n);
  if (used + n > SLAB_BYTES) {
    slab = new Uint8Array(SLAB_BYTES);
    used = 0;
  }
  const out = slab.subarray(used, used + n);
  used += n;
  return out;
}

/** A slab copy of `bytes` (see slabBytes). */
export function slabCopy(bytes: Uint8Array): Uint8Array {
  const out = slabBytes(bytes.length);
  out.set(bytes);
  return out;
}
