/**
 * Bearer-token authentication with per-topic permissions.
 *
 * Tokens are configured by the SHA-256 of the token (hex), never in clear: a
 * presented token is hashed and looked up. Tokens are meant to be random
 * (at least 128 bits, e.g. `fermata hash-token --generate`), so an unsalted
 * hash is enough; they are not passwords.
 *
 * Each token has a name and, per permission (`publish`, `consume`, `admin`,
 * `read`), a list of topic patterns: `*` matches any run of characters, everything else
 * matches itself (`orders.*` matches `orders.created` and `orders.eu.created`
 * but not `orders`; a topic's dead-letter topic `orders.created.dlq` is matched
 * by `orders.*` too). `read` allows every call that only reads (lists, stats,
 * messages, the forecast, schedules) and nothing that writes: a read call is
 * allowed by `read` or by the permission it needs besides. `monitor: true`
 * lets a token read the HTTP status page and `/metrics` (as `admin: ["*"]` or
 * `read: ["*"]` does) and nothing else by itself. No tokens configured =
 * authentication off.
 */
import { createHash } from 'node:crypto';
import * as grpc from '@grpc/grpc-js';
import { parse as parseYaml } from 'yaml';

export const PERMISSIONS = ['publish', 'consume', 'admin', 'read'] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** Metadata key of the token: `authorization: Bearer <token>`. */
export const AUTHORIZATION_METADATA_KEY = 'authorization';
/** Longest token accepted; anything longer is refused before hashing. */
export const MAX_TOKEN_BYTES = 4096;
/** Most tokens one file may define, and patterns one permission may list. */
export const MAX_TOKENS = 10_000;
export const MAX_PATTERNS_PER_PERMISSION = 1_000;
/** Longest topic pattern. */
export const MAX_PATTERN_BYTES = 1024;

export interface TokenSpec {
  readonly name: string;
  /** Lower-case hex SHA-256 of the token. */
  readonly sha256: string;
  readonly permissions: Readonly<Record<Permission, readonly string[]>>;
  /** May read the HTTP status page and /metrics (cluster-wide: node ids, addresses, every topic). */
  readonly monitor?: boolean;
  /** This token's own limits, over the node's `auth.tokenLimits` defaults (token-limits.ts). */
  readonly limits?: Partial<TokenLimitValues>;
}

/** Per-token limits: each 0 = none. */
export interface TokenLimitValues {
  /** Schedules the token created that exist (replicated, so every leader counts the same). */
  readonly schedules: number;
  /** Messages a second the token may publish, on the leader (a token bucket of one second). */
  readonly publishPerSecond: number;
  /** Consume streams the token may have open at once on one node. */
  readonly streams: number;
}

export const TOKEN_LIMIT_NAMES = ['schedules', 'publishPerSecond', 'streams'] as const;

/** Who made a call: the token's name and what it may do. */
export class Principal {
  private readonly matchers: Readonly<Record<Permission, readonly RegExp[]>>;

  constructor(readonly spec: TokenSpec) {
    this.matchers = {
      publish: spec.permissions.publish.map(patternToRegExp),
      consume: spec.permissions.consume.map(patternToRegExp),
      admin: spec.permissions.admin.map(patternToRegExp),
      read: spec.permissions.read.map(patternToRegExp),
    };
  }

  get name(): string {
    return this.spec.name;
  }

  /** Whether this token may `permission` on `topic`. */
  can(permission: Permission, topic: string): boolean {
    return this.matchers[permission].some((re) => re.test(topic));
  }

  /** Whether this token holds `permission` on at least one pattern. */
  hasAny(permission: Permission): boolean {
    return this.matchers[permission].length > 0;
  }

  /** Whether this token may read the HTTP status page and /metrics. */
  get canMonitor(): boolean {
    return this.spec.monitor === true || this.hasAll('admin') || this.hasAll('read');
  }

  /** Whether `permission` covers every topic (a `*` pattern): needed for cluster-wide calls. */
  hasAll(permission: Permission): boolean {
    return this.spec.permissions[permission].includes('*');
  }
}

