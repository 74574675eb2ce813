/**
 * Real Fermata clusters for tests and benchmarks: one or three `fermata serve`
 * child processes on 127.0.0.1, each with its own data directory and fixed
 * ports (so a node can be killed and started again in place), stdout and
 * stderr captured to files in its data directory.
 *
 *   const cluster = await startCluster({ nodes: 3 });
 *   const leader = await cluster.waitForLeader();
 *   ...
 *   await cluster.stop();
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** The repository root (this file is test-cluster/src/harness.ts). */
export const REPO_ROOT = resolve(import.meta.dirname, '../..');
const CLI_ENTRY = join(REPO_ROOT, 'packages/cli/src/main.ts');
const CLI_DIST_ENTRY = join(REPO_ROOT, 'packages/cli/dist/main.js');
const CLI_BUNDLE_ENTRY = join(REPO_ROOT, 'packages/cli/dist/fermata.js');

/**
 * The arguments after `node` that run `fermata <args>`, by FERMATA_TEST_BUILD:
 * - `bundle`: the published package's one-file bundle (what `npm i @fermata/cli`
 *   runs), as ./scripts/test sets after its build: it starts with about two
 *   thirds of the CPU of `dist`, and the suite starts hundreds of processes;
 * - `dist`: the compiled CLI, what the image and scripts/start run, as the
 *   benchmarks' `--dist` sets to measure a deployment;
 * - else the sources through tsx, which needs no build but costs every process
 *   about a second of CPU to compile on start.
 */
export function fermataArgv(args: readonly string[]): string[] {
  const build = process.env['FERMATA_TEST_BUILD'];
  if (build === 'bundle') return [CLI_BUNDLE_ENTRY, ...args];
  if (build === 'dist') return [CLI_DIST_ENTRY, ...args];
  return ['--conditions=fermata-source', '--import', 'tsx', CLI_ENTRY, ...args];
}

/**
 * How far a node's "now" may trail this process's Date.now() read just before: a node reads
 * the system clock once at start and advances it by the monotonic clock, floored (SteadyClock
 * in @fermata/base), so its time can be a millisecond behind the system clock's.
 */
export const NODE_CLOCK_LAG_MS = 5;
/** How long a node may take to bind its ports and serve /livez (tsx compiles on start). */
export const NODE_START_TIMEOUT_MS = 60_000;
/** How long a cluster may take to elect a leader that is ready. */
export const LEADER_TIMEOUT_MS = 60_000;
/** How long `stop()` waits after SIGTERM before SIGKILL. */
export const STOP_TIMEOUT_MS = 20_000;

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Waits until `cond` holds, polling every 100 ms; throws naming `what` after `timeoutMs`. */
export async function waitFor(
  cond: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(100);
  }
}

/**
 * Ports handed to test servers come from below Linux's ephemeral range
 * (32768-60999 by default): a port from that range (what `listen(0)` gives)
 * can meanwhile become the local end of some client connection — the tests'
 * own gRPC channels — and then cannot be bound until that connection closes.
 */
const PORT_RANGE = { from: 20_000, to: 32_000 } as const;
const usedPorts = new Set<number>();

/** A TCP port on 127.0.0.1 that was free a moment ago: picked at random below the ephemeral range and probed by binding it. */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = PORT_RANGE.from + Math.floor(Math.random() * (PORT_RANGE.to - PORT_RANGE.from));
    if (usedPorts.has(port)) continue;
    const free = await new Promise<boolean>((done) => {
      const s = createServer();
      s.once('error', () => done(false));
      s.listen(port, '127.0.0.1', () => s.close(() => done(true)));
    });
    if (!free) continue;
    usedPorts.add(port);
    return port;
  }
}

export interface NodePorts {
  readonly client: number;
  readonly peer: number;
  readonly http: number;
}

export interface ClusterOptions {
  /** 1 (a one-member cluster) or 3. */
  readonly nodes: 1 | 3;
  /** Parent of the node data directories; default a fresh temp dir (removed by `stop()` unless kept). */
  readonly baseDir?: string;
  /** Extra `FERMATA_*` variables for every node (e.g. limits, Raft timings). */
  readonly env?: Readonly<Record<string, string>>;
  /** Extra variables per node id (`n1`, `n2`, `n3`), applied after `env`. */
  readonly nodeEnv?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** Fixed ports per node (in order); default: free ports. */
  readonly ports?: readonly NodePorts[];
  /** Keep the data directories after `stop()` (also when FERMATA_TEST_KEEP=1). */
  readonly keep?: boolean;
  /** Wait for a ready leader before returning (default true). */
  readonly waitForLeader?: boolean;
  /**
   * Token sent to the HTTP status page and /metrics (`authorization: Bearer`),
   * for nodes with a token file, where http.auth requires one by default.
   */
  readonly httpToken?: string;
  /** The program each node runs (`serve` included); default: this repository's CLI (sources, or dist). */
  readonly command?: ServerCommand;
  /**
   * `topics.autoCreate` for every node (default true: tests and benchmarks
   * publish to fresh topics). False leaves the server's default (off), as a
   * new user's cluster has it.
   */
  readonly autoCreateTopics?: boolean;
}

