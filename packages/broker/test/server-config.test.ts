import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  advertiseAddress,
  bootstrapMembers,
  ConfigError,
  type ConfigOverrides,
  configSchema,
  envName,
  loadConfig,
  schemaEntries,
} from '../src/server/config.js';
import { renderConfigReference } from '../src/server/config-docs.js';
import { DEFAULT_LIMITS, type Limits } from '../src/state/model/limits.js';

const dir = mkdtempSync(join(tmpdir(), 'fermata-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let fileNo = 0;
function yamlFile(text: string): string {
  const file = join(dir, `c${fileNo++}.yaml`);
  writeFileSync(file, text);
  return file;
}

/** The ConfigError's problem list (fails the test when loading succeeds). */
function problemsOf(fn: () => unknown): readonly string[] {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).problems;
  }
  throw new Error('expected a ConfigError');
}

describe('configuration precedence', () => {
  it('with nothing given, every key has its schema default', () => {
    const c = loadConfig({ env: {} });
    expect(c.nodeId).toBe('node1');
    expect(c.storage.engine).toBe('leveldb');
    expect(c.raft).toMatchObject({
      tickMs: 50,
      electionTicks: 10,
      heartbeatTicks: 1,
      maxClockOffsetMs: 5_000,
    });
    expect(c.limits.maxPayloadBytes).toBe(1024 * 1024);
    expect(c.dispatcher).toMatchObject({ defaultLeaseMs: 30_000, defaultPrefetch: 16, maxPrefetch: 1000 });
    expect(c.limits.allowLeaderDurability).toBe(false);
    expect(c.initialMembers).toEqual([]);
    expect(c.logLevel).toBe('info');
  });

  it('the YAML file overrides defaults, the environment overrides the file, overrides win over both', () => {
    const file = yamlFile(
      'nodeId: from-file\nraft:\n  tickMs: 20\n  electionTicks: 30\nstorage:\n  engine: memory\n',
    );
    const env = { FERMATA_RAFT__TICK_MS: '25', FERMATA_NODE_ID: 'from-env' };
    const c = loadConfig({ file, env });
    expect(c.nodeId).toBe('from-env');
    expect(c.raft.tickMs).toBe(25);
    expect(c.raft.electionTicks).toBe(30);
    expect(c.storage.engine).toBe('memory');
    const o = loadConfig({ file, env, overrides: { nodeId: 'from-override', raft: { tickMs: 5 } } });
    expect(o.nodeId).toBe('from-override');
    expect(o.raft.tickMs).toBe(5);
    expect(o.raft.electionTicks).toBe(30);
  });

  it('FERMATA_CONFIG names the file when no file is passed', () => {
    const file = yamlFile('clusterId: prod-eu\n');
    expect(loadConfig({ env: { FERMATA_CONFIG: file } }).clusterId).toBe('prod-eu');
  });

  it('the loaded configuration is deeply frozen', () => {
    const c = loadConfig({ env: { FERMATA_INITIAL_MEMBERS: 'node1=a:1/a:2' } });
    expect(Object.isFrozen(c)).toBe(true);
    expect(Object.isFrozen(c.raft)).toBe(true);
    expect(Object.isFrozen(c.initialMembers)).toBe(true);
    expect(Object.isFrozen(c.initialMembers[0])).toBe(true);
    expect(() => {
      (c.raft as { tickMs: number }).tickMs = 1;
    }).toThrow(TypeError);
  });

  it('an empty YAML file means all defaults, and so does an empty section', () => {
    expect(loadConfig({ file: yamlFile(''), env: {} }).dataDir).toBe('./data');
    expect(loadConfig({ file: yamlFile('raft:\n  # tickMs: 20\n'), env: {} }).raft.tickMs).toBe(50);
  });

  it('environment values are read as the key type: integers, booleans, enums, member lists', () => {
    const c = loadConfig({
      env: {
        FERMATA_LIMITS__ALLOW_LEADER_DURABILITY: 'true',
        FERMATA_LIMITS__MAX_PAYLOAD_BYTES: '2048',
        FERMATA_LOG_LEVEL: 'debug',
        FERMATA_NODE_ID: 'n2',
        FERMATA_INITIAL_MEMBERS: 'n1=a:7401/a:7400, n2=b:7401/b:7400,n3=[::1]:7401/[::1]:7400',
      },
    });
    expect(c.limits.allowLeaderDurability).toBe(true);
    expect(c.limits.maxPayloadBytes).toBe(2048);
    expect(c.logLevel).toBe('debug');
    expect(c.initialMembers).toEqual([
      { id: 'n1', peerAddress: 'a:7401', clientAddress: 'a:7400' },
      { id: 'n2', peerAddress: 'b:7401', clientAddress: 'b:7400' },
      { id: 'n3', peerAddress: '[::1]:7401', clientAddress: '[::1]:7400' },
    ]);
  });

  it('initialMembers in YAML may be a list of strings', () => {
    const file = yamlFile('nodeId: n1\ninitialMembers:\n  - n1=h1:1/h1:2\n  - n2=h2:1/h2:2\n');
    expect(loadConfig({ file }).initialMembers.map((m) => m.id)).toEqual(['n1', 'n2']);
  });

  it('reserved and harness FERMATA_ variables and non-FERMATA variables are ignored', () => {
    expect(() =>
      loadConfig({
        env: { FERMATA_STORAGE_CHECKS: '1', FERMATA_TEST_SEED: '7', PATH: '/bin', HOME: '/root' },
      }),
    ).not.toThrow();
  });
});

