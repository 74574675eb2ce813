// Real `fermata serve` processes and real `fermata` CLI runs, for the CLI tests.
// Nodes use the port scheme of scripts/start: node i (1-based) listens on
// base+10*(i-1) (client), +1 (peer), +2 (HTTP).

import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { FermataClient } from '@fermata/sdk';
import { fermataArgv } from '@fermata/test-cluster';
import { afterAll, beforeAll } from 'vitest';

export const ROOT = resolve(import.meta.dirname, '../../..');
export const BUILT_MAIN = join(ROOT, 'packages/cli/dist/main.js');

/** The client's variables, never inherited by a test's child processes. */
const CLIENT_VARS = ['FERMATA_ENDPOINTS', 'FERMATA_TOKEN', 'FERMATA_DEADLINE'];

/** How far a node's "now" may trail Date.now() read just before (SteadyClock floors; see test-cluster's harness). */
export const NODE_CLOCK_LAG_MS = 5;

export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const k of CLIENT_VARS) delete env[k];
  return { ...env, ...extra };
}

function portFree(port: number): Promise<boolean> {
  return new Promise((done) => {
    const srv = createServer();
    srv.once('error', () => done(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => done(true)));
  });
}

/** A base port whose 3 ports per node (scripts/start's scheme) are all free now. */
export async function freeBasePort(nodes: number): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const base = 20_000 + 10 * Math.floor(Math.random() * 3_000);
    const ports = Array.from({ length: nodes }, (_, i) => [0, 1, 2].map((o) => base + 10 * i + o)).flat();
    const free = await Promise.all(ports.map(portFree));
    if (free.every(Boolean)) return base;
  }
  throw new Error('no free base port found');
}

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `fermata-${prefix}-`));
}

export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs: number,
  intervalMs = 200,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe().catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

async function readyz(httpPort: number): Promise<true | undefined> {
  const res = await fetch(`http://127.0.0.1:${httpPort}/readyz`);
  return res.ok ? true : undefined;
}

/** Resolves with the exit code (or 128 + signal number) when the child ends. */
export function exited(child: ChildProcess): Promise<number> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((done) =>
    child.once('exit', (code, signal) => done(code ?? (signal === 'SIGKILL' ? 137 : 143))),
  );
}

export interface TestCluster {
  readonly dir: string;
  readonly basePort: number;
  readonly endpoints: string;
  readonly children: ChildProcess[];
  /** SIGTERM to every node; resolves with their exit codes. */
  stop(): Promise<number[]>;
}

/** Starts `nodes` `fermata serve` processes from the sources and waits until each reports a leader. */
export async function startCluster(nodes: number): Promise<TestCluster> {
  const dir = tempDir('cli-cluster');
  const basePort = await freeBasePort(nodes);
  const at = (i: number, o: number) => `127.0.0.1:${basePort + 10 * (i - 1) + o}`;
  const ids = Array.from({ length: nodes }, (_, i) => i + 1);
  const members = ids.map((i) => `n${i}=${at(i, 1)}/${at(i, 0)}`).join(',');
  const children = ids.map((i) => {
    const nodeDir = join(dir, `n${i}`);
    mkdirSync(nodeDir, { recursive: true });
    const log = createWriteStream(join(nodeDir, 'server.log'));
    const child = spawn(process.execPath, fermataArgv(['serve']), {
      cwd: ROOT,
      env: cleanEnv({
        FERMATA_NODE_ID: `n${i}`,
        FERMATA_DATA_DIR: nodeDir,
        FERMATA_CLIENT__LISTEN_ADDRESS: at(i, 0),
        FERMATA_PEER__LISTEN_ADDRESS: at(i, 1),
        FERMATA_HTTP__LISTEN_ADDRESS: at(i, 2),
        FERMATA_INITIAL_MEMBERS: members,
        FERMATA_LOG_LEVEL: 'warn',
        // The CLI tests publish to fresh topics; topic creation itself is tested in test-cluster.
        FERMATA_TOPICS__AUTO_CREATE: 'true',
      }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.pipe(log);
    child.stderr!.pipe(log);
    return child;
  });
  const cluster: TestCluster = {
    dir,
    basePort,
    endpoints: ids.map((i) => at(i, 0)).join(','),
    children,
    async stop() {
      for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
      const codes = await Promise.all(children.map(exited));
      rmSync(dir, { recursive: true, force: true });
      return codes;
    },
  };
  try {
    await waitFor(
      'every node to know a leader',
      async () => {
        for (const c of children) if (c.exitCode !== null) throw new Error('a node exited during start-up');
        const ok = await Promise.all(ids.map((i) => readyz(basePort + 10 * (i - 1) + 2)));
        return ok.every(Boolean) ? true : undefined;
      },
      90_000,
    );
  } catch (err) {
    await cluster.stop();
    throw err;
  }
  return cluster;
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  endpoints?: string;
  input?: string;
  env?: Record<string, string>;
  /** Run the built CLI (packages/cli/dist) whatever FERMATA_TEST_BUILD says. */
  built?: boolean;
  timeoutMs?: number;
}

/** Runs `fermata <args>` to completion. */
export function runCli(args: readonly string[], options: CliOptions = {}): Promise<CliResult> {
  const env = cleanEnv({
    ...(options.endpoints !== undefined ? { FERMATA_ENDPOINTS: options.endpoints } : {}),
    ...options.env,
  });
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, options.built ? [BUILT_MAIN, ...args] : fermataArgv(args), {
      cwd: ROOT,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(
        new Error(
          `fermata ${args.join(' ')} did not finish in ${options.timeoutMs ?? 120_000} ms: ${stderr}`,
        ),
      );
    }, options.timeoutMs ?? 120_000);
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code: code ?? -1, stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}

/** The lines of a text, without the empty last one. */
export function lines(text: string): string[] {
  return text.split('\n').filter((l, i, all) => !(l === '' && i === all.length - 1));
}

/**
 * A cluster of `nodes` started before the file's tests and stopped after
 * them, with an SDK client of it and the CLI aimed at it.
 */
export function clusterForFile(nodes: number): {
  cluster: () => TestCluster;
  client: () => FermataClient;
  cli: (args: string[], options?: CliOptions) => Promise<CliResult>;
} {
  let cluster: TestCluster | undefined;
  let client: FermataClient | undefined;
  beforeAll(async () => {
    cluster = await startCluster(nodes);
    client = new FermataClient({ endpoints: cluster.endpoints });
  }, 120_000);
  afterAll(async () => {
    await client?.close();
    await cluster?.stop();
  }, 60_000);
  return {
    cluster: () => cluster!,
    client: () => client!,
    cli: (args, options = {}) => runCli(args, { endpoints: cluster!.endpoints, ...options }),
  };
}
