/**
 * Messages: find one by id or key (`Broker/GetMessage`: its fields, and per
 * group its state, due time and attempts), list a group's by due range
 * (`Broker/ListMessages`, a page of 100 at a time), cancel or reschedule one
 * (`DELETE /v1/topics/{topic}/messages/{id}`, `POST .../reschedule`), and
 * the same on a selection, after a confirmation, with a result per message.
 */
import { ApiError, rpc, settle } from '../api.js';
import { h, replace, table, time } from '../dom.js';
import type { GetMessageResponse, ListedMessage, ListMessagesResponse, MessageInfo } from '../types.js';
import { enumText, num } from '../types.js';
import { errorBox, type Page, scopeFields } from './page.js';
import { rescheduleInput } from './reschedule.js';

export const messagesPage: Page = (root, params) => {
  const fields = scopeFields(params);
  const find = h('input', { id: 'find', name: 'find', placeholder: 'id or key' });
  const findBy = h(
    'select',
    { id: 'find-by', name: 'find-by' },
    h('option', { value: 'key' }, 'key'),
    h('option', { value: 'id' }, 'id'),
  );
  const from = h('input', { type: 'datetime-local', step: '1', id: 'from', name: 'from' });
  const to = h('input', { type: 'datetime-local', step: '1', id: 'to', name: 'to' });
  const detail = h('section', { id: 'message' });
  // Outside the message's view, which an action redraws.
  const result = h('div', { id: 'action-result' });
  const list = h('section', { id: 'list' });
  const topicName = () => fields.scope().topic;

  const showMessage = async (target: { id: string } | { key: string }, keepResult = false) => {
    replace(detail, h('p', {}, 'Loading…'));
    if (!keepResult) replace(result);
    try {
      const m = await rpc<GetMessageResponse>('Broker', 'GetMessage', { topic: topicName(), ...target });
      replace(
        detail,
        messageView(topicName(), m, result, () => showMessage({ id: m.message.id }, true)),
      );
    } catch (err) {
      replace(detail, errorBox(err));
    }
  };

  replace(
    root,
    h('h1', {}, 'Messages'),
    h('form', { class: 'bar', id: 'scope', onsubmit: (e: Event) => e.preventDefault() }, ...fields.elements),
    h(
      'form',
      {
        class: 'bar',
        id: 'find-form',
        onsubmit: (e: Event) => {
          e.preventDefault();
          const v = find.value.trim();
          void showMessage(findBy.value === 'id' ? { id: v } : { key: v });
        },
      },
      h('label', { for: 'find' }, 'Find by '),
      findBy,
      ' ',
      find,
      h('button', { type: 'submit' }, 'Find'),
    ),
    detail,
    result,
    h(
      'form',
      {
        class: 'bar',
        id: 'list-form',
        onsubmit: (e: Event) => {
          e.preventDefault();
          const range = {
            fromDueMs: from.value ? String(new Date(from.value).getTime()) : '0',
            toDueMs: to.value ? String(new Date(to.value).getTime()) : '0',
          };
          const request = { ...fields.scope(), ...range, limit: 100 };
          void listView(list, request, (id) => showMessage({ id }));
        },
      },
      h('label', { for: 'from' }, 'Due from '),
      from,
      h('label', { for: 'to' }, ' to '),
      to,
      h('button', { type: 'submit' }, 'List'),
    ),
    list,
  );
  const key = params.get('key');
  const id = params.get('id');
  if (key && topicName()) void showMessage({ key });
  else if (id && topicName()) void showMessage({ id });
  return undefined;
};

function payloadText(m: MessageInfo): string {
  const bytes = Uint8Array.from(atob(m.payload), (c) => c.charCodeAt(0));
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return text.length > 2000 ? `${text.slice(0, 2000)}…` : text;
  } catch {
    return `(${bytes.length} bytes, not UTF-8)`;
  }
}

function messageView(
  topic: string,
  r: GetMessageResponse,
  result: HTMLElement,
  reload: () => void,
): HTMLElement {
  const m = r.message;
  const reschedule = rescheduleInput('one');
  const actions: HTMLElement = h('div', { class: 'actions' });
  // A shift moves the due time a pending group has now (a reschedule changed it since the publish).
  const currentDue = num(r.groups.find((g) => g.state === 'MESSAGE_STATE_PENDING')?.dueAtMs ?? m.dueAtMs);
  const run = async (action: Parameters<typeof settle>[2]) => {
    try {
      const out = await settle(topic, m.id, action);
      replace(
        result,
        h(
          'p',
          { class: out.message ? 'warn' : 'ok' },
          `${out.status}${out.message ? `: ${out.message}` : ''}`,
        ),
      );
      // A cancelled message is gone from the API's reads: keep what was shown, without its actions.
      if (out.message) return;
      if ('cancel' in action) actions.replaceChildren('Cancelled: it will not be delivered.');
      else reload();
    } catch (err) {
      replace(result, errorBox(err));
    }
  };
  actions.append(
    h('button', { id: 'cancel-one', onclick: () => void run({ cancel: true }) }, 'Cancel message'),
    ' Reschedule ',
    reschedule.element,
    h(
      'button',
      {
        id: 'reschedule-one',
        onclick: () => {
          try {
            void run({ deliverAtMs: reschedule.target(currentDue) });
          } catch (err) {
            replace(result, errorBox(err));
          }
        },
      },
      'Reschedule',
    ),
  );
  const fields: [string, string][] = [
    ['id', m.id],
    ['key', m.key],
    ['ordering key', m.orderingKey],
    ['published', time(num(m.enqueuedAtMs))],
    ['due (as published)', time(num(m.dueAtMs))],
    ['expires', time(num(m.expireAtMs))],
    ['deadline', time(num(m.deliverBeforeMs))],
    ...Object.entries(m.headers).map(([k, v]) => [`header ${k}`, v] as [string, string]),
    ['payload', payloadText(m)],
  ];
  return h(
    'div',
    { class: 'message' },
    h('h2', {}, `Message ${m.id}`),
    table(
      ['field', 'value'],
      fields.filter(([, v]) => v !== ''),
      { id: 'message-fields' },
    ),
    h('h3', {}, 'Per group'),
    table(
      ['group', 'state', 'due (now)', 'attempts'],
      r.groups.map((g) => [g.group, enumText(g.state, 'MESSAGE_STATE_'), time(num(g.dueAtMs)), g.attempt]),
      { id: 'message-groups' },
    ),
    actions,
  );
}

