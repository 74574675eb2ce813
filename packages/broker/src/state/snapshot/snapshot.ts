import type { BatchOp, KVStore, ReadView } from '@fermata/storage';
import { compareBytes } from '@fermata/storage';
import { isRestoreMarker, restoreDoneOp, restoreMarkOp } from '../stores/meta.js';

/**
 * Snapshot stream format: the magic "FMSNAP01", then frames of
 * [u32 key length][key][u32 value length][value] in key order, split into
 * chunks of about `chunkBytes` (a frame may straddle chunks).
 */
const MAGIC = new TextEncoder().encode('FMSNAP01');
const SCAN_PAGE = 1024;
const RESTORE_BATCH_BYTES = 4 * 1024 * 1024;

export class SnapshotFormatError extends Error {
  override readonly name = 'SnapshotFormatError';
}

/** Streams every entry of a consistent snapshot; closes it when done (or when the consumer stops). */
export async function* snapshotChunks(
  snap: ReadView & { close(): Promise<void> },
  chunkBytes: number,
): AsyncGenerator<Uint8Array> {
  try {
    let parts: Uint8Array[] = [MAGIC];
    let size = MAGIC.length;
    let gte: Uint8Array | undefined;
    for (;;) {
      let last: Uint8Array | undefined;
      const frames: Uint8Array[] = [];
      await snap.scan({ ...(gte ? { gte } : {}), limit: SCAN_PAGE }, (key, value) => {
        last = key.slice();
        if (isRestoreMarker(key)) return;
        const frame = new Uint8Array(8 + key.length + value.length);
        const view = new DataView(frame.buffer);
        view.setUint32(0, key.length);
        frame.set(key, 4);
        view.setUint32(4 + key.length, value.length);
        frame.set(value, 8 + key.length);
        frames.push(frame);
      });
      for (const f of frames) {
        parts.push(f);
        size += f.length;
        if (size >= chunkBytes) {
          yield Buffer.concat(parts);
          parts = [];
          size = 0;
        }
      }
      if (!last) break;
      // The next key after `last`: last + 0x00.
      gte = new Uint8Array(last.length + 1);
      gte.set(last);
    }
    if (size > 0) yield Buffer.concat(parts);
  } finally {
    await snap.close();
  }
}

/**
 * Replaces the store's content with a snapshot stream. A marker key is written
 * first and deleted by the final (synced) batch: a store that still holds the
 * marker at start-up was interrupted mid-restore and is cleared (the node then
 * needs a snapshot again). Returns nothing; the caller rereads its state.
 */
export async function restoreInto(store: KVStore, chunks: AsyncIterable<Uint8Array>): Promise<void> {
  await store.clear();
  await store.batch([restoreMarkOp()], { sync: true });
  let buf: Uint8Array = new Uint8Array(0);
  let magicSeen = false;
  let ops: BatchOp[] = [];
  let opsBytes = 0;
  for await (const chunk of chunks) {
    buf = buf.length === 0 ? chunk : Buffer.concat([buf, chunk]);
    let off = 0;
    if (!magicSeen) {
      if (buf.length < MAGIC.length) continue;
      if (compareBytes(buf.subarray(0, MAGIC.length), MAGIC) !== 0) {
        throw new SnapshotFormatError('not a Fermata state snapshot (bad magic)');
      }
      magicSeen = true;
      off = MAGIC.length;
    }
    const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    for (;;) {
      if (buf.length - off < 4) break;
      const kl = view.getUint32(off);
      if (buf.length - off < 8 + kl) break;
      const vl = view.getUint32(off + 4 + kl);
      if (buf.length - off < 8 + kl + vl) break;
      const key = buf.slice(off + 4, off + 4 + kl);
      const value = buf.slice(off + 8 + kl, off + 8 + kl + vl);
      off += 8 + kl + vl;
      ops.push({ type: 'put', key, value });
      opsBytes += kl + vl;
      if (opsBytes >= RESTORE_BATCH_BYTES) {
        await store.batch(ops, { sync: false });
        ops = [];
        opsBytes = 0;
      }
    }
    buf = buf.subarray(off);
  }
  if (!magicSeen || buf.length > 0) {
    throw new SnapshotFormatError(`snapshot stream truncated (${buf.length} bytes of an incomplete frame)`);
  }
  ops.push(restoreDoneOp());
  await store.batch(ops, { sync: true });
}
