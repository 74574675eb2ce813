/**
 * Loads the server configuration: schema defaults, then a YAML file, then
 * `FERMATA_*` environment variables, then programmatic overrides (each wins
 * over the one before). Unknown keys and malformed values are errors that
 * name the key, where it came from, and the expected form.
 */
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { editDistance, typoDistance } from '@fermata/protocol';
import type { OpenOptions } from '@fermata/storage';
import { parse as parseYaml } from 'yaml';
import {
  type ConfigOverrides,
  configSchema,
  type FermataConfig,
  type InitialMember,
  type KeySpec,
  type SchemaEntry,
  type SchemaSection,
  schemaEntries,
} from './config-schema.js';

export * from './config-schema.js';

/**
 * `FERMATA_*` variables that are not configuration keys: `FERMATA_CONFIG` (path
 * of the YAML file when `file` is not given) and switches read by other parts
 * (`FERMATA_STORAGE_CHECKS`, `FERMATA_REQUIRE_DOCKER`). Variables starting with `FERMATA_TEST_` or
 * `FERMATA_BENCH_` belong to test and benchmark harnesses.
 */
export const RESERVED_ENV: readonly string[] = [
  'FERMATA_CONFIG',
  'FERMATA_STORAGE_CHECKS',
  'FERMATA_REQUIRE_DOCKER',
];
const RESERVED_ENV_PREFIXES = ['FERMATA_TEST_', 'FERMATA_BENCH_'];

/** Every problem found while loading, one per line, so all are fixed in one go. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  constructor(readonly problems: readonly string[]) {
    super(
      problems.length === 1
        ? `invalid configuration: ${problems[0]}`
        : `invalid configuration (${problems.length} problems):\n  - ${problems.join('\n  - ')}`,
    );
  }
}

export interface LoadConfigOptions {
  /** YAML file; defaults to `env.FERMATA_CONFIG` when set. */
  file?: string;
  /** Usually `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Applied last, in the YAML shape (e.g. from CLI flags or tests). */
  overrides?: ConfigOverrides;
}

const ENTRIES: readonly SchemaEntry[] = schemaEntries();
const BY_PATH = new Map(ENTRIES.map((e) => [e.path, e]));
const BY_ENV = new Map(ENTRIES.map((e) => [e.env, e]));
const SECTIONS = new Set(ENTRIES.flatMap((e) => e.path.split('.').slice(0, -1)));

export function loadConfig(options: LoadConfigOptions = {}): FermataConfig {
  const env = options.env ?? {};
  const problems: string[] = [];
  const values = new Map<string, unknown>(ENTRIES.map((e) => [e.path, e.spec.default]));

  const file = options.file ?? (env['FERMATA_CONFIG'] || undefined);
  if (file !== undefined) {
    const doc = readYaml(file, problems);
    if (doc !== undefined) applyTree(doc, configSchema, '', `in ${file}`, values, problems);
  }
  applyEnv(env, values, problems);
  if (options.overrides !== undefined) {
    applyTree(options.overrides, configSchema, '', 'in overrides', values, problems);
  }
  if (problems.length === 0) checkRelations(values, problems);
  if (problems.length > 0) throw new ConfigError(problems);
  return deepFreeze(buildTree(configSchema, '', values)) as FermataConfig;
}

function readYaml(file: string, problems: string[]): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    problems.push(`cannot read configuration file ${file}: ${(err as Error).message}`);
    return undefined;
  }
  let doc: unknown;
  try {
    doc = parseYaml(text, { uniqueKeys: true });
  } catch (err) {
    problems.push(`cannot parse configuration file ${file}: ${(err as Error).message.split('\n')[0]}`);
    return undefined;
  }
  if (doc === null || doc === undefined) return undefined; // an empty file
  return doc;
}

function applyTree(
  node: unknown,
  section: SchemaSection,
  prefix: string,
  where: string,
  values: Map<string, unknown>,
  problems: string[],
): void {
  if (!isPlainObject(node)) {
    const what = prefix === '' ? 'the configuration' : `"${prefix}"`;
    problems.push(`${what} (${where}): expected a mapping of keys, got ${describe(node)}`);
    return;
  }
  for (const [key, value] of Object.entries(node)) {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    const child = Object.hasOwn(section, key) ? section[key] : undefined;
    if (child === undefined) {
      problems.push(
        `unknown configuration key "${path}" (${where})${suggest(path, [...BY_PATH.keys(), ...SECTIONS])}`,
      );
      continue;
    }
    if (value === undefined) continue; // an override left unset
    if (value === null && !isSpec(child)) continue; // `raft:` with every key commented out
    if (isSpec(child)) {
      const parsed = parseValue(child, value, false);
      if (parsed.ok) values.set(path, parsed.value);
      else problems.push(`${path} (${where}): expected ${parsed.expected}, got ${describe(value)}`);
    } else {
      applyTree(value, child, path, where, values, problems);
    }
  }
}

