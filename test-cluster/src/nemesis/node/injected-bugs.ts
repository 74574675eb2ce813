/**
 * Test-only bugs a node of the nemesis can run with (FERMATA_TEST_BUG), to
 * show that a run catches what it is meant to catch. Loaded only by
 * test-node.ts; nothing shipped imports it. Each replaces a method of the
 * shipped code in this process before the server starts.
 */
import { encodeCommand, Proposer, type PublishInput, resolveDue } from '@fermata/broker';

export const INJECTED_BUGS = ['ack-before-commit'] as const;
export type InjectedBug = (typeof INJECTED_BUGS)[number];

interface ProposerInternals {
  readonly node: {
    propose(data: Uint8Array, options?: { durability?: 'quorum' | 'leader' }): Promise<unknown>;
  };
  readonly sm: { readonly limits: Parameters<typeof resolveDue>[2] };
}

export function installBug(name: string): void {
  switch (name) {
    case 'ack-before-commit': {
      // Publishes are answered once the entry is in the leader's own log, before a majority
      // has it: a leader cut off or killed right after loses what it answered.
      const run = Proposer.prototype.run;
      Proposer.prototype.run = async function (this: Proposer, body, nowMs = this.nowMs()) {
        if (body.kind !== 'publish') return run.call(this, body, nowMs);
        const self = this as unknown as ProposerInternals;
        const cmd = { ...body, nowMs };
        await self.node.propose(encodeCommand(cmd), { durability: 'leader' });
        return {
          kind: 'publish',
          results: body.messages.map((m: PublishInput, i: number) => ({
            id: body.firstId + BigInt(i),
            deduplicated: false,
            dueAtMs: resolveDue(m, nowMs, self.sm.limits),
          })),
        };
      };
      return;
    }
    default:
      throw new Error(`FERMATA_TEST_BUG=${name}: no such injected bug (${INJECTED_BUGS.join(', ')})`);
  }
}
