/**
 * The nemesis's cluster: three `fermata serve` processes (test-node.ts, so
 * their wall clocks can be stepped and a bug injected) with fixed ports and
 * data directories, each node's peer connections through its own link proxy.
 * Unlike the harness's startCluster, a member can be replaced under its own id
 * (removed, its data wiped, started again empty in join mode, added back),
 * the way docs/operations.md replaces a lost node.
 */
import { cpSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { NodeClients } from '../clients.js';
import { freePort, NodeHandle, type NodePorts, REPO_ROOT, sleep } from '../harness.js';
import { SmallDisk } from '../small-disk.js';
import { LinkProxies } from './link-proxies.js';

export const CHAOS_CLUSTER_ID = 'chaos';
const TEST_NODE = join(REPO_ROOT, 'test-cluster/src/nemesis/node/test-node.ts');

export interface ChaosNode {
  readonly id: string;
  handle: NodeHandle;
  readonly ports: NodePorts;
  /** The node's logs, and its data unless it has a disk of its own. */
  readonly dataDir: string;
  /** The node's data directory (FERMATA_DATA_DIR): on its own small disk when it has one. */
  readonly storeDir: string;
  /** Its own small file system (a tmpfs), when the cluster was started with `smallDiskMiB`. */
  readonly disk?: SmallDisk;
  readonly clockFile: string;
  /** Holds `eio` while the node's Raft files fail their writes and syncs (disk-faults.ts). */
  readonly diskFaultFile: string;
  /** SIGSTOPped (its process exists but answers nothing). */
  paused: boolean;
  /** The wall-clock offset its process runs with, ms. */
  clockOffsetMs: number;
}

export interface ChaosClusterOptions {
  readonly baseDir: string;
  /** An injected bug every node runs with (injected-bugs.ts). */
  readonly bug?: string;
  /** Extra FERMATA_* variables for every node. */
  readonly env?: Readonly<Record<string, string>>;
  /** Extra variables per node id, after `env` (a data directory on a disk of its own, for one). */
  readonly nodeEnv?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** Each node's data on a tmpfs of this size, mounted here (root only: SmallDisk), so its disk can fill. */
  readonly smallDiskMiB?: number;
}

export class ChaosCluster {
  readonly links = new LinkProxies();
  readonly nodes: ChaosNode[] = [];
  private baseEnv: Record<string, string> = {};
  private members = '';

  private constructor(private readonly options: ChaosClusterOptions) {}

  static async start(options: ChaosClusterOptions): Promise<ChaosCluster> {
    const c = new ChaosCluster(options);
    const ids = ['n1', 'n2', 'n3'];
    const ports: NodePorts[] = [];
    for (const _ of ids)
      ports.push({ client: await freePort(), peer: await freePort(), http: await freePort() });
    c.members = ids
      .map((id, i) => `${id}=127.0.0.1:${ports[i]!.peer}/127.0.0.1:${ports[i]!.client}`)
      .join(',');
    for (const [k, v] of Object.entries(process.env)) {
      if (v === undefined || (k.startsWith('FERMATA_') && k !== 'FERMATA_STORAGE_CHECKS')) continue;
      if (/^(grpc|https?|no(_grpc)?)_proxy$/i.test(k)) continue;
      c.baseEnv[k] = v;
    }
    for (const [i, id] of ids.entries()) {
      const dataDir = join(options.baseDir, id);
      const disk =
        options.smallDiskMiB !== undefined
          ? SmallDisk.mount(join(options.baseDir, 'disks', id), options.smallDiskMiB)
          : undefined;
      const node: ChaosNode = {
        id,
        ports: ports[i]!,
        dataDir,
        storeDir: disk ? join(disk.dir, 'data') : dataDir,
        ...(disk ? { disk } : {}),
        clockFile: join(options.baseDir, `${id}.clock`),
        diskFaultFile: join(options.baseDir, `${id}.disk-fault`),
        paused: false,
        clockOffsetMs: 0,
        handle: undefined as unknown as NodeHandle,
      };
      writeFileSync(node.clockFile, '0\n');
      node.handle = await c.handleFor(node, false);
      c.nodes.push(node);
    }
    await Promise.all(c.nodes.map((n) => n.handle.start()));
    return c;
  }

  private async handleFor(node: ChaosNode, join: boolean): Promise<NodeHandle> {
    const proxy = await this.links.add(node.id, node.ports.peer);
    const env: Record<string, string> = {
      ...this.baseEnv,
      FERMATA_NODE_ID: node.id,
      FERMATA_CLUSTER_ID: CHAOS_CLUSTER_ID,
      FERMATA_DATA_DIR: node.storeDir,
      FERMATA_CLIENT__LISTEN_ADDRESS: `127.0.0.1:${node.ports.client}`,
      FERMATA_PEER__LISTEN_ADDRESS: `127.0.0.1:${node.ports.peer}`,
      FERMATA_HTTP__LISTEN_ADDRESS: `127.0.0.1:${node.ports.http}`,
      FERMATA_INITIAL_MEMBERS: this.members,
      ...(join ? { FERMATA_JOIN: 'true' } : {}),
      ...this.options.env,
      ...this.options.nodeEnv?.[node.id],
      grpc_proxy: proxy,
      FERMATA_TEST_CLOCK_FILE: node.clockFile,
      FERMATA_TEST_DISK_FAULT_FILE: node.diskFaultFile,
      ...(this.options.bug ? { FERMATA_TEST_BUG: this.options.bug } : {}),
    };
    return new NodeHandle(node.id, node.ports, node.dataDir, env, undefined, {
      file: process.execPath,
      args: ['--conditions=fermata-source', '--import', 'tsx', TEST_NODE, 'serve'],
    });
  }

  get endpoints(): string[] {
    return this.nodes.map((n) => n.handle.clientAddress);
  }

  node(id: string): ChaosNode {
    const n = this.nodes.find((x) => x.id === id);
    if (!n) throw new Error(`no node ${id}`);
    return n;
  }

  /** Running and not paused: the nodes that can answer. */
  get answering(): ChaosNode[] {
    return this.nodes.filter((n) => n.handle.running && !n.paused);
  }

  /** The answering node that reports itself leader with the highest term, if any. */
  async leader(): Promise<ChaosNode | undefined> {
    const nodes = this.answering;
    const statuses = await Promise.all(nodes.map((n) => n.handle.status(1_000)));
    let best: { node: ChaosNode; term: number } | undefined;
    statuses.forEach((s, i) => {
      if (s?.role === 'leader' && s.ready && (!best || s.term > best.term))
        best = { node: nodes[i]!, term: s.term };
    });
    return best?.node;
  }

  async waitForLeader(timeoutMs: number): Promise<ChaosNode> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const l = await this.leader();
      if (l) return l;
      if (Date.now() > deadline) throw new Error(`no ready leader within ${timeoutMs} ms\n${this.logs(20)}`);
      await sleep(200);
    }
  }

  /** Runs `fn` against the leader's client API (a fresh client, closed afterwards). */
  async onLeader<T>(fn: (c: NodeClients) => Promise<T>): Promise<T> {
    const l = await this.leader();
    if (!l) throw new Error('no leader');
    const c = new NodeClients(l.handle.clientAddress);
    try {
      return await fn(c);
    } finally {
      c.close();
    }
  }

  async kill(id: string): Promise<void> {
    const n = this.node(id);
    if (n.paused) this.resume(id);
    await n.handle.kill('SIGKILL');
  }

  /**
   * Starts a node that is not running (after a kill), with its wall clock set
   * right first, or `clockOffsetMs` away from the system's: a node reads the
   * wall clock when it starts (docs/guarantees.md) and keeps what it read.
   */
  async restart(id: string, options: { clockOffsetMs?: number } = {}): Promise<void> {
    const n = this.node(id);
    if (n.handle.running) return;
    this.writeClock(n, options.clockOffsetMs ?? 0);
    await n.handle.start();
  }

  pause(id: string): void {
    const n = this.node(id);
    const pid = n.handle.pid;
    if (pid === undefined || n.paused) return;
    process.kill(pid, 'SIGSTOP');
    n.paused = true;
  }

  resume(id: string): void {
    const n = this.node(id);
    const pid = n.handle.pid;
    n.paused = false;
    if (pid !== undefined) process.kill(pid, 'SIGCONT');
  }

  private writeClock(n: ChaosNode, offsetMs: number): void {
    writeFileSync(n.clockFile, `${offsetMs}\n`);
    n.clockOffsetMs = offsetMs;
  }

  /** Steps node `id`'s wall clock to `offsetMs` from the system's (the node reads it on SIGUSR2). */
  stepClock(id: string, offsetMs: number): void {
    const n = this.node(id);
    this.writeClock(n, offsetMs);
    const pid = n.handle.pid;
    // A paused process takes the signal when it continues.
    if (pid !== undefined) process.kill(pid, 'SIGUSR2');
  }

  /**
   * Replaces member `id` under its own id: removed through the leader, killed,
   * its data directory wiped, started empty in join mode and added back (it
   * catches up from the leader and is promoted).
   */
  async replace(id: string, timeoutMs: number): Promise<void> {
    const n = this.node(id);
    const member = { id, peerAddress: `127.0.0.1:${n.ports.peer}`, address: `127.0.0.1:${n.ports.client}` };
    await this.onLeader((c) => c.removeMember({ id }));
    await this.kill(id);
    rmSync(n.storeDir, { recursive: true, force: true });
    if (n.disk) n.disk.free();
    n.handle = await this.handleFor(n, true);
    this.writeClock(n, 0);
    await n.handle.start();
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      try {
        await this.onLeader((c) => c.addMember(member));
        return;
      } catch (err) {
        if (Date.now() > deadline) throw err;
        await sleep(500);
      }
    }
  }

  /** From now on node `id`'s Raft files fail every write and sync with EIO (until `healDisk`). */
  failDisk(id: string): void {
    writeFileSync(this.node(id).diskFaultFile, 'eio\n');
  }

  healDisk(id: string): void {
    rmSync(this.node(id).diskFaultFile, { force: true });
  }

  logs(lines = 40): string {
    return this.nodes.map((n) => n.handle.tail(lines)).join('\n');
  }

  async stop(): Promise<void> {
    for (const n of this.nodes) if (n.paused) this.resume(n.id);
    await Promise.all(this.nodes.map((n) => n.handle.stop(5_000).catch(() => undefined)));
    await this.links.close();
    // A small disk goes with its mount: its data is copied next to the node's logs first.
    for (const n of this.nodes) {
      if (!n.disk) continue;
      n.disk.free();
      try {
        cpSync(n.storeDir, join(n.dataDir, 'data'), { recursive: true });
      } finally {
        n.disk.unmount();
      }
    }
  }
}
