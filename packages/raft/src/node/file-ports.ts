/** The shipped ports of the node driver: files with fsync, gRPC peers, real timers. */
import { createReadStream, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { systemClock } from '@fermata/base';
import { writeFileAtomic } from '../log/atomic-file.js';
import { type FileSystem, nodeFileSystem } from '../log/file-system.js';
import { HardStateFile } from '../log/hard-state.js';
import { DEFAULT_MAX_ENTRY_BYTES, LogStore } from '../log/log-store.js';
import { SnapshotFiles } from '../log/snapshot-store.js';
import { stderrLogger } from '../transport/logger.js';
import { PeerTransport } from '../transport/peer-transport.js';
import type { RaftNodeOptions } from './node-options.js';
import type { IncomingSnapshots, NodePorts, SmallFile } from './ports.js';

/** A file replaced atomically (temp, fsync, rename, directory fsync). */
export function atomicSmallFile(path: string, fs: FileSystem = nodeFileSystem): SmallFile {
  return {
    read: () => fs.readFile(path),
    write: (bytes) => writeFileAtomic(path, bytes, { fs }),
  };
}

/**
 * `<dataDir>/log` (segments) and `snapshot-meta`, `hard-state`,
 * `snapshot/latest.snap`, `snapshot-incoming/`, `members.json`.
 */
export function openFilePorts(options: RaftNodeOptions): NodePorts {
  mkdirSync(options.dataDir, { recursive: true });
  const log = LogStore.open({
    dir: options.dataDir,
    maxEntryBytes: options.maxEntryBytes ?? DEFAULT_MAX_ENTRY_BYTES,
    ...(options.logSegmentBytes !== undefined ? { segmentBytes: options.logSegmentBytes } : {}),
    ...(options.logCacheBytes !== undefined ? { cacheBytes: options.logCacheBytes } : {}),
    ...(options.onFsync ? { onFsync: options.onFsync } : {}),
  });
  const incomingDir = join(options.dataDir, 'snapshot-incoming');
  const incoming: IncomingSnapshots = {
    reset() {
      rmSync(incomingDir, { recursive: true, force: true });
      mkdirSync(incomingDir, { recursive: true });
    },
    open: (ref) => createReadStream(ref) as AsyncIterable<Uint8Array>,
    discard: (ref) => rmSync(ref, { force: true }),
  };
  return {
    log,
    stable: HardStateFile.open(options.dataDir),
    snapshots: new SnapshotFiles(join(options.dataDir, 'snapshot')),
    incoming,
    addressBook: atomicSmallFile(join(options.dataDir, 'members.json')),
    clock: systemClock,
    random: options.random ?? Math.random,
    transport: (handler) =>
      new PeerTransport({
        ...options.transport,
        id: options.id,
        clusterId: options.clusterId,
        listenAddress: options.listenPeerAddress,
        ...advertised(options),
        incomingSnapshotDir: incomingDir,
        handler,
        log: options.log ?? stderrLogger,
        ...(options.wallClock ? { wallClock: options.wallClock } : {}),
      }),
  };
}

/** This node's peer address as the other members know it (its entry in `initialMembers`), if given. */
function advertised(options: RaftNodeOptions): { advertiseAddress?: string } {
  const address = options.initialMembers[options.id]?.peerAddress;
  return address ? { advertiseAddress: address } : {};
}