/** A `fermata serve` to run instead of this repository's: an installed `fermata`, for one. */
export interface ServerCommand {
  readonly file: string;
  readonly args: readonly string[];
  /** Working directory (default: the repository root). */
  readonly cwd?: string;
}

/** What one node reports on its HTTP status page (`GET /`). */
export interface NodeStatusView {
  readonly nodeId: string;
  readonly role: string;
  readonly term: number;
  readonly leaderId: string;
  readonly leaderAddress: string;
  readonly commit: number;
  readonly applied: number;
  readonly ready: boolean;
}

export interface ExitInfo {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

const live = new Set<ChildProcess>();
let exitHookInstalled = false;

/** Children must not outlive the test process, whatever happens to it. */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const p of live) {
      try {
        p.kill('SIGKILL');
      } catch {
        // already gone
      }
    }
  });
}

/** One `fermata serve` process (running or not) with its fixed identity, ports and data directory. */
export class NodeHandle {
  private proc: ChildProcess | undefined;
  private exitedP: Promise<ExitInfo> | undefined;
  /** Every exit of this node, in order (code/signal). */
  readonly exits: ExitInfo[] = [];

  constructor(
    readonly id: string,
    readonly ports: NodePorts,
    readonly dataDir: string,
    private readonly env: Readonly<Record<string, string>>,
    /** Sent as `authorization: Bearer` by `httpGet` (http.auth). */
    readonly httpToken?: string,
    private readonly command?: ServerCommand,
  ) {}

  /** host:port of the client gRPC API (Broker, Admin, Cluster, Health). */
  get clientAddress(): string {
    return `127.0.0.1:${this.ports.client}`;
  }
  get peerAddress(): string {
    return `127.0.0.1:${this.ports.peer}`;
  }
  /** host:port of /metrics, /livez, /readyz and the status page. */
  get httpAddress(): string {
    return `127.0.0.1:${this.ports.http}`;
  }
  get httpUrl(): string {
    return `http://${this.httpAddress}`;
  }
  /** stdout (pino JSON lines) of every run, appended. */
  get logFile(): string {
    return join(this.dataDir, 'node.log');
  }
  get stderrFile(): string {
    return join(this.dataDir, 'node.stderr.log');
  }
  get pid(): number | undefined {
    return this.proc?.pid;
  }
  get running(): boolean {
    return this.proc !== undefined;
  }
  /** Resolves when the current process exits (immediately if none runs). */
  get exited(): Promise<ExitInfo | undefined> {
    return this.exitedP ?? Promise.resolve(undefined);
  }

