/**
 * The new user: in an empty project outside this repository, `npm init -y`,
 * install the packed @fermata/sdk and @fermata/cli tarballs (their
 * dependencies from the npm registry), start a three-node cluster with the
 * installed `fermata serve`, then publish and consume from an ES module and
 * from a CommonJS script, open the web console it serves, run the installed
 * `fermata` against it, add
 * OpenTelemetry and see a handler run in the publisher's trace (both module
 * kinds), and type-check TypeScript against the SDK's declarations with
 * `tsc --strict`.
 *
 * The tarballs come from `scripts/release --no-image` (run once here), or from
 * FERMATA_RELEASE_DIR when it names a folder that release already filled.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, REPO_ROOT, startCluster } from '../src/index.js';

const run = promisify(execFile);
/** Installing from the registry on a shared machine; generous, never a speed requirement. */
const SETUP_TIMEOUT_MS = 240_000;
const DELAY_MS = 500;

const rootPackage = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
  devDependencies: Record<string, string>;
};
const testClusterPackage = JSON.parse(readFileSync(join(REPO_ROOT, 'test-cluster/package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
};

/** The environment of a user's shell: none of this run's npm or Fermata settings. */
function userEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (k.startsWith('npm_') || k.startsWith('FERMATA_') || k === 'NODE_OPTIONS') continue;
    env[k] = v;
  }
  return { ...env, ...extra };
}

async function sh(
  cwd: string,
  file: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv = userEnv(),
): Promise<string> {
  try {
    const { stdout } = await run(file, args, { cwd, env, maxBuffer: 64 * 1024 * 1024 });
    return stdout;
  } catch (e) {
    const err = e as Error & { stdout?: string; stderr?: string };
    throw new Error(
      `${file} ${args.join(' ')} failed in ${cwd}:\n${err.stdout ?? ''}\n${err.stderr ?? err.message}`,
    );
  }
}

/** `npm install` as a user runs it (third-party packages from the registry, or the local cache). */
function npmInstall(cwd: string, specs: readonly string[]): Promise<string> {
  return sh(cwd, 'npm', [
    'install',
    '--no-audit',
    '--no-fund',
    '--loglevel=error',
    '--prefer-offline',
    ...specs,
  ]);
}

function tarballs(dir: string): { sdk: string; cli: string } | undefined {
  const files = existsSync(dir) ? readdirSync(dir) : [];
  const sdk = files.find((f) => /^fermata-sdk-.*\.tgz$/.test(f));
  const cli = files.find((f) => /^fermata-cli-.*\.tgz$/.test(f));
  return sdk && cli ? { sdk: join(dir, sdk), cli: join(dir, cli) } : undefined;
}

const ESM_APP = `
import { FermataClient } from '@fermata/sdk';

const client = new FermataClient({ endpoints: process.env.FERMATA_ENDPOINTS });
await client.createTopic('esm-greetings');
const published = await client.publishDetailed('esm-greetings', 'hello from ESM', {
  delayMs: ${DELAY_MS},
  headers: { from: 'esm' },
});
const message = await new Promise((resolve) => {
  client.subscribe('esm-greetings', async (m) => resolve(m));
});
console.log(JSON.stringify({
  id: String(published.id),
  dueAtMs: published.dueAtMs,
  receivedId: String(message.id),
  text: message.text(),
  from: message.headers.from,
  handledAtMs: Date.now(),
}));
await client.close();
`;

const CJS_APP = `
const { FermataClient, NotFoundError } = require('@fermata/sdk');

async function main() {
  const client = new FermataClient({ endpoints: process.env.FERMATA_ENDPOINTS });
  await client.createTopic('cjs-greetings');
  const id = await client.publish('cjs-greetings', JSON.stringify({ n: 42 }), { delayMs: ${DELAY_MS} });
  const message = await new Promise((resolve) => {
    client.subscribe('cjs-greetings', async (m) => resolve(m));
  });
  let notFound = false;
  try {
    await client.getMessage('cjs-greetings', 999999999n);
  } catch (e) {
    notFound = e instanceof NotFoundError;
  }
  console.log(JSON.stringify({ id: String(id), receivedId: String(message.id), json: message.json(), notFound }));
  await client.close();
}
main().catch((e) => { console.error(e); process.exit(1); });
`;

