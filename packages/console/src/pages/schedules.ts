/**
 * Schedules: a topic's schedules (`Schedules/ListSchedules`, 3 next fire
 * times each) with spec, zone, paused, fired, last fired and why one is
 * broken; pause, resume and trigger each (`PauseSchedule`, `ResumeSchedule`,
 * `TriggerSchedule`), showing the API's status.
 */
import { rpc } from '../api.js';
import { fromNow, h, replace, table, time } from '../dom.js';
import type { Schedule } from '../types.js';
import { enumText, num } from '../types.js';
import { errorBox, type Page } from './page.js';

export const schedulesPage: Page = (root, params) => {
  const topic = h('input', { id: 'topic', name: 'topic', value: params.get('topic') ?? '', required: true });
  const list = h('section', { id: 'schedules' });
  // Outside the list, which an action redraws.
  const result = h('div', { id: 'schedule-result' });
  const show = () => {
    replace(result);
    void draw(list, result, topic.value.trim());
  };
  replace(
    root,
    h('h1', {}, 'Schedules'),
    h(
      'form',
      {
        class: 'bar',
        onsubmit: (e: Event) => {
          e.preventDefault();
          show();
        },
      },
      h('label', { for: 'topic' }, 'topic '),
      topic,
      h('button', { type: 'submit' }, 'Show'),
    ),
    list,
    result,
  );
  if (topic.value) show();
  return undefined;
};

async function draw(el: HTMLElement, result: HTMLElement, topic: string): Promise<void> {
  let schedules: Schedule[];
  try {
    schedules = (await rpc<{ schedules: Schedule[] }>('Schedules', 'ListSchedules', { topic, next: 3 }))
      .schedules;
  } catch (err) {
    replace(el, errorBox(err));
    return;
  }
  const act = async (method: string, name: string) => {
    try {
      const r = await rpc<{ status: string; id?: string }>('Schedules', method, { topic, name });
      replace(
        result,
        h(
          'p',
          { class: 'ok' },
          `${method.replace('Schedule', '')} ${name}: ${enumText(r.status, 'SCHEDULE_STATUS_')}${r.id ? ` (message ${r.id})` : ''}`,
        ),
      );
      await draw(el, result, topic);
    } catch (err) {
      replace(result, errorBox(err));
    }
  };
  const now = Date.now();
  replace(
    el,
    schedules.length === 0
      ? h('p', {}, `No schedules in ${topic}.`)
      : table(
          ['name', 'spec', 'zone', 'state', 'next fire times', 'fired', 'last fired', ''],
          schedules.map((s) => {
            const name = s.definition.name;
            return [
              name,
              s.definition.spec,
              s.definition.timeZone || 'UTC',
              s.broken ? `broken: ${s.broken}` : s.paused ? 'paused' : 'running',
              h(
                'span',
                {},
                ...s.nextFireMs.map((t) =>
                  h('div', { title: time(num(t)) }, `${time(num(t))} (${fromNow(num(t), now)})`),
                ),
              ),
              s.fired,
              time(num(s.lastFiredMs)),
              h(
                'span',
                { class: 'links' },
                h(
                  'button',
                  { onclick: () => void act(s.paused ? 'ResumeSchedule' : 'PauseSchedule', name) },
                  s.paused ? 'Resume' : 'Pause',
                ),
                h('button', { onclick: () => void act('TriggerSchedule', name) }, 'Trigger'),
              ),
            ];
          }),
          { id: 'schedules-table' },
        ),
  );
}
