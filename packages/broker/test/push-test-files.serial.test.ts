// TestPush reads the group's files through push.filesDir as the pusher does: one outside it is
// the answer's error, and nothing is sent (a real HTTP receiver counts what arrives).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Clock, systemClock } from '@fermata/base';
import { describe, expect, it } from 'vitest';
import { EndpointPolicy } from '../src/leader/push/endpoint-policy.js';
import { PushFilesPolicy } from '../src/leader/push/files-policy.js';
import { discardPushMetrics } from '../src/leader/push/push-metrics.js';
import { Pusher, type PusherOptions } from '../src/leader/push/pusher.js';
import { SecretFiles } from '../src/leader/push/signature.js';
import { PUSH_DEFAULTS } from '../src/state/model/group-settings.js';

const SECRET = 'do-not-echo-this-secret';

/** Runs `test` with a files directory holding `secret`, and a secret file outside it. */
async function inDir(test: (dir: string, outside: string) => Promise<void>): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'fermata-test-push-'));
  try {
    const dir = join(root, 'push');
    mkdirSync(dir);
    writeFileSync(join(dir, 'secret'), `${SECRET}\n`);
    writeFileSync(join(root, 'tokens'), `${SECRET}\n`);
    await test(dir, join(root, 'tokens'));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** A pusher for TestPush, which uses the policies, the secrets, the clocks and the metrics only: no dispatcher. */
function testPusher(dir: string, clock: Clock): Pusher {
  const files = PushFilesPolicy.parse(dir);
  return new Pusher({
    policy: EndpointPolicy.parse(''),
    files,
    secrets: new SecretFiles(files),
    clock,
    wallMs: () => Date.now(),
    metrics: discardPushMetrics,
  } as unknown as PusherOptions);
}

describe('TestPush and push.filesDir', () => {
  it('TestPush answers a secret outside it as its error and sends nothing', () =>
    inDir(async (dir, outside) => {
      let requests = 0;
      const server = createServer((req, res) => {
        requests++;
        req.resume();
        res.end();
      });
      await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
      try {
        const pusher = testPusher(dir, systemClock);
        const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
        const push = { ...PUSH_DEFAULTS, endpoint: url, headers: {}, secretFile: outside, caFile: '' };
        const answer = await pusher.test({ topic: 't', group: 'hook', queue: 1n, push });
        expect(answer.status).toBe(0);
        expect(answer.error).toMatch(/^settings\.push\.secret_file: .* is not within push\.filesDir/);
        expect(answer.error).not.toContain(SECRET);
        expect(requests).toBe(0);
        // The same group with its secret inside is sent, signed.
        const signed = await pusher.test({
          topic: 't',
          group: 'hook',
          queue: 1n,
          push: { ...push, secretFile: join(dir, 'secret') },
        });
        expect(signed.status).toBe(200);
        expect(signed.signature).toMatch(/^t=\d+,v1=/);
        expect(requests).toBe(1);
      } finally {
        server.closeAllConnections();
        await new Promise<void>((done) => server.close(() => done()));
      }
    }));

  it("the signature's t is the system's wall clock, not the leader's steady clock", () =>
    inDir(async (dir) => {
      const server = createServer((req, res) => {
        req.resume();
        res.end();
      });
      await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
      try {
        // A leader whose steady clock is an hour from the system's (the system clock was stepped since it started).
        const pusher = testPusher(dir, { ...systemClock, nowMs: () => Date.now() + 3_600_000 });
        const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
        const push = {
          ...PUSH_DEFAULTS,
          endpoint: url,
          headers: {},
          secretFile: join(dir, 'secret'),
          caFile: '',
        };
        const before = Date.now();
        const answer = await pusher.test({ topic: 't', group: 'hook', queue: 1n, push });
        const t = Number(/^t=(\d+),/.exec(answer.signature)?.[1]);
        expect(t).toBeGreaterThanOrEqual(before);
        expect(t).toBeLessThanOrEqual(Date.now());
      } finally {
        server.closeAllConnections();
        await new Promise<void>((done) => server.close(() => done()));
      }
    }));
});
