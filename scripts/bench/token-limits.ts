// token-limits: one node with tokens. A "quiet" token publishes single messages from 4
// closed-loop clients and its publish latency is measured three ways: alone, while a "hog"
// token floods publishes at 10 times its per-token limit (limits.publishPerSecond in the token
// file, --hog-limit, default 2,000 messages/s), and, for comparison, while the hog floods with
// no limit at all. Prints the quiet token's p50/p99/max in each phase and what the hog got
// through (accepted and refused per second).
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FermataClient, silentLogger } from '@fermata/sdk';
import { startCluster } from '../../test-cluster/src/harness.js';
import { load1, payloadFor, sleep, startedClusters, stats } from './cluster.js';
import { emit, flag, option, printTargets, reported, round, summary, target } from './report.js';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const QUIET = 'quiet-token-1f3e5d7c9b1a3f5e7d9c1b3a5f7e9d1c';
const HOG = 'hog-token-8a6c4e2f0b8d6a4c2e0f8b6d4a2c0e8f';

interface Phase {
  quiet: ReturnType<typeof stats>;
  quietFailed: number;
  hogAcceptedPerS: number;
  hogRefusedPerS: number;
}

async function phase(endpoints: string[], seconds: number, hogTarget: number): Promise<Phase> {
  const quiet = new FermataClient({ endpoints, token: QUIET, logger: silentLogger });
  const hog = new FermataClient({ endpoints, token: HOG, logger: silentLogger });
  const latencies: number[] = [];
  let quietFailed = 0;
  let accepted = 0;
  let refused = 0;
  let running = true;
  const quietLoops = Array.from({ length: 4 }, async (_, w) => {
    for (let i = 0; running; i++) {
      const at = performance.now();
      try {
        await quiet.publish('bench-quiet', payloadFor(w * 10_000_000 + i), { delayMs: 3_600_000 });
        latencies.push(performance.now() - at);
      } catch {
        quietFailed++;
      }
    }
  });
  // The hog: batches of 100 from 16 loops, paced to `hogTarget` messages a second in all.
  const hogLoops =
    hogTarget === 0
      ? []
      : Array.from({ length: 16 }, async () => {
          const perLoopBatchesPerS = hogTarget / 100 / 16;
          while (running) {
            const at = performance.now();
            try {
              await hog.publishBatch(
                Array.from({ length: 100 }, (_, i) => ({
                  topic: 'bench-hog',
                  payload: payloadFor(i),
                  delayMs: 3_600_000,
                })),
              );
              accepted += 100;
            } catch {
              refused += 100;
            }
            const wait = 1000 / perLoopBatchesPerS - (performance.now() - at);
            if (wait > 0) await sleep(wait);
          }
        });
  await sleep(seconds * 1000);
  running = false;
  await Promise.all([...quietLoops, ...hogLoops]);
  await Promise.all([quiet.close(), hog.close()]);
  return {
    quiet: stats(latencies),
    quietFailed,
    hogAcceptedPerS: round(accepted / seconds, 0),
    hogRefusedPerS: round(refused / seconds, 0),
  };
}

export async function run(args: string[]): Promise<void> {
  const quick = flag(args, 'quick');
  const seconds = option(args, 'seconds', quick ? 3 : 20);
  const hogLimit = option(args, 'hog-limit', 2_000);
  const dir = mkdtempSync(join(tmpdir(), 'fermata-bench-tokens-'));
  const tokens = (limit: number) =>
    `tokens:
  - name: quiet
    sha256: ${sha256(QUIET)}
    publish: ["*"]
  - name: hog
    sha256: ${sha256(HOG)}
    publish: ["*"]
    limits: { publishPerSecond: ${limit} }
`;
  const file = join(dir, 'tokens.yaml');
  writeFileSync(file, tokens(hogLimit));
  const cluster = await startCluster({
    nodes: 1,
    keep: true,
    env: {
      FERMATA_LOG_LEVEL: 'warn',
      FERMATA_AUTH__TOKENS_FILE: file,
      FERMATA_HTTP__AUTH: 'off',
      FERMATA_CREDENTIALS_RELOAD_INTERVAL_MS: '200',
    },
  });
  startedClusters.push({ cluster, keep: flag(args, 'keep') });
  const endpoints = [...cluster.endpoints];
  try {
    const alone = await phase(endpoints, seconds, 0);
    const limited = await phase(endpoints, seconds, 10 * hogLimit);
    // The same flood with the hog's limit off (0 = none): what the limit spares the others.
    writeFileSync(file, tokens(0));
    await sleep(1_000);
    const unlimited = await phase(endpoints, seconds, 10 * hogLimit);
    const record = {
      scenario: 'token-limits',
      seconds,
      hog_limit_per_s: hogLimit,
      hog_offered_per_s: 10 * hogLimit,
      quiet_alone: alone.quiet,
      quiet_with_hog_at_limit: limited.quiet,
      quiet_failed_with_hog_at_limit: limited.quietFailed,
      hog_accepted_per_s_at_limit: limited.hogAcceptedPerS,
      hog_refused_per_s_at_limit: limited.hogRefusedPerS,
      quiet_with_hog_unlimited: unlimited.quiet,
      hog_accepted_per_s_unlimited: unlimited.hogAcceptedPerS,
      load1: load1(),
      targets: [
        target('quiet_p99_ms_with_hog_at_limit', limited.quiet.p99, '<=', 50, !quick),
        reported('quiet_p99_ms_alone', alone.quiet.p99),
        reported('quiet_p99_ms_with_hog_unlimited', unlimited.quiet.p99),
      ],
    };
    emit(record);
    summary(
      `token-limits: quiet token's publish p99 ${alone.quiet.p99} ms alone, ${limited.quiet.p99} ms with the hog at its limit ` +
        `(${limited.hogAcceptedPerS}/s accepted of ${10 * hogLimit}/s offered, ${limited.hogRefusedPerS}/s refused), ` +
        `${unlimited.quiet.p99} ms with the hog unlimited (${unlimited.hogAcceptedPerS}/s accepted)`,
    );
    printTargets('token-limits', record.targets);
  } finally {
    await cluster.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