/** Tracing set up as an application does; prints the trace ids the publisher and the handler saw. */
const traced = (load: (what: string, from: string) => string) => `
${load('{ context, trace }', '@opentelemetry/api')}
${load('{ AsyncLocalStorageContextManager }', '@opentelemetry/context-async-hooks')}
${load('{ BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor }', '@opentelemetry/sdk-trace-base')}
${load('{ FermataClient }', '@fermata/sdk')}

async function main() {
  const exporter = new InMemorySpanExporter();
  trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const client = new FermataClient({ endpoints: process.env.FERMATA_ENDPOINTS });
  const topic = 'traced-' + process.argv[2];
  await client.createTopic(topic);
  const request = trace.getTracer('app').startSpan('request');
  await context.with(trace.setSpan(context.active(), request), () => client.publish(topic, 'x', { delayMs: 200 }));
  request.end();
  const handled = await new Promise((resolve) => {
    client.subscribe(topic, async (m) => resolve({ traceId: trace.getActiveSpan()?.spanContext().traceId, traceparent: m.headers.traceparent }));
  });
  await client.close();
  console.log(JSON.stringify({ requestTraceId: request.spanContext().traceId, ...handled, spans: exporter.getFinishedSpans().map((s) => s.name) }));
}
main().catch((e) => { console.error(e); process.exit(1); });
`;
/** Plain JavaScript with another broker's option names: each call fails at once, naming the right one. */
const misnamed = (load: (what: string, from: string) => string) => `
${load('{ FermataClient }', '@fermata/sdk')}

async function main() {
  const client = new FermataClient({ endpoints: process.env.FERMATA_ENDPOINTS });
  const errors = [];
  const attempt = async (call) => {
    try {
      await call();
      errors.push('no error');
    } catch (e) {
      errors.push(e.constructor.name + ': ' + e.message);
    }
  };
  await attempt(() => client.publish('greetings', 'x', { delay: 5000 }));
  await attempt(() => client.subscribe('greetings', { concurency: 2 }, async () => {}));
  await attempt(() => new FermataClient({ endpoint: '127.0.0.1:1' }));
  await client.close();
  console.log(JSON.stringify(errors));
}
main().catch((e) => { console.error(e); process.exit(1); });
`;
const esmImport = (what: string, from: string) => `import ${what} from '${from}';`;
const cjsRequire = (what: string, from: string) => `const ${what} = require('${from}');`;

/** Uses the SDK's types the way an application does; must pass `tsc --strict`. */
const TS_GOOD = `
import { FermataClient, FermataError, type Message, type PublishResult, type SubscribeOptions } from '@fermata/sdk';

const client = new FermataClient({ endpoints: ['127.0.0.1:7400'], deadlineMs: 5_000 });
const options: SubscribeOptions = { group: 'workers', concurrency: 4 };
export async function schedule(to: string): Promise<bigint> {
  const result: PublishResult = await client.publishDetailed('emails', JSON.stringify({ to }), { delayMs: 60_000 });
  const due: number = result.dueAtMs;
  return due > 0 ? result.id : 0n;
}
client.subscribe('emails', options, async (message: Message) => {
  const body = message.json() as { to: string };
  const attempt: number = message.attempt;
  if (attempt > 3 && body.to === '') await message.nack({ delayMs: 1_000 });
});
export function describeError(e: unknown): string {
  return e instanceof FermataError ? \`\${e.code}: \${e.message}\` : String(e);
}
`;

/** The same from a CommonJS TypeScript file. */
const TS_GOOD_CJS = `
import { FermataClient } from '@fermata/sdk';
const client = new FermataClient({ endpoints: '127.0.0.1:7400' });
export const pending: Promise<bigint> = client.publish('t', new Uint8Array([1, 2, 3]));
`;

/** A misuse the SDK's types must reject (so the check above cannot pass on \`any\`). */
const TS_BAD = `
import { FermataClient } from '@fermata/sdk';
const client = new FermataClient({ endpoints: '127.0.0.1:7400' });
export const id: string = await client.publish('t', 'x', { delayMs: '5s' });
`;

/** A code block of the README or docs/ marked `<!-- runnable -->` (or `<!-- runnable until "text" -->`). */
interface Example {
  readonly where: string;
  readonly lang: 'sh' | 'ts';
  readonly code: string;
  /** Runs until this appears on stdout, then gets SIGINT; otherwise it must end by itself. */
  readonly until: string | undefined;
}

const RUNNABLE = /^<!-- runnable(?: until "([^"]+)")? -->$/;

