import { createHash } from 'node:crypto';
import { once } from 'node:events';
import type { pb, RaftClient } from '@fermata/protocol';
import * as grpc from '@grpc/grpc-js';
import type { Message } from '../types.js';
import { messageToWire } from './codec.js';
import { SnapshotTransferError } from './snapshot-receiver.js';

/**
 * Streams one snapshot to a peer: the `snapshot` message, the data re-cut into
 * chunks of at most `chunkBytes`, then the SHA-256 of it all. Resolves with the
 * bytes sent once the receiver has verified the data and handed it to Raft;
 * rejects otherwise.
 */
export async function sendSnapshot(
  client: RaftClient,
  self: { readonly id: string; readonly clusterId: string },
  message: Message,
  chunks: AsyncIterable<Uint8Array>,
  chunkBytes: number,
): Promise<number> {
  let sent = 0;
  let call: grpc.ClientWritableStream<pb.SnapshotChunk.$Properties> | undefined;
  const answered = new Promise<void>((resolve, reject) => {
    call = client.installSnapshot(new grpc.Metadata(), {}, (error) => (error ? reject(error) : resolve()));
  });
  answered.catch(() => undefined);
  const stream = call as grpc.ClientWritableStream<pb.SnapshotChunk.$Properties>;
  stream.on('error', () => undefined);
  let failed = false;
  answered.catch(() => {
    failed = true;
  });
  const write = async (chunk: pb.SnapshotChunk.$Properties): Promise<void> => {
    if (failed) throw new SnapshotTransferError('snapshot stream ended early', grpc.status.UNAVAILABLE);
    if (!stream.write(chunk)) await Promise.race([once(stream, 'drain'), answered]);
  };
  try {
    const hash = createHash('sha256');
    await write({ clusterId: self.clusterId, from: self.id, message: messageToWire(message) });
    for await (const data of chunks) {
      for (let offset = 0; offset < data.length; offset += chunkBytes) {
        const piece = data.subarray(offset, Math.min(data.length, offset + chunkBytes));
        hash.update(piece);
        sent += piece.length;
        await write({ clusterId: self.clusterId, from: self.id, data: piece });
      }
    }
    await write({ clusterId: self.clusterId, from: self.id, sha256: hash.digest(), last: true });
    stream.end();
  } catch (error) {
    stream.cancel();
    await answered.catch(() => undefined);
    throw error;
  }
  await answered;
  return sent;
}