/** `orders.*` -> /^orders\..*$/ : `*` is any run of characters, the rest literal. */
export function patternToRegExp(pattern: string): RegExp {
  const body = pattern
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${body}$`, 's');
}

export function sha256Hex(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** A refused call: UNAUTHENTICATED or PERMISSION_DENIED and the reason. */
export interface AuthFailure {
  readonly code: grpc.status.UNAUTHENTICATED | grpc.status.PERMISSION_DENIED;
  readonly details: string;
}

/** The configured tokens, looked up by the hash of what a client presents. */
export class TokenTable {
  private readonly byHash: ReadonlyMap<string, Principal>;
  private readonly byName: ReadonlyMap<string, Principal>;

  constructor(readonly tokens: readonly TokenSpec[]) {
    const byHash = new Map<string, Principal>();
    const byName = new Map<string, Principal>();
    for (const t of tokens) {
      const p = new Principal(t);
      byHash.set(t.sha256, p);
      byName.set(t.name, p);
    }
    this.byHash = byHash;
    this.byName = byName;
  }

  /** The principal of the token named `name`, if it is configured now. */
  principalByName(name: string): Principal | undefined {
    return this.byName.get(name);
  }

  /** Off when no token is configured: every call is let in. */
  get enabled(): boolean {
    return this.byHash.size > 0;
  }

  /** The principal whose token hashes to `sha256` (lower-case hex), if configured. */
  principalOf(sha256: string): Principal | undefined {
    return this.byHash.get(sha256);
  }

  /** The principal of a bearer token, or why there is none. */
  authenticate(metadata: grpc.Metadata): Principal | AuthFailure {
    const values = metadata.get(AUTHORIZATION_METADATA_KEY);
    if (values.length > 1) {
      return { code: grpc.status.UNAUTHENTICATED, details: 'more than one authorization header' };
    }
    const raw = values[0];
    return this.authenticateHeader(raw === undefined ? undefined : typeof raw === 'string' ? raw : '');
  }

  /** The principal of an `authorization` header's value (gRPC metadata or HTTP), or why there is none. */
  authenticateHeader(header: string | undefined): Principal | AuthFailure {
    if (header === undefined) {
      return { code: grpc.status.UNAUTHENTICATED, details: 'no token: send "authorization: Bearer <token>"' };
    }
    const m = /^Bearer +(\S+)\s*$/i.exec(header);
    if (m === null) {
      return { code: grpc.status.UNAUTHENTICATED, details: 'authorization is not "Bearer <token>"' };
    }
    const token = m[1] as string;
    if (Buffer.byteLength(token, 'utf8') > MAX_TOKEN_BYTES) {
      return { code: grpc.status.UNAUTHENTICATED, details: `token longer than ${MAX_TOKEN_BYTES} bytes` };
    }
    const principal = this.byHash.get(sha256Hex(token));
    if (principal === undefined) return { code: grpc.status.UNAUTHENTICATED, details: 'unknown token' };
    return principal;
  }
}

export function isAuthFailure(v: Principal | AuthFailure | undefined): v is AuthFailure {
  return v !== undefined && !(v instanceof Principal);
}

/**
 * What a call needs: a permission on some topics, on every topic
 * (cluster-wide), or only a known token. `orRead`: the call only reads, so
 * `read` on the same topics allows it too.
 */
export type Requirement =
  | {
      readonly kind: 'topics';
      readonly permission: Permission;
      readonly topics: readonly string[];
      readonly orRead?: boolean;
    }
  | {
      readonly kind: 'any-topic';
      readonly permission: Permission;
      readonly what: string;
      readonly orRead?: boolean;
    }
  | { readonly kind: 'all-topics'; readonly permission: Permission; readonly what: string }
  | { readonly kind: 'authenticated' };

/** ` (or "read", enough for a read)` after a refusal of a read call; '' otherwise. */
function orReadText(req: { readonly orRead?: boolean }): string {
  return req.orRead === true ? ' (or "read", enough for a read)' : '';
}

/** Checks one requirement; undefined means allowed. */
export function authorize(principal: Principal, req: Requirement): AuthFailure | undefined {
  const denied = (details: string): AuthFailure => ({ code: grpc.status.PERMISSION_DENIED, details });
  switch (req.kind) {
    case 'authenticated':
      return undefined;
    case 'topics':
      for (const topic of req.topics) {
        if (!principal.can(req.permission, topic) && !(req.orRead === true && principal.can('read', topic)))
          return denied(
            `token "${principal.name}" lacks permission "${req.permission}" on topic "${topic}"${orReadText(req)}`,
          );
      }
      return undefined;
    case 'any-topic':
      return principal.hasAny(req.permission) || (req.orRead === true && principal.hasAny('read'))
        ? undefined
        : denied(
            `token "${principal.name}" lacks permission "${req.permission}"${orReadText(req)} (needed for ${req.what})`,
          );
    case 'all-topics':
      return principal.hasAll(req.permission)
        ? undefined
        : denied(
            `token "${principal.name}" lacks permission "${req.permission}" on all topics ("*"), needed for ${req.what}`,
          );
  }
}

/**
 * Authenticates and authorizes one call (or one message of a stream): the
 * token in `metadata` must be known and allowed every requirement.
 */
export function authorizeCall(
  table: TokenTable,
  metadata: grpc.Metadata,
  requirements: readonly Requirement[],
): AuthFailure | undefined {
  if (!table.enabled) return undefined;
  const who = table.authenticate(metadata);
  if (isAuthFailure(who)) return who;
  for (const r of requirements) {
    const failure = authorize(who, r);
    if (failure) return failure;
  }
  return undefined;
}

/** Thrown for a token file that cannot be used; names the file and the entry. */
export class TokenFileError extends Error {
  override readonly name = 'TokenFileError';
}

const TOKEN_KEYS = new Set(['name', 'sha256', 'monitor', 'limits', ...PERMISSIONS]);
const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._@:-]{0,127}$/;

/**
 * Parses a token file (YAML or JSON):
 *
 *     tokens:
 *       - name: orders-service
 *         sha256: 5e884898da28047151d0e56f8dc6292773603d0d6aabbdd62a11ef721d1542d8
 *         publish: ["orders.*"]
 *         consume: ["orders.*"]
 *       - name: ops
 *         sha256: ...
 *         admin: ["*"]
 *       - name: prometheus
 *         sha256: ...
 *         monitor: true
 */
export function parseTokenFile(text: string, source: string): TokenSpec[] {
  let doc: unknown;
  try {
    doc = parseYaml(text, { uniqueKeys: true });
  } catch (err) {
    throw new TokenFileError(`${source}: not valid YAML: ${(err as Error).message.split('\n')[0]}`);
  }
  if (doc === null || doc === undefined) return [];
  if (!isRecord(doc) || Object.keys(doc).some((k) => k !== 'tokens')) {
    throw new TokenFileError(`${source}: expected a mapping with one key, "tokens"`);
  }
  const list = doc['tokens'];
  if (list === null || list === undefined) return [];
  if (!Array.isArray(list)) throw new TokenFileError(`${source}: "tokens" must be a list`);
  if (list.length > MAX_TOKENS)
    throw new TokenFileError(`${source}: ${list.length} tokens exceed MAX_TOKENS (${MAX_TOKENS})`);
  const names = new Set<string>();
  const hashes = new Set<string>();
  return list.map((item: unknown, i) => {
    const where = `${source}: tokens[${i}]`;
    if (!isRecord(item)) throw new TokenFileError(`${where}: expected a mapping`);
    for (const k of Object.keys(item)) {
      if (!TOKEN_KEYS.has(k))
        throw new TokenFileError(`${where}: unknown key "${k}" (keys: ${[...TOKEN_KEYS].join(', ')})`);
    }
    const name = item['name'];
    if (typeof name !== 'string' || !NAME_PATTERN.test(name))
      throw new TokenFileError(`${where}.name: expected 1-128 letters, digits or . _ @ : -`);
    if (names.has(name)) throw new TokenFileError(`${where}.name: "${name}" appears more than once`);
    names.add(name);
    const hash = item['sha256'];
    if (typeof hash !== 'string' || !/^[0-9a-fA-F]{64}$/.test(hash))
      throw new TokenFileError(
        `${where}.sha256 ("${name}"): expected 64 hex digits (the SHA-256 of the token, not the token)`,
      );
    const lower = hash.toLowerCase();
    if (hashes.has(lower))
      throw new TokenFileError(`${where}.sha256 ("${name}"): same hash as another token`);
    hashes.add(lower);
    const permissions = {} as Record<Permission, string[]>;
    for (const p of PERMISSIONS) permissions[p] = patternList(item[p], `${where}.${p} ("${name}")`);
    const monitor = item['monitor'] ?? false;
    if (typeof monitor !== 'boolean')
      throw new TokenFileError(`${where}.monitor ("${name}"): expected true or false`);
    const limits = tokenLimits(item['limits'], `${where}.limits ("${name}")`);
    return { name, sha256: lower, permissions, monitor, ...(limits ? { limits } : {}) };
  });
}

function tokenLimits(v: unknown, where: string): Partial<TokenLimitValues> | undefined {
  if (v === undefined || v === null) return undefined;
  if (!isRecord(v))
    throw new TokenFileError(`${where}: expected a mapping of ${TOKEN_LIMIT_NAMES.join(', ')}`);
  const out: Record<string, number> = {};
  for (const [k, n] of Object.entries(v)) {
    if (!(TOKEN_LIMIT_NAMES as readonly string[]).includes(k))
      throw new TokenFileError(`${where}: unknown limit "${k}" (limits: ${TOKEN_LIMIT_NAMES.join(', ')})`);
    if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0)
      throw new TokenFileError(`${where}.${k}: expected an integer >= 0 (0 = no limit)`);
    out[k] = n;
  }
  return out as Partial<TokenLimitValues>;
}

function patternList(v: unknown, where: string): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new TokenFileError(`${where}: expected a list of topic patterns`);
  if (v.length > MAX_PATTERNS_PER_PERMISSION)
    throw new TokenFileError(
      `${where}: more than MAX_PATTERNS_PER_PERMISSION (${MAX_PATTERNS_PER_PERMISSION})`,
    );
  return v.map((p: unknown, i) => {
    if (typeof p !== 'string' || p === '' || Buffer.byteLength(p, 'utf8') > MAX_PATTERN_BYTES)
      throw new TokenFileError(
        `${where}[${i}]: expected a non-empty topic pattern of at most ${MAX_PATTERN_BYTES} bytes`,
      );
    return p;
  });
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
