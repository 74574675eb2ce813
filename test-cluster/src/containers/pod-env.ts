/**
 * The environment Kubernetes gives a container: downward-API fields of the pod
 * and `$(VAR)` references to variables defined earlier in the list, expanded
 * the way the kubelet does (`$$` escapes, unknown references stay as written).
 */
import type { K8sObject } from './kustomize.js';
import { podSpecOf } from './kustomize.js';

export interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { fieldRef?: { fieldPath: string } };
}

export interface ContainerSpec {
  name: string;
  image?: string;
  args?: string[];
  env?: EnvVar[];
  ports?: { name?: string; containerPort: number }[];
  [k: string]: unknown;
}

/** The one container named `name` in a workload's pod template. */
export function containerOf(workload: K8sObject, name: string): ContainerSpec {
  const c = (podSpecOf(workload)?.containers as ContainerSpec[] | undefined)?.find((x) => x.name === name);
  if (c === undefined) throw new Error(`${workload.kind}/${workload.metadata.name} has no container ${name}`);
  return c;
}

/** The variables of `container` in a pod named `pod.name` in `pod.namespace`. */
export function podEnvironment(
  container: ContainerSpec,
  pod: { name: string; namespace: string },
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const v of container.env ?? []) {
    if (v.valueFrom !== undefined) {
      const path = v.valueFrom.fieldRef?.fieldPath;
      if (path === 'metadata.name') env[v.name] = pod.name;
      else if (path === 'metadata.namespace') env[v.name] = pod.namespace;
      else throw new Error(`env ${v.name}: valueFrom ${JSON.stringify(v.valueFrom)} is not supported here`);
      continue;
    }
    env[v.name] = expand(v.value ?? '', env);
  }
  return env;
}

/** Kubernetes' dependent-variable expansion: `$(NAME)` of an earlier variable, `$$` for a literal `$`. */
export function expand(value: string, env: Readonly<Record<string, string>>): string {
  return value.replace(/\$\$|\$\(([A-Za-z_][A-Za-z0-9_.-]*)\)/g, (match, name: string | undefined) => {
    if (name === undefined) return '$';
    return Object.hasOwn(env, name) ? (env[name] as string) : match;
  });
}