describe('configuration errors name the key', () => {
  it('an unknown YAML key is an error naming it, with a close match suggested', () => {
    const file = yamlFile('raft:\n  tikMs: 20\n');
    expect(problemsOf(() => loadConfig({ file }))).toEqual([
      `unknown configuration key "raft.tikMs" (in ${file}); did you mean "raft.tickMs"?`,
    ]);
  });

  it('a key in the wrong section is suggested in the right one', () => {
    const file = yamlFile('tickMs: 20\n');
    expect(problemsOf(() => loadConfig({ file }))).toEqual([
      `unknown configuration key "tickMs" (in ${file}); did you mean "raft.tickMs"?`,
    ]);
  });

  it('an unknown key with nothing close gets no suggestion', () => {
    const file = yamlFile('zzzzzzzz: 1\n');
    expect(problemsOf(() => loadConfig({ file }))).toEqual([
      `unknown configuration key "zzzzzzzz" (in ${file})`,
    ]);
  });

  it('an unknown FERMATA_ variable is an error naming it, with a close match suggested', () => {
    expect(problemsOf(() => loadConfig({ env: { FERMATA_RAFT_TICK_MS: '20' } }))).toEqual([
      'unknown environment variable FERMATA_RAFT_TICK_MS; did you mean FERMATA_RAFT__TICK_MS?',
    ]);
    expect(problemsOf(() => loadConfig({ env: { FERMATA_NODEID: 'x' } }))).toEqual([
      'unknown environment variable FERMATA_NODEID; did you mean FERMATA_NODE_ID?',
    ]);
  });

  it('an integer that is not an integer or out of range names the key, the source and the range', () => {
    const file = yamlFile('raft:\n  tickMs: "50ms"\nlimits:\n  maxPayloadBytes: 0\n');
    expect(problemsOf(() => loadConfig({ file }))).toEqual([
      `raft.tickMs (in ${file}): expected an integer from 1 to 10000, got "50ms"`,
      `limits.maxPayloadBytes (in ${file}): expected an integer from 1 to 67108864, got number 0`,
    ]);
    // An ordering key's length is stored in 2 bytes.
    expect(problemsOf(() => loadConfig({ env: { FERMATA_LIMITS__MAX_KEY_BYTES: '65536' } }))).toEqual([
      'limits.maxKeyBytes (from FERMATA_LIMITS__MAX_KEY_BYTES): expected an integer from 1 to 65535, got "65536"',
    ]);
    expect(loadConfig({ env: { FERMATA_LIMITS__MAX_KEY_BYTES: '65535' } }).limits.maxKeyBytes).toBe(65_535);
    expect(problemsOf(() => loadConfig({ env: { FERMATA_RAFT__ELECTION_TICKS: '1.5' } }))).toEqual([
      'raft.electionTicks (from FERMATA_RAFT__ELECTION_TICKS): expected an integer from 2 to 1000, got "1.5"',
    ]);
  });

  it('a boolean, enum, id and address of the wrong form name the key and the expected form', () => {
    const file = yamlFile(
      'limits:\n  allowLeaderDurability: "yes"\nstorage:\n  engine: rocksdb\nnodeId: "bad id"\nhttp:\n  listenAddress: localhost\n',
    );
    expect(problemsOf(() => loadConfig({ file }))).toEqual([
      `limits.allowLeaderDurability (in ${file}): expected true or false, got "yes"`,
      `storage.engine (in ${file}): expected one of leveldb, memory, got "rocksdb"`,
      `nodeId (in ${file}): expected 1-63 characters of letters, digits, ".", "_" or "-", starting with a letter or digit, got "bad id"`,
      `http.listenAddress (in ${file}): expected host:port with a port from 0 to 65535, got "localhost"`,
    ]);
    expect(
      problemsOf(() => loadConfig({ env: { FERMATA_LIMITS__ALLOW_LEADER_DURABILITY: 'maybe' } })),
    ).toEqual([
      'limits.allowLeaderDurability (from FERMATA_LIMITS__ALLOW_LEADER_DURABILITY): expected true, false, 1 or 0, got "maybe"',
    ]);
    expect(problemsOf(() => loadConfig({ env: { FERMATA_PEER__LISTEN_ADDRESS: 'h:70000' } }))).toEqual([
      'peer.listenAddress (from FERMATA_PEER__LISTEN_ADDRESS): expected host:port with a port from 0 to 65535, got "h:70000"',
    ]);
  });

  it('a section given as a scalar, or a non-mapping document, is an error naming it', () => {
    const file = yamlFile('raft: 5\n');
    expect(problemsOf(() => loadConfig({ file }))).toEqual([
      `"raft" (in ${file}): expected a mapping of keys, got number 5`,
    ]);
    const list = yamlFile('- a\n- b\n');
    expect(problemsOf(() => loadConfig({ file: list }))).toEqual([
      `the configuration (in ${list}): expected a mapping of keys, got a list`,
    ]);
  });

  it('a malformed member entry names the entry and the expected form', () => {
    expect(problemsOf(() => loadConfig({ env: { FERMATA_INITIAL_MEMBERS: 'n1=a:1/a:2,n2=b:1' } }))).toEqual([
      'initialMembers (from FERMATA_INITIAL_MEMBERS): expected a list of id=peerHost:peerPort/clientHost:clientPort entries (a YAML list or one comma-separated string); entry "n2=b:1" is not, got "n1=a:1/a:2,n2=b:1"',
    ]);
  });

  it('members must have distinct ids and include this node', () => {
    expect(
      problemsOf(() =>
        loadConfig({ env: { FERMATA_NODE_ID: 'n1', FERMATA_INITIAL_MEMBERS: 'n1=a:1/a:2,n1=b:1/b:2' } }),
      ),
    ).toEqual(['initialMembers: member id "n1" appears more than once']);
    expect(
      problemsOf(() =>
        loadConfig({ env: { FERMATA_NODE_ID: 'n4', FERMATA_INITIAL_MEMBERS: 'n1=a:1/a:2,n2=b:1/b:2' } }),
      ),
    ).toEqual(['initialMembers does not name this node (nodeId "n4"); it names n1, n2']);
  });

  it('related keys are checked against each other', () => {
    expect(
      problemsOf(() =>
        loadConfig({ env: { FERMATA_RAFT__HEARTBEAT_TICKS: '10', FERMATA_RAFT__ELECTION_TICKS: '10' } }),
      ),
    ).toEqual(['raft.heartbeatTicks (10) must be less than raft.electionTicks (10)']);
    expect(problemsOf(() => loadConfig({ env: { FERMATA_RAFT__MAX_CLOCK_OFFSET_MS: '50' } }))).toEqual([
      "raft.maxClockOffsetMs (50) must be 0 (not checked) or at least 1000: below it, the skew of clocks kept by NTP plus a vote's transit would keep healthy nodes from being elected",
    ]);
    expect(problemsOf(() => loadConfig({ env: { FERMATA_RAFT__MAX_CLOCK_OFFSET_MS: '-1' } }))).toEqual([
      'raft.maxClockOffsetMs (from FERMATA_RAFT__MAX_CLOCK_OFFSET_MS): expected an integer from 0 to 86400000, got "-1"',
    ]);
    expect(loadConfig({ env: { FERMATA_RAFT__MAX_CLOCK_OFFSET_MS: '0' } }).raft.maxClockOffsetMs).toBe(0);
    expect(
      problemsOf(() => loadConfig({ overrides: { dispatcher: { defaultPrefetch: 50, maxPrefetch: 10 } } })),
    ).toEqual(['dispatcher.defaultPrefetch (50) must not exceed dispatcher.maxPrefetch (10)']);
  });

  it('programmatic overrides are checked like the file', () => {
    const bad = { raft: { tikMs: 5 }, limits: { maxPayloadBytes: -1 } } as unknown as ConfigOverrides;
    expect(problemsOf(() => loadConfig({ overrides: bad }))).toEqual([
      'unknown configuration key "raft.tikMs" (in overrides); did you mean "raft.tickMs"?',
      'limits.maxPayloadBytes (in overrides): expected an integer from 1 to 67108864, got number -1',
    ]);
  });

  it('every problem is reported at once', () => {
    const file = yamlFile('raft:\n  tikMs: 1\nlogLevel: loud\n');
    const problems = problemsOf(() => loadConfig({ file, env: { FERMATA_BOGUS: '1' } }));
    expect(problems).toHaveLength(3);
    const err = (() => {
      try {
        loadConfig({ file, env: { FERMATA_BOGUS: '1' } });
      } catch (e) {
        return e as Error;
      }
    })();
    expect(err?.message).toMatch(/^invalid configuration \(3 problems\):\n {2}- /);
  });

  it('an unreadable file and a YAML syntax error name the file', () => {
    const missing = join(dir, 'missing.yaml');
    expect(problemsOf(() => loadConfig({ file: missing }))[0]).toMatch(
      new RegExp(`^cannot read configuration file ${missing}: ENOENT`),
    );
    const bad = yamlFile('raft:\n  tickMs: [1,\n');
    expect(problemsOf(() => loadConfig({ file: bad }))[0]).toMatch(
      new RegExp(`^cannot parse configuration file ${bad}: `),
    );
    const dup = yamlFile('nodeId: a\nnodeId: b\n');
    expect(problemsOf(() => loadConfig({ file: dup }))[0]).toMatch(
      /^cannot parse configuration file .*: Map keys must be unique/,
    );
  });
});