/** The marked examples of README.md, then docs/*.md in name order, each in the order written. */
function runnableExamples(): Example[] {
  const files = [
    'README.md',
    ...readdirSync(join(REPO_ROOT, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .sort()
      .map((f) => `docs/${f}`),
  ];
  const out: Example[] = [];
  for (const file of files) {
    const lines = readFileSync(join(REPO_ROOT, file), 'utf8').split('\n');
    lines.forEach((line, i) => {
      const m = RUNNABLE.exec(line.trim());
      if (!m) return;
      const fence = /^```(sh|ts)$/.exec(lines[i + 1] ?? '');
      if (!fence) throw new Error(`${file}:${i + 1}: a runnable marker must precede a sh or ts block`);
      const end = lines.indexOf('```', i + 2);
      out.push({
        where: `${file}:${i + 2}`,
        lang: fence[1] as 'sh' | 'ts',
        code: lines.slice(i + 2, end).join('\n'),
        until: m[1],
      });
    });
  }
  return out;
}

/**
 * The example with the addresses of `./scripts/start`'s nodes (127.0.0.1:7400,
 * :7410, :7420) replaced by this test's nodes, in order. Any other address is
 * a mistake in the docs (a port no cluster of the docs listens on).
 */
function pointedAt(code: string, endpoints: readonly string[], where: string): string {
  const replaced = code.replace(/127\.0\.0\.1:74([0-2])0\b/g, (_, n: string) => endpoints[Number(n)]!);
  const stray = /\b(?:localhost|\d+\.\d+\.\d+\.\d+):(\d+)\b/.exec(
    code.replace(/127\.0\.0\.1:74[0-2]0\b/g, ''),
  );
  if (stray)
    throw new Error(
      `${where}: ${stray[0]} is no address of ./scripts/start's cluster (127.0.0.1:7400/7410/7420)`,
    );
  return replaced;
}

/** Runs `file args` until it exits (or, with `until`, until stdout shows it, then SIGINT); its exit code and stdout. */
function runUntil(
  cwd: string,
  file: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  until: string | undefined,
): Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(file, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let interrupted = false;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`${file} ${args.join(' ')}: no end within 90 s\n${stdout}\n${stderr}`));
    }, 90_000);
    child.stdout.on('data', (b: Buffer) => {
      stdout += b.toString();
      if (until !== undefined && !interrupted && stdout.includes(until)) {
        interrupted = true;
        // Ctrl-C a moment later, as a person reading it would (the program goes on after printing).
        setTimeout(() => child.kill('SIGINT'), 1_000);
      }
    });
    child.stderr.on('data', (b: Buffer) => {
      stderr += b.toString();
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      done({ code, signal, stdout, stderr });
    });
  });
}

