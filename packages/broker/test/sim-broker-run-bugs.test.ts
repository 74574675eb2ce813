// The injected bugs of the run leases, of pause and deadlines, of per-key ordering and of the
// group limits
// (packages/broker/src/sim/README.md, "Injected bugs"), each pinned to a seed of the catch-rate run
// over fresh seeds 201001-202000 (8 s of chaos, every fourth seed hostile, as `npm run sim --
// --broker` draws them) that catches it; the same seed as shipped keeps every rule, so the bug
// broke it. The ordering bugs' seeds are ones that order their topic (`orderingForBrokerSeed`:
// seed % 8 === 6). If the simulation changes and a seed no longer catches its bug, find another with
//   npm run sim -- --broker --seeds 1000 --first 201001 --bug NAME [--ordering on]
import { describe, expect, it } from 'vitest';
import type { InjectedBug } from '../src/sim/injected-bugs.js';
import { DEFAULT_CHAOS_MS, faultsForBrokerSeed, nodesForBrokerSeed } from '../src/sim/run-options.js';
import { type BrokerSimOptions, runBrokerSeed } from '../src/sim/simulation.js';

function optionsFor(seed: number): BrokerSimOptions {
  return {
    seed,
    nodes: nodesForBrokerSeed(seed),
    chaosMs: DEFAULT_CHAOS_MS,
    faults: faultsForBrokerSeed(seed),
  };
}

const DELIVERED_AFTER_ACK = /^delivery of \d+ attempt \d+ at \d+ on n\d: after an ack answered OK at \d+$/;
const NEGATIVE_COUNTER = /^invariant broken: negative counter in queue /;

describe('the broker simulation catches the injected bugs of the run leases and the delivery controls', () => {
  it.each<[string, InjectedBug, number, string, RegExp]>([
    [
      "an ack applied to another live run of the queue ends that run's message, and its own is delivered again",
      'ack-wrong-lease',
      201002,
      'acknowledged-publish-ends-as-answered',
      DELIVERED_AFTER_ACK,
    ],
    [
      "a lease index that misses later settles takes a settled offset again: a queue's counter goes negative",
      'lapse-ignores-settled',
      201022,
      'node-fatal',
      NEGATIVE_COUNTER,
    ],
    [
      // What the index missed depends on how each replica's log was cut into apply batches.
      'a lease index that misses later settles makes replicas disagree',
      'lapse-ignores-settled',
      201001,
      'replicas-converge-and-deliver',
      /^state digests differ/,
    ],
    [
      "an ack's per-key deletes reaching one key past its run's last key lose a message nobody acked",
      'delete-past-run',
      201060,
      'acknowledged-publish-ends-as-answered',
      /is gone, (never delivered|delivered but never acked), not cancelled, no TTL$/,
    ],
    [
      // A lease proposed before the pause applied (the dispatcher read the queue unpaused) leases after it.
      'an apply that leases whatever the pause leases from a paused queue',
      'lease-while-paused',
      201001,
      'paused-queue-leases-nothing',
      /^entry \d+ leased \d+ message\(s\) of sim\/default at \d+ while sim(\/default)? was paused$/,
    ],
    [
      'an apply that checks the deadline at the first lease only leases a redelivery past it',
      'redelivery-past-deadline',
      201001,
      'no-lease-past-deadline',
      /^entry \d+ leased \d+ from \d+ \(command at \d+\), at or after its deadline \d+$/,
    ],
    [
      "a nack that lets its key's head go: the next message and the head are leased at once",
      'ordering-head-released-on-nack',
      201022,
      'key-leased-alone',
      /^ordering key o\d: #\d+ attempt \d+ sent at \d+ \(true \d+\) while #\d+ attempt \d+ .* not settled$/,
    ],
    [
      "a message due before its key's undelivered front that waits behind it is delivered after it",
      'ordering-no-swap',
      201022,
      'key-due-order',
      /^ordering key o\d: #\d+ \(due \d+, stored by \d+\) delivered at \d+, after #\d+ \(due \d+\) was first delivered at \d+$/,
    ],
    [
      // The seed's group has max_in_flight 1 (and a rate of 5/s), three consumers.
      'max_in_flight counted per consumer lets the group hold more leases at once than its limit',
      'in-flight-per-consumer',
      201006,
      'in-flight-within-limit',
      /^\d+ leases of sim\/default ran at \d+, over max_in_flight 1$/,
    ],
    [
      // Rate 2/s, burst 7: the first leader's full bucket, then the next one's at once after its election.
      'a new leader whose token bucket starts full lets a burst through on top of the previous leader`s last deliveries',
      'bucket-full-on-failover',
      201011,
      'rate-within-limit',
      /^\d+ leases of sim\/default started within \d+ ms/,
    ],
  ])(
    '%s (%s, seed %i)',
    async (_name, bug, seed, rule, message) => {
      const withBug = await runBrokerSeed({ ...optionsFor(seed), bug });
      expect(withBug.violation?.rule, withBug.violation?.message).toBe(rule);
      expect(withBug.violation?.message).toMatch(message);
      const shipped = await runBrokerSeed(optionsFor(seed));
      expect(shipped.ok, `${shipped.violation?.rule}: ${shipped.violation?.message}`).toBe(true);
    },
    300_000,
  );
});
