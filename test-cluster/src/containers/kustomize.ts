/**
 * A small kustomize renderer for `deploy/k8s`: what `kubectl kustomize` does
 * for the features the manifests use, so the tests need no kubectl (Debian
 * does not package it). Supported: `resources` (files and directories),
 * `components`, `configMapGenerator` (files, literals, labels, the content
 * hash suffix and the rewrite of references to the generated name), `images`,
 * `namespace`, and `patches` of a file targeted by kind and name, applied as
 * strategic-merge patches (maps merge; the lists the manifests patch merge by
 * their Kubernetes merge keys: containers, volumes and env by name,
 * volumeMounts by mountPath, ports by containerPort, new items first as
 * kustomize puts them; other lists are replaced). Anything else in a kustomization is an error, so a new feature
 * in the manifests cannot be silently ignored here.
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';

export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; [k: string]: unknown };
  [k: string]: unknown;
}

interface ConfigMapGenerator {
  name: string;
  files?: string[];
  literals?: string[];
  options?: { labels?: Record<string, string>; disableNameSuffixHash?: boolean };
}

interface ImageRule {
  name: string;
  newName?: string;
  newTag?: string;
}

interface PatchRule {
  path: string;
  target: { kind: string; name: string };
}

interface Kustomization {
  apiVersion?: string;
  kind?: string;
  namespace?: string;
  resources?: string[];
  components?: string[];
  configMapGenerator?: ConfigMapGenerator[];
  images?: ImageRule[];
  patches?: PatchRule[];
}

const KNOWN_FIELDS = new Set([
  'apiVersion',
  'kind',
  'namespace',
  'resources',
  'components',
  'configMapGenerator',
  'images',
  'patches',
]);

/** Kinds that have no namespace (the ones a kustomization here could plausibly hold). */
const CLUSTER_SCOPED = new Set([
  'Namespace',
  'ClusterRole',
  'ClusterRoleBinding',
  'CustomResourceDefinition',
  'PriorityClass',
  'StorageClass',
  'PersistentVolume',
]);

/** Renders the kustomization in `dir` (a directory holding `kustomization.yaml`). */
export function renderKustomization(dir: string): K8sObject[] {
  return build(resolve(dir), 'Kustomization', []);
}

function build(dir: string, expectedKind: string, inherited: K8sObject[]): K8sObject[] {
  const k = readKustomization(dir);
  const kind = k.kind ?? 'Kustomization';
  if (kind !== expectedKind) throw new Error(`${dir}: expected a ${expectedKind}, found kind ${kind}`);
  let objects: K8sObject[] = [...inherited];
  for (const entry of k.resources ?? []) objects.push(...loadResource(join(dir, entry)));
  const renames = new Map<string, string>();
  for (const gen of k.configMapGenerator ?? []) {
    const cm = generateConfigMap(dir, gen);
    renames.set(gen.name, cm.metadata.name);
    objects.push(cm);
  }
  for (const rule of k.patches ?? []) applyPatch(dir, objects, rule);
  // A component works on everything accumulated so far, the parent's resources included.
  for (const entry of k.components ?? []) objects = build(join(dir, entry), 'Component', objects);
  rewriteConfigMapRefs(objects, renames);
  for (const rule of k.images ?? []) applyImage(objects, rule);
  if (k.namespace !== undefined) {
    for (const o of objects) if (!CLUSTER_SCOPED.has(o.kind)) o.metadata.namespace = k.namespace;
  }
  assertUnique(objects, dir);
  return objects;
}

function readKustomization(dir: string): Kustomization {
  const file = join(dir, 'kustomization.yaml');
  const doc = parse(readFileSync(file, 'utf8')) as Kustomization | null;
  if (doc === null || typeof doc !== 'object') throw new Error(`${file}: not a mapping`);
  const unknown = Object.keys(doc).filter((f) => !KNOWN_FIELDS.has(f));
  if (unknown.length > 0)
    throw new Error(`${file}: fields this renderer does not implement: ${unknown.join(', ')}`);
  return doc;
}

function loadResource(path: string): K8sObject[] {
  if (statSync(path).isDirectory()) return build(path, 'Kustomization', []);
  const out: K8sObject[] = [];
  for (const doc of parseAllDocuments(readFileSync(path, 'utf8'))) {
    if (doc.errors.length > 0) throw new Error(`${path}: ${doc.errors[0]?.message}`);
    const value = doc.toJS() as K8sObject | null;
    if (value === null) continue;
    if (typeof value.kind !== 'string' || typeof value.metadata?.name !== 'string')
      throw new Error(`${path}: a document without kind or metadata.name`);
    out.push(value);
  }
  return out;
}

function generateConfigMap(dir: string, gen: ConfigMapGenerator): K8sObject {
  const data: Record<string, string> = {};
  for (const f of gen.files ?? []) data[basename(f)] = readFileSync(join(dir, f), 'utf8');
  for (const lit of gen.literals ?? []) {
    const eq = lit.indexOf('=');
    if (eq <= 0) throw new Error(`configMapGenerator ${gen.name}: literal ${JSON.stringify(lit)} is not k=v`);
    data[lit.slice(0, eq)] = lit.slice(eq + 1);
  }
  const name = gen.options?.disableNameSuffixHash === true ? gen.name : `${gen.name}-${configMapHash(data)}`;
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, ...(gen.options?.labels ? { labels: { ...gen.options.labels } } : {}) },
    data,
  };
}