function applyEnv(
  env: Readonly<Record<string, string | undefined>>,
  values: Map<string, unknown>,
  problems: string[],
): void {
  for (const [name, raw] of Object.entries(env)) {
    if (!name.startsWith('FERMATA_') || raw === undefined) continue;
    if (RESERVED_ENV.includes(name) || RESERVED_ENV_PREFIXES.some((p) => name.startsWith(p))) continue;
    const entry = BY_ENV.get(name);
    if (entry === undefined) {
      problems.push(`unknown environment variable ${name}${suggest(name, [...BY_ENV.keys()])}`);
      continue;
    }
    const parsed = parseValue(entry.spec, raw, true);
    if (parsed.ok) values.set(entry.path, parsed.value);
    else
      problems.push(`${entry.path} (from ${name}): expected ${parsed.expected}, got ${JSON.stringify(raw)}`);
  }
}

type Parsed = { ok: true; value: unknown } | { ok: false; expected: string };

/** `fromEnv`: the value is a string and is read as the key's type (`"50"` is an integer there). */
export function parseValue(spec: KeySpec, value: unknown, fromEnv: boolean): Parsed {
  switch (spec.kind) {
    case 'int': {
      const expected = `an integer from ${spec.min} to ${spec.max}`;
      let n: unknown = value;
      if (fromEnv && typeof value === 'string')
        n = /^-?\d+$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
      if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < spec.min || n > spec.max) {
        return { ok: false, expected };
      }
      return { ok: true, value: n };
    }
    case 'bool': {
      if (typeof value === 'boolean') return { ok: true, value };
      if (fromEnv && typeof value === 'string') {
        const v = value.trim().toLowerCase();
        if (v === 'true' || v === '1') return { ok: true, value: true };
        if (v === 'false' || v === '0') return { ok: true, value: false };
      }
      return { ok: false, expected: fromEnv ? 'true, false, 1 or 0' : 'true or false' };
    }
    case 'enum': {
      if (typeof value === 'string' && spec.values.includes(value)) return { ok: true, value };
      return { ok: false, expected: `one of ${spec.values.join(', ')}` };
    }
    case 'string': {
      const expected = spec.form ?? (spec.allowEmpty ? 'a string' : 'a non-empty string');
      if (typeof value !== 'string') return { ok: false, expected };
      if (value === '' && !spec.allowEmpty) return { ok: false, expected };
      if (value !== '' && spec.pattern !== undefined && !spec.pattern.test(value))
        return { ok: false, expected };
      return { ok: true, value };
    }
    case 'address': {
      const expected = `host:port with a port from 0 to 65535${spec.allowEmpty ? ' (or empty)' : ''}`;
      if (typeof value !== 'string') return { ok: false, expected };
      if (value === '' && spec.allowEmpty) return { ok: true, value };
      return parseAddress(value) === undefined ? { ok: false, expected } : { ok: true, value };
    }
    case 'members': {
      const expected =
        'a list of id=peerHost:peerPort/clientHost:clientPort entries (a YAML list or one comma-separated string)';
      let items: unknown[];
      if (typeof value === 'string') items = value.split(',').filter((s) => s.trim() !== '');
      else if (Array.isArray(value) && value.every((v) => typeof v === 'string')) items = value;
      else if (Array.isArray(value) && value.every(isMember))
        return { ok: true, value: value.map((m) => ({ ...m })) };
      else return { ok: false, expected };
      const members: InitialMember[] = [];
      for (const item of items) {
        const m = parseMember(String(item));
        if (m === undefined)
          return { ok: false, expected: `${expected}; entry ${JSON.stringify(item)} is not` };
        members.push(m);
      }
      return { ok: true, value: members };
    }
  }
}

function isMember(v: unknown): v is InitialMember {
  return (
    isPlainObject(v) &&
    typeof v['id'] === 'string' &&
    typeof v['peerAddress'] === 'string' &&
    typeof v['clientAddress'] === 'string' &&
    parseAddress(v['peerAddress']) !== undefined &&
    parseAddress(v['clientAddress']) !== undefined
  );
}

/** `n1=10.0.0.1:7401/10.0.0.1:7400` -> {id, peerAddress, clientAddress}. */
export function parseMember(text: string): InitialMember | undefined {
  const m = /^\s*([^=\s]+)=([^/\s]+)\/(\S+?)\s*$/.exec(text);
  if (m === null) return undefined;
  const [, id, peerAddress, clientAddress] = m as unknown as [string, string, string, string];
  if (!(configSchema.nodeId.pattern as RegExp).test(id)) return undefined;
  if (parseAddress(peerAddress) === undefined || parseAddress(clientAddress) === undefined) return undefined;
  return { id, peerAddress, clientAddress };
}

