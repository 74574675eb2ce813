/**
 * `npm run sim`: the Raft cluster simulator (packages/raft/src/sim), or with
 * `--broker` the whole-cluster broker simulation (packages/broker/src/sim).
 */
if (process.argv.includes('--broker')) await import('../packages/broker/src/sim/cli.js');
else await import('../packages/raft/src/sim/cli.js');
