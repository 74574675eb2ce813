/** A few DOM helpers: the pages build their elements with these, never from HTML strings. */

type Child = Node | string | number | null | undefined | false;
type Attrs = Record<string, string | number | boolean | ((event: Event) => void) | undefined>;

/** `<tag attrs>children</tag>`: `on<event>` attributes add listeners; `false`/`undefined` leave one out. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function') el.addEventListener(name.slice(2).toLowerCase(), value);
    else if (value === true) el.setAttribute(name, '');
    else el.setAttribute(name, String(value));
  }
  append(el, ...children);
  return el;
}

export function append(el: Node, ...children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    el.appendChild(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
  }
}

/** Replaces what `el` holds. */
export function replace(el: Element, ...children: Child[]): void {
  el.replaceChildren();
  append(el, ...children);
}

/** A table of `head` columns and `rows` (each a list of cells). */
export function table(
  head: readonly string[],
  rows: readonly Child[][],
  attrs: Attrs = {},
): HTMLTableElement {
  return h(
    'table',
    attrs,
    h('thead', {}, h('tr', {}, ...head.map((c) => h('th', {}, c)))),
    h('tbody', {}, ...rows.map((r) => h('tr', {}, ...r.map((c) => h('td', {}, c))))),
  );
}

/** An epoch-ms time as local date and time to the second; '' for 0 (none). */
export function time(ms: number): string {
  if (ms === 0) return '';
  const d = new Date(ms);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/**
 * A number with its thousands grouped by commas (`12,345`, `0.5`). Written out
 * rather than with Intl: a new tab's first Intl object costs tens of
 * milliseconds, which the Timeline page would pay before its chart is drawn.
 */
export function countText(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  const [whole = '', fraction] = String(Math.abs(n)).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+$)/g, ',');
  return `${n < 0 ? '-' : ''}${grouped}${fraction === undefined ? '' : `.${fraction}`}`;
}

/** A span of milliseconds, coarsely: `850ms`, `12s`, `3m 20s`, `5h 2m`, `4d 3h`. */
export function span(ms: number): string {
  const sign = ms < 0 ? '-' : '';
  const a = Math.abs(ms);
  if (a < 1000) return `${sign}${Math.round(a)}ms`;
  const s = Math.floor(a / 1000);
  if (s < 60) return `${sign}${s}s`;
  if (s < 3600) return `${sign}${Math.floor(s / 60)}m ${s % 60}s`;
  if (s < 86400) return `${sign}${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`;
  return `${sign}${Math.floor(s / 86400)}d ${Math.floor((s % 86400) / 3600)}h`;
}

/** A time relative to now: `in 5m 3s`, `12s ago`. */
export function fromNow(ms: number, now = Date.now()): string {
  if (ms === 0) return '';
  return ms >= now ? `in ${span(ms - now)}` : `${span(now - ms)} ago`;
}
