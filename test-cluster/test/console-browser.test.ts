/**
 * The web console in headless Chromium (Debian's `chromium`, driven by
 * playwright-core) against three real `fermata serve` processes with tokens:
 * every page loads without a console error (and is photographed into
 * docs/console/); a message found by key is cancelled from the page and the
 * API then answers that it is already done; a dead letter is redriven from
 * the page and delivered; a published batch shows in the right Timeline
 * buckets; a read-only token sees every page and cannot act; a wrong token
 * sees nothing. A push group shows its endpoint and what the leader sent it.
 *
 * The browser is `FERMATA_CHROMIUM`, else `chromium` on the PATH. Without it these
 * tests are skipped, except under CI=true, where they fail (.ci/run installs it).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FermataClient, type Logger } from '@fermata/sdk';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS, type Cluster, findChromium, type NodeHandle, startCluster } from '../src/index.js';
import { eventually } from './support.js';

const { path: CHROMIUM, missing: MISSING } = findChromium();
/** Under CI the tests fail without a browser (.ci/run installs it); elsewhere they skip, saying why. */
const REQUIRED = process.env['CI'] === 'true';
if (MISSING && !REQUIRED) console.warn(`console-browser.test.ts: skipped: ${MISSING}`);
const SHOTS = resolve(dirname(fileURLToPath(import.meta.url)), '../../docs/console');

const quiet: Logger = { debug: () => {}, warn: () => {}, error: () => {} };
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const TOKENS = {
  ops: 'console-ops-token-4f2a9c7e1b3d5f7a9c1e3b5d7f9a1c3e',
  reader: 'console-reader-token-8b6d4f2a0c8e6b4d2f0a8c6e4b2d0f8a',
};

function tokenFile(): string {
  return `tokens:
  - name: ops
    sha256: ${sha256(TOKENS.ops)}
    admin: ["*"]
    publish: ["*"]
    consume: ["*"]
  - name: reader
    sha256: ${sha256(TOKENS.reader)}
    read: ["*"]
`;
}

