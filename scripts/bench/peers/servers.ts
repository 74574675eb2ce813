/**
 * The peers' servers for `npm run bench -- peers`: Redis and PostgreSQL from Debian's packages
 * (installed with apt-get when missing and this process is root), each started by this process
 * in a temporary directory of its own on a free loopback port, and stopped by its pid. The
 * system's own service units are never started: a package's install is wrapped in a
 * `policy-rc.d` that refuses them when the machine has none.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import {
  chownSync,
  existsSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, sleep } from '../../../test-cluster/src/harness.js';

const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 60_000;
const POLICY_RC = '/usr/sbin/policy-rc.d';

/** A server this process started: its root pid, where it keeps its data, how to stop it. */
export interface PeerServer {
  readonly name: string;
  readonly version: string;
  readonly pid: number;
  readonly port: number;
  readonly dataDir: string;
  readonly url: string;
  stop(): Promise<void>;
}

/** Debian's package for each program the peers need, by the binary that shows it is installed. */
function missingPackages(): string[] {
  const missing: string[] = [];
  if (!onPath('redis-server')) missing.push('redis-server');
  if (!postgresBin()) missing.push('postgresql');
  return missing;
}

/** Installs what is missing (apt-get update first); as root only, otherwise says what to install. */
export function ensureInstalled(log: (line: string) => void): void {
  const missing = missingPackages();
  if (missing.length === 0) return;
  if (process.getuid?.() !== 0) {
    throw new Error(
      `the peer benchmark needs ${missing.join(' and ')}: run as root, or apt-get install ${missing.join(' ')}`,
    );
  }
  log(`installing ${missing.join(', ')} from Debian's packages (apt-get)`);
  // Debian's postinst scripts start the packages' own services (Redis on 6379, a PostgreSQL
  // cluster on 5432); a policy-rc.d answering 101 keeps them from doing so.
  const ownPolicy = !existsSync(POLICY_RC);
  if (ownPolicy) writeFileSync(POLICY_RC, '#!/bin/sh\nexit 101\n', { mode: 0o755 });
  try {
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    execFileSync('apt-get', ['update'], { stdio: ['ignore', 'ignore', 'inherit'], env });
    execFileSync('apt-get', ['install', '-y', '--no-install-recommends', ...missing], {
      stdio: ['ignore', 'ignore', 'inherit'],
      env,
    });
  } finally {
    if (ownPolicy) unlinkSync(POLICY_RC);
  }
  const still = missingPackages();
  if (still.length > 0) throw new Error(`apt-get did not install ${still.join(', ')}`);
}

function onPath(program: string): boolean {
  return (process.env['PATH'] ?? '').split(':').some((dir) => dir && existsSync(join(dir, program)));
}

/** The newest installed PostgreSQL's bin directory (Debian: /usr/lib/postgresql/<major>/bin). */
function postgresBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const majors = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return majors[0] === undefined ? undefined : join(root, majors[0], 'bin');
}

/**
 * Redis with an append-only file fsynced on every write (`appendfsync always`: an added job is
 * on disk when the call returns, as a Fermata publish is on a majority's disks), RDB snapshots
 * off, `noeviction` (what BullMQ requires), loopback only.
 */
export async function startRedis(): Promise<PeerServer> {
  const dir = mkdtempSync(join(tmpdir(), 'fermata-peers-redis-'));
  const port = await freePort();
  const version =
    /v=(\S+)/.exec(execFileSync('redis-server', ['--version'], { encoding: 'utf8' }))?.[1] ?? '?';
  const log = openSync(join(dir, 'redis.log'), 'a');
  const child = spawn(
    'redis-server',
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      dir,
      '--appendonly',
      'yes',
      '--appendfsync',
      'always',
      '--save',
      '',
      '--maxmemory-policy',
      'noeviction',
      '--daemonize',
      'no',
    ],
    { stdio: ['ignore', log, log] },
  );
  const pid = pidOf(child, 'redis-server');
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (!(await redisPing(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`redis-server did not answer on port ${port}: ${tail(join(dir, 'redis.log'))}`);
    }
    await sleep(100);
  }
  return {
    name: 'redis',
    version,
    pid,
    port,
    dataDir: dir,
    url: `redis://127.0.0.1:${port}`,
    stop: () => stopChild(child, 'SIGTERM', dir),
  };
}

