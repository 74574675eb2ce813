import { repairResetTerm, TermRepairError } from '@fermata/broker';
import { makeClient, type pb, toBigInt } from '@fermata/protocol';
import * as grpc from '@grpc/grpc-js';
import type { Command } from 'commander';
import { globals, tlsOption } from '../context.js';
import { CliError, ExitCode } from '../exit-codes.js';
import { printJson } from '../format.js';
import { parseDuration } from '../parse.js';

/** `--term 42`: a positive integer, or a usage error naming the option. */
function parseTerm(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < 1) {
    throw new CliError(`--term must be a positive integer, got "${value}"`, ExitCode.USAGE);
  }
  return n;
}

/** What one member answered: its id, its term, the voters it counts and its commit index. */
interface MemberTerm {
  readonly nodeId: string;
  readonly term: bigint;
  readonly commitIndex: bigint;
  readonly voters: readonly string[];
}

/**
 * The highest term a majority of the voters reports, asking each endpoint
 * (one node each) for its cluster info. The voters are those of the answer
 * with the highest commit index; the node under repair is stopped, so it is
 * not among those that answer. Throws CliError without a majority.
 */
async function majorityTerm(
  cmd: Command,
  endpoints: readonly string[],
): Promise<{ term: number; asked: MemberTerm[] }> {
  const answers: MemberTerm[] = [];
  const failures: string[] = [];
  await Promise.all(
    endpoints.map(async (endpoint) => {
      try {
        const info = await askNode(cmd, endpoint);
        answers.push({
          nodeId: info.nodeId,
          term: toBigInt(info.term),
          commitIndex: toBigInt(info.commitIndex),
          voters: info.members.filter((m) => m.voter).map((m) => m.id ?? ''),
        });
      } catch (error) {
        failures.push(`${endpoint}: ${(error as Error).message}`);
      }
    }),
  );
  const newest = [...answers].sort((a, b) => (a.commitIndex < b.commitIndex ? 1 : -1))[0];
  const voters = new Set(newest?.voters ?? []);
  const counted = new Map<string, MemberTerm>();
  for (const a of answers) if (voters.has(a.nodeId)) counted.set(a.nodeId, a);
  const quorum = Math.floor(voters.size / 2) + 1;
  if (voters.size === 0 || counted.size < quorum) {
    const heard = [...counted.keys()].join(', ') || 'none';
    throw new CliError(
      `reset-term: a majority of the voters (${quorum} of ${voters.size || '?'}: ${[...voters].join(', ')}) must answer --endpoints to bound this node's votes; answered: ${heard}${failures.length > 0 ? `; failed: ${failures.join('; ')}` : ''}`,
      ExitCode.UNAVAILABLE,
    );
  }
  let term = 0n;
  for (const a of counted.values()) if (a.term > term) term = a.term;
  if (term > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new CliError(
      `reset-term: a member reports term ${term}, beyond what can be repaired to`,
      ExitCode.CONFLICT,
    );
  }
  return { term: Number(term), asked: [...counted.values()] };
}

/**
 * GetClusterInfo from the node at `endpoint` itself (the SDK's client would
 * ask the leader), with the global options' token, TLS and deadline.
 */
function askNode(cmd: Command, endpoint: string): Promise<pb.GetClusterInfoResponse> {
  const g = globals(cmd);
  const tls = tlsOption(g);
  const bytes = (v: string | Uint8Array | undefined) =>
    v === undefined ? null : typeof v === 'string' ? Buffer.from(v) : Buffer.from(v);
  const credentials =
    tls === undefined || tls === false
      ? grpc.credentials.createInsecure()
      : tls === true
        ? grpc.credentials.createSsl()
        : grpc.credentials.createSsl(bytes(tls.ca), bytes(tls.key), bytes(tls.cert));
  const serverName = typeof tls === 'object' ? tls.serverName : undefined;
  const client = makeClient(
    'Cluster',
    endpoint,
    credentials,
    serverName ? { 'grpc.ssl_target_name_override': serverName } : {},
  );
  const metadata = new grpc.Metadata();
  if (g.token) metadata.set('authorization', `Bearer ${g.token}`);
  const deadline = new Date(Date.now() + Math.max(1, parseDuration(g.deadline, '--deadline')));
  return new Promise<pb.GetClusterInfoResponse>((resolve, reject) => {
    client.getClusterInfo({}, metadata, { deadline }, (err, res) => {
      client.close();
      if (err || !res) reject(err ?? new Error('no answer'));
      else resolve(res);
    });
  });
}

/** Whether the global --endpoints was given (on the command line or in FERMATA_ENDPOINTS), not defaulted. */
function endpointsGiven(cmd: Command): boolean {
  const source = cmd.getOptionValueSourceWithGlobals('endpoints');
  return source !== undefined && source !== 'default';
}

/**
 * `fermata repair reset-term --data DIR`: on a stopped node, replaces a Raft
 * term that is out of bounds (beyond what can be incremented, or far past the
 * log's last term) with one above every term the node may have voted in,
 * clearing the vote. With --endpoints, the other members bound those votes
 * when the hard state cannot (a file written before it recorded them).
 * Documented in docs/operations.md ("Repairing an out-of-bounds term").
 */
export function registerRepair(program: Command): void {
  const repair = program.command('repair').description('offline repairs of a stopped node’s data directory');
  repair
    .command('reset-term')
    .description('replace an out-of-bounds Raft term in the hard state (the node must be stopped)')
    .requiredOption('--data <dir>', 'the node’s data directory (its dataDir setting)')
    .option(
      '--term <n>',
      'the new term (default: one above the log’s last term and every term the node may have voted in)',
    )
    .option('--force', 'rewrite the term even when it is within bounds')
    .action(async (opts: { data: string; term?: string; force?: boolean }, cmd: Command) => {
      try {
        const cluster = endpointsGiven(cmd)
          ? await majorityTerm(
              cmd,
              globals(cmd)
                .endpoints.split(',')
                .map((e) => e.trim())
                .filter((e) => e.length > 0),
            )
          : undefined;
        const { before, after, votedTermBound } = await repairResetTerm({
          dataDir: opts.data,
          ...(opts.term !== undefined ? { term: parseTerm(opts.term) } : {}),
          ...(opts.force ? { force: true } : {}),
          ...(cluster ? { clusterTerm: cluster.term } : {}),
        });
        const result = {
          dataDir: opts.data,
          before: before.hardState,
          after,
          lastLogTerm: before.lastLogTerm,
          votedTerm: before.votedTerm,
          votedTermBound,
          ...(cluster
            ? { clusterTerm: cluster.term, askedMembers: cluster.asked.map((a) => `${a.nodeId}@${a.term}`) }
            : {}),
          problem: before.problem ?? '',
        };
        if (globals(cmd).json) printJson(result);
        else {
          process.stdout.write(
            `reset-term ${opts.data}: term ${before.hardState.term} -> ${after.term}, vote "${before.hardState.vote}" -> "", commit ${after.commit} kept (log's last term ${before.lastLogTerm}, votes at most in term ${votedTermBound})\n`,
          );
        }
      } catch (error) {
        if (error instanceof TermRepairError)
          throw new CliError(`reset-term: ${error.message}`, ExitCode.CONFLICT);
        throw error;
      }
    });
}
