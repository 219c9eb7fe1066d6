// The app shell: signs the page in (GET /api/ui/me), routes the hash to a page, keeps the live
// event stream open and the theme toggle working.
import { me, post, onSignedOut } from './api.js';
import { connect, disconnect, on, onStatus } from './events.js';
import { h, replace } from './dom.js';
import { applyTheme, currentTheme, nextTheme } from './theme.js';
import * as sessions from './pages/sessions.js';
import * as session from './pages/session.js';
import * as costs from './pages/costs.js';
import * as executions from './pages/executions.js';
import * as devices from './pages/devices.js';
import * as waitpoints from './pages/waitpoints.js';
import * as boards from './pages/boards.js';
import * as board from './pages/board.js';
import * as plugins from './pages/plugins.js';

const ROUTES = [
  { pattern: /^#\/sessions$/, page: sessions, nav: 'sessions' },
  { pattern: /^#\/s\/([^/]+)$/, page: session, nav: 'sessions' },
  { pattern: /^#\/costs$/, page: costs, nav: 'costs' },
  { pattern: /^#\/executions$/, page: executions, nav: 'executions' },
  { pattern: /^#\/devices$/, page: devices, nav: 'devices' },
  { pattern: /^#\/waitpoints$/, page: waitpoints, nav: 'waitpoints' },
  { pattern: /^#\/boards$/, page: boards, nav: 'boards' },
  { pattern: /^#\/b\/([^/]+)$/, page: board, nav: 'boards' },
  { pattern: /^#\/plugins$/, page: plugins, nav: 'plugins' },
];

const main = document.getElementById('main');
let cleanup = null;
let signedIn = false;

applyTheme();
setUpThemeToggle();

onSignedOut(() => {
  if (signedIn) {
    signedIn = false;
    disconnect();
    showSignIn();
  }
});

async function start() {
  try {
    await me();
  } catch (e) {
    if (e.status === 401) {
      showSignIn();
      return;
    }
    replace(main, h('div', { class: 'empty' }, h('p', { class: 'empty-title' }, 'The agent server did not answer.'), h('p', { class: 'empty-hint' }, 'Start it with cortex server, then reload this page.')));
    return;
  }
  signedIn = true;
  document.body.classList.add('signed-in');
  const signout = document.getElementById('signout');
  signout.hidden = false;
  signout.addEventListener('click', async () => {
    try {
      await post('/api/ui/signout', {});
    } finally {
      signedIn = false;
      disconnect();
      showSignIn();
    }
  });
  onStatus(setLiveStatus);
  on('reset', () => route());
  connect();
  window.addEventListener('hashchange', route);
  if (!window.location.hash || window.location.hash === '#' || window.location.hash === '#/') {
    history.replaceState(null, '', '#/sessions');
  }
  route();
}

function route() {
  if (!signedIn) return;
  const hash = window.location.hash;
  const match = ROUTES.map((r) => ({ r, m: r.pattern.exec(hash) })).find((x) => x.m);
  if (cleanup) {
    cleanup();
    cleanup = null;
  }
  document.querySelectorAll('.nav a').forEach((a) => {
    if (match && a.dataset.route === match.r.nav) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  });
  replace(main);
  if (!match) {
    replace(main, h('div', { class: 'empty' }, h('p', { class: 'empty-title' }, 'There is no such page.'), h('p', { class: 'empty-hint' }, h('a', { href: '#/sessions' }, 'Go to the sessions'))));
    return;
  }
  const params = match.m.slice(1).map(decodeURIComponent);
  const result = match.r.page.render(main, ...params);
  cleanup = typeof result === 'function' ? result : null;
  document.body.dataset.page = match.r.nav;
}

function showSignIn() {
  document.body.classList.remove('signed-in');
  document.getElementById('signout').hidden = true;
  setLiveStatus('offline');
  replace(
    main,
    h(
      'section',
      { class: 'signin-needed', 'aria-labelledby': 'signin-title' },
      h('span', { class: 'brand-mark brand-mark-large', 'aria-hidden': 'true' }),
      h('h1', { id: 'signin-title' }, 'Sign in with cortex ui'),
      h('p', {}, 'The workbench opens with a one-time link. On the machine of the agent server, run:'),
      h('pre', {}, h('code', {}, 'cortex ui --open')),
      h('p', { class: 'muted' }, 'The link is valid once, for 10 minutes.'),
    ),
  );
}

function setLiveStatus(status) {
  const el = document.getElementById('live-status');
  el.dataset.status = status;
  el.textContent = { live: 'live', reconnecting: 'reconnecting…', offline: 'offline', connecting: 'connecting' }[status] || status;
}

function setUpThemeToggle() {
  const button = document.getElementById('theme-toggle');
  const label = (theme) => `Colour theme: ${theme === 'system' ? 'follow the system' : theme}`;
  button.setAttribute('aria-label', label(currentTheme()));
  button.dataset.theme = currentTheme();
  button.addEventListener('click', () => {
    const theme = nextTheme();
    button.setAttribute('aria-label', label(theme));
    button.dataset.theme = theme;
  });
}

start();
