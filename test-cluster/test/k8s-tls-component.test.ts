/**
 * The `deploy/k8s/components/tls` patch: every variable it sets is a
 * configuration key the server knows, every file it names lies in the mounted
 * Secret under one of the keys cert-manager writes, and the Secret is the one
 * docs/operations.md tells operators to create.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig, schemaEntries } from '@fermata/broker';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../src/index.js';
import { readComponent } from './k8s-component.js';

const DIR = join(REPO_ROOT, 'deploy/k8s/components/tls');

describe('deploy/k8s/components/tls', () => {
  const { kustomization, pod, container } = readComponent(DIR, 'statefulset-tls.yaml');

  it('is a Component patching the fermata StatefulSet', () => {
    expect(kustomization.kind).toBe('Component');
    expect(kustomization.patches).toEqual([
      { path: 'statefulset-tls.yaml', target: { kind: 'StatefulSet', name: 'fermata' } },
    ]);
    expect(container.name).toBe('fermata');
  });

  it('sets only known configuration keys, which load, to files of the mounted Secrets fermata-tls and fermata-peer-tls', () => {
    const known = new Set(schemaEntries().map((e) => e.env));
    const env = Object.fromEntries(container.env.map((e) => [e.name, e.value]));
    for (const name of Object.keys(env)) expect(known, name).toContain(name);
    const config = loadConfig({ env });
    const secretFiles = (volume: string, secretName: string, files: string[]) => {
      const mount = container.volumeMounts.find((m) => m.name === volume);
      expect(mount?.readOnly).toBe(true);
      expect(pod.volumes.find((v) => v.name === volume)?.secret?.secretName).toBe(secretName);
      for (const f of files) {
        expect(f.startsWith(`${mount?.mountPath}/`), f).toBe(true);
        expect(['tls.crt', 'tls.key', 'ca.crt']).toContain(f.slice(`${mount?.mountPath}/`.length));
      }
    };
    const c = config.client.tls;
    const p = config.peer.tls;
    secretFiles('tls', 'fermata-tls', [c.certFile, c.keyFile, c.caFile]);
    // Peers trust another CA than clients: a client certificate is no peer certificate.
    secretFiles('peer-tls', 'fermata-peer-tls', [p.certFile, p.keyFile, p.caFile]);
    expect(p.requirePeerUri).toBe(true);
    const docs = readFileSync(join(REPO_ROOT, 'docs/operations.md'), 'utf8');
    for (const secret of ['fermata-tls', 'fermata-peer-tls']) {
      expect(docs).toContain(
        `create secret generic ${secret} --from-file=tls.crt --from-file=tls.key --from-file=ca.crt`,
      );
    }
  });
});
