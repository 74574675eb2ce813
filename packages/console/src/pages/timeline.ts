/**
 * Timeline: how many of a group's pending messages fall due when, and the
 * topic's schedule occurrences apart (`Broker/GetDueForecast`, from the
 * histogram apply keeps: no scan of the messages). It opens on now to the
 * furthest bucket that holds anything (one call of day buckets over four
 * years finds it); drag across the chart to zoom in, down to seconds; the
 * presets and "Zoom out" widen it again. A click on a bar lists that
 * bucket's messages (`Broker/ListMessages` of its due range).
 */
import uPlot from 'uplot';
import { rpc } from '../api.js';
import { countText, h, replace, table, time } from '../dom.js';
import type { ListMessagesResponse } from '../types.js';
import { enumText, num } from '../types.js';
import { errorBox, link, type Page, scopeFields } from './page.js';
import { DAY, listedBuckets, MAX_BUCKETS, MINUTE, PRESETS, widthFor, widthText } from './ranges.js';

interface Bucket {
  startMs: string;
  endMs: string;
  count: string;
  scheduled: string;
}

interface Forecast {
  buckets: Bucket[];
  pending: string;
  inFlight: string;
  complete: boolean;
  schedulesTruncated: boolean;
}

export const timelinePage: Page = (root, params) => {
  const fields = scopeFields(params);
  const summary = h('p', { id: 'forecast-summary' });
  const chartBox = h('div', { class: 'chart timeline' });
  const buckets = h('section', { id: 'buckets' });
  const messages = h('section', { id: 'bucket-messages' });
  let plot: uPlot | undefined;
  let shown: { fromMs: number; toMs: number; bucketMs: number; list: Bucket[] } | undefined;
  const history: { fromMs: number; toMs: number }[] = [];

  const load = async (fromMs: number, toMs: number, bucketMs = widthFor(toMs - fromMs)) => {
    const scope = fields.scope();
    let f: Forecast;
    try {
      f = await rpc<Forecast>('Broker', 'GetDueForecast', {
        ...scope,
        fromMs: String(fromMs),
        toMs: String(toMs),
        bucketMs: String(bucketMs),
      });
    } catch (err) {
      replace(summary, errorBox(err));
      return;
    }
    shown = { fromMs, toMs, bucketMs, list: f.buckets };
    const inRange = f.buckets.reduce((n, b) => n + num(b.count), 0);
    replace(
      summary,
      `${scope.topic} / ${scope.group || 'default'}: ${time(fromMs)} to ${time(toMs)}, buckets of ${widthText(bucketMs)}. `,
      `${inRange} of ${f.pending} pending fall due in this range; ${f.inFlight} in flight.`,
      f.complete
        ? ''
        : ' This group’s queue predates the forecast: its counts are not kept until it is empty once.',
      f.schedulesTruncated ? ' Schedule occurrences: more than one answer reads (a lower bound).' : '',
    );
    draw(f.buckets);
    const { listed, nonEmpty } = listedBuckets(f.buckets);
    replace(
      buckets,
      listed.length < nonEmpty
        ? h(
            'p',
            { class: 'hint', id: 'buckets-hint' },
            `The first ${listed.length} of ${nonEmpty} buckets that hold anything; the chart shows them all: zoom in, or click a bar.`,
          )
        : '',
      table(
        ['bucket start', 'end', 'messages', 'schedule occurrences'],
        listed.map((b) => [
          h(
            'a',
            {
              href: '#',
              onclick: (e: Event) => {
                e.preventDefault();
                void list(b);
              },
            },
            time(num(b.startMs)),
          ),
          time(num(b.endMs)),
          b.count,
          b.scheduled,
        ]),
        { id: 'buckets-table' },
      ),
    );
  };

  const list = async (b: Bucket) => {
    const scope = fields.scope();
    try {
      const page = await rpc<ListMessagesResponse>('Broker', 'ListMessages', {
        ...scope,
        fromDueMs: b.startMs,
        toDueMs: b.endMs,
        limit: 100,
      });
      replace(
        messages,
        h('h2', {}, `Due ${time(num(b.startMs))} to ${time(num(b.endMs))}`),
        table(
          ['id', 'key', 'state', 'due', 'attempts'],
          page.messages.map((lm) => [
            link('messages', { ...scope, id: lm.message.id }, lm.message.id),
            lm.message.key,
            enumText(lm.state, 'MESSAGE_STATE_'),
            time(num(lm.dueAtMs)),
            lm.attempt,
          ]),
          { id: 'bucket-messages-table' },
        ),
        page.nextPageToken
          ? h('p', { class: 'hint' }, 'The first 100; the Messages page lists the rest.')
          : '',
      );
    } catch (err) {
      replace(messages, errorBox(err));
    }
  };

  const draw = (rows: Bucket[]) => {
    plot?.destroy();
    const xs = rows.map((b) => num(b.startMs) / 1000);
    const bars = uPlot.paths.bars?.({ size: [0.9], align: 1 });
    // Counts formatted here, not by uPlot's Intl formatter (see countText).
    const value = (_u: uPlot, v: number | null, _s: number, i: number | null) =>
      i === null ? '--' : v === null ? '' : countText(v);
    plot = new uPlot(
      {
        width: 1000,
        height: 280,
        cursor: { drag: { x: true, y: false } },
        axes: [{}, { values: (_u, splits) => splits.map(countText) }],
        series: [
          {},
          {
            label: 'messages',
            stroke: '#2a6fdb',
            fill: '#2a6fdb88',
            value,
            ...(bars ? { paths: bars } : {}),
          },
          {
            label: 'schedule occurrences',
            stroke: '#d9822b',
            fill: '#d9822b88',
            value,
            ...(bars ? { paths: bars } : {}),
          },
        ],
        hooks: {
          setSelect: [
            (u) => {
              if (!shown || u.select.width < 5) return;
              const fromMs = Math.floor(u.posToVal(u.select.left, 'x') * 1000);
              const toMs = Math.ceil(u.posToVal(u.select.left + u.select.width, 'x') * 1000) + shown.bucketMs;
              history.push({ fromMs: shown.fromMs, toMs: shown.toMs });
              void load(Math.max(0, fromMs), toMs);
            },
          ],
        },
      },
      [xs, rows.map((b) => num(b.count)), rows.map((b) => num(b.scheduled))],
      chartBox,
    );
    plot.over.addEventListener('click', () => {
      const i = plot?.cursor.idx;
      const b = i === null || i === undefined ? undefined : rows[i];
      if (b) void list(b);
    });
  };

  /** Now to the end of the furthest day bucket that holds anything (a day when none does). */
  const furthest = async () => {
    const now = Date.now();
    const span = MAX_BUCKETS * DAY;
    try {
      const f = await rpc<Forecast>('Broker', 'GetDueForecast', {
        ...fields.scope(),
        fromMs: String(now),
        toMs: String(now + span),
        bucketMs: String(DAY),
      });
      const last = f.buckets.findLast((b) => num(b.count) > 0 || num(b.scheduled) > 0);
      history.length = 0;
      await load(now, last ? Math.max(now + MINUTE, Math.min(num(last.endMs), now + span)) : now + DAY);
    } catch (err) {
      replace(summary, errorBox(err));
    }
  };

  const from = params.get('from');
  const to = params.get('to');
  const bucket = params.get('bucket');
  replace(
    root,
    h('h1', {}, 'Timeline'),
    h(
      'form',
      {
        class: 'bar',
        id: 'timeline-form',
        onsubmit: (e: Event) => {
          e.preventDefault();
          void furthest();
        },
      },
      ...fields.elements,
      h('button', { type: 'submit' }, 'Now to the furthest due'),
    ),
    h(
      'div',
      { class: 'bar' },
      'From now: ',
      ...PRESETS.map(([label, ms]) =>
        h(
          'button',
          {
            onclick: () => {
              const now = Date.now();
              history.length = 0;
              void load(now, now + ms);
            },
          },
          label,
        ),
      ),
      h(
        'button',
        {
          id: 'zoom-out',
          onclick: () => {
            const back = history.pop();
            if (back) void load(back.fromMs, back.toMs);
          },
        },
        'Zoom out',
      ),
    ),
    summary,
    h(
      'p',
      { class: 'hint' },
      'Drag across the chart to zoom in; click a bar, or a bucket below, to list its messages.',
    ),
    chartBox,
    buckets,
    messages,
  );
  if (fields.scope().topic && from && to)
    void load(Number(from), Number(to), bucket ? Number(bucket) : undefined);
  else if (fields.scope().topic) void furthest();
  return () => plot?.destroy();
};