  /**
   * Spawns the process and waits until it answers /livez (not until it knows a
   * leader). Ports were picked free before the child binds them, so another
   * process on this shared machine can take one in between: a start that dies
   * with EADDRINUSE is retried after a pause (the holder is usually a passing
   * free-port probe of another test).
   */
  async start(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await this.startOnce();
        return;
      } catch (error) {
        if (attempt >= 5 || this.proc || !String(error).includes('EADDRINUSE')) throw error;
        await sleep(300 * attempt);
      }
    }
  }

  private async startOnce(): Promise<void> {
    if (this.proc) throw new Error(`${this.id} is already running (pid ${this.proc.pid})`);
    mkdirSync(this.dataDir, { recursive: true });
    const out = openSync(this.logFile, 'a');
    const err = openSync(this.stderrFile, 'a');
    let proc: ChildProcess;
    try {
      const args = this.command !== undefined ? this.command.args : fermataArgv(['serve']);
      proc = spawn(this.command?.file ?? process.execPath, args, {
        cwd: this.command?.cwd ?? REPO_ROOT,
        env: this.env,
        stdio: ['ignore', out, err],
      });
    } finally {
      closeSync(out);
      closeSync(err);
    }
    installExitHook();
    live.add(proc);
    this.proc = proc;
    this.exitedP = new Promise<ExitInfo>((done) => {
      proc.once('exit', (code, signal) => {
        live.delete(proc);
        const info = { code, signal };
        this.exits.push(info);
        if (this.proc === proc) this.proc = undefined;
        done(info);
      });
    });
    await this.waitLive();
  }

  /** Waits until /livez answers 200; fails at once if the process exits meanwhile. */
  async waitLive(timeoutMs = NODE_START_TIMEOUT_MS): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    const exited = this.exitedP;
    let gone = false;
    void exited?.then(() => {
      gone = true;
    });
    while (Date.now() < deadline) {
      if (gone || !this.proc) {
        throw new Error(
          `${this.id} exited before serving (${JSON.stringify(this.exits.at(-1))})\n${this.tail()}`,
        );
      }
      if ((await this.httpGet('/livez', 1_000).catch(() => undefined))?.status === 200) return;
      await sleep(100);
    }
    throw new Error(`${this.id} did not serve /livez within ${timeoutMs} ms\n${this.tail()}`);
  }

  /** Waits until /readyz answers 200: the node knows a leader and has applied nearly all it knows committed. */
  async waitReady(timeoutMs = LEADER_TIMEOUT_MS): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (!this.proc) throw new Error(`${this.id} is not running\n${this.tail()}`);
      if ((await this.httpGet('/readyz', 1_000).catch(() => undefined))?.status === 200) return;
      await sleep(100);
    }
    throw new Error(`${this.id} was not ready within ${timeoutMs} ms\n${this.tail()}`);
  }

  /** The node's view of itself (`GET /` as JSON); undefined when it does not answer. */
  async status(timeoutMs = 2_000): Promise<NodeStatusView | undefined> {
    const res = await this.httpGet('/', timeoutMs).catch(() => undefined);
    if (res?.status !== 200) return undefined;
    return JSON.parse(res.body) as NodeStatusView;
  }

  async httpGet(
    path: string,
    timeoutMs = 5_000,
  ): Promise<{ status: number; body: string; contentType: string }> {
    const res = await fetch(`${this.httpUrl}${path}`, {
      signal: AbortSignal.timeout(timeoutMs),
      headers: {
        accept: 'application/json',
        ...(this.httpToken ? { authorization: `Bearer ${this.httpToken}` } : {}),
      },
    });
    return { status: res.status, body: await res.text(), contentType: res.headers.get('content-type') ?? '' };
  }

  /** Sends `signal` (default SIGKILL) and waits for the process to be gone. */
  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<ExitInfo | undefined> {
    const p = this.proc;
    if (!p) return undefined;
    p.kill(signal);
    return this.exitedP;
  }

  /** SIGTERM, then waits; SIGKILL after `timeoutMs`. Returns how it exited. */
  async stop(timeoutMs = STOP_TIMEOUT_MS): Promise<ExitInfo | undefined> {
    const p = this.proc;
    if (!p) return undefined;
    const exited = this.exitedP as Promise<ExitInfo>;
    p.kill('SIGTERM');
    const timer = setTimeout(() => p.kill('SIGKILL'), timeoutMs);
    try {
      return await exited;
    } finally {
      clearTimeout(timer);
    }
  }

  /** The last `lines` lines of stdout and stderr (all runs). */
  tail(lines = 40): string {
    const read = (f: string) => (existsSync(f) ? readFileSync(f, 'utf8').split('\n') : []);
    const out = read(this.logFile).filter(Boolean).slice(-lines);
    const err = read(this.stderrFile).filter(Boolean).slice(-lines);
    return [
      `----- ${this.id} stdout (${this.logFile}) -----`,
      ...out,
      ...(err.length > 0 ? [`----- ${this.id} stderr -----`, ...err] : []),
    ].join('\n');
  }

  /** Parsed pino lines of stdout (all runs) whose `msg` matches. */
  logLines(msg?: string | RegExp): Array<Record<string, unknown>> {
    if (!existsSync(this.logFile)) return [];
    const out: Array<Record<string, unknown>> = [];
    for (const line of readFileSync(this.logFile, 'utf8').split('\n')) {
      if (!line.startsWith('{')) continue;
      try {
        const rec = JSON.parse(line) as Record<string, unknown>;
        const m = String(rec['msg'] ?? '');
        if (msg === undefined || (typeof msg === 'string' ? m === msg : msg.test(m))) out.push(rec);
      } catch {
        // a torn last line of a killed process
      }
    }
    return out;
  }
}

export interface Cluster {
  readonly nodes: readonly NodeHandle[];
  /** Client addresses of every node, in order (for clients that discover the leader). */
  readonly endpoints: readonly string[];
  readonly baseDir: string;
  node(id: string): NodeHandle;
  /** The running node that is leader with the highest term and ready (waits up to `timeoutMs`). */
  leader(timeoutMs?: number): Promise<NodeHandle>;
  /** Same as `leader()`; reads better at start-up. */
  waitForLeader(timeoutMs?: number): Promise<NodeHandle>;
  /** Running nodes other than `node`. */
  others(node: NodeHandle): NodeHandle[];
  /** Tails of every node's logs (print them when a test fails). */
  logs(lines?: number): string;
  /**
   * Starts one more node (`n4`, `n5`, ...) in join mode (FERMATA_JOIN=true: no bootstrap;
   * it waits for the leader to reach it). Add it with the Cluster AddMember RPC.
   */
  addNode(env?: Readonly<Record<string, string>>): Promise<NodeHandle>;
  /** SIGTERM every node (SIGKILL after a timeout) and remove the base dir unless kept. */
  stop(): Promise<void>;
}

