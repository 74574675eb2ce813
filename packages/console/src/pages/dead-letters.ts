/**
 * Dead letters: the topics the token administers, each with its dead-letter
 * topic (`Admin/ListTopics`); for one topic, its dead letters
 * (`Broker/ListMessages` of the dead-letter topic, those whose
 * `fermata-dead-letter-source-topic` is this topic) with reason, source group,
 * attempts and last error; redrive one (`Broker/Redrive` with its id) or all
 * (`all`, page after page until the API says done), each with its result.
 */
import { ApiError, rpc } from '../api.js';
import { h, replace, table, time } from '../dom.js';
import type { ListMessagesResponse, RedriveResponse, Topic } from '../types.js';
import { enumText, num } from '../types.js';
import { errorBox, link, type Page } from './page.js';

const DL = 'fermata-dead-letter-';

export const deadLettersPage: Page = (root, params) => {
  const body = h('section', {}, h('p', {}, 'Loading…'));
  replace(root, h('h1', {}, 'Dead letters'), body);
  void draw(body, params.get('topic') ?? '');
  return undefined;
};

async function draw(el: HTMLElement, chosen: string): Promise<void> {
  let topics: Topic[];
  try {
    topics = (await rpc<{ topics: Topic[] }>('Admin', 'ListTopics')).topics;
  } catch (err) {
    replace(el, errorBox(err));
    return;
  }
  const targets = new Set(topics.map((t) => t.settings.deadLetterTopic));
  const sources = topics.filter((t) => !targets.has(t.name));
  const detail = h('section', { id: 'dead-letters' });
  replace(
    el,
    table(
      ['topic', 'dead-letter topic', ''],
      sources.map((t) => [
        t.name,
        t.settings.deadLetterTopic,
        link('dead-letters', { topic: t.name }, 'show'),
      ]),
      { id: 'dlq-topics' },
    ),
    detail,
  );
  const topic = sources.find((t) => t.name === chosen);
  if (topic) await letters(detail, topic);
}

async function letters(el: HTMLElement, topic: Topic): Promise<void> {
  const dlq = topic.settings.deadLetterTopic;
  const result = h('div', { id: 'redrive-result' });
  let page: ListMessagesResponse;
  try {
    page = await rpc<ListMessagesResponse>('Broker', 'ListMessages', { topic: dlq, limit: 1000 });
  } catch (err) {
    replace(el, h('h2', {}, `${topic.name} → ${dlq}`), errorBox(err));
    return;
  }
  const mine = page.messages.filter((lm) => lm.message.headers[`${DL}source-topic`] === topic.name);
  const redrive = async (request: { ids: string[] } | { all: true }) => {
    try {
      const outcomes: [string, string, string][] = [];
      let pageToken = '';
      do {
        const r = await rpc<RedriveResponse>('Broker', 'Redrive', {
          topic: topic.name,
          ...request,
          pageToken,
        });
        for (const x of r.results)
          outcomes.push([x.id, enumText(x.status, 'REDRIVE_STATUS_'), x.newId === '0' ? '' : x.newId]);
        pageToken = 'all' in request ? r.nextPageToken : '';
      } while (pageToken !== '');
      replace(
        result,
        outcomes.length === 0
          ? h('p', {}, 'Nothing to redrive.')
          : table(['dead letter', 'result', 'new id'], outcomes, { id: 'redrive-table' }),
      );
    } catch (err) {
      replace(result, err instanceof ApiError ? errorBox(err) : errorBox(String(err)));
    }
  };
  replace(
    el,
    h('h2', {}, `${topic.name} → ${dlq}`),
    h(
      'p',
      {},
      `${mine.length} dead letters${page.nextPageToken ? ' (the first 1,000 of the dead-letter topic looked at)' : ''} `,
      h('button', { id: 'redrive-all', onclick: () => void redrive({ all: true }) }, 'Redrive all'),
    ),
    table(
      ['id', 'reason', 'group', 'source id', 'attempts', 'last error', 'dead-lettered', ''],
      mine.map((lm) => {
        const hd = lm.message.headers;
        return [
          lm.message.id,
          hd[`${DL}reason`] ?? '',
          hd[`${DL}source-group`] ?? '',
          hd[`${DL}source-id`] ?? '',
          hd[`${DL}attempts`] ?? '',
          hd[`${DL}last-error`] ?? '',
          time(num(lm.message.enqueuedAtMs)),
          h(
            'button',
            {
              class: 'redrive-one',
              'data-id': lm.message.id,
              onclick: () => void redrive({ ids: [lm.message.id] }),
            },
            'Redrive',
          ),
        ];
      }),
      { id: 'dead-letter-table' },
    ),
    result,
  );
}
