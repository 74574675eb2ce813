import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { createServerLogger } from '../src/server/logger.js';

const dir = mkdtempSync(join(tmpdir(), 'fermata-logger-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function logTo(name: string, level: 'info' | 'warn' = 'info') {
  const file = join(dir, name);
  const log = createServerLogger({
    nodeId: 'n1',
    level,
    destination: pino.destination({ dest: file, sync: true }),
  });
  const lines = () =>
    readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { log, lines };
}

describe('server logger', () => {
  it('writes one JSON object per line with node id, term, role, level name and time', () => {
    const { log, lines } = logTo('a.log');
    log.logger.info({ topic: 'orders' }, 'published');
    const [line] = lines();
    expect(line).toMatchObject({
      nodeId: 'n1',
      term: 0,
      role: 'starting',
      level: 'info',
      msg: 'published',
      topic: 'orders',
    });
    expect(typeof line!['time']).toBe('string');
    expect(Number.isNaN(Date.parse(line!['time'] as string))).toBe(false);
  });

  it('a term or role change shows on the next line, in child loggers too', () => {
    const { log, lines } = logTo('b.log');
    const child = log.logger.child({ component: 'dispatcher' });
    child.info('before');
    log.setRaftState({ term: 7, role: 'leader' });
    child.info('after');
    log.logger.warn('root after');
    const [before, after, root] = lines();
    expect(before).toMatchObject({ component: 'dispatcher', term: 0, role: 'starting' });
    expect(after).toMatchObject({ component: 'dispatcher', nodeId: 'n1', term: 7, role: 'leader' });
    expect(root).toMatchObject({ term: 7, role: 'leader', level: 'warn' });
    expect(log.raftState).toEqual({ term: 7, role: 'leader' });
  });

  it('lines below the configured level are not written', () => {
    const { log, lines } = logTo('c.log', 'warn');
    log.logger.info('hidden');
    log.logger.error('shown');
    expect(lines().map((l) => l['msg'])).toEqual(['shown']);
  });
});
