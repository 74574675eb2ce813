/**
 * A three-node Fermata cluster in Docker containers, set up the way the
 * StatefulSet in deploy/k8s sets up its pods: the environment is the rendered
 * StatefulSet's (downward API resolved for pod fermata-N), the config file is
 * the rendered ConfigMap mounted read-only where FERMATA_CONFIG points, the
 * hostnames and DNS names are the pod's and the headless Service's, the root
 * filesystem is read-only, all capabilities are dropped, and the data lives
 * on a volume that survives a restart of the container.
 *
 * Faults are applied with the container runtime: SIGKILL / SIGTERM of the
 * container, start again, and disconnecting a container from the network.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

// The reaper image cannot be pulled on these machines; the tests remove what they create.
process.env['TESTCONTAINERS_RYUK_DISABLED'] ??= 'true';

import {
  type ContainerRuntimeClient,
  GenericContainer,
  getContainerRuntimeClient,
  type StartedTestContainer,
  Wait,
} from 'testcontainers';
import { freePort } from '../harness.js';
import { REPO_ROOT } from './docker.js';
import { type K8sObject, renderKustomization } from './kustomize.js';
import { containerOf, podEnvironment } from './pod-env.js';

/** Every container and network the container tests create carries this label (value: the test process's pid). */
export const TEST_LABEL = 'dev.fermata.test';
/** The server's log line once it listens (the image has no shell for testcontainers' port checks). */
const STARTED_LOG_LINE = 'fermata node started';
/** A node must have started and answer /livez (what the startup probe asks) within this time. */
export const NODE_START_TIMEOUT_MS = 60_000;
/** How long `waitReady` waits by default for /readyz to answer 200. */
export const READY_TIMEOUT_MS = 60_000;
/** HTTP status requests from the host: a partitioned node must not stall the poller. */
export const STATUS_TIMEOUT_MS = 500;

const CONTAINER_PORTS = { client: 7400, peer: 7401, http: 7402 } as const;
type PortName = keyof typeof CONTAINER_PORTS;

/** What a node reports on its status page (`GET /`). */
export interface NodeStatusView {
  readonly nodeId: string;
  readonly role: string;
  readonly term: number;
  readonly leaderId: string;
  readonly commit: number;
  readonly applied: number;
  readonly ready: boolean;
}

export interface ContainerNode {
  readonly index: number;
  /** Pod name = node id: fermata-N. */
  readonly name: string;
  /** DNS names other nodes (and the proxy) know the node by. */
  readonly aliases: readonly string[];
  /** Host ports (on 127.0.0.1) published for the container's client, peer and http ports. */
  readonly hostPorts: Readonly<Record<PortName, number>>;
  container: StartedTestContainer;
}

export interface ContainerClusterOptions {
  readonly image: string;
  /** The kustomization whose StatefulSet and ConfigMap are mirrored (default deploy/k8s/base). */
  readonly manifests?: string;
  /** The pods' namespace (as the downward API would report it). */
  readonly namespace?: string;
  /** Extra or overriding variables for every node (e.g. a log level). */
  readonly env?: Readonly<Record<string, string>>;
  /**
   * A cluster secret for the peer port: written to a file mounted read-only in
   * every node, as a Kubernetes Secret volume would be, and named by
   * FERMATA_PEER__SECRET_FILE.
   */
  readonly peerSecret?: string;
}

/** Where the cluster secret file is mounted in a node's container. */
export const PEER_SECRET_PATH = '/etc/fermata-peer-secret/secret';

/** GenericContainer plus what the pod spec asks for and testcontainers has no builder for. */
class PodContainer extends GenericContainer {
  asPod(hostPorts: Record<PortName, number>, network: string, aliases: readonly string[]): this {
    this.hostConfig.ReadonlyRootfs = true;
    // Only on the cluster network (testcontainers' withNetworkAliases would also
    // attach the default bridge), so a disconnect is a real partition.
    this.withNetworkMode(network);
    this.createOpts.NetworkingConfig = { EndpointsConfig: { [network]: { Aliases: [...aliases] } } };
    // Published on loopback only, at fixed ports that survive a restart and a reconnect.
    this.hostConfig.PortBindings = Object.fromEntries(
      (Object.keys(CONTAINER_PORTS) as PortName[]).map((k) => [
        `${CONTAINER_PORTS[k]}/tcp`,
        [{ HostIp: '127.0.0.1', HostPort: String(hostPorts[k]) }],
      ]),
    );
    return this;
  }
}

