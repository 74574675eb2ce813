/**
 * The `deploy/k8s/components/restore` patch: its init container sees the
 * node's own configuration (the base container's variables and config file)
 * under the new cluster id the node gets too, mounts the node's data volume
 * and the backup read-only, and its `fermata restore` seeds a node's data
 * directory from a real backup in that environment.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  BACKUP_FORMAT_VERSION,
  BackupWriter,
  BrokerStateMachine,
  createQueueHasher,
  loadConfig,
  RESTORED_MARKER_FILE,
} from '@fermata/broker';
import { openStore } from '@fermata/storage';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type ContainerSpec, podEnvironment } from '../src/containers/pod-env.js';
import { fermataArgv, REPO_ROOT } from '../src/index.js';

const DIR = join(REPO_ROOT, 'deploy/k8s/components/restore');
const BASE = join(REPO_ROOT, 'deploy/k8s/base');

interface Mount {
  name: string;
  mountPath: string;
  readOnly?: boolean;
}
type Container = ContainerSpec & { volumeMounts: Mount[]; securityContext?: Record<string, unknown> };
interface Patch {
  spec: {
    template: {
      spec: {
        initContainers: Container[];
        containers: Container[];
        volumes: Array<{ name: string; persistentVolumeClaim?: { claimName: string; readOnly?: boolean } }>;
      };
    };
  };
}

const tmp = mkdtempSync(join(tmpdir(), 'fermata-k8s-restore-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('deploy/k8s/components/restore', () => {
  const kustomization = parse(readFileSync(join(DIR, 'kustomization.yaml'), 'utf8')) as {
    kind: string;
    patches: unknown[];
  };
  const patch = parse(readFileSync(join(DIR, 'statefulset-restore.yaml'), 'utf8')) as Patch;
  const pod = patch.spec.template.spec;
  const init = pod.initContainers.find((c) => c.name === 'restore')!;
  const base = (parse(readFileSync(join(BASE, 'statefulset.yaml'), 'utf8')) as Patch).spec.template.spec;
  const node = base.containers.find((c) => c.name === 'fermata')!;
  const configFile = join(BASE, 'fermata.yaml');
  const envOf = (c: ContainerSpec) => podEnvironment(c, { name: 'fermata-1', namespace: 'ns' });

  it('is a Component patching the fermata StatefulSet with an init container of the node image', () => {
    expect(kustomization.kind).toBe('Component');
    expect(kustomization.patches).toEqual([
      { path: 'statefulset-restore.yaml', target: { kind: 'StatefulSet', name: 'fermata' } },
    ]);
    expect(init.image).toBe(node.image);
    expect(init.securityContext).toEqual(node.securityContext);
  });

  it('runs fermata restore with the node’s configuration under the new cluster id the node gets too', () => {
    const initEnv = envOf(init);
    const nodeEnv = envOf(node);
    for (const [k, v] of Object.entries(nodeEnv)) {
      if (k.startsWith('FERMATA_')) expect(initEnv[k], k).toBe(v);
    }
    const newId = initEnv['FERMATA_CLUSTER_ID'];
    const patched = pod.containers.find((c) => c.name === 'fermata')!;
    expect(envOf(patched)['FERMATA_CLUSTER_ID']).toBe(newId);
    const config = loadConfig({ file: configFile, env: { ...initEnv, FERMATA_CONFIG: configFile } });
    expect(config.clusterId).toBe(newId);
    expect(config.clusterId).not.toBe(loadConfig({ file: configFile, env: {} }).clusterId);
    expect(config.nodeId).toBe('fermata-1');
    expect(config.initialMembers.map((m) => m.id)).toEqual(['fermata-0', 'fermata-1', 'fermata-2']);
    // It writes where the node reads: the data volume, at the node's dataDir.
    const data = init.volumeMounts.find((m) => m.name === 'data');
    expect(data?.mountPath).toBe(config.dataDir);
    expect(node.volumeMounts.find((m) => m.name === 'data')?.mountPath).toBe(config.dataDir);
    const backup = init.volumeMounts.find((m) => m.name === 'backup');
    expect(backup?.readOnly).toBe(true);
    expect(pod.volumes.find((v) => v.name === 'backup')?.persistentVolumeClaim).toEqual({
      claimName: 'fermata-backup',
      readOnly: true,
    });
    expect(init.args?.slice(0, 2)).toEqual(['restore', '--from']);
    expect(init.args?.[2]?.startsWith(`${backup?.mountPath}/`)).toBe(true);
    expect(readFileSync(join(REPO_ROOT, 'docs/operations.md'), 'utf8')).toContain('components/restore');
  });

  it('seeds a data directory from a backup in the init container’s environment, and again changes nothing', {
    timeout: 60_000,
  }, async () => {
    // A real backup of a state machine that applied one (empty) entry.
    const store = await openStore({ engine: 'memory' });
    const sm = await BrokerStateMachine.open({ store, hasher: await createQueueHasher() });
    await sm.apply([{ index: 1, term: 1, type: 'normal', data: new Uint8Array(0) }]);
    const snap = await sm.snapshot();
    const file = join(tmp, 'fermata.fmbk');
    const w = await BackupWriter.create(file, {
      formatVersion: BACKUP_FORMAT_VERSION,
      clusterId: 'fermata',
      nodeId: 'fermata-0',
      term: 3,
      appliedIndex: snap.index,
      takenAtMs: Date.now(),
      queueEntries: 0,
    });
    const { createHash } = await import('node:crypto');
    const hash = createHash('sha256');
    let bytes = 0;
    for await (const c of snap.chunks) {
      hash.update(c);
      bytes += c.length;
      await w.data(c);
    }
    await w.finish({ dataBytes: bytes, records: 0, messages: 0, sha256: hash.digest('hex') });

    const dataDir = join(tmp, 'data');
    const env: NodeJS.ProcessEnv = {};
    for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('FERMATA_')) env[k] = v;
    Object.assign(env, envOf(init), { FERMATA_CONFIG: configFile, FERMATA_DATA_DIR: dataDir });
    const args = fermataArgv([...init.args!.slice(0, 2), file]);
    const run = () => promisify(execFile)(process.execPath, args, { cwd: REPO_ROOT, env });
    expect((await run()).stdout).toMatch(
      /new cluster: +fermata-restored \(fermata-0, fermata-1, fermata-2\)/,
    );
    expect(existsSync(join(dataDir, RESTORED_MARKER_FILE))).toBe(true);
    expect(readFileSync(join(dataDir, 'cluster-id'), 'utf8').trim()).toBe('fermata-restored');
    expect((await run()).stdout).toMatch(/already restored from this backup/);
  });
});
