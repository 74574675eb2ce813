// ./scripts/start as a user runs it: a child process that becomes ready,
// serves the built CLI, stops cleanly on SIGTERM (exit 0), and finds its
// pending messages again when started a second time on the same data.

import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type RaftClient, RaftService } from '@fermata/protocol';
import * as grpc from '@grpc/grpc-js';
import { afterAll, expect, test } from 'vitest';
import { cleanEnv, exited, freeBasePort, lines, ROOT, runCli, tempDir, waitFor } from './fixture.js';

const dataDir = tempDir('start');
const running = new Set<ChildProcess>();

afterAll(async () => {
  for (const child of running) {
    child.kill('SIGTERM');
    await exited(child);
  }
  rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

/** Sends an empty Raft batch to a peer port without any credentials; resolves with the status code. */
function raftCall(address: string): Promise<grpc.status> {
  const Ctor = grpc.makeGenericClientConstructor(RaftService as unknown as grpc.ServiceDefinition, 'Raft');
  const client = new Ctor(address, grpc.credentials.createInsecure()) as unknown as RaftClient;
  return new Promise<grpc.status>((resolve) => {
    const call = client.sendMessages(new grpc.Metadata(), {}, (e) => resolve(e ? e.code : grpc.status.OK));
    call.on('error', () => undefined);
    call.write({ clusterId: 'fermata', from: 'n9', messages: [] });
    call.end();
  }).finally(() => client.close());
}

interface Started {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
}

/** Starts ./scripts/start (never `npm ci` inside the shared checkout) and waits for "start: ready". */
async function start(args: string[], options: { detached?: boolean } = {}): Promise<Started> {
  const child = spawn(join(ROOT, 'scripts/start'), ['--no-install', ...args], {
    cwd: ROOT,
    // Its own process group, to send it Ctrl-C the way a terminal does.
    detached: options.detached === true,
    env: cleanEnv({ FERMATA_ENDPOINTS: '127.0.0.1:1' }), // the script must not pass this to the nodes
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  await waitFor(
    'scripts/start to print "start: ready"',
    async () => {
      if (child.exitCode !== null) throw new Error(`scripts/start exited ${child.exitCode}: ${stderr}`);
      return stderr.includes('start: ready') ? true : undefined;
    },
    // A stale build is rebuilt first.
    240_000,
    250,
  );
  return { child, stdout: () => stdout, stderr: () => stderr };
}

test('scripts/start --nodes 1 becomes ready, serves the CLI, stops on SIGTERM with 0; a restart finds the pending message and stops on Ctrl-C with 0; --restore starts a new cluster from its backup', async () => {
  const basePort = await freeBasePort(1);
  const endpoint = `127.0.0.1:${basePort}`;
  const args = ['--nodes', '1', '--data', dataDir, '--base-port', String(basePort)];
  const first = await start(args);

  // It prints the endpoints and a copy-pasteable example.
  expect(first.stdout()).toContain(`Endpoints: ${endpoint}`);
  expect(first.stdout()).toContain(`export FERMATA_ENDPOINTS=${endpoint}`);
  expect(first.stdout()).toMatch(/fermata topics create \S+/);
  expect(first.stdout()).toMatch(/fermata publish \S+ .+ --delay \S+/);
  expect(first.stdout()).toMatch(/fermata consume \S+ --count 1/);
  expect(first.stdout()).toContain("import { FermataClient } from '@fermata/sdk'");
  // The SDK example is for the user's own project: install the packed SDK there.
  expect(first.stdout()).toContain("require('@fermata/sdk')");
  expect(first.stdout()).toMatch(/npm install \S+\/release\/fermata-sdk-\d+\.\d+\.\d+\.tgz/);
  expect(first.stdout()).not.toContain('inside this repository');
  // The printed `npx fermata ...` lines work in the repository.
  const npx = await promisify(execFile)('npx', ['--no-install', 'fermata', 'status', '--json'], {
    cwd: ROOT,
    env: cleanEnv({ FERMATA_ENDPOINTS: endpoint }),
  });
  expect(JSON.parse(npx.stdout)).toMatchObject({ leaderAddress: endpoint });
  expect(first.stdout()).toContain(`http://127.0.0.1:${basePort + 2}/`);

  // A cluster secret was made in the data directory, readable by its owner only; a process
  // without it cannot speak Raft to the node.
  const secretFile = join(dataDir, 'cluster.secret');
  const secret = readFileSync(secretFile, 'utf8').trim();
  expect(secret).toMatch(/^[0-9a-f]{64}$/);
  expect(statSync(secretFile).mode & 0o777).toBe(0o600);
  expect(first.stderr()).toContain(`start: generated a cluster secret in ${secretFile}`);
  expect(await raftCall(`127.0.0.1:${basePort + 1}`)).toBe(grpc.status.UNAUTHENTICATED);

  const cli = (a: string[]) => runCli(a, { endpoints: endpoint, built: true });
  expect((await cli(['topics', 'create', 'start-test'])).code).toBe(0);
  const now = await cli(['publish', 'start-test', 'right away']);
  expect(now.code).toBe(0);
  const pending = await cli([
    'publish',
    'start-test',
    'tomorrow',
    '--delay',
    '1d',
    '--key',
    'later',
    '--json',
  ]);
  expect(pending.code).toBe(0);
  const pendingId = (JSON.parse(lines(pending.stdout)[0]!) as { id: string }).id;
  const consumed = await cli(['consume', 'start-test', '--count', '1', '--timeout', '30s']);
  expect(consumed).toMatchObject({ code: 0, stdout: 'right away\n' });

  first.child.kill('SIGTERM');
  expect(await exited(first.child)).toBe(0);
  expect(first.stderr()).toMatch(/start: stopped; data kept in /);
  const log = readFileSync(join(dataDir, 'n1', 'server.log'), 'utf8');
  expect(log).toMatch(/"msg":"stopped"/);
  // The node is gone: its port answers no more.
  const gone = await runCli(['status', '--deadline', '500ms'], { endpoints: endpoint, built: true });
  expect(gone.code).toBe(4);

  // Same data, layout remembered: no flags needed besides --data.
  expect(existsSync(join(dataDir, 'cluster.env'))).toBe(true);
  const second = await start(['--data', dataDir], { detached: true });
  // The same secret again: the members of one data directory keep theirs.
  expect(readFileSync(secretFile, 'utf8').trim()).toBe(secret);
  expect(second.stderr()).not.toContain('generated a cluster secret');
  const got = await cli(['messages', 'get', 'start-test', '--key', 'later', '--json']);
  expect(got.code).toBe(0);
  expect(JSON.parse(got.stdout)).toMatchObject({
    id: pendingId,
    payload: 'tomorrow',
    groups: [{ group: 'default', state: 'pending' }],
  });
  const stats = JSON.parse((await cli(['topics', 'stats', 'start-test', '--json'])).stdout) as {
    groups: { pending: number; inFlight: number }[];
  };
  expect(stats.groups[0]).toMatchObject({ pending: 1, inFlight: 0 });
  const backupFile = join(dataDir, 'start-test.fmbk');
  const backup = await cli(['backup', '--out', backupFile, '--json']);
  expect(backup.code).toBe(0);
  expect(JSON.parse(backup.stdout)).toMatchObject({ clusterId: 'fermata', messages: 1 });

  // Ctrl-C in a terminal: SIGINT to the whole foreground process group (script and nodes).
  process.kill(-second.child.pid!, 'SIGINT');
  expect(await exited(second.child)).toBe(0);
  expect(readFileSync(join(dataDir, 'n1', 'server.log'), 'utf8').match(/"msg":"stopped"/g)).toHaveLength(2);

  // A new cluster from the backup: another data directory, another cluster id, the same message.
  const restoredPort = await freeBasePort(1);
  const restoredDir = join(dataDir, 'restored');
  const third = await start([
    '--restore',
    backupFile,
    '--data',
    restoredDir,
    '--nodes',
    '1',
    '--base-port',
    String(restoredPort),
  ]);
  expect(third.stderr()).toMatch(/start: restoring n1 from /);
  const rcli = (a: string[]) => runCli(a, { endpoints: `127.0.0.1:${restoredPort}`, built: true });
  const restored = await rcli(['messages', 'get', 'start-test', '--key', 'later', '--json']);
  expect(JSON.parse(restored.stdout)).toMatchObject({ id: pendingId, payload: 'tomorrow' });
  const status = JSON.parse((await rcli(['status', '--json'])).stdout) as { clusterId: string };
  expect(status.clusterId).toMatch(/^fermata-restored-/);
  third.child.kill('SIGTERM');
  expect(await exited(third.child)).toBe(0);
}, 400_000);

test('scripts/start refuses a data directory created with another layout (exit 2, one line)', async () => {
  const dir = tempDir('start-layout');
  try {
    const r = await new Promise<{ code: number; stderr: string }>((done) => {
      // A layout file as a previous start would have left it.
      const setup = spawn('sh', ['-c', `printf 'NODES=3\\nBASE_PORT=7400\\n' > "${dir}/cluster.env"`]);
      setup.on('exit', () => {
        const child = spawn(
          join(ROOT, 'scripts/start'),
          ['--no-install', '--no-build', '--data', dir, '--nodes', '1'],
          {
            cwd: ROOT,
            env: cleanEnv(),
          },
        );
        let stderr = '';
        child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
        child.on('exit', (code) => done({ code: code ?? -1, stderr }));
      });
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/holds a cluster of 3 node\(s\); start it with --nodes 3/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
