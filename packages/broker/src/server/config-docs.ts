/**
 * Renders the configuration reference (docs/operations.md) from the schema, so
 * the docs cannot drift from the code. A test checks that the doc contains
 * exactly this rendering; to refresh the doc after changing the schema run
 *   node --conditions=fermata-source --import tsx packages/broker/src/server/config-docs.ts --write
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type KeySpec, schemaEntries } from './config-schema.js';

export const CONFIG_REFERENCE_BEGIN =
  '<!-- config-reference:begin (generated from packages/broker/src/server/config-schema.ts) -->';
export const CONFIG_REFERENCE_END = '<!-- config-reference:end -->';

function typeOf(spec: KeySpec): string {
  switch (spec.kind) {
    case 'int':
      return spec.max === Number.MAX_SAFE_INTEGER
        ? `integer >= ${spec.min}`
        : `integer ${spec.min}..${spec.max}`;
    case 'bool':
      return 'boolean';
    case 'enum':
      return spec.values.map((v) => `\`${v}\``).join(' \\| ');
    case 'string':
      return 'string';
    case 'address':
      return 'host:port';
    case 'members':
      return 'list of `id=peer/client`';
  }
}

function defaultOf(spec: KeySpec): string {
  if (spec.kind === 'members') return '(empty)';
  if (spec.kind === 'address' || spec.kind === 'string')
    return spec.default === '' ? '(empty)' : `\`${spec.default}\``;
  return `\`${String(spec.default)}\``;
}

const cell = (s: string) => s.replace(/\|/g, '\\|');

/** The markdown between the begin and end markers (markers included). */
export function renderConfigReference(): string {
  const rows = schemaEntries().map(
    (e) =>
      `| \`${e.path}\` | \`${e.env}\` | ${typeOf(e.spec)} | ${defaultOf(e.spec)} | ${cell(e.spec.description)} |`,
  );
  return [
    CONFIG_REFERENCE_BEGIN,
    '',
    '| Key | Environment variable | Type | Default | Description |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
    '',
    CONFIG_REFERENCE_END,
  ].join('\n');
}

/** Replaces the generated section of `file` (which must already hold both markers). */
export function writeConfigReference(file: string): boolean {
  const text = readFileSync(file, 'utf8');
  const begin = text.indexOf(CONFIG_REFERENCE_BEGIN);
  const end = text.indexOf(CONFIG_REFERENCE_END);
  if (begin < 0 || end < begin) throw new Error(`${file} has no config-reference markers`); // boundary: a docs file without the markers
  const next = text.slice(0, begin) + renderConfigReference() + text.slice(end + CONFIG_REFERENCE_END.length);
  if (next === text) return false;
  writeFileSync(file, next);
  return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv.includes('--write')) {
  const file = fileURLToPath(new URL('../../../../docs/operations.md', import.meta.url));
  console.log(writeConfigReference(file) ? `updated ${file}` : `${file} is up to date`);
}