export class ContainerCluster {
  private constructor(
    readonly nodes: ContainerNode[],
    /** The user-defined network's id. */
    readonly networkId: string,
    private readonly runtime: ContainerRuntimeClient,
    private readonly tmp: string,
  ) {}

  /**
   * Removes containers and networks that an earlier run left behind when it
   * was killed: they carry TEST_LABEL with the pid of the test process that
   * made them, and that process is gone. A concurrent run's are left alone.
   */
  static async removeLeftovers(): Promise<void> {
    const runtime = await getContainerRuntimeClient();
    const docker = runtime.container.dockerode;
    const filters = JSON.stringify({ label: [TEST_LABEL] });
    const orphaned = (labels: Record<string, string> | undefined) => {
      const pid = Number(labels?.[TEST_LABEL]);
      if (!Number.isSafeInteger(pid) || pid <= 0) return true;
      if (pid === process.pid) return false;
      try {
        process.kill(pid, 0);
        return false;
      } catch (err) {
        return (err as NodeJS.ErrnoException).code === 'ESRCH';
      }
    };
    for (const c of await docker.listContainers({ all: true, filters })) {
      if (!orphaned(c.Labels)) continue;
      await docker
        .getContainer(c.Id)
        .remove({ force: true, v: true })
        .catch(() => {});
    }
    for (const n of await docker.listNetworks({ filters })) {
      if (!orphaned(n.Labels)) continue;
      await docker
        .getNetwork(n.Id)
        .remove()
        .catch(() => {});
    }
  }

  static async start(options: ContainerClusterOptions): Promise<ContainerCluster> {
    const namespace = options.namespace ?? 'fermata';
    const objects = renderKustomization(options.manifests ?? join(REPO_ROOT, 'deploy/k8s/base'));
    const one = (kind: string, pred: (o: K8sObject) => boolean = () => true) => {
      const found = objects.filter((o) => o.kind === kind && pred(o));
      if (found.length !== 1) throw new Error(`expected one ${kind} in the manifests, found ${found.length}`);
      return found[0] as K8sObject;
    };
    const sts = one('StatefulSet');
    const stsSpec = sts['spec'] as {
      replicas: number;
      serviceName: string;
      template: { spec: { volumes: { configMap?: { name: string } }[] } };
    };
    const spec = containerOf(sts, 'fermata');
    const cmName = stsSpec.template.spec.volumes.find((v) => v.configMap)?.configMap?.name;
    const cm = one('ConfigMap', (o) => o.metadata.name === cmName);
    const runtime = await getContainerRuntimeClient();
    const tmp = mkdtempSync(join(tmpdir(), 'fermata-containers-'));
    const networkName = `fermata-test-${process.pid}-${Date.now()}`;
    const network = await runtime.container.dockerode.createNetwork({
      Name: networkName,
      Driver: 'bridge',
      CheckDuplicate: true,
      Labels: { [TEST_LABEL]: String(process.pid) },
    });
    const nodes: ContainerNode[] = [];
    const cluster = new ContainerCluster(nodes, network.id, runtime, tmp);
    try {
      const started = Array.from({ length: stsSpec.replicas }, async (_, index) => {
        const name = `${sts.metadata.name}-${index}`;
        const env: Record<string, string> = { ...podEnvironment(spec, { name, namespace }), ...options.env };
        const mounts = [] as { source: string; target: string; mode: 'ro' }[];
        if (options.peerSecret !== undefined) {
          const secretFile = join(tmp, `${name}-peer-secret`);
          writeFileSync(secretFile, `${options.peerSecret}\n`, { mode: 0o644 });
          mounts.push({ source: secretFile, target: PEER_SECRET_PATH, mode: 'ro' });
          env['FERMATA_PEER__SECRET_FILE'] = PEER_SECRET_PATH;
        }
        const configPath = env['FERMATA_CONFIG'];
        if (configPath === undefined) throw new Error('the StatefulSet sets no FERMATA_CONFIG');
        const data = (cm['data'] as Record<string, string>)[basename(configPath)];
        if (data === undefined) throw new Error(`ConfigMap ${cmName} has no key ${basename(configPath)}`);
        const hostConfigFile = join(tmp, `${name}-${basename(configPath)}`);
        writeFileSync(hostConfigFile, data, { mode: 0o644 });
        const service = stsSpec.serviceName;
        const aliases = [
          `${name}.${service}`,
          `${name}.${service}.${namespace}`,
          `${name}.${service}.${namespace}.svc.cluster.local`,
        ];
        const hostPorts = { client: await freePort(), peer: await freePort(), http: await freePort() };
        const container = await new PodContainer(options.image)
          .asPod(hostPorts, networkName, aliases)
          .withName(`${networkName}-${name}`)
          .withLabels({ [TEST_LABEL]: String(process.pid) })
          .withHostname(name)
          .withEnvironment(env)
          .withCommand(spec.args ?? ['serve'])
          .withBindMounts([{ source: hostConfigFile, target: configPath, mode: 'ro' }, ...mounts])
          .withTmpFs({ '/tmp': 'rw,size=64m' })
          .withDroppedCapabilities('ALL')
          .withSecurityOpt('no-new-privileges')
          .withResourcesQuota({ memory: 1 })
          .withWaitStrategy(Wait.forLogMessage(STARTED_LOG_LINE))
          .withStartupTimeout(NODE_START_TIMEOUT_MS)
          .start();
        nodes[index] = { index, name, aliases, hostPorts, container };
        await cluster.waitLive(index, NODE_START_TIMEOUT_MS);
      });
      const results = await Promise.allSettled(started);
      const failed = results.find((r) => r.status === 'rejected');
      if (failed !== undefined) throw (failed as PromiseRejectedResult).reason;
      return cluster;
    } catch (err) {
      await cluster.close();
      throw err;
    }
  }