describe('a new user installs the packed SDK and CLI in their own project', () => {
  let releaseDir: string;
  let userDir: string;
  let cluster: Cluster | undefined;
  let endpoints: string;

  beforeAll(async () => {
    const given = process.env['FERMATA_RELEASE_DIR'];
    releaseDir = given ?? mkdtempSync(join(tmpdir(), 'fermata-release-'));
    if (given === undefined || tarballs(given) === undefined) {
      await sh(REPO_ROOT, join(REPO_ROOT, 'scripts/release'), ['--no-image', '--out', releaseDir], {
        ...process.env,
      });
    }
    const packed = tarballs(releaseDir);
    if (packed === undefined) throw new Error(`no fermata-sdk/fermata-cli tarballs in ${releaseDir}`);

    userDir = mkdtempSync(join(tmpdir(), 'fermata-new-user-'));
    if (!relative(REPO_ROOT, userDir).startsWith('..'))
      throw new Error(`${userDir} lies inside the repository`);
    await sh(userDir, 'npm', ['init', '-y']);
    await npmInstall(userDir, [
      packed.sdk,
      packed.cli,
      `typescript@${rootPackage.devDependencies['typescript']}`,
      `@types/node@${rootPackage.devDependencies['@types/node']}`,
    ]);

    cluster = await startCluster({
      nodes: 3,
      autoCreateTopics: false,
      baseDir: join(userDir, 'data'),
      command: {
        file: process.execPath,
        args: [join(userDir, 'node_modules/.bin/fermata'), 'serve'],
        cwd: userDir,
      },
    });
    endpoints = cluster.endpoints.join(',');
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    await cluster?.stop();
    if (userDir && process.env['FERMATA_TEST_KEEP'] !== '1')
      rmSync(userDir, { recursive: true, force: true });
    if (releaseDir && process.env['FERMATA_RELEASE_DIR'] === undefined) {
      rmSync(releaseDir, { recursive: true, force: true });
    }
  });

  it('installs packages that name no unpublished workspace and ship no sources or tests', () => {
    for (const name of ['sdk', 'cli']) {
      const dir = join(userDir, 'node_modules/@fermata', name);
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
        dependencies?: Record<string, string>;
        engines?: Record<string, string>;
      };
      expect(Object.keys(pkg.dependencies ?? {}).filter((d) => d.startsWith('@fermata/'))).toEqual([]);
      expect(pkg.engines?.['node']).toBeDefined();
      expect(existsSync(join(dir, 'README.md'))).toBe(true);
      expect(existsSync(join(dir, 'src'))).toBe(false);
      expect(existsSync(join(dir, 'test'))).toBe(false);
    }
    expect(readdirSync(join(userDir, 'node_modules/@fermata')).sort()).toEqual(['cli', 'sdk']);
  });

  it('an ES module publishes a delayed message and consumes it once due', async () => {
    writeFileSync(join(userDir, 'app.mjs'), ESM_APP);
    const out = JSON.parse(
      await sh(userDir, process.execPath, ['app.mjs'], userEnv({ FERMATA_ENDPOINTS: endpoints })),
    );
    expect(out).toMatchObject({ text: 'hello from ESM', from: 'esm' });
    expect(out.receivedId).toBe(out.id);
    expect(out.handledAtMs).toBeGreaterThanOrEqual(out.dueAtMs);
  });

  it('a CommonJS script publishes and consumes through require()', async () => {
    writeFileSync(join(userDir, 'app.cjs'), CJS_APP);
    const out = JSON.parse(
      await sh(userDir, process.execPath, ['app.cjs'], userEnv({ FERMATA_ENDPOINTS: endpoints })),
    );
    expect(out).toMatchObject({ json: { n: 42 }, notFound: true });
    expect(out.receivedId).toBe(out.id);
  });

  it('the installed fermata serve serves the web console it ships', async () => {
    const node = cluster!.nodes[0]!;
    const page = await fetch(`${node.httpUrl}/console/`);
    expect(page.status).toBe(200);
    const html = await page.text();
    const script = /src="(main-[A-Za-z0-9]+\.js)"/.exec(html)?.[1];
    expect(script, html).toBeDefined();
    const js = await fetch(`${node.httpUrl}/console/${script}`);
    expect([js.status, js.headers.get('content-type')]).toEqual([200, 'text/javascript; charset=utf-8']);
    expect((await js.text()).length).toBeGreaterThan(10_000);
  });

  it('the installed fermata command talks to the cluster', async () => {
    const env = userEnv({ FERMATA_ENDPOINTS: endpoints });
    const fermata = join(userDir, 'node_modules/.bin/fermata');
    const status = JSON.parse(await sh(userDir, fermata, ['status', '--json'], env)) as {
      members: unknown[];
    };
    expect(status.members).toHaveLength(3);
    await sh(userDir, fermata, ['topics', 'create', 'cli-greetings'], env);
    await sh(userDir, fermata, ['publish', 'cli-greetings', 'hello from the shell'], env);
    const consumed = await sh(userDir, fermata, ['consume', 'cli-greetings', '--count', '1'], env);
    expect(consumed).toContain('hello from the shell');
    // A mistyped topic is an error naming the right one; nothing is created.
    const typo = await sh(userDir, fermata, ['consume', 'cli-greetngs', '--count', '1'], env).then(
      () => 'consumed',
      (e: Error) => e.message,
    );
    expect(typo).toContain('topic "cli-greetngs" not found; subscribe.topic: did you mean "cli-greetings"');
    const topics = await sh(userDir, fermata, ['topics', 'ls', '--json'], env);
    expect((JSON.parse(topics) as { name: string }[]).map((t) => t.name)).not.toContain('cli-greetngs');
  });

  it('options are checked at run time in the ES module and the CommonJS build alike', async () => {
    writeFileSync(join(userDir, 'misnamed.mjs'), misnamed(esmImport));
    writeFileSync(join(userDir, 'misnamed.cjs'), misnamed(cjsRequire));
    for (const script of ['misnamed.mjs', 'misnamed.cjs']) {
      const env = userEnv({ FERMATA_ENDPOINTS: endpoints });
      expect(JSON.parse(await sh(userDir, process.execPath, [script], env)), script).toEqual([
        'TypeError: publish options: unknown option "delay"; did you mean "delayMs"?',
        'TypeError: subscribe options: unknown option "concurency"; did you mean "concurrency"?',
        'TypeError: new FermataClient options: unknown option "endpoint"; did you mean "endpoints"?',
      ]);
    }
  });

  it("the README's and docs' runnable examples run as written (the addresses pointed at this cluster)", {
    timeout: 600_000,
  }, async () => {
    const examples = runnableExamples();
    expect(examples.map((e) => e.where.split(':')[0])).toEqual(
      expect.arrayContaining(['README.md', 'docs/sdk.md', 'docs/schedules.md']),
    );
    const nodes = endpoints.split(',');
    // What a user who followed the README has: FERMATA_ENDPOINTS exported, the installed CLI on PATH.
    const env = userEnv({
      FERMATA_ENDPOINTS: endpoints,
      PATH: `${join(userDir, 'node_modules/.bin')}:${process.env['PATH']}`,
    });
    const tsc = join(userDir, 'node_modules/.bin/tsc');
    // As a TypeScript user runs them: compiled (strict), then run. One tsc for all of them (each
    // start of tsc costs seconds); its errors name the file, which names the example.
    const file = (i: number): string => `docs-example-${i}.mts`;
    const typed = [...examples.entries()].filter(([, ex]) => ex.lang === 'ts');
    for (const [i, ex] of typed)
      writeFileSync(join(userDir, file(i)), `${pointedAt(ex.code, nodes, ex.where)}\n`);
    if (typed.length > 0) {
      const options = ['--strict', '--module', 'nodenext', '--target', 'es2022', '--types', 'node'];
      await sh(userDir, tsc, [...options, '--outDir', 'examples-out', ...typed.map(([i]) => file(i))]).catch(
        (e: Error) => {
          const where = typed.filter(([i]) => e.message.includes(file(i))).map(([, ex]) => ex.where);
          throw new Error(`${where.join(', ') || 'an example'} does not compile:\n${e.message}`);
        },
      );
    }
    for (const [i, ex] of examples.entries()) {
      let r: Awaited<ReturnType<typeof runUntil>>;
      if (ex.lang === 'sh') {
        r = await runUntil(userDir, 'bash', ['-e', '-c', pointedAt(ex.code, nodes, ex.where)], env, ex.until);
      } else {
        r = await runUntil(
          userDir,
          process.execPath,
          [join('examples-out', file(i).replace('.mts', '.mjs'))],
          env,
          ex.until,
        );
      }
      expect({ where: ex.where, code: r.code, stderr: r.stderr }).toMatchObject({ where: ex.where, code: 0 });
      if (ex.until !== undefined) expect(r.stdout, ex.where).toContain(ex.until);
    }
  });

  it('with OpenTelemetry installed, the handler runs in the publisher trace (ES module and CommonJS)', async () => {
    // Installed only now: the scripts above ran without it, as most applications do.
    await npmInstall(userDir, [
      ...['api', 'context-async-hooks', 'sdk-trace-base'].map((p) => {
        const name = `@opentelemetry/${p}`;
        return `${name}@${testClusterPackage.dependencies[name]}`;
      }),
    ]);
    writeFileSync(join(userDir, 'traced.mjs'), traced(esmImport));
    writeFileSync(join(userDir, 'traced.cjs'), traced(cjsRequire));
    for (const script of ['traced.mjs', 'traced.cjs']) {
      const env = userEnv({ FERMATA_ENDPOINTS: endpoints });
      const out = JSON.parse(await sh(userDir, process.execPath, [script, script.replace('.', '-')], env));
      expect(out.traceId, script).toBe(out.requestTraceId);
      expect(out.traceparent, script).toMatch(new RegExp(`^00-${out.requestTraceId}-[0-9a-f]{16}-01$`));
      expect(out.spans, script).toEqual(
        expect.arrayContaining(['request', `publish traced-${script.replace('.', '-')}`]),
      );
    }
  });

  it('TypeScript type-checks against the SDK with tsc --strict, and a misuse fails', async () => {
    writeFileSync(join(userDir, 'good.mts'), TS_GOOD);
    writeFileSync(join(userDir, 'good.cts'), TS_GOOD_CJS);
    writeFileSync(join(userDir, 'bad.mts'), TS_BAD);
    const tsc = join(userDir, 'node_modules/.bin/tsc');
    const flags = ['--strict', '--noEmit', '--module', 'nodenext', '--target', 'es2022', '--types', 'node'];
    // The declarations themselves are checked too (no --skipLibCheck), as a strict project would.
    await sh(userDir, tsc, [...flags, 'good.mts', 'good.cts']);
    const bad = await sh(userDir, tsc, [...flags, '--skipLibCheck', 'bad.mts']).then(
      () => 'compiled',
      (e: Error) => e.message,
    );
    expect(bad).toContain("bad.mts(4,14): error TS2322: Type 'bigint' is not assignable to type 'string'.");
    expect(bad).toContain("error TS2322: Type 'string' is not assignable to type 'number'.");
  });
});
