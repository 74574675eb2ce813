import type { NodeId } from '../types.js';
import type { MemberAddresses } from './members.js';

/**
 * A snapshot's data as the node stores and ships it: a small header with the
 * address book (conf-change entries that carried addresses may be compacted
 * away), then the state machine's own chunks.
 *
 *   u32 magic "FSMD" | u32 header length | header JSON | state machine chunks
 */
const MAGIC = 0x444d_5346;
const MAX_HEADER_BYTES = 1024 * 1024;

export interface SnapshotHeader {
  readonly members: Record<NodeId, MemberAddresses>;
}

export async function* withHeader(
  header: SnapshotHeader,
  chunks: AsyncIterable<Uint8Array>,
): AsyncGenerator<Uint8Array> {
  const body = Buffer.from(JSON.stringify(header), 'utf8');
  const head = Buffer.alloc(8);
  head.writeUInt32LE(MAGIC, 0);
  head.writeUInt32LE(body.length, 4);
  yield Buffer.concat([head, body]);
  yield* chunks;
}

export class SnapshotDataError extends Error {
  override readonly name = 'SnapshotDataError';
}

/** Splits stored snapshot data into its header and the state machine's chunks. */
export async function splitHeader(
  chunks: AsyncIterable<Uint8Array>,
): Promise<{ header: SnapshotHeader; rest: AsyncIterable<Uint8Array> }> {
  const iterator = chunks[Symbol.asyncIterator]();
  let buffered = Buffer.alloc(0);
  let need = 8;
  let length = -1;
  while (buffered.length < need) {
    const next = await iterator.next();
    if (next.done)
      throw new SnapshotDataError(`snapshot data ends inside its header (${buffered.length} bytes)`);
    buffered = Buffer.concat([buffered, next.value]);
    if (length < 0 && buffered.length >= 8) {
      if (buffered.readUInt32LE(0) !== MAGIC) throw new SnapshotDataError('snapshot data has no node header');
      length = buffered.readUInt32LE(4);
      if (length > MAX_HEADER_BYTES)
        throw new SnapshotDataError(`snapshot header of ${length} bytes is too large`);
      need = 8 + length;
    }
  }
  const header = JSON.parse(buffered.subarray(8, need).toString('utf8')) as SnapshotHeader;
  const leftover = buffered.subarray(need);
  async function* rest(): AsyncGenerator<Uint8Array> {
    if (leftover.length > 0) yield leftover;
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      yield next.value;
    }
  }
  return { header, rest: rest() };
}
