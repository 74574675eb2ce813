/**
 * The console's shell: the login page, the navigation and a page per hash
 * route (`#/cluster`, `#/topics`, `#/messages?topic=...`, `#/dead-letters`,
 * `#/schedules`). The token is checked with `Cluster/GetClusterInfo`, which
 * any known token may call; a 401 from any call brings the login page back.
 */
import 'uplot/dist/uPlot.min.css';
import './style.css';
import { ApiError, forgetToken, rpc, savedToken, saveToken, whenUnauthenticated } from './api.js';
import { h, replace } from './dom.js';
import { clusterPage } from './pages/cluster.js';
import { deadLettersPage } from './pages/dead-letters.js';
import { messagesPage } from './pages/messages.js';
import type { Page } from './pages/page.js';
import { schedulesPage } from './pages/schedules.js';
import { timelinePage } from './pages/timeline.js';
import { topicsPage } from './pages/topics.js';
import type { ClusterInfo } from './types.js';

const PAGES: Record<string, { title: string; page: Page }> = {
  cluster: { title: 'Cluster', page: clusterPage },
  topics: { title: 'Topics', page: topicsPage },
  messages: { title: 'Messages', page: messagesPage },
  'dead-letters': { title: 'Dead letters', page: deadLettersPage },
  schedules: { title: 'Schedules', page: schedulesPage },
  timeline: { title: 'Timeline', page: timelinePage },
};

const app = document.getElementById('app') as HTMLElement;
let leave: (() => void) | undefined;

function showLogin(reason?: ApiError): void {
  leave?.();
  leave = undefined;
  const input = h('input', {
    type: 'password',
    id: 'token',
    name: 'token',
    autocomplete: 'off',
    placeholder: 'bearer token',
  });
  const error = h('p', { class: 'error', id: 'login-error', role: 'alert' }, reason ? reason.text : '');
  const form = h(
    'form',
    {
      class: 'login',
      onsubmit: (e: Event) => {
        e.preventDefault();
        login(input.value.trim(), error);
      },
    },
    h('h1', {}, 'Fermata console'),
    h('label', { for: 'token' }, 'Token'),
    input,
    h('p', { class: 'hint' }, 'A token of the cluster (auth.tokensFile); empty when the cluster has none.'),
    h('button', { type: 'submit' }, 'Log in'),
    error,
  );
  replace(app, form);
  input.focus();
}

async function login(token: string, error: HTMLElement): Promise<void> {
  saveToken(token);
  try {
    await rpc<ClusterInfo>('Cluster', 'GetClusterInfo');
  } catch (err) {
    forgetToken();
    replace(error, err instanceof ApiError ? err.text : String(err));
    return;
  }
  // A move to another page while the token was checked has drawn it already.
  if (app.querySelector('nav') !== null) return;
  if (!location.hash.startsWith('#/')) location.hash = '#/cluster';
  else route();
}

function route(): void {
  if (savedToken() === null) {
    showLogin();
    return;
  }
  const [name = 'cluster', query = ''] = location.hash.replace(/^#\/?/, '').split('?');
  const entry = PAGES[name] ?? PAGES['cluster']!;
  leave?.();
  const main = h('main', { id: 'page' });
  const nav = h(
    'nav',
    {},
    h('strong', {}, 'Fermata'),
    ...Object.entries(PAGES).map(([key, p]) =>
      h('a', { href: `#/${key}`, class: key === name ? 'current' : undefined }, p.title),
    ),
    h(
      'button',
      {
        class: 'logout',
        onclick: () => {
          forgetToken();
          showLogin();
        },
      },
      'Log out',
    ),
  );
  replace(app, nav, main);
  document.title = `${entry.title} · Fermata`;
  leave = entry.page(main, new URLSearchParams(query));
}

whenUnauthenticated((err) => {
  forgetToken();
  showLogin(err);
});
window.addEventListener('hashchange', route);
route();
