/**
 * deploy/k8s: every rendered object is valid against the Kubernetes OpenAPI
 * schemas, and the pieces are wired to each other and to the server: the
 * environment each pod gets loads as a valid configuration, ports and probe
 * paths are the ones the server serves, the peer DNS names are the ones the
 * StatefulSet and the headless Service create, and the PDB guards the pods.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { BrokerServer, type FermataConfig, loadConfig, parseAddress } from '@fermata/broker';
import { StatefulSet } from 'kubernetes-models/apps/v1/StatefulSet';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Service } from 'kubernetes-models/v1/Service';
import { ServiceAccount } from 'kubernetes-models/v1/ServiceAccount';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { type K8sObject, renderKustomization } from '../src/containers/kustomize.js';
import { type ContainerSpec, containerOf, podEnvironment } from '../src/containers/pod-env.js';

const REPO = resolve(import.meta.dirname, '../..');
const BASE = join(REPO, 'deploy/k8s/base');
const OVERLAY = join(REPO, 'deploy/k8s/overlays/example');
const NAMESPACE = 'fermata-test';

/** Validators for every kind the manifests may contain (a new kind must be added here). */
const VALIDATORS: Record<string, (o: K8sObject) => void> = {
  'v1/ServiceAccount': (o) => new ServiceAccount(o as never).validate(),
  'v1/ConfigMap': (o) => new ConfigMap(o as never).validate(),
  'v1/Service': (o) => new Service(o as never).validate(),
  'apps/v1/StatefulSet': (o) => new StatefulSet(o as never).validate(),
  'policy/v1/PodDisruptionBudget': (o) => new PodDisruptionBudget(o as never).validate(),
  'networking.k8s.io/v1/NetworkPolicy': (o) => new NetworkPolicy(o as never).validate(),
  // A CRD kubernetes-models does not ship: checked field by field below.
  'monitoring.coreos.com/v1/ServiceMonitor': (o) => {
    const spec = o['spec'] as { selector?: unknown; endpoints?: { port?: unknown }[] };
    if (typeof spec?.selector !== 'object' || !Array.isArray(spec.endpoints) || spec.endpoints.length === 0)
      throw new Error('ServiceMonitor needs spec.selector and spec.endpoints');
    for (const e of spec.endpoints) if (typeof e.port !== 'string') throw new Error('endpoint without port');
  },
  // Its rules are checked by promtool and against a node's metrics in observability.test.ts.
  'monitoring.coreos.com/v1/PrometheusRule': (o) => {
    const groups = (o['spec'] as { groups?: { name?: unknown; rules?: unknown[] }[] })?.groups;
    if (!Array.isArray(groups) || groups.length === 0) throw new Error('PrometheusRule needs spec.groups');
    for (const g of groups) {
      if (typeof g.name !== 'string' || !Array.isArray(g.rules) || g.rules.length === 0)
        throw new Error('every rule group needs a name and rules');
    }
  },
};

interface LabelSelector {
  matchLabels?: Record<string, string>;
}
interface ServiceSpec {
  clusterIP?: string;
  publishNotReadyAddresses?: boolean;
  selector?: Record<string, string>;
  ports: { name: string; port: number; targetPort?: string | number }[];
}
interface StatefulSetSpec {
  serviceName: string;
  replicas: number;
  podManagementPolicy?: string;
  selector: LabelSelector;
  template: { metadata: { labels: Record<string, string> }; spec: PodSpec };
  volumeClaimTemplates: { metadata: { name: string } }[];
}
interface PodSpec {
  terminationGracePeriodSeconds?: number;
  serviceAccountName?: string;
  securityContext?: { runAsNonRoot?: boolean; runAsUser?: number; runAsGroup?: number };
  volumes: { name: string; configMap?: { name: string } }[];
  containers: ContainerSpec[];
  affinity?: unknown;
  topologySpreadConstraints?: { topologyKey: string; labelSelector?: LabelSelector }[];
}
interface Probe {
  httpGet?: { path: string; port: string | number };
  periodSeconds?: number;
  failureThreshold?: number;
}