/**
 * kustomize's name suffix: sha256 of Go's `json.Marshal({kind, name, data})`
 * (keys sorted, `<>&` escaped), the first 10 hex digits with 0,1,3,a,e
 * replaced so the suffix never looks like a number or a word. kustomize 5
 * hashes the generator before it is named, so `name` is empty: two
 * generators with the same data get the same suffix.
 */
export function configMapHash(data: Record<string, string>): string {
  const json = goJson({ data, kind: 'ConfigMap', name: '' });
  const hex = createHash('sha256').update(json).digest('hex').slice(0, 10);
  const swap: Record<string, string> = { '0': 'g', '1': 'h', '3': 'k', a: 'm', e: 't' };
  return [...hex].map((c) => swap[c] ?? c).join('');
}

function goJson(v: unknown): string {
  if (typeof v === 'string')
    return JSON.stringify(v).replace(
      /[<>&\u2028\u2029]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
  if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
    const entries = Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, x]) => `${goJson(k)}:${goJson(x)}`).join(',')}}`;
  }
  if (Array.isArray(v)) return `[${v.map(goJson).join(',')}]`;
  return JSON.stringify(v);
}

interface PodSpecLike {
  volumes?: {
    configMap?: { name?: string };
    projected?: { sources?: { configMap?: { name?: string } }[] };
  }[];
  containers?: ContainerLike[];
  initContainers?: ContainerLike[];
}
interface ContainerLike {
  image?: string;
  env?: { valueFrom?: { configMapKeyRef?: { name?: string } } }[];
  envFrom?: { configMapRef?: { name?: string } }[];
}

/** The pod spec of a workload object, if it has one. */
export function podSpecOf(o: K8sObject): PodSpecLike | undefined {
  const spec = o['spec'] as { template?: { spec?: PodSpecLike } } | undefined;
  return spec?.template?.spec;
}

function rewriteConfigMapRefs(objects: K8sObject[], renames: Map<string, string>): void {
  if (renames.size === 0) return;
  const fix = (ref: { name?: string } | undefined) => {
    if (ref?.name !== undefined && renames.has(ref.name)) ref.name = renames.get(ref.name);
  };
  for (const o of objects) {
    const pod = podSpecOf(o);
    if (pod === undefined) continue;
    for (const v of pod.volumes ?? []) {
      fix(v.configMap);
      for (const s of v.projected?.sources ?? []) fix(s.configMap);
    }
    for (const c of [...(pod.containers ?? []), ...(pod.initContainers ?? [])]) {
      for (const e of c.env ?? []) fix(e.valueFrom?.configMapKeyRef);
      for (const e of c.envFrom ?? []) fix(e.configMapRef);
    }
  }
}

function applyImage(objects: K8sObject[], rule: ImageRule): void {
  for (const o of objects) {
    const pod = podSpecOf(o);
    for (const c of [...(pod?.containers ?? []), ...(pod?.initContainers ?? [])]) {
      if (c.image === undefined) continue;
      const m = /^(.*?)(?::([^:/@]+))?(@.*)?$/.exec(c.image);
      if (m === null || m[1] !== rule.name) continue;
      const name = rule.newName ?? m[1];
      const tag = rule.newTag ?? m[2];
      c.image = `${name}${tag !== undefined ? `:${tag}` : ''}${rule.newTag === undefined ? (m[3] ?? '') : ''}`;
    }
  }
}

/** The merge key of the lists a strategic-merge patch merges item by item (Kubernetes' patchMergeKey). */
const MERGE_KEYS: Record<string, string> = {
  containers: 'name',
  initContainers: 'name',
  volumes: 'name',
  env: 'name',
  volumeMounts: 'mountPath',
  ports: 'containerPort',
};

function applyPatch(dir: string, objects: K8sObject[], rule: PatchRule): void {
  // YAML 1.1, as kubectl reads it: `defaultMode: 0440` is octal there (288), decimal in 1.2.
  const patch = parse(readFileSync(join(dir, rule.path), 'utf8'), { version: '1.1' }) as Record<
    string,
    unknown
  >;
  const targets = objects.filter((o) => o.kind === rule.target.kind && o.metadata.name === rule.target.name);
  if (targets.length === 0)
    throw new Error(`${dir}: patch ${rule.path} matches no ${rule.target.kind}/${rule.target.name}`);
  for (const o of targets) strategicMerge(o as Record<string, unknown>, patch);
}

function isMap(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function strategicMerge(target: Record<string, unknown>, patch: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(patch)) {
    const current = target[key];
    if (value === null) delete target[key];
    else if (isMap(value) && isMap(current)) strategicMerge(current, value);
    else if (Array.isArray(value) && Array.isArray(current) && MERGE_KEYS[key] !== undefined) {
      // As kustomize does: items of the patch merge into the item with their key, new ones go
      // first, in the patch's order.
      const mergeKey = MERGE_KEYS[key]!;
      const added: unknown[] = [];
      for (const item of value) {
        const match = isMap(item)
          ? current.find((c) => isMap(c) && c[mergeKey] === item[mergeKey])
          : undefined;
        if (isMap(match) && isMap(item)) strategicMerge(match, item);
        else added.push(structuredClone(item));
      }
      current.unshift(...added);
    } else target[key] = structuredClone(value);
  }
}

function assertUnique(objects: K8sObject[], dir: string): void {
  const seen = new Set<string>();
  for (const o of objects) {
    const id = `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;
    if (seen.has(id)) throw new Error(`${dir}: ${id} is defined twice`);
    seen.add(id);
  }
}
