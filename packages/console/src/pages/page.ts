import { ApiError } from '../api.js';
import { h } from '../dom.js';

/** Draws a page into `root`; the function it returns stops its timers when the page is left. */
export type Page = (root: HTMLElement, params: URLSearchParams) => (() => void) | undefined;

/** An error as the API worded it, in a box the user sees. */
export function errorBox(err: unknown): HTMLElement {
  return h('p', { class: 'error', role: 'alert' }, err instanceof ApiError ? err.text : String(err));
}

/** The hash link to a page with its query. */
export function link(page: string, params: Record<string, string>, text: string): HTMLAnchorElement {
  return h('a', { href: `#/${page}?${new URLSearchParams(params)}` }, text);
}

/** The topic and group a page works on: two fields filled from its link's query. */
export interface ScopeFields {
  /** Labels and fields, to place in a form. */
  readonly elements: HTMLElement[];
  readonly scope: () => { topic: string; group: string };
}

export function scopeFields(params: URLSearchParams): ScopeFields {
  const topic = h('input', { id: 'topic', name: 'topic', value: params.get('topic') ?? '', required: true });
  const group = h('input', {
    id: 'group',
    name: 'group',
    value: params.get('group') ?? '',
    placeholder: 'default',
  });
  return {
    elements: [h('label', { for: 'topic' }, 'topic '), topic, h('label', { for: 'group' }, ' group '), group],
    scope: () => ({ topic: topic.value.trim(), group: group.value.trim() }),
  };
}
