#!/usr/bin/env node
// Builds what the two published packages ship, after `tsc -b` (npm run build runs both):
//
//   packages/sdk/dist/esm/index.js   ESM bundle: the SDK and the wire code of @fermata/protocol
//   packages/sdk/dist/cjs/index.js   the same as CommonJS (dist/cjs/package.json says so)
//   packages/sdk/dist/{esm,cjs}/     the declarations, @fermata/protocol's beside them
//   packages/cli/dist/fermata.js     the `fermata` command with everything of this repository in it
//   packages/console/dist/           the web console's static files (index.html, main-<hash>.js/.css),
//                                    served by every node at /console; a copy in packages/cli/dist/console/
//                                    ships in the `fermata` package beside the bundle
//
// Only this repository's unpublished workspaces are bundled; every other import
// stays an import of a package the published package.json depends on. A bundle
// that pulled in a file from node_modules (a dependency missing from that list)
// fails the build, naming the package.
//
// A file is written only when its content changed, and files it no longer
// makes are removed, so a build over a fresh build changes nothing on disk
// (tests run the built CLI while another test builds); a changed file is
// replaced by a rename.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { build } from 'esbuild';

const ROOT = resolve(import.meta.dirname, '..');
const pkgDir = (name) => join(ROOT, 'packages', name);
const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

/** Every file written by this run, to remove what an earlier run left and this one did not make. */
const written = new Set();

function writeIfChanged(file, content) {
  written.add(file);
  const bytes = Buffer.from(content);
  if (existsSync(file) && readFileSync(file).equals(bytes)) return;
  mkdirSync(dirname(file), { recursive: true });
  // Whole or not at all, for a process that loads it meanwhile.
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, bytes);
  renameSync(partial, file);
}

function removeUnwritten(dir) {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) removeUnwritten(path);
    else if (!written.has(path)) rmSync(path);
  }
}

/** Everything a published package may import at run time: its dependencies and peers. */
function externalsOf(dir) {
  const pkg = readJson(join(dir, 'package.json'));
  return [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {})];
}

/**
 * The broker's configuration-docs generator rewrites docs/operations.md when
 * the file it is bundled into runs with `--write`; the command never uses it,
 * so it is marked free of side effects and left out.
 */
const withoutDocsGenerator = {
  name: 'without-docs-generator',
  setup(b) {
    b.onResolve({ filter: /\/config-docs\.js$/ }, (args) => ({
      path: resolve(args.resolveDir, args.path.replace(/\.js$/, '.ts')),
      sideEffects: false,
    }));
  },
};

async function bundle({ dir, entry, outfile, format }) {
  const external = externalsOf(dir);
  const result = await build({
    entryPoints: [join(dir, entry)],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20.11',
    format,
    // Workspaces resolve to their sources, so each bundle holds one copy of each.
    conditions: ['fermata-source'],
    external,
    metafile: true,
    write: false,
    legalComments: 'none',
    logLevel: 'warning',
    plugins: [withoutDocsGenerator],
    // A CommonJS bundle has no import.meta; the optional @opentelemetry/api is
    // found from the bundle's own location either way (createRequire).
    ...(format === 'cjs'
      ? {
          banner: {
            js: 'const __fermataImportMetaUrl = require("node:url").pathToFileURL(__filename).href;',
          },
          define: { 'import.meta.url': '__fermataImportMetaUrl' },
        }
      : {}),
  });
  for (const file of result.outputFiles) writeIfChanged(file.path, file.contents);
  const strays = Object.keys(result.metafile.inputs).filter((input) =>
    input.split(/[\\/]/).includes('node_modules'),
  );
  if (strays.length > 0) {
    throw new Error(
      `${relative(ROOT, outfile)} bundled files from node_modules (add their packages to ${relative(ROOT, dir)}/package.json dependencies): ${strays.join(', ')}`,
    );
  }
  const builtins = new Set(builtinModules);
  for (const out of Object.values(result.metafile.outputs)) {
    for (const { path } of out.imports) {
      const bare = path.replace(/^node:/, '');
      const name = path.startsWith('@') ? path.split('/').slice(0, 2).join('/') : path.split('/')[0];
      if (!builtins.has(bare) && !builtins.has(name) && !external.includes(name)) {
        throw new Error(
          `${relative(ROOT, outfile)} imports ${path}, which is not among its package's dependencies`,
        );
      }
    }
  }
}

function declarationFiles(dir, base = dir) {
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!['esm', 'cjs'].includes(entry.name) || dir !== base) found.push(...declarationFiles(path, base));
    } else if (entry.name.endsWith('.d.ts')) {
      found.push(path);
    }
  }
  return found;
}

/**
 * Copies declarations to `out`, moving them with their imports: a file of `from`
 * lands at the same place under `to`, and every relative or `@fermata/protocol`
 * import in it is rewritten to where its target now lies.
 */