/** One PING over a plain socket: true when Redis answers PONG. */
function redisPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    const done = (ok: boolean) => {
      s.destroy();
      resolve(ok);
    };
    s.setTimeout(1_000, () => done(false));
    s.once('error', () => done(false));
    s.once('connect', () => s.write('PING\r\n'));
    s.once('data', (d) => done(d.toString().startsWith('+PONG')));
  });
}

/**
 * PostgreSQL with initdb's defaults (fsync on, synchronous_commit on, shared_buffers 128 MB),
 * trust authentication, listening on loopback only, its socket in its own directory. As root
 * the server runs as Debian's `postgres` user (initdb refuses root).
 */
export async function startPostgres(): Promise<PeerServer> {
  const bin = postgresBin();
  if (!bin) throw new Error('PostgreSQL is not installed (apt-get install postgresql)');
  const dir = mkdtempSync(join(tmpdir(), 'fermata-peers-postgres-'));
  const data = join(dir, 'data');
  const port = await freePort();
  const owner = process.getuid?.() === 0 ? postgresUser() : undefined;
  if (owner) chownSync(dir, owner.uid, owner.gid);
  const as = owner ? { uid: owner.uid, gid: owner.gid } : {};
  const env = { ...process.env, ...(owner ? { HOME: dir, USER: 'postgres' } : {}) };
  execFileSync(
    join(bin, 'initdb'),
    ['-D', data, '--auth=trust', '--username=postgres', '--encoding=UTF8', '--locale=C.UTF-8'],
    { ...as, env, cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  // "postgres (PostgreSQL) 15.18 (Debian 15.18-0+deb12u1)"
  const version =
    /\) (\d[\d.]*)/.exec(execFileSync(join(bin, 'postgres'), ['--version'], { encoding: 'utf8' }))?.[1] ??
    '?';
  const log = openSync(join(dir, 'postgres.log'), 'a');
  if (owner) chownSync(join(dir, 'postgres.log'), owner.uid, owner.gid);
  const child = spawn(
    join(bin, 'postgres'),
    [
      '-D',
      data,
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      `port=${port}`,
      '-c',
      `unix_socket_directories=${dir}`,
    ],
    { ...as, env, cwd: dir, stdio: ['ignore', log, log] },
  );
  const pid = pidOf(child, 'postgres');
  // postmaster.pid's eighth line reads "ready" once the server accepts connections.
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (!isReady(join(data, 'postmaster.pid'))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`postgres did not become ready on port ${port}: ${tail(join(dir, 'postgres.log'))}`);
    }
    await sleep(100);
  }
  return {
    name: 'postgresql',
    version,
    pid,
    port,
    dataDir: data,
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    // SIGINT is PostgreSQL's fast shutdown: open sessions are ended, the data is checkpointed.
    stop: () => stopChild(child, 'SIGINT', dir),
  };
}

function postgresUser(): { uid: number; gid: number } {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('postgres:'));
  const f = line?.split(':');
  if (!f) throw new Error("no 'postgres' user: PostgreSQL's Debian package creates it");
  return { uid: Number(f[2]), gid: Number(f[3]) };
}

function isReady(pidFile: string): boolean {
  try {
    return readFileSync(pidFile, 'utf8').split('\n')[7]?.trim() === 'ready';
  } catch {
    return false;
  }
}

function pidOf(child: ChildProcess, program: string): number {
  if (child.pid === undefined) throw new Error(`${program} could not be started`);
  const pid = child.pid;
  // A last resort if this process ends without stopping it (a thrown error past every finally).
  process.once('exit', () => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  return pid;
}

async function stopChild(child: ChildProcess, signal: NodeJS.Signals, dir: string): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill(signal);
    const stopped = await Promise.race([exited.then(() => true), sleep(STOP_TIMEOUT_MS).then(() => false)]);
    if (!stopped) {
      child.kill('SIGKILL');
      await exited;
    }
  }
  rmSync(dir, { recursive: true, force: true });
}

function tail(file: string): string {
  try {
    return readFileSync(file, 'utf8').trim().split('\n').slice(-5).join(' | ');
  } catch {
    return '(no log)';
  }
}
