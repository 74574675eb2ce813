/**
 * Topics: every topic the token may administer (`Admin/ListTopics`) and each
 * group's counts (`Admin/GetTopicStats`): pending, in flight, dead-lettered,
 * next due, and the oldest overdue, which is how long ago the group's next
 * due time passed (its earliest pending message, or a lease that ran out),
 * the settings in effect, and for a push group its endpoint and what the
 * leader sent it.
 */
import { rpc } from '../api.js';
import { fromNow, h, replace, span, table, time } from '../dom.js';
import type { GroupStats, Topic, TopicStats } from '../types.js';
import { enumText, num } from '../types.js';
import { errorBox, link, type Page } from './page.js';

/** Topics shown at once, and stats calls in flight at once: a page for people, not a scan. */
const MAX_TOPICS_SHOWN = 500;
const STATS_CALLS_AT_ONCE = 8;

export const topicsPage: Page = (root) => {
  const body = h('section', {}, h('p', {}, 'Loading…'));
  replace(root, h('h1', {}, 'Topics'), body);
  void draw(body);
  return undefined;
};

async function draw(el: HTMLElement): Promise<void> {
  let all: Topic[];
  let topics: Topic[];
  let stats: TopicStats[];
  try {
    all = (await rpc<{ topics: Topic[] }>('Admin', 'ListTopics')).topics;
    topics = all.slice(0, MAX_TOPICS_SHOWN);
    stats = await inTurn(topics, (t) => rpc<TopicStats>('Admin', 'GetTopicStats', { topic: t.name }));
  } catch (err) {
    replace(el, errorBox(err));
    return;
  }
  if (topics.length === 0) {
    replace(el, h('p', {}, 'No topics.'));
    return;
  }
  const now = Date.now();
  const rows = topics.flatMap((t, i) =>
    (stats[i]?.groups ?? []).map((g) => [
      h('strong', {}, t.name),
      g.group,
      g.pending,
      g.inFlight,
      g.deadLettered,
      overdue(g, now),
      num(g.nextDueMs) === 0
        ? ''
        : h('span', { title: time(num(g.nextDueMs)) }, fromNow(num(g.nextDueMs), now)),
      settings(t, g),
      push(g),
      h(
        'span',
        { class: 'links' },
        link('messages', { topic: t.name, group: g.group }, 'messages'),
        ' ',
        link('schedules', { topic: t.name }, 'schedules'),
      ),
    ]),
  );
  replace(
    el,
    table(
      [
        'topic',
        'group',
        'pending',
        'in flight',
        'dead-lettered',
        'oldest overdue',
        'next due',
        'settings',
        'push',
        '',
      ],
      rows,
      { id: 'topics-table' },
    ),
  );
}

/** `call` on each item, STATS_CALLS_AT_ONCE at a time; the answers in the items' order. */
async function inTurn<T, R>(items: readonly T[], call: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await call(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(STATS_CALLS_AT_ONCE, items.length) }, worker));
  return out;
}

function overdue(g: GroupStats, now: number): string {
  const next = num(g.nextDueMs);
  return next !== 0 && next < now && num(g.pending) > 0 ? span(now - next) : '';
}

/** A push group's endpoint and limits, then the leader's figures; empty for another group. */
function push(g: GroupStats): string | HTMLElement {
  const p = g.settings?.push;
  if (!p) return '';
  const figures = Object.entries(g.push?.requests ?? {})
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([c, n]) => `${c} ${num(n)}`);
  figures.push(`retries ${num(g.push?.retries)}`, `dead letters ${num(g.push?.deadLetters)}`);
  if (g.push?.blocked) figures.push(`blocked: ${g.push.blocked}`);
  return h(
    'span',
    { class: 'push' },
    h('code', {}, p.endpoint),
    ` · concurrency ${p.concurrency} · timeout ${span(p.timeoutMs)}${p.secretFile ? ' · signed' : ''}`,
    h('br', {}),
    h('span', { title: 'requests the current leader sent since it became leader' }, figures.join(' · ')),
  );
}

function settings(t: Topic, g: GroupStats): string {
  const s = t.settings;
  const parts = [
    `max attempts ${s.maxAttempts}`,
    `lease ${span(num(s.defaultLeaseMs))}`,
    `dead letters to ${s.deadLetterTopic}`,
    `ordering ${enumText(g.settings?.ordering || s.ordering, 'ORDERING_')}`,
  ];
  if (num(s.maxLatenessMs) > 0) parts.push(`max lateness ${span(num(s.maxLatenessMs))}`);
  if (g.settings?.maxDeliveriesPerSecond) parts.push(`${g.settings.maxDeliveriesPerSecond}/s`);
  if (g.settings?.maxInFlight) parts.push(`max in flight ${g.settings.maxInFlight}`);
  if (g.paused) parts.push('PAUSED');
  return parts.join(' · ');
}
