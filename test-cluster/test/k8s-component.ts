/** Reads a kustomize Component of deploy/k8s/components that patches the fermata StatefulSet. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

export interface PatchedPod {
  containers: Array<{
    name: string;
    env: Array<{ name: string; value: string }>;
    volumeMounts: Array<{ name: string; mountPath: string; readOnly?: boolean }>;
  }>;
  volumes: Array<{ name: string; secret?: { secretName: string } }>;
}

export function readComponent(dir: string, patchFile: string) {
  const kustomization = parse(readFileSync(join(dir, 'kustomization.yaml'), 'utf8')) as {
    kind: string;
    patches: Array<{ path: string; target: { kind: string; name: string } }>;
  };
  const patch = parse(readFileSync(join(dir, patchFile), 'utf8')) as {
    spec: { template: { spec: PatchedPod } };
  };
  const pod = patch.spec.template.spec;
  const container = pod.containers[0];
  if (!container) throw new Error(`${patchFile} patches no container`);
  return { kustomization, pod, container };
}