function copyDeclarations(moves, out) {
  const where = (absolute) => {
    for (const { from, to } of moves) {
      const rel = relative(from, absolute);
      if (!rel.startsWith('..')) return join(out, to, rel);
    }
    throw new Error(`declaration ${absolute} lies outside what is shipped`);
  };
  const protocolIndex = join(pkgDir('protocol'), 'dist', 'index.d.ts');
  for (const { from, files } of moves) {
    for (const file of files ?? declarationFiles(from)) {
      const target = where(file);
      let text = readFileSync(file, 'utf8').replace(/^\/\/# sourceMappingURL=.*$/m, '');
      text = text.replace(/(from |import\()'([^']+)'/g, (whole, lead, spec) => {
        let absolute;
        if (spec === '@fermata/protocol') absolute = protocolIndex;
        else if (spec.startsWith('.')) absolute = resolve(dirname(file), spec.replace(/\.js$/, '.d.ts'));
        else if (spec.startsWith('@fermata/'))
          throw new Error(`${file} imports ${spec}, which is not shipped`);
        else return whole;
        let rel = relative(dirname(target), where(absolute)).split(sep).join('/');
        if (!rel.startsWith('.')) rel = `./${rel}`;
        return `${lead}'${rel.replace(/\.d\.ts$/, '.js')}'`;
      });
      writeIfChanged(target, text);
    }
  }
}

async function buildSdk() {
  const dir = pkgDir('sdk');
  const protocol = pkgDir('protocol');
  const moves = [
    { from: join(dir, 'dist'), to: '.' },
    { from: join(protocol, 'dist'), to: 'protocol' },
    { from: join(protocol, 'pb'), to: 'protocol/pb', files: [join(protocol, 'pb', 'fermata.d.ts')] },
  ];
  for (const [format, sub] of [
    ['esm', 'esm'],
    ['cjs', 'cjs'],
  ]) {
    const out = join(dir, 'dist', sub);
    await bundle({ dir, entry: 'src/index.ts', outfile: join(out, 'index.js'), format });
    copyDeclarations(moves, out);
    // The package is "type": "module"; this folder's .js and .d.ts files are CommonJS.
    if (format === 'cjs') writeIfChanged(join(out, 'package.json'), '{ "type": "commonjs" }\n');
    removeUnwritten(out);
  }
}

async function buildCli() {
  const dir = pkgDir('cli');
  const outfile = join(dir, 'dist', 'fermata.js');
  await bundle({ dir, entry: 'src/main.ts', outfile, format: 'esm' });
  if (readFileSync(outfile, 'utf8').includes('writeConfigReference')) {
    throw new Error(
      `${relative(ROOT, outfile)} holds the docs generator (config-docs.ts), which rewrites files under --write`,
    );
  }
}

/**
 * uPlot builds two Intl formatters when its module is evaluated. A new tab's
 * first Intl object costs 40-150 ms (the renderer sets up ICU), and the
 * Timeline page, which formats its numbers itself, would wait that long
 * before it asks for the forecast. Built here on first use instead; a uPlot
 * whose text differs fails the build, naming what it did not find.
 */
const UPLOT_LAZY_INTL = [
  [
    "const numFormatter = new Intl.NumberFormat(domEnv ? nav.language : 'en-US');\nconst fmtNum = val => numFormatter.format(val);",
    "let numFormatter;\nconst fmtNum = val => (numFormatter ??= new Intl.NumberFormat(domEnv ? nav.language : 'en-US')).format(val);",
  ],
  ['const localTz = new Intl.DateTimeFormat().resolvedOptions().timeZone;', 'let localTz;'],
  [
    'else if (tz == localTz)',
    'else if (tz == (localTz ??= new Intl.DateTimeFormat().resolvedOptions().timeZone))',
  ],
];

const uPlotLazyIntl = {
  name: 'uplot-lazy-intl',
  setup(b) {
    b.onLoad({ filter: /[\\/]uplot[\\/]dist[\\/]uPlot\.esm\.js$/ }, (args) => {
      let text = readFileSync(args.path, 'utf8');
      for (const [from, to] of UPLOT_LAZY_INTL) {
        if (text.split(from).length !== 2) {
          throw new Error(`${relative(ROOT, args.path)}: expected once, to build on first use: ${from}`);
        }
        text = text.replace(from, to);
      }
      if (/^(const|let|var) \w+ = new Intl\./m.test(text)) {
        throw new Error(`${relative(ROOT, args.path)} builds another Intl object when loaded`);
      }
      return { contents: text, loader: 'js' };
    });
  },
};

/**
 * The web console: one browser bundle (the pages and uPlot, minified; the
 * names carry a hash of their content, so a node can let browsers keep them
 * a year) and an index.html that loads it.
 */
async function buildConsole() {
  const dir = pkgDir('console');
  const result = await build({
    entryPoints: [join(dir, 'src', 'main.ts')],
    outdir: join(dir, 'dist'),
    entryNames: '[name]-[hash]',
    bundle: true,
    platform: 'browser',
    target: 'es2022',
    format: 'esm',
    minify: true,
    conditions: ['fermata-source'],
    metafile: true,
    write: false,
    legalComments: 'eof',
    logLevel: 'warning',
    plugins: [uPlotLazyIntl],
  });
  const names = result.outputFiles.map((f) => relative(join(dir, 'dist'), f.path));
  const script = names.find((n) => n.endsWith('.js'));
  const style = names.find((n) => n.endsWith('.css'));
  if (!script || !style) throw new Error(`the console build made ${names.join(', ')}: no script or style`);
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Fermata console</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${style}">
<script type="module" src="${script}"></script>
</head>
<body><div id="app"></div></body>
</html>
`;
  for (const out of [join(dir, 'dist'), join(pkgDir('cli'), 'dist', 'console')]) {
    for (const file of result.outputFiles)
      writeIfChanged(join(out, relative(join(dir, 'dist'), file.path)), file.contents);
    writeIfChanged(join(out, 'index.html'), html);
    removeUnwritten(out);
  }
}

await buildSdk();
await buildCli();
await buildConsole();
