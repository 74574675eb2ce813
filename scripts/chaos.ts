/**
 * `npm run chaos -- --minutes N [--seed S] [--faults kill,pause,...] [--bug NAME] [--keep]`:
 * the randomized nemesis over three real nodes (test-cluster/src/nemesis).
 * Prints the faults as they come, then one summary and a JSON line; exit 1
 * when the checker found a violation (the seed replays the same draws; the
 * nodes' timing does not replay).
 */
import { parseArgs } from 'node:util';
import { FAULT_NAMES } from '../test-cluster/src/nemesis/faults.js';
import { INJECTED_BUGS } from '../test-cluster/src/nemesis/node/injected-bugs.js';
import { runChaos } from '../test-cluster/src/nemesis/run.js';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '2' },
    seed: { type: 'string' },
    faults: { type: 'string' },
    bug: { type: 'string' },
    keep: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (values.help) {
  process.stdout.write(
    `npm run chaos -- --minutes N [--seed S] [--faults ${FAULT_NAMES.join(',')}] [--bug ${INJECTED_BUGS.join('|')}] [--keep]\n`,
  );
  process.exit(0);
}
const minutes = Number(values.minutes);
if (!(minutes > 0)) throw new Error(`--minutes must be a positive number, got "${values.minutes}"`);
const seed = values.seed !== undefined ? Number(values.seed) : Math.floor(Math.random() * 1_000_000);
if (!Number.isSafeInteger(seed)) throw new Error(`--seed must be an integer, got "${values.seed}"`);
const faults = values.faults?.split(',').map((f) => f.trim());
for (const f of faults ?? []) {
  if (!FAULT_NAMES.includes(f)) throw new Error(`--faults: no fault "${f}" (${FAULT_NAMES.join(', ')})`);
}
if (values.bug !== undefined && !(INJECTED_BUGS as readonly string[]).includes(values.bug)) {
  throw new Error(`--bug: no injected bug "${values.bug}" (${INJECTED_BUGS.join(', ')})`);
}

process.stdout.write(
  `chaos: seed ${seed}, ${minutes} min of faults (${(faults ?? FAULT_NAMES).join(', ')})${values.bug ? `, injected bug ${values.bug}` : ''}\n`,
);
const r = await runChaos({
  seed,
  chaosMs: Math.round(minutes * 60_000),
  ...(faults ? { faults } : {}),
  ...(values.bug ? { bug: values.bug } : {}),
  keep: values.keep,
  log: (line) => process.stdout.write(`${line}\n`),
});
const faultList = Object.entries(r.faults)
  .filter(([, n]) => n > 0)
  .map(([k, n]) => `${k} ${n}`)
  .join(', ');
process.stdout.write(`faults: ${faultList}\n`);
const counts = `${r.stats['publishesAcknowledged'] ?? 0} publishes acknowledged, ${r.stats['deliveries'] ?? 0} deliveries, ${r.stats['acksOk'] ?? 0} acks, ${r.stats['cancels'] ?? 0} cancels, ${r.stats['reschedules'] ?? 0} reschedules, ${r.stats['scheduleMessages'] ?? 0} schedule occurrences`;
// Every rule held: nothing acknowledged lost, nothing early, attempts never down, cancel and reschedule held.
process.stdout.write(r.ok ? `PASSED: ${counts}; lost 0, early 0\n` : `FAILED: ${counts}\n`);
if (r.violation) {
  process.stdout.write(
    `violation: ${r.violation.rule}${r.violation.id !== undefined ? ` (message ${r.violation.id})` : ''}: ${r.violation.message}\n`,
  );
  process.stdout.write(`trace:\n  ${r.traceTail.join('\n  ')}\n`);
}
if (r.dir) process.stdout.write(`data and node logs kept in ${r.dir}\n`);
process.stdout.write(
  `${JSON.stringify({ ok: r.ok, seed: r.seed, faults: r.faults, ...r.stats, violation: r.violation?.rule })}\n`,
);
process.exit(r.ok ? 0 : 1);
