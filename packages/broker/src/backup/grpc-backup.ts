/**
 * `fermata.v1.Backup/TakeBackup`: a consistent snapshot of the state machine,
 * streamed from the leader while it keeps serving. The snapshot is the one
 * Raft snapshots are made of (`BrokerStateMachine.snapshot`: one storage
 * snapshot, its applied index from the same view), taken after a ReadIndex
 * round, so it holds every write answered before the call arrived.
 */
import { createHash } from 'node:crypto';
import { invariant } from '@fermata/base';
import { type BackupHandlers, int64FromSafe, type pb, toUint64 } from '@fermata/protocol';
import type * as grpc from '@grpc/grpc-js';
import { grpcError, requireLeader, type ServerContext } from '../server/context.js';
import { checkDecoded } from '../server/decode-guard.js';
import { BACKUP_FORMAT_VERSION } from './backup-file.js';
import { FrameCounter } from './frame-counter.js';

type Call = grpc.ServerWritableStream<pb.TakeBackupRequest, pb.BackupChunk.$Properties>;

/** Writes `msg`; resolves once the stream can take more (its buffer drained) or the call ended. */
function write(call: Call, msg: pb.BackupChunk.$Properties): Promise<void> {
  if (call.write(msg)) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      call.off('drain', done);
      call.off('cancelled', done);
      resolve();
    };
    call.on('drain', done);
    call.on('cancelled', done);
  });
}

async function takeBackup(ctx: ServerContext, call: Call): Promise<void> {
  let cancelled = false;
  call.on('cancelled', () => {
    cancelled = true;
  });
  const startedMs = performance.now();
  checkDecoded(call.request);
  requireLeader(ctx);
  const readIndex = await ctx.node.readIndex();
  const { index, chunks } = await ctx.sm.snapshot();
  const iterator = chunks[Symbol.asyncIterator]();
  try {
    invariant(
      index >= readIndex,
      () => `backup snapshot at applied index ${index} is behind the read index ${readIndex}`,
    );
    const status = ctx.node.status();
    const queues = await ctx.reader.listQueues();
    const header: pb.BackupHeader.$Properties = {
      formatVersion: BACKUP_FORMAT_VERSION,
      clusterId: status.clusterId,
      nodeId: status.id,
      term: toUint64(BigInt(status.term)),
      appliedIndex: toUint64(BigInt(index)),
      takenAtMs: int64FromSafe(ctx.proposer.nowMs()),
      queueEntries: toUint64(BigInt(queues.reduce((n, q) => n + q.pending + q.inFlight, 0))),
    };
    await write(call, { header });
    const hash = createHash('sha256');
    const counter = new FrameCounter();
    let dataBytes = 0;
    for (;;) {
      if (cancelled) return;
      const next = await iterator.next();
      if (next.done) break;
      const data = next.value;
      hash.update(data);
      counter.push(data);
      dataBytes += data.length;
      await write(call, {
        data: {
          data,
          records: toUint64(BigInt(counter.records)),
          messages: toUint64(BigInt(counter.messages)),
        },
      });
    }
    await write(call, {
      trailer: {
        dataBytes: toUint64(BigInt(dataBytes)),
        records: toUint64(BigInt(counter.records)),
        messages: toUint64(BigInt(counter.messages)),
        sha256: hash.digest(),
      },
    });
    ctx.log.info(
      {
        appliedIndex: index,
        dataBytes,
        records: counter.records,
        messages: counter.messages,
        durationMs: Math.round(performance.now() - startedMs),
      },
      'backup streamed',
    );
  } finally {
    // Releases the storage snapshot when the stream stopped early.
    await iterator.return?.();
  }
}

export function backupHandlers(ctx: ServerContext): BackupHandlers {
  return {
    takeBackup: (call: Call) => {
      takeBackup(ctx, call).then(
        () => call.end(),
        (err: unknown) => {
          if (!call.writableEnded && !call.destroyed) call.emit('error', grpcError(ctx, err));
        },
      );
    },
  };
}