  /** The in-cluster client addresses (what the nodes advertise), for the SDK's endpoints. */
  clientEndpoints(): string[] {
    return this.nodes.map((n) => `${n.aliases[n.aliases.length - 1]}:${CONTAINER_PORTS.client}`);
  }

  /** The node a DNS name belongs to (any of its aliases, or its hostname), and the host port for `port`. */
  route(host: string, port: number): { host: string; port: number } | undefined {
    const node = this.nodes.find((n) => n.aliases.includes(host) || n.name === host);
    const name = (Object.keys(CONTAINER_PORTS) as PortName[]).find((k) => CONTAINER_PORTS[k] === port);
    if (node === undefined || name === undefined) return undefined;
    return { host: '127.0.0.1', port: node.hostPorts[name] };
  }

  private docker(i: number) {
    return this.runtime.container.dockerode.getContainer(this.node(i).container.getId());
  }

  node(i: number): ContainerNode {
    const n = this.nodes[i];
    if (n === undefined) throw new Error(`no node ${i}`);
    return n;
  }

  /** The status page of node i, or undefined when it does not answer (down, partitioned). */
  async status(i: number): Promise<NodeStatusView | undefined> {
    try {
      const res = await fetch(`http://127.0.0.1:${this.node(i).hostPorts.http}/`, {
        signal: AbortSignal.timeout(STATUS_TIMEOUT_MS),
      });
      return res.ok ? ((await res.json()) as NodeStatusView) : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * The status page of node i asked from inside its own container (the
   * image's node binary; there is no shell): answers while the node is cut
   * off from the network, where `status` cannot reach it.
   */
  async statusFromInside(i: number): Promise<NodeStatusView | undefined> {
    const script =
      "fetch('http://127.0.0.1:7402/',{signal:AbortSignal.timeout(1000)}).then(r=>r.text()).then(t=>process.stdout.write(t),()=>process.exit(3))";
    const r = await this.node(i).container.exec(['/usr/local/bin/node', '-e', script]);
    if (r.exitCode !== 0) return undefined;
    try {
      return JSON.parse(r.stdout) as NodeStatusView;
    } catch {
      return undefined;
    }
  }

  async ready(i: number): Promise<boolean> {
    try {
      const res = await fetch(`http://127.0.0.1:${this.node(i).hostPorts.http}/readyz`, {
        signal: AbortSignal.timeout(STATUS_TIMEOUT_MS),
      });
      return res.status === 200;
    } catch {
      return false;
    }
  }

  /** Waits until node i answers the startup and liveness probe's path, /livez, through its published port. */
  async waitLive(i: number, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      try {
        const res = await fetch(`http://127.0.0.1:${this.node(i).hostPorts.http}/livez`, {
          signal: AbortSignal.timeout(STATUS_TIMEOUT_MS),
        });
        if (res.status === 200) return;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline)
        throw new Error(`${this.node(i).name}: /livez did not answer 200 within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  async waitReady(indexes: readonly number[], timeoutMs = READY_TIMEOUT_MS): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const states = await Promise.all(indexes.map((i) => this.ready(i)));
      if (states.every(Boolean)) return;
      if (Date.now() > deadline) {
        const notReady = indexes.filter((_, k) => !states[k]).map((i) => this.node(i).name);
        throw new Error(`nodes ${notReady.join(', ')} not ready within ${timeoutMs} ms`);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  /** The index of the leader that every answering node agrees on, waiting for one. */
  async leader(timeoutMs = READY_TIMEOUT_MS): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const statuses = await Promise.all(this.nodes.map((n) => this.status(n.index)));
      const leaders = statuses.filter((s) => s?.role === 'leader');
      const answering = statuses.filter((s) => s !== undefined);
      if (leaders.length === 1 && answering.every((s) => s.leaderId === leaders[0]?.nodeId)) {
        const i = this.nodes.findIndex((n) => n.name === leaders[0]?.nodeId);
        if (i >= 0) return i;
      }
      if (Date.now() > deadline) throw new Error(`no agreed leader within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Sends a signal to the server (pid 1 of the container); SIGKILL ends the container at once. */
  async kill(i: number, signal: 'SIGKILL' | 'SIGTERM' = 'SIGKILL'): Promise<void> {
    await this.docker(i).kill({ signal });
  }

  /** Waits for the container to exit; its exit code. */
  async waitExited(i: number): Promise<number> {
    const r = (await this.docker(i).wait()) as { StatusCode: number };
    return r.StatusCode;
  }

  /** What `kubectl delete pod` does to the process: SIGTERM, then SIGKILL after the grace period. */
  async stop(i: number, graceSeconds: number): Promise<number> {
    await this.docker(i).stop({ t: graceSeconds });
    return this.waitExited(i);
  }

  /** Starts a stopped container again, with the same volume, addresses and ports. */
  async startAgain(i: number): Promise<void> {
    await this.docker(i).start();
  }

  /** Cuts node i off from every other node (and from the host's published ports). */
  async disconnect(i: number): Promise<void> {
    await this.runtime.container.dockerode
      .getNetwork(this.networkId)
      .disconnect({ Container: this.node(i).container.getId(), Force: true });
  }

  /** Heals `disconnect`: the same DNS names again. */
  async reconnect(i: number): Promise<void> {
    await this.runtime.container.dockerode.getNetwork(this.networkId).connect({
      Container: this.node(i).container.getId(),
      EndpointConfig: { Aliases: [...this.node(i).aliases] },
    });
  }

  /** The container's stdout and stderr (all runs), last `tail` lines. */
  async logs(i: number, tail = 200): Promise<string> {
    const buf = (await this.docker(i).logs({ stdout: true, stderr: true, tail })) as unknown as Buffer;
    return demux(buf);
  }

  /**
   * Removes the containers (with their volumes) and the network; safe to call
   * twice. Found by label, so a container whose start failed half-way goes too.
   */
  async close(): Promise<void> {
    const docker = this.runtime.container.dockerode;
    const filters = JSON.stringify({ label: [`${TEST_LABEL}=${process.pid}`], network: [this.networkId] });
    const ids = new Set(this.nodes.filter((n) => n !== undefined).map((n) => n.container.getId()));
    for (const c of await docker.listContainers({ all: true, filters }).catch(() => [])) ids.add(c.Id);
    await Promise.all(
      [...ids].map((id) =>
        docker
          .getContainer(id)
          .remove({ force: true, v: true })
          .catch(() => {}),
      ),
    );
    await docker
      .getNetwork(this.networkId)
      .remove()
      .catch(() => {});
    rmSync(this.tmp, { recursive: true, force: true });
  }
}

/** Docker's multiplexed log stream (8-byte frame headers) to text. */
function demux(buf: Buffer): string {
  let out = '';
  let at = 0;
  while (at + 8 <= buf.length) {
    const size = buf.readUInt32BE(at + 4);
    out += buf.subarray(at + 8, at + 8 + size).toString('utf8');
    at += 8 + size;
  }
  return at === 0 ? buf.toString('utf8') : out;
}