describe('environment names and derived addresses', () => {
  it('maps camelCase paths to FERMATA_ upper snake case with __ between sections', () => {
    expect(envName('nodeId')).toBe('FERMATA_NODE_ID');
    expect(envName('raft.tickMs')).toBe('FERMATA_RAFT__TICK_MS');
    expect(envName('limits.maxPayloadBytes')).toBe('FERMATA_LIMITS__MAX_PAYLOAD_BYTES');
    const names = schemaEntries().map((e) => e.env);
    expect(new Set(names).size).toBe(names.length);
  });

  it('the limits section holds every state-machine limit with its default', () => {
    const limits: Limits = loadConfig({ env: {} }).limits;
    for (const [name, value] of Object.entries(DEFAULT_LIMITS)) {
      expect(limits[name as keyof Limits], name).toBe(value);
    }
  });

  it('a limit set in the environment reaches the limits section', () => {
    const raised = loadConfig({ env: { FERMATA_LIMITS__MAX_BATCH_MESSAGES: '5' } }).limits;
    expect(raised.maxBatchMessages).toBe(5);
  });

  it('every key has a description and a default within its own range', () => {
    for (const e of schemaEntries()) {
      expect(e.spec.description.length, e.path).toBeGreaterThan(10);
      if (e.spec.kind === 'int') {
        expect(e.spec.default, e.path).toBeGreaterThanOrEqual(e.spec.min);
        expect(e.spec.default, e.path).toBeLessThanOrEqual(e.spec.max);
      }
    }
    expect(configSchema.limits.maxPayloadBytes.default).toBe(1048576);
  });

  it('an empty advertise address becomes the listen address with a wildcard host replaced by the hostname', () => {
    expect(advertiseAddress('', '0.0.0.0:7400')).toBe(`${hostname()}:7400`);
    expect(advertiseAddress('', '127.0.0.1:0', 41234)).toBe('127.0.0.1:41234');
    expect(advertiseAddress('', '[::1]:7400')).toBe('[::1]:7400');
    expect(advertiseAddress('fermata-0.fermata:7400', '0.0.0.0:7400')).toBe('fermata-0.fermata:7400');
  });

  it('with no initial members the node bootstraps a one-member cluster of itself', () => {
    const c = loadConfig({ env: { FERMATA_NODE_ID: 'solo' } });
    expect(bootstrapMembers(c, { peerAddress: 'h:1', clientAddress: 'h:2' })).toEqual([
      { id: 'solo', peerAddress: 'h:1', clientAddress: 'h:2' },
    ]);
  });
});

describe('configuration reference', () => {
  it('docs/operations.md contains exactly the reference rendered from the schema', () => {
    const doc = readFileSync(fileURLToPath(new URL('../../../docs/operations.md', import.meta.url)), 'utf8');
    const rendered = renderConfigReference();
    expect(
      doc.includes(rendered),
      'docs/operations.md is stale: run node --conditions=fermata-source --import tsx packages/broker/src/server/config-docs.ts --write',
    ).toBe(true);
    for (const e of schemaEntries()) expect(rendered).toContain(`| \`${e.path}\` | \`${e.env}\` |`);
  });
});
