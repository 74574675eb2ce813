import type { Member } from '@fermata/sdk';
import type { Command } from 'commander';
import { globals, withClient } from '../context.js';
import { UsageError } from '../exit-codes.js';
import { printJson, table } from '../format.js';
import { MEMBER_HEADER, memberRows } from './status.js';

const HOST_PORT = /^[^\s:]+:\d{1,5}$/;

function printMembers(members: readonly Member[], leaderId = ''): void {
  process.stdout.write(table(MEMBER_HEADER, memberRows(members, leaderId)));
}

/** `fermata members ls|add|remove|transfer-leader`. */
export function registerMembers(program: Command): void {
  const members = program.command('members').description('cluster membership and leadership');

  members
    .command('ls')
    .alias('list')
    .description('members with role, addresses, match index and lag (as the leader sees them)')
    .action(async (_opts: unknown, cmd: Command) => {
      await withClient(cmd, async (client) => {
        const info = await client.clusterInfo();
        if (globals(cmd).json) printJson(info.members);
        else printMembers(info.members, info.leaderId);
      });
    });

  members
    .command('add')
    .argument('<id>', 'node id of the new member')
    .requiredOption('--peer <host:port>', "the new node's Raft peer address")
    .requiredOption('--client <host:port>', "the new node's client gRPC address")
    .option('--learner', 'keep it a non-voting learner (default: promoted once caught up)')
    .description('add a node (start it first with an empty data directory): learner, catch up, promote')
    .action(async (id: string, flags: { peer: string; client: string; learner?: boolean }, cmd: Command) => {
      for (const [flag, value] of [
        ['--peer', flags.peer],
        ['--client', flags.client],
      ] as const) {
        if (!HOST_PORT.test(value)) throw new UsageError(`${flag}: expected host:port, got "${value}"`);
      }
      await withClient(cmd, async (client) => {
        const list = await client.addMember(id, {
          peerAddress: flags.peer,
          address: flags.client,
          learnerOnly: flags.learner === true,
        });
        if (globals(cmd).json) printJson(list);
        else printMembers(list);
      });
    });

  members
    .command('remove')
    .alias('rm')
    .argument('<id>', 'node id')
    .description('remove a node from the cluster')
    .action(async (id: string, _opts: unknown, cmd: Command) => {
      await withClient(cmd, async (client) => {
        const list = await client.removeMember(id);
        if (globals(cmd).json) printJson(list);
        else printMembers(list);
      });
    });

  members
    .command('transfer-leader')
    .argument('[to-id]', 'the node to lead (default: the most caught-up follower)')
    .description('hand leadership to another voter')
    .action(async (toId: string | undefined, _opts: unknown, cmd: Command) => {
      await withClient(cmd, async (client) => {
        const leaderId = await client.transferLeadership(toId ?? '');
        if (globals(cmd).json) printJson({ leaderId });
        else process.stdout.write(`leader is now ${leaderId}\n`);
      });
    });
}