const find = (objects: K8sObject[], kind: string, pred: (o: K8sObject) => boolean = () => true) => {
  const found = objects.filter((o) => o.kind === kind && pred(o));
  expect(found.length, `exactly one ${kind}`).toBe(1);
  return found[0] as K8sObject;
};
const specOf = <T>(o: K8sObject) => o['spec'] as T;
const selects = (selector: Record<string, string> | undefined, labels: Record<string, string>) =>
  selector !== undefined &&
  Object.keys(selector).length > 0 &&
  Object.entries(selector).every(([k, v]) => labels[k] === v);

let objects: K8sObject[];
let sts: K8sObject;
let stsSpec: StatefulSetSpec;
let container: ContainerSpec;
let peers: K8sObject;
let configs: FermataConfig[];
let configFile: string;

/** The configuration pod `ordinal` loads: its environment (downward API resolved) and the ConfigMap file. */
function podConfig(ordinal: number): FermataConfig {
  const env = podEnvironment(container, { name: `${sts.metadata.name}-${ordinal}`, namespace: NAMESPACE });
  expect(env['FERMATA_CONFIG']).toBeDefined();
  // The file is read from the ConfigMap, at the path the pod would see it.
  return loadConfig({ file: configFile, env: { ...env, FERMATA_CONFIG: configFile } });
}

const portOf = (address: string) => parseAddress(address)?.port;
const hostOf = (address: string) => parseAddress(address)?.host;
const containerPort = (name: string) => container.ports?.find((p) => p.name === name)?.containerPort;

