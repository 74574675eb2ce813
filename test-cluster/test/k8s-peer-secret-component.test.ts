/**
 * The `deploy/k8s/components/peer-secret` patch: it sets only configuration
 * keys the server knows, peer.secretFile lies in the mounted Secret
 * fermata-peer-secret at the path the container fault tests mount it, and
 * docs/operations.md tells operators to create that Secret.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig, schemaEntries } from '@fermata/broker';
import { describe, expect, it } from 'vitest';
import { PEER_SECRET_PATH } from '../src/containers/container-cluster.js';
import { REPO_ROOT } from '../src/index.js';
import { readComponent } from './k8s-component.js';

const DIR = join(REPO_ROOT, 'deploy/k8s/components/peer-secret');

describe('deploy/k8s/components/peer-secret', () => {
  const { kustomization, pod, container } = readComponent(DIR, 'statefulset-peer-secret.yaml');

  it('is a Component patching the fermata StatefulSet', () => {
    expect(kustomization.kind).toBe('Component');
    expect(kustomization.patches).toEqual([
      { path: 'statefulset-peer-secret.yaml', target: { kind: 'StatefulSet', name: 'fermata' } },
    ]);
    expect(container.name).toBe('fermata');
  });

  it('points peer.secretFile into the mounted Secret fermata-peer-secret', () => {
    const known = new Set(schemaEntries().map((e) => e.env));
    const env = Object.fromEntries(container.env.map((e) => [e.name, e.value]));
    for (const name of Object.keys(env)) expect(known, name).toContain(name);
    const file = loadConfig({ env }).peer.secretFile;
    const mount = container.volumeMounts.find((m) => m.name === 'peer-secret');
    expect(mount?.readOnly).toBe(true);
    expect(pod.volumes.find((v) => v.name === 'peer-secret')?.secret?.secretName).toBe('fermata-peer-secret');
    expect(file).toBe(`${mount?.mountPath}/secret`);
    expect(file).toBe(PEER_SECRET_PATH);
    expect(readFileSync(join(REPO_ROOT, 'docs/operations.md'), 'utf8')).toContain(
      'create secret generic fermata-peer-secret --from-literal=secret=',
    );
  });
});
