import { resolve } from 'node:path';
import {
  advertiseAddress,
  BackupFileError,
  bootstrapMembers,
  ConfigError,
  loadConfig,
  RestoreError,
  restoreDataDir,
} from '@fermata/broker';
import { CliError, ExitCode } from '../exit-codes.js';
import { fields, isoTime, printJson } from '../format.js';
import { count } from '../progress.js';
import { CLIENT_ENV_VARS } from './serve.js';

export interface RestoreFlags {
  from: string;
  data?: string;
  clusterId?: string;
  nodeId?: string;
  initialMembers?: string;
  config?: string;
}

/** `fermata restore`'s work (see restore.ts), loaded only when the command runs. */
export async function restore(opts: RestoreFlags, json: boolean): Promise<void> {
  const env = { ...process.env };
  for (const name of CLIENT_ENV_VARS) delete env[name];
  let config: ReturnType<typeof loadConfig>;
  try {
    const file = opts.config ?? env['FERMATA_CONFIG'];
    config = loadConfig({
      ...(file ? { file } : {}),
      env,
      overrides: {
        ...(opts.data !== undefined ? { dataDir: opts.data } : {}),
        ...(opts.clusterId !== undefined ? { clusterId: opts.clusterId } : {}),
        ...(opts.nodeId !== undefined ? { nodeId: opts.nodeId } : {}),
        ...(opts.initialMembers !== undefined ? { initialMembers: opts.initialMembers } : {}),
      },
    });
  } catch (err) {
    if (err instanceof ConfigError) throw new CliError(`restore: ${err.problems.join('; ')}`, ExitCode.USAGE);
    throw err;
  }
  const self = {
    peerAddress: advertiseAddress(config.peer.advertiseAddress, config.peer.listenAddress),
    clientAddress: advertiseAddress(config.client.advertiseAddress, config.client.listenAddress),
  };
  const members = bootstrapMembers(config, self);
  const dataDir = resolve(config.dataDir);
  let r: Awaited<ReturnType<typeof restoreDataDir>>;
  try {
    r = await restoreDataDir({
      from: resolve(opts.from),
      dataDir,
      clusterId: config.clusterId,
      nodeId: config.nodeId,
      members,
    });
  } catch (err) {
    if (err instanceof BackupFileError) throw new CliError(`restore: ${err.message}`, ExitCode.USAGE);
    if (err instanceof RestoreError) throw new CliError(`restore: ${err.message}`, ExitCode.CONFLICT);
    throw err;
  }
  const result = {
    dataDir,
    node: config.nodeId,
    clusterId: config.clusterId,
    members: members.map((m) => m.id),
    alreadyRestored: r.alreadyRestored,
    sourceClusterId: r.info.clusterId,
    appliedIndex: r.info.appliedIndex,
    takenAtMs: r.info.takenAtMs,
    messages: r.totals.messages,
    sha256: r.totals.sha256,
  };
  if (json) printJson(result);
  else {
    process.stdout.write(
      fields([
        ['data directory', `${dataDir}${r.alreadyRestored ? ' (already restored from this backup)' : ''}`],
        ['node', config.nodeId],
        ['new cluster', `${config.clusterId} (${members.map((m) => m.id).join(', ')})`],
        ['backup of', `${r.info.clusterId} at index ${r.info.appliedIndex}, ${isoTime(r.info.takenAtMs)}`],
        ['messages', count(r.totals.messages)],
        ['sha256', r.totals.sha256],
      ]),
    );
  }
}