/** Starts a cluster of real `fermata serve` processes. Call `stop()` in `afterAll`, even on failure. */
export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const n = options.nodes;
  const ownDir = options.baseDir === undefined;
  const baseDir = options.baseDir ?? mkdtempSync(join(tmpdir(), 'fermata-cluster-'));
  mkdirSync(baseDir, { recursive: true });
  const ids = Array.from({ length: n }, (_, i) => `n${i + 1}`);
  const ports: NodePorts[] = [];
  for (let i = 0; i < n; i++) {
    const given = options.ports?.[i];
    ports.push(given ?? { client: await freePort(), peer: await freePort(), http: await freePort() });
  }
  const members = ids
    .map((id, i) => `${id}=127.0.0.1:${ports[i]!.peer}/127.0.0.1:${ports[i]!.client}`)
    .join(',');

  // The parent's own FERMATA_* configuration must not leak into the nodes; switches (reserved) may.
  const base: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined) continue;
    if (k.startsWith('FERMATA_') && k !== 'FERMATA_STORAGE_CHECKS') continue;
    base[k] = v;
  }
  const nodeEnv = (id: string, p: NodePorts, dataDir: string) => ({
    ...base,
    FERMATA_NODE_ID: id,
    FERMATA_CLUSTER_ID: 'fermata-test',
    FERMATA_DATA_DIR: dataDir,
    FERMATA_CLIENT__LISTEN_ADDRESS: `127.0.0.1:${p.client}`,
    FERMATA_PEER__LISTEN_ADDRESS: `127.0.0.1:${p.peer}`,
    FERMATA_HTTP__LISTEN_ADDRESS: `127.0.0.1:${p.http}`,
    FERMATA_INITIAL_MEMBERS: members,
    ...(options.autoCreateTopics === false ? {} : { FERMATA_TOPICS__AUTO_CREATE: 'true' }),
    ...options.env,
  });
  const nodes = ids.map((id, i) => {
    const p = ports[i]!;
    const dataDir = join(baseDir, id);
    return new NodeHandle(
      id,
      p,
      dataDir,
      { ...nodeEnv(id, p, dataDir), ...options.nodeEnv?.[id] },
      options.httpToken,
      options.command,
    );
  });

  const keep = options.keep === true || process.env['FERMATA_TEST_KEEP'] === '1';
  const byId = new Map(nodes.map((nd) => [nd.id, nd]));
  const findLeader = async (timeoutMs = LEADER_TIMEOUT_MS): Promise<NodeHandle> => {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const running = nodes.filter((nd) => nd.running);
      const statuses = await Promise.all(running.map((nd) => nd.status()));
      let best: { node: NodeHandle; term: number } | undefined;
      statuses.forEach((s, i) => {
        if (s?.role === 'leader' && s.ready && (!best || s.term > best.term))
          best = { node: running[i]!, term: s.term };
      });
      if (best) return best.node;
      await sleep(100);
    }
    throw new Error(`no ready leader within ${timeoutMs} ms\n${cluster.logs()}`);
  };
  const cluster: Cluster = {
    nodes,
    get endpoints() {
      return nodes.map((nd) => nd.clientAddress);
    },
    baseDir,
    node: (id) => {
      const nd = byId.get(id);
      if (!nd) throw new Error(`no node ${id}; nodes are ${ids.join(', ')}`);
      return nd;
    },
    leader: findLeader,
    waitForLeader: findLeader,
    others: (node) => nodes.filter((nd) => nd !== node && nd.running),
    logs: (lines = 40) => nodes.map((nd) => nd.tail(lines)).join('\n'),
    addNode: async (env = {}) => {
      const id = `n${nodes.length + 1}`;
      const p = { client: await freePort(), peer: await freePort(), http: await freePort() };
      const dataDir = join(baseDir, id);
      const node = new NodeHandle(
        id,
        p,
        dataDir,
        { ...nodeEnv(id, p, dataDir), FERMATA_JOIN: 'true', ...env },
        options.httpToken,
        options.command,
      );
      nodes.push(node);
      byId.set(id, node);
      await node.start();
      return node;
    },
    stop: async () => {
      await Promise.all(nodes.map((nd) => nd.stop().catch(() => undefined)));
      if (ownDir && !keep) rmSync(baseDir, { recursive: true, force: true });
    },
  };
  try {
    await Promise.all(nodes.map((nd) => nd.start()));
    if (options.waitForLeader !== false) await findLeader();
  } catch (err) {
    await Promise.all(nodes.map((nd) => nd.kill('SIGKILL').catch(() => undefined)));
    throw err;
  }
  return cluster;
}