/** `host:port`, `[v6]:port`; the host is a name or an IP literal, the port 0..65535. */
export function parseAddress(text: string): { host: string; port: number } | undefined {
  const m = /^(?:\[([0-9A-Fa-f:.]+)\]|([A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?)):(\d{1,5})$/.exec(text);
  if (m === null) return undefined;
  const port = Number(m[3]);
  if (port > 65_535) return undefined;
  return { host: (m[1] ?? m[2]) as string, port };
}

/**
 * The address to advertise: the configured one, else the listen address with a
 * wildcard host replaced by this machine's hostname and, when the listen port
 * was 0, the port actually bound.
 */
export function advertiseAddress(advertise: string, listen: string, boundPort?: number): string {
  if (advertise !== '') return advertise;
  const parsed = parseAddress(listen);
  if (parsed === undefined)
    throw new ConfigError([`advertiseAddress: listen address ${JSON.stringify(listen)} is not host:port`]);
  const wildcard = parsed.host === '0.0.0.0' || parsed.host === '::' || parsed.host === '';
  const host = wildcard ? hostname() : parsed.host.includes(':') ? `[${parsed.host}]` : parsed.host;
  return `${host}:${parsed.port === 0 && boundPort !== undefined ? boundPort : parsed.port}`;
}

/**
 * The members a brand-new cluster starts with: `initialMembers`, or this node
 * alone (with its advertised addresses) when the list is empty.
 */
export function bootstrapMembers(
  config: FermataConfig,
  self: { peerAddress: string; clientAddress: string },
): readonly InitialMember[] {
  if (config.initialMembers.length > 0) return config.initialMembers;
  return [{ id: config.nodeId, ...self }];
}

/** The smallest bound on clock offset between a candidate and its voters other than 0 (off). */
export const MIN_CLOCK_OFFSET_MS = 1_000;

function checkRelations(values: Map<string, unknown>, problems: string[]): void {
  const get = (p: string) => values.get(p) as number;
  if (get('raft.heartbeatTicks') >= get('raft.electionTicks')) {
    problems.push(
      `raft.heartbeatTicks (${get('raft.heartbeatTicks')}) must be less than raft.electionTicks (${get('raft.electionTicks')})`,
    );
  }
  const offset = get('raft.maxClockOffsetMs');
  if (offset > 0 && offset < MIN_CLOCK_OFFSET_MS) {
    problems.push(
      `raft.maxClockOffsetMs (${offset}) must be 0 (not checked) or at least ${MIN_CLOCK_OFFSET_MS}: below it, the skew of clocks kept by NTP plus a vote's transit would keep healthy nodes from being elected`,
    );
  }
  const atMost = (a: string, b: string) => {
    if (get(a) > get(b)) problems.push(`${a} (${get(a)}) must not exceed ${b} (${get(b)})`);
  };
  atMost('dispatcher.defaultPrefetch', 'dispatcher.maxPrefetch');
  atMost('dispatcher.defaultLeaseMs', 'limits.maxLeaseMs');
  atMost('dispatcher.leaseAheadMs', 'limits.maxLeaseAheadMs');
  atMost('limits.minLeaseMs', 'dispatcher.defaultLeaseMs');
  atMost('limits.maxPayloadBytes', 'limits.maxBatchPayloadBytes');
  const members = values.get('initialMembers') as readonly InitialMember[];
  const nodeId = values.get('nodeId') as string;
  const seen = new Set<string>();
  for (const m of members) {
    if (seen.has(m.id)) problems.push(`initialMembers: member id "${m.id}" appears more than once`);
    seen.add(m.id);
  }
  if (members.length > 0 && !seen.has(nodeId) && values.get('join') !== true) {
    problems.push(
      `initialMembers does not name this node (nodeId "${nodeId}"); it names ${[...seen].join(', ')}`,
    );
  }
}

function buildTree(
  section: SchemaSection,
  prefix: string,
  values: Map<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, node] of Object.entries(section)) {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    out[key] = isSpec(node) ? values.get(path) : buildTree(node, path, values);
  }
  return out;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

function isSpec(node: KeySpec | SchemaSection): node is KeySpec {
  return typeof (node as { kind?: unknown }).kind === 'string';
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a mapping';
  if (typeof v === 'string') return JSON.stringify(v);
  return `${typeof v} ${String(v)}`;
}

/** `; did you mean "x"?` for the closest candidate within a small edit distance, else ''. */
export function suggest(name: string, candidates: readonly string[]): string {
  const lower = name.toLowerCase();
  const last = (s: string) => s.toLowerCase().split(/\.|__/).pop() ?? '';
  let best: string | undefined;
  let bestScore = Number.POSITIVE_INFINITY;
  for (const c of candidates) {
    const full = editDistance(lower, c.toLowerCase());
    // A key put in the wrong section (`tickMs` for `raft.tickMs`) matches on its last segment.
    const tail = editDistance(last(name), last(c)) + 1;
    const score = Math.min(full, tail);
    if (score < bestScore) {
      bestScore = score;
      best = c;
    }
  }
  const limit = typoDistance(name);
  const q = name.startsWith('FERMATA_') ? '' : '"';
  return best !== undefined && bestScore <= limit ? `; did you mean ${q}${best}${q}?` : '';
}

/** How a node opens its state store at `path` (the `storage.*` settings). */
export function stateStoreOptions(storage: FermataConfig['storage'], path: string): OpenOptions {
  if (storage.engine !== 'leveldb') return { engine: 'memory' };
  return {
    engine: 'leveldb',
    path,
    cacheSizeBytes: storage.blockCacheBytes,
    maxOpenFiles: storage.maxOpenFiles,
    blockSizeBytes: storage.blockSizeBytes,
    writeBufferBytes: storage.writeBufferBytes,
  };
}