let tmp: string;
beforeAll(() => {
  objects = renderKustomization(OVERLAY);
  sts = find(objects, 'StatefulSet');
  stsSpec = specOf<StatefulSetSpec>(sts);
  container = containerOf(sts, 'fermata');
  peers = find(objects, 'Service', (o) => specOf<ServiceSpec>(o).clusterIP === 'None');
  const volume = stsSpec.template.spec.volumes.find((v) => v.configMap !== undefined);
  const cm = find(objects, 'ConfigMap', (o) => o.metadata.name === volume?.configMap?.name);
  const env = podEnvironment(container, { name: 'x', namespace: NAMESPACE });
  const key = (env['FERMATA_CONFIG'] ?? '').split('/').pop() ?? '';
  const data = (cm['data'] as Record<string, string>)[key];
  expect(data, `ConfigMap ${cm.metadata.name} has the key ${key}`).toBeDefined();
  tmp = mkdtempSync(join(tmpdir(), 'fermata-k8s-'));
  configFile = join(tmp, key);
  writeFileSync(configFile, data as string);
  configs = Array.from({ length: stsSpec.replicas }, (_, i) => podConfig(i));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('deploy/k8s renders to valid Kubernetes objects', () => {
  it('every object of the base and of the example overlay passes its OpenAPI schema', () => {
    for (const dir of [BASE, OVERLAY]) {
      for (const o of renderKustomization(dir)) {
        const validate = VALIDATORS[`${o.apiVersion}/${o.kind}`];
        expect(validate, `a validator for ${o.apiVersion}/${o.kind}`).toBeDefined();
        expect(() => validate?.(o), `${o.kind}/${o.metadata.name}`).not.toThrow();
      }
    }
  });

  it('the schema validation rejects a broken object (it is not a no-op)', () => {
    const broken = structuredClone(sts);
    (broken['spec'] as { replicas: unknown }).replicas = 'three';
    expect(() => VALIDATORS['apps/v1/StatefulSet']?.(broken)).toThrow(/replicas/);
  });

  it('the overlay puts every object in its namespace, with the pinned image and the ServiceMonitor', () => {
    const overlayNs = (
      (readFileSync(join(OVERLAY, 'kustomization.yaml'), 'utf8').match(/^namespace: (\S+)$/m) ?? [])[1] ?? ''
    ).trim();
    expect(overlayNs).not.toBe('');
    for (const o of objects) expect(o.metadata.namespace, `${o.kind}/${o.metadata.name}`).toBe(overlayNs);
    expect(container.image).toMatch(/^registry\.example\.com\/fermata:/);
    expect(objects.some((o) => o.kind === 'ServiceMonitor')).toBe(true);
    expect(renderKustomization(BASE).some((o) => o.kind === 'ServiceMonitor')).toBe(false);
  });

  it('the renderer agrees with kubectl kustomize when kubectl is installed', (ctx) => {
    let kubectlOut: string;
    try {
      kubectlOut = execFileSync('kubectl', ['kustomize', OVERLAY], { encoding: 'utf8', stdio: 'pipe' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
        ctx.skip(
          'kubectl is not installed (Debian does not package it); the built-in renderer is used alone',
        );
        return;
      }
      throw err;
    }
    const theirs = parseAllDocuments(kubectlOut).map((d) => d.toJS() as K8sObject);
    const key = (o: K8sObject) => `${o.kind}/${o.metadata.name}`;
    const sortBy = (list: K8sObject[]) => [...list].sort((a, b) => key(a).localeCompare(key(b)));
    expect(sortBy(renderKustomization(OVERLAY))).toEqual(sortBy(theirs));
  });
});

interface NetworkPolicySpec {
  podSelector: LabelSelector;
  policyTypes: string[];
  ingress: {
    from?: { podSelector?: LabelSelector }[];
    ports: { protocol: string; port: string | number }[];
  }[];
}

describe('the example overlay closes the peer port to everyone but the members', () => {
  it('turns the cluster secret on: the pods load it from the mounted Secret fermata-peer-secret', () => {
    for (const c of configs) expect(c.peer.secretFile).toBe('/etc/fermata-peer-secret/secret');
    const volume = stsSpec.template.spec.volumes.find((v) => v.name === 'peer-secret') as
      | { secret?: { secretName: string } }
      | undefined;
    expect(volume?.secret?.secretName).toBe('fermata-peer-secret');
    const mounts = container['volumeMounts'] as { name: string; mountPath: string; readOnly?: boolean }[];
    expect(mounts.find((m) => m.name === 'peer-secret')).toMatchObject({
      mountPath: '/etc/fermata-peer-secret',
      readOnly: true,
    });
    // The patch added to the base's environment and volumes; it replaced nothing.
    const base = containerOf(find(renderKustomization(BASE), 'StatefulSet'), 'fermata');
    for (const e of base.env ?? []) expect(container.env).toContainEqual(e);
    expect(renderKustomization(BASE).some((o) => o.kind === 'NetworkPolicy')).toBe(false);
  });

  it('has a NetworkPolicy on the StatefulSet pods that admits only those pods to the peer port', () => {
    const labels = stsSpec.template.metadata.labels;
    const policy = find(objects, 'NetworkPolicy');
    const spec = specOf<NetworkPolicySpec>(policy);
    expect(selects(spec.podSelector.matchLabels, labels)).toBe(true);
    expect(spec.policyTypes).toEqual(['Ingress']);
    const portNumber = (p: string | number) => (typeof p === 'number' ? p : containerPort(p));
    const peerPort = containerPort('peer');
    // Every rule that opens the peer port names its sources, and they are the same pods.
    const openers = spec.ingress.filter((r) => r.ports.some((p) => portNumber(p.port) === peerPort));
    expect(openers.length).toBeGreaterThan(0);
    for (const r of openers) {
      expect(r.from?.length, 'a rule opening the peer port names its sources').toBeGreaterThan(0);
      for (const f of r.from ?? []) expect(selects(f.podSelector?.matchLabels, labels)).toBe(true);
    }
    // Clients and Prometheus still reach the client and HTTP ports.
    const open = new Set(
      spec.ingress.filter((r) => !r.from).flatMap((r) => r.ports.map((p) => portNumber(p.port))),
    );
    expect(open).toEqual(new Set([containerPort('client'), containerPort('http')]));
    for (const r of spec.ingress)
      for (const p of r.ports) expect(portNumber(p.port), String(p.port)).toBeDefined();
  });
});

describe('the StatefulSet runs a three-node cluster', () => {
  it('three replicas started in parallel, each with its own volume mounted at the data directory', () => {
    expect(stsSpec.replicas).toBe(3);
    expect(stsSpec.podManagementPolicy).toBe('Parallel');
    const data = stsSpec.volumeClaimTemplates.map((v) => v.metadata.name);
    const mounts = (container['volumeMounts'] as { name: string; mountPath: string; readOnly?: boolean }[])
      .filter((m) => data.includes(m.name))
      .map((m) => m.mountPath);
    expect(mounts.length).toBe(1);
    for (const c of configs) expect(c.dataDir).toBe(mounts[0]);
  });

  it('each pod loads a valid configuration whose node id is its pod name, and all agree on the members', () => {
    configs.forEach((c, i) => {
      expect(c.nodeId).toBe(`${sts.metadata.name}-${i}`);
      expect(c.initialMembers.map((m) => m.id)).toContain(c.nodeId);
      expect(c.initialMembers).toEqual(configs[0]?.initialMembers);
    });
    expect(configs[0]?.initialMembers.map((m) => m.id)).toEqual(
      Array.from({ length: stsSpec.replicas }, (_, i) => `${sts.metadata.name}-${i}`),
    );
  });

  it('peer and client addresses are the stable DNS names of the StatefulSet pods behind the headless Service', () => {
    const peerSpec = specOf<ServiceSpec>(peers);
    expect(stsSpec.serviceName).toBe(peers.metadata.name);
    expect(peerSpec.publishNotReadyAddresses).toBe(true);
    expect(selects(peerSpec.selector, stsSpec.template.metadata.labels)).toBe(true);
    const c0 = configs[0] as FermataConfig;
    c0.initialMembers.forEach((m, i) => {
      const host = `${sts.metadata.name}-${i}.${peers.metadata.name}.${NAMESPACE}.svc.cluster.local`;
      expect(hostOf(m.peerAddress)).toBe(host);
      expect(hostOf(m.clientAddress)).toBe(host);
      expect(portOf(m.peerAddress)).toBe(containerPort('peer'));
      expect(portOf(m.clientAddress)).toBe(containerPort('client'));
      // What the node advertises about itself is what the others have in their list.
      const own = configs[i] as FermataConfig;
      expect(own.peer.advertiseAddress).toBe(m.peerAddress);
      expect(own.client.advertiseAddress).toBe(m.clientAddress);
    });
    // The headless Service forwards the peer and client ports to the named container ports.
    for (const name of ['peer', 'client']) {
      const p = peerSpec.ports.find((x) => x.name === name);
      expect(p?.targetPort === name || p?.targetPort === containerPort(name), `port ${name}`).toBe(true);
    }
  });

  it('container ports are the ports the configuration listens on', () => {
    const c0 = configs[0] as FermataConfig;
    expect(containerPort('client')).toBe(portOf(c0.client.listenAddress));
    expect(containerPort('peer')).toBe(portOf(c0.peer.listenAddress));
    expect(containerPort('http')).toBe(portOf(c0.http.listenAddress));
  });

  it('the client Service and the PDB select exactly the StatefulSet pods', () => {
    const labels = stsSpec.template.metadata.labels;
    expect(selects(stsSpec.selector.matchLabels, labels)).toBe(true);
    const client = find(
      objects,
      'Service',
      (o) => o !== peers && specOf<ServiceSpec>(o).ports.some((p) => p.name === 'client'),
    );
    const clientSpec = specOf<ServiceSpec>(client);
    expect(selects(clientSpec.selector, labels)).toBe(true);
    expect(clientSpec.ports.find((p) => p.name === 'client')?.targetPort).toBe('client');
    const pdb = find(objects, 'PodDisruptionBudget');
    const pdbSpec = specOf<{ maxUnavailable?: number; selector: LabelSelector }>(pdb);
    expect(pdbSpec.maxUnavailable).toBe(1);
    expect(selects(pdbSpec.selector.matchLabels, labels)).toBe(true);
    // The spread and anti-affinity rules look at the same pods.
    for (const t of stsSpec.template.spec.topologySpreadConstraints ?? [])
      expect(selects(t.labelSelector?.matchLabels, labels)).toBe(true);
    expect(JSON.stringify(stsSpec.template.spec.affinity)).toContain('kubernetes.io/hostname');
  });

  it('the pod runs as the image user, non-root, read-only root, no capabilities, with requests and limits', () => {
    const dockerfile = readFileSync(join(REPO, 'deploy/Dockerfile'), 'utf8');
    const [, user, group] = /^USER (\d+):(\d+)$/m.exec(dockerfile) ?? [];
    const pod = stsSpec.template.spec.securityContext;
    expect(pod?.runAsNonRoot).toBe(true);
    expect(String(pod?.runAsUser)).toBe(user);
    expect(String(pod?.runAsGroup)).toBe(group);
    const sc = container['securityContext'] as {
      readOnlyRootFilesystem?: boolean;
      allowPrivilegeEscalation?: boolean;
      capabilities?: { drop?: string[] };
    };
    expect(sc.readOnlyRootFilesystem).toBe(true);
    expect(sc.allowPrivilegeEscalation).toBe(false);
    expect(sc.capabilities?.drop).toEqual(['ALL']);
    const res = container['resources'] as {
      requests?: Record<string, string>;
      limits?: Record<string, string>;
    };
    expect(Object.keys(res.requests ?? {}).sort()).toEqual(['cpu', 'memory']);
    expect(res.limits?.['memory']).toBeDefined();
    // The image's exposed ports are the container ports.
    const exposed = (/^EXPOSE (.+)$/m.exec(dockerfile)?.[1] ?? '').split(/\s+/).map(Number).sort();
    expect((container.ports ?? []).map((p) => p.containerPort).sort()).toEqual(exposed);
    const sa = find(objects, 'ServiceAccount');
    expect(stsSpec.template.spec.serviceAccountName).toBe(sa.metadata.name);
  });

  it('the grace period covers the preStop delay plus the server’s shutdown grace', () => {
    const lifecycle = container['lifecycle'] as { preStop?: { exec?: { command?: string[] } } };
    const command = lifecycle.preStop?.exec?.command ?? [];
    // The image has no shell; the hook runs the image's node binary.
    expect(command[0]).toBe('/usr/local/bin/node');
    const preStopMs = Number(/setTimeout\(\(\) => \{\}, (\d+)\)/.exec(command.join(' '))?.[1]);
    expect(preStopMs).toBeGreaterThan(0);
    const graceS = stsSpec.template.spec.terminationGracePeriodSeconds ?? 30;
    const shutdownMs = (configs[0] as FermataConfig).shutdown.graceMs;
    expect(graceS * 1000).toBeGreaterThanOrEqual(preStopMs + shutdownMs + 5_000);
  });
});

describe('the probes and the scrape target are served by the server', () => {
  let server: BrokerServer | undefined;
  let dataDir: string;
  let http: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'fermata-k8s-node-'));
    // One real node with the pod's configuration, on free ports, as a one-member cluster.
    const c0 = configs[0] as FermataConfig;
    server = await BrokerServer.start(
      loadConfig({
        file: configFile,
        overrides: {
          nodeId: c0.nodeId,
          dataDir,
          initialMembers: [],
          client: { listenAddress: '127.0.0.1:0', advertiseAddress: '' },
          peer: { listenAddress: '127.0.0.1:0', advertiseAddress: '' },
          http: { listenAddress: '127.0.0.1:0' },
          logLevel: 'silent',
        },
      }),
    );
    http = `http://${server.httpAddress}`;
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const probes = () =>
    (['startupProbe', 'livenessProbe', 'readinessProbe'] as const).map((k) => ({
      kind: k,
      probe: container[k] as Probe | undefined,
    }));

  it('startup, liveness and readiness probes use /livez, /livez and /readyz on the http port', () => {
    expect(probes().map((p) => [p.kind, p.probe?.httpGet?.path, p.probe?.httpGet?.port])).toEqual([
      ['startupProbe', '/livez', 'http'],
      ['livenessProbe', '/livez', 'http'],
      ['readinessProbe', '/readyz', 'http'],
    ]);
  });

  it('each probe path answers 200 on a running node that has a leader', async () => {
    const deadline = Date.now() + 30_000;
    for (const { kind, probe } of probes()) {
      const path = probe?.httpGet?.path as string;
      let status = 0;
      do {
        status = (await fetch(`${http}${path}`)).status;
        if (status !== 200) await new Promise((r) => setTimeout(r, 100));
      } while (status !== 200 && Date.now() < deadline);
      expect(status, `${kind} ${path}`).toBe(200);
    }
  });

  it('the ServiceMonitor scrapes /metrics through a port of the headless Service', async () => {
    const sm = find(objects, 'ServiceMonitor');
    const spec = specOf<{ selector: LabelSelector; endpoints: { port: string; path?: string }[] }>(sm);
    expect(selects(spec.selector.matchLabels, peers.metadata.labels ?? {})).toBe(true);
    for (const e of spec.endpoints) {
      const port = specOf<ServiceSpec>(peers).ports.find((p) => p.name === e.port);
      expect(port?.targetPort, `endpoint port ${e.port}`).toBe('http');
      const res = await fetch(`${http}${e.path ?? '/metrics'}`);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('fermata_raft_term');
    }
  });

  it('a path the server does not serve would be caught (404)', async () => {
    expect((await fetch(`${http}/healthz`)).status).toBe(404);
  });
});
