import type { ClusterInfo, FermataClient, Member } from '@fermata/sdk';
import type { Command } from 'commander';
import { globals, withClient } from '../context.js';
import { fields, printJson, table } from '../format.js';

export function memberRows(members: readonly Member[], leaderId: string): string[][] {
  return members.map((m) => [
    m.id === leaderId ? `${m.id}*` : m.id,
    m.role,
    m.voter ? 'yes' : 'no',
    m.address,
    m.peerAddress,
    m.matchIndex.toString(),
    m.lag.toString(),
  ]);
}

export const MEMBER_HEADER = ['ID', 'ROLE', 'VOTER', 'CLIENT', 'PEER', 'MATCH', 'LAG'];

export function printClusterInfo(info: ClusterInfo): void {
  process.stdout.write(
    fields([
      ['cluster', info.clusterId],
      ['leader', info.leaderId ? `${info.leaderId} at ${info.leaderAddress}` : '(none known)'],
      ['term', info.term.toString()],
      ['commit index', info.commitIndex.toString()],
      ['applied index', info.appliedIndex.toString()],
      ['answered by', info.nodeId],
    ]),
  );
  process.stdout.write('\n');
  process.stdout.write(table(MEMBER_HEADER, memberRows(info.members, info.leaderId)));
}

/** `fermata status`: the cluster as the leader sees it. */
export function registerStatus(program: Command): void {
  program
    .command('status')
    .description('cluster status: leader, term, commit/applied index, members with role and lag')
    .action(async (_opts: unknown, cmd: Command) => {
      await withClient(cmd, async (client: FermataClient) => {
        const info = await client.clusterInfo();
        if (globals(cmd).json) printJson(info);
        else printClusterInfo(info);
      });
    });
}