interface ListRequest {
  topic: string;
  group: string;
  fromDueMs: string;
  toDueMs: string;
  limit: number;
}

async function listView(el: HTMLElement, request: ListRequest, open: (id: string) => void): Promise<void> {
  const rows: ListedMessage[] = [];
  const selected = new Set<string>();
  const tbody = h('tbody');
  const more = h('div');
  const bulk = h('div', { class: 'bulk', id: 'bulk' });
  const load = async (pageToken: string) => {
    let page: ListMessagesResponse;
    try {
      page = await rpc<ListMessagesResponse>('Broker', 'ListMessages', { ...request, pageToken });
    } catch (err) {
      replace(more, errorBox(err));
      return;
    }
    for (const lm of page.messages) {
      rows.push(lm);
      const box = h('input', {
        type: 'checkbox',
        'data-id': lm.message.id,
        onchange: (e: Event) => {
          if ((e.target as HTMLInputElement).checked) selected.add(lm.message.id);
          else selected.delete(lm.message.id);
          drawBulk();
        },
      });
      tbody.append(
        h(
          'tr',
          {},
          h('td', {}, box),
          h(
            'td',
            {},
            h(
              'a',
              {
                href: '#',
                onclick: (e: Event) => {
                  e.preventDefault();
                  open(lm.message.id);
                },
              },
              lm.message.id,
            ),
          ),
          h('td', {}, lm.message.key),
          h('td', {}, enumText(lm.state, 'MESSAGE_STATE_')),
          h('td', {}, time(num(lm.dueAtMs))),
          h('td', {}, lm.attempt),
        ),
      );
    }
    replace(
      more,
      rows.length === 0 ? 'No messages due in this range.' : `${rows.length} listed`,
      page.nextPageToken
        ? h('button', { id: 'more', onclick: () => void load(page.nextPageToken) }, 'More')
        : '',
    );
  };

  const reschedule = rescheduleInput('bulk');
  const drawBulk = () => {
    replace(
      bulk,
      `${selected.size} selected `,
      h(
        'button',
        { id: 'bulk-cancel', disabled: selected.size === 0, onclick: () => confirm({ cancel: true }) },
        'Cancel…',
      ),
      ' Reschedule ',
      reschedule.element,
      h(
        'button',
        { id: 'bulk-reschedule', disabled: selected.size === 0, onclick: () => confirm('reschedule') },
        'Reschedule…',
      ),
    );
  };
  const confirm = (action: { cancel: true } | 'reschedule') => {
    const ids = [...selected];
    let what: string;
    try {
      what =
        action === 'reschedule'
          ? `Reschedule ${ids.length} messages ${reschedule.describe()}`
          : `Cancel ${ids.length} messages`;
    } catch (err) {
      replace(bulk, errorBox(err));
      setTimeout(drawBulk, 3000);
      return;
    }
    replace(
      bulk,
      h('strong', {}, `${what} of topic ${request.topic}?`),
      ' ',
      h('button', { id: 'bulk-confirm', onclick: () => void apply(ids, action) }, 'Confirm'),
      h('button', { id: 'bulk-back', onclick: drawBulk }, 'Back'),
    );
  };
  const apply = async (ids: string[], action: { cancel: true } | 'reschedule') => {
    const byId = new Map(rows.map((r) => [r.message.id, r]));
    const results: [string, string][] = [];
    for (const id of ids) {
      try {
        const due = num(byId.get(id)?.dueAtMs);
        const out = await settle(
          request.topic,
          id,
          action === 'reschedule' ? { deliverAtMs: reschedule.target(due) } : action,
        );
        results.push([id, out.message ? `${out.status}: ${out.message}` : out.status]);
      } catch (err) {
        results.push([id, err instanceof ApiError ? err.text : String(err)]);
      }
    }
    selected.clear();
    replace(
      bulk,
      h('h3', {}, 'Result per message'),
      table(['id', 'result'], results, { id: 'bulk-results' }),
    );
  };

  replace(
    el,
    bulk,
    h(
      'table',
      { id: 'list-table' },
      h(
        'thead',
        {},
        h('tr', {}, ...['', 'id', 'key', 'state', 'due', 'attempts'].map((c) => h('th', {}, c))),
      ),
      tbody,
    ),
    more,
  );
  drawBulk();
  await load('');
}