const title = `the web console in a browser${MISSING && !REQUIRED ? ` (skipped: ${MISSING})` : ''}`;
describe.skipIf(MISSING !== '' && !REQUIRED)(title, () => {
  let dir: string;
  let cluster: Cluster;
  let leader: NodeHandle;
  let ops: FermataClient;
  let browser: Browser;
  /** The push group's endpoint: answers 204 to every request. */
  let hook: Server;
  let hookUrl: string;

  /** The JSON API as the ops token calls it. */
  async function api(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const res = await fetch(`${leader.httpUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${TOKENS.ops}`, 'content-type': 'application/json', ...headers },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  }

  /** A page of the console logged in with `token`, recording console errors. */
  async function open(token: string): Promise<{ page: Page; errors: string[] }> {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${leader.httpUrl}/console/`);
    await page.fill('#token', token);
    await page.click('button[type=submit]');
    // Logged in (the navigation is drawn) or refused: only then may a test move to a page.
    await page.waitForSelector('nav, #login-error:not(:empty)');
    return { page, errors };
  }

  async function shot(page: Page, name: string): Promise<void> {
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  }

  beforeAll(async () => {
    if (MISSING) throw new Error(`${MISSING}; CI=true needs the browser (.ci/run installs it)`);
    dir = mkdtempSync(join(tmpdir(), 'fermata-console-'));
    writeFileSync(join(dir, 'tokens.yaml'), tokenFile());
    cluster = await startCluster({
      nodes: 3,
      httpToken: TOKENS.ops,
      autoCreateTopics: false,
      env: { FERMATA_AUTH__TOKENS_FILE: join(dir, 'tokens.yaml') },
    });
    leader = await cluster.leader();
    ops = new FermataClient({ endpoints: [...cluster.endpoints], token: TOKENS.ops, logger: quiet });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS] });

    // orders: messages due later, keyed; a schedule. payments: its messages expire into payments.dlq.
    expect((await api('POST', '/v1/rpc/Admin/CreateTopic', { name: 'orders' })).status).toBe(200);
    await api('POST', '/v1/rpc/Admin/CreateGroup', { topic: 'orders', group: 'billing' });
    const created = await api('POST', '/v1/rpc/Admin/CreateTopic', {
      name: 'payments',
      settings: { expiryAction: 'EXPIRY_ACTION_DEAD_LETTER' },
    });
    expect(created.status).toBe(200);
    const messages = Array.from({ length: 12 }, (_, i) => ({
      json: { order: i },
      delay: `${10 + i * 5}m`,
      key: `order-${i}`,
    }));
    expect((await api('POST', '/v1/topics/orders/messages:batch', { messages })).status).toBe(200);
    const schedule = { topic: 'orders', name: 'nightly-report', spec: '0 2 * * *', timeZone: 'Europe/Paris' };
    expect((await api('POST', '/v1/rpc/Schedules/UpsertSchedule', { schedule })).status).toBe(200);
    const expiring = await api('POST', '/v1/topics/payments/messages', 'charge 42', {
      'fermata-ttl': '1s',
      'fermata-key': 'charge-42',
    });
    expect(expiring.status).toBe(200);
    await eventually(
      // The dead-letter topic is made by its first dead letter.
      async () =>
        (await ops.topicStats('payments.dlq').catch(() => undefined))?.groups.some((g) => g.pending > 0) ??
        false,
      60_000,
      'the expired payment in payments.dlq',
    );

    // webhooks: a push group whose endpoint took three messages.
    hook = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(204).end());
    });
    await new Promise<void>((done) => hook.listen(0, '127.0.0.1', done));
    hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`;
    expect((await api('POST', '/v1/rpc/Admin/CreateTopic', { name: 'webhooks' })).status).toBe(200);
    const pushGroup = await api('POST', '/v1/rpc/Admin/CreateGroup', {
      topic: 'webhooks',
      group: 'hook',
      settings: { push: { endpoint: hookUrl, concurrency: 4 } },
    });
    expect(pushGroup.status).toBe(200);
    for (let i = 0; i < 3; i++)
      expect((await api('POST', '/v1/topics/webhooks/messages', `event ${i}`)).status).toBe(200);
    await eventually(
      async () =>
        (await ops.topicStats('webhooks')).groups.find((g) => g.group === 'hook')?.push?.requests['2xx'] ===
        3,
      60_000,
      'three pushes answered 2xx',
    );
  });

  afterAll(async () => {
    await browser?.close();
    await ops?.close();
    await cluster?.stop();
    hook?.closeAllConnections();
    await new Promise<void>((done) => (hook ? hook.close(() => done()) : done()));
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('loads every page without a console error', async () => {
    const { page, errors } = await open(TOKENS.ops);
    await page.waitForSelector('#members-table');
    expect(await page.locator('#members-table tbody tr').count()).toBe(3);
    await expect.poll(() => page.locator('#members-table').textContent()).toContain('leader');
    // Traffic while the page samples /metrics, so its charts have something to draw.
    await api('POST', '/v1/rpc/Admin/CreateTopic', { name: 'ticks' });
    const sub = ops.subscribe('ticks', async () => {});
    for (let i = 0; i < 16; i++) {
      const messages = Array.from({ length: 20 }, (_, j) => ({ payload: `tick ${i}.${j}`, delay: j * 40 }));
      await api('POST', '/v1/topics/ticks/messages:batch', { messages });
      await page.waitForTimeout(1_000);
    }
    await sub.close();
    await expect.poll(() => page.locator('#charts .u-legend').first().textContent()).toContain('published');
    await shot(page, 'cluster');

    await page.goto(`${leader.httpUrl}/console/#/topics`);
    await page.waitForSelector('#topics-table');
    const topics = await page.locator('#topics-table').textContent();
    expect(topics).toContain('orders');
    expect(topics).toContain('billing');
    // The push group: its endpoint, its concurrency, and the leader's figures.
    const row = (await page.locator('#topics-table tr', { hasText: hookUrl }).textContent()) ?? '';
    expect(row).toMatch(/^webhooks\s*hook/);
    expect(row).toContain('concurrency 4 · timeout 10s');
    expect(row).toContain('2xx 3 · retries 0 · dead letters 0');
    await shot(page, 'topics');

    await page.goto(`${leader.httpUrl}/console/#/messages?topic=orders&group=billing`);
    await page.click('#list-form button[type=submit]');
    await page.waitForSelector('#list-table tbody tr');
    expect(await page.locator('#list-table tbody tr').count()).toBe(12);
    await page.locator('#list-table tbody input[type=checkbox]').nth(0).check();
    await page.locator('#list-table tbody input[type=checkbox]').nth(1).check();
    await page.fill('#find', 'order-3');
    await page.click('#find-form button[type=submit]');
    await page.waitForSelector('#message-groups');
    await shot(page, 'messages');

    await page.goto(`${leader.httpUrl}/console/#/dead-letters?topic=payments`);
    await page.waitForSelector('#dead-letter-table tbody tr');
    expect(await page.locator('#dead-letter-table').textContent()).toContain('expired');
    await shot(page, 'dead-letters');

    await page.goto(`${leader.httpUrl}/console/#/schedules?topic=orders`);
    await page.waitForSelector('#schedules-table');
    expect(await page.locator('#schedules-table').textContent()).toContain('nightly-report');
    await shot(page, 'schedules');

    expect(errors).toEqual([]);
    await page.close();
  });

  it('cancels a message found by key; the API then answers it is already done', async () => {
    const { page, errors } = await open(TOKENS.ops);
    await page.goto(`${leader.httpUrl}/console/#/messages?topic=orders`);
    await page.fill('#find', 'order-5');
    await page.click('#find-form button[type=submit]');
    await page.waitForSelector('#message-groups');
    expect(await page.locator('#message-groups').textContent()).toContain('pending');
    await page.click('#cancel-one');
    await expect.poll(() => page.locator('#action-result').textContent()).toBe('CANCELLED');

    const again = await api('DELETE', '/v1/topics/orders/keys/order-5');
    expect(again.status).toBe(409);
    expect(again.json['status']).toBe('ALREADY_DONE');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('cancels a selection after a confirmation, with a result per message', async () => {
    const { page, errors } = await open(TOKENS.ops);
    await page.goto(`${leader.httpUrl}/console/#/messages?topic=orders&group=default`);
    await page.click('#list-form button[type=submit]');
    await page.waitForSelector('#list-table tbody tr');
    const boxes = page.locator('#list-table tbody input[type=checkbox]');
    const ids = [];
    for (const i of [0, 1]) {
      await boxes.nth(i).check();
      ids.push(await boxes.nth(i).getAttribute('data-id'));
    }
    await page.click('#bulk-cancel');
    expect(await page.locator('#bulk').textContent()).toContain('Cancel 2 messages of topic orders?');
    await page.click('#bulk-confirm');
    await page.waitForSelector('#bulk-results');
    const rows = await page.locator('#bulk-results tbody tr').allTextContents();
    expect(rows).toEqual(ids.map((id) => `${id}CANCELLED`));
    for (const id of ids) {
      const r = await api('DELETE', `/v1/topics/orders/messages/${id}`);
      expect([r.status, r.json['status']]).toEqual([409, 'ALREADY_DONE']);
    }
    expect(errors).toEqual([]);
    await page.close();
  });

  it('reschedules a message by a shift, and pauses and triggers a schedule', async () => {
    const { page, errors } = await open(TOKENS.ops);
    const before = await api('POST', '/v1/rpc/Broker/GetMessage', { topic: 'orders', key: 'order-8' });
    const dueMs = Number((before.json['groups'] as { dueAtMs: string }[])[0]?.dueAtMs);
    await page.goto(`${leader.httpUrl}/console/#/messages?topic=orders&key=order-8`);
    await page.waitForSelector('#message-groups');
    await page.fill('#one-shift', '+1h30m');
    await page.click('#reschedule-one');
    await expect.poll(() => page.locator('#action-result').textContent()).toBe('RESCHEDULED');
    const after = await api('POST', '/v1/rpc/Broker/GetMessage', { topic: 'orders', key: 'order-8' });
    const dues = (after.json['groups'] as { dueAtMs: string }[]).map((g) => Number(g.dueAtMs));
    expect(dues).toEqual([dueMs + 90 * 60_000, dueMs + 90 * 60_000]);

    await page.goto(`${leader.httpUrl}/console/#/schedules?topic=orders`);
    await page.waitForSelector('#schedules-table');
    await page.getByRole('button', { name: 'Pause' }).click();
    await expect
      .poll(() => page.locator('#schedule-result').textContent())
      .toBe('Pause nightly-report: done');
    const paused = await api('POST', '/v1/rpc/Schedules/GetSchedule', {
      topic: 'orders',
      name: 'nightly-report',
    });
    expect((paused.json['schedule'] as { paused: boolean }).paused).toBe(true);
    await page.getByRole('button', { name: 'Trigger' }).click();
    await expect
      .poll(() => page.locator('#schedule-result').textContent())
      .toMatch(/^Trigger nightly-report: done \(message \d+\)$/);
    await page.getByRole('button', { name: 'Resume' }).click();
    await expect
      .poll(() => page.locator('#schedule-result').textContent())
      .toBe('Resume nightly-report: done');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('redrives a dead letter, which is then delivered', async () => {
    const { page, errors } = await open(TOKENS.ops);
    await page.goto(`${leader.httpUrl}/console/#/dead-letters?topic=payments`);
    await page.waitForSelector('#dead-letter-table tbody tr');
    await page.locator('.redrive-one').first().click();
    await page.waitForSelector('#redrive-table');
    expect(await page.locator('#redrive-table tbody tr td').nth(1).textContent()).toBe('redriven');

    const got: string[] = [];
    const sub = ops.subscribe('payments', async (m) => {
      got.push(m.text());
    });
    await eventually(() => got.length === 1, 30_000, 'the redriven payment delivered');
    await sub.close();
    expect(got).toEqual(['charge 42']);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('a read-only token sees every page and cannot act: the API’s 403 is shown', async () => {
    const { page, errors } = await open(TOKENS.reader);
    const refused = (what: string) =>
      `403 PERMISSION_DENIED: token "reader" lacks permission "${what}" on topic "orders"`;
    await page.waitForSelector('#members-table');
    // `read` on every topic may read /metrics: the charts sample it, no 403 in their place.
    const metrics = await page.waitForResponse((res) => new URL(res.url()).pathname === '/metrics');
    expect(metrics.status()).toBe(200);
    expect(await page.locator('#charts .error').count()).toBe(0);

    await page.goto(`${leader.httpUrl}/console/#/topics`);
    await page.waitForSelector('#topics-table');
    expect(await page.locator('#topics-table').textContent()).toContain('billing');

    await page.goto(`${leader.httpUrl}/console/#/messages?topic=orders`);
    await page.fill('#find', 'order-7');
    await page.click('#find-form button[type=submit]');
    await page.waitForSelector('#message-groups');
    await page.click('#cancel-one');
    await expect.poll(() => page.locator('#action-result').textContent()).toBe(refused('publish'));
    const r = await api('POST', '/v1/rpc/Broker/GetMessage', { topic: 'orders', key: 'order-7' });
    expect((r.json['groups'] as { state: string }[])[0]?.state).toBe('MESSAGE_STATE_PENDING');

    await page.goto(`${leader.httpUrl}/console/#/schedules?topic=orders`);
    await page.waitForSelector('#schedules-table');
    await page.getByRole('button', { name: 'Pause' }).click();
    await expect.poll(() => page.locator('#schedule-result').textContent()).toBe(refused('publish'));
    const s = await api('POST', '/v1/rpc/Schedules/GetSchedule', { topic: 'orders', name: 'nightly-report' });
    expect((s.json['schedule'] as { paused: boolean }).paused).toBe(false);

    await page.goto(`${leader.httpUrl}/console/#/dead-letters?topic=payments`);
    await page.waitForSelector('#redrive-all');
    await page.click('#redrive-all');
    await expect
      .poll(() => page.locator('#redrive-result').textContent())
      .toBe('403 PERMISSION_DENIED: token "reader" lacks permission "admin" on topic "payments"');

    await page.goto(`${leader.httpUrl}/console/#/timeline?topic=orders`);
    await page.waitForSelector('#buckets-table tbody tr');
    // The only errors: the browser's line for each refused action.
    expect(errors.filter((e) => !e.includes('status of 403'))).toEqual([]);
    expect(errors).toHaveLength(3);
    await page.close();
  });

  it('shows a published batch in the right timeline buckets', async () => {
    expect((await api('POST', '/v1/rpc/Admin/CreateTopic', { name: 'herd' })).status).toBe(200);
    // Two herds a few minutes ahead, on whole minutes: 3 messages in one minute, 5 in another.
    const fromMs = Math.ceil(Date.now() / 60_000) * 60_000 + 5 * 60_000;
    const at = (minute: number, second: number) => fromMs + minute * 60_000 + second * 1000;
    const messages = [
      ...[0, 10, 20].map((s, i) => ({ payload: `a${i}`, deliverAt: at(1, s), key: `early-${i}` })),
      ...[0, 1, 2, 3, 4].map((s, i) => ({ payload: `b${i}`, deliverAt: at(4, s * 7), key: `late-${i}` })),
    ];
    expect((await api('POST', '/v1/topics/herd/messages:batch', { messages })).status).toBe(200);

    const { page, errors } = await open(TOKENS.ops);
    const range = `from=${fromMs}&to=${fromMs + 10 * 60_000}&bucket=60000`;
    await page.goto(`${leader.httpUrl}/console/#/timeline?topic=herd&${range}`);
    await page.waitForSelector('#buckets-table tbody tr');
    const rows = page.locator('#buckets-table tbody tr');
    expect(await rows.count()).toBe(2);
    expect(await rows.nth(0).locator('td').nth(2).textContent()).toBe('3');
    expect(await rows.nth(1).locator('td').nth(2).textContent()).toBe('5');
    expect(await page.locator('#forecast-summary').textContent()).toContain('8 of 8 pending');
    await rows.nth(0).locator('a').click();
    await page.waitForSelector('#bucket-messages-table tbody tr');
    const keys = await page.locator('#bucket-messages-table tbody tr td:nth-child(2)').allTextContents();
    expect(keys).toEqual(['early-0', 'early-1', 'early-2']);
    await shot(page, 'timeline');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('draws the Timeline in a new tab without building an Intl object (a tab’s first costs 40-150 ms)', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    // Logged in as the page keeps it, and every way into Intl counted from the document's start.
    await page.addInitScript(`
      sessionStorage.setItem('fermata.console.token', ${JSON.stringify(TOKENS.ops)});
      const used = (globalThis.__intlUsed = []);
      for (const name of Object.getOwnPropertyNames(Intl)) {
        if (typeof Intl[name] !== 'function') continue;
        Intl[name] = new Proxy(Intl[name], {
          construct: (target, args, newTarget) => (used.push('Intl.' + name), Reflect.construct(target, args, newTarget)),
          apply: (target, self, args) => (used.push('Intl.' + name), Reflect.apply(target, self, args)),
        });
      }
      for (const [proto, names] of [[Number.prototype, ['toLocaleString']], [Date.prototype, ['toLocaleString', 'toLocaleDateString', 'toLocaleTimeString']], [String.prototype, ['localeCompare']]]) {
        for (const name of names) {
          const f = proto[name];
          proto[name] = function (...args) { used.push(name); return f.apply(this, args); };
        }
      }`);
    await page.goto(`${leader.httpUrl}/console/#/timeline?topic=orders`);
    await page.waitForSelector('#buckets-table tbody tr');
    await page.waitForSelector('.timeline canvas');
    expect(await page.evaluate(() => (globalThis as unknown as { __intlUsed: string[] }).__intlUsed)).toEqual(
      [],
    );
    await page.close();
  });

  it('a wrong token sees nothing but the API’s 401', async () => {
    const { page } = await open('not-a-token-of-this-cluster');
    await expect
      .poll(() => page.locator('#login-error').textContent())
      .toBe('401 UNAUTHENTICATED: unknown token');
    await page.goto(`${leader.httpUrl}/console/#/topics`);
    await page.waitForSelector('#token');
    expect(await page.locator('nav').count()).toBe(0);
    expect(await page.locator('#topics-table').count()).toBe(0);
    await page.close();
  });
});
