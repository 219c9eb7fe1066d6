// Small helpers to build DOM nodes. Text always goes in as text nodes: nothing from the server is
// ever parsed as HTML by the page.

/**
 * Creates an element. `attrs` keys: `class`, `text`, `on<Event>` (listeners), `dataset`, boolean
 * attributes (true sets, false/null leaves out) and plain attributes. Children may be nodes,
 * strings, arrays or null.
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === 'class') el.className = value;
    else if (key === 'text') el.textContent = value;
    else if (key === 'dataset') Object.assign(el.dataset, value);
    else if (key.startsWith('on') && typeof value === 'function') {
      el.addEventListener(key.slice(2).toLowerCase(), value);
    } else if (value === true) el.setAttribute(key, '');
    else el.setAttribute(key, String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else if (child instanceof Node) el.appendChild(child);
    else el.appendChild(document.createTextNode(String(child)));
  }
}

/** Replaces every child of `el`. */
export function replace(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

let counter = 0;

/** A unique id for label/control pairs. */
export function uid(prefix = 'f') {
  counter += 1;
  return `${prefix}-${counter}`;
}

/** A human time: "14:02" today, else "3 Dec 14:02". */
export function when(iso) {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const now = new Date();
  const time = date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  if (date.toDateString() === now.toDateString()) return time;
  return `${date.toLocaleDateString([], { day: 'numeric', month: 'short' })} ${time}`;
}

/** A `<time>` element with the full instant as its title. */
export function timeEl(iso) {
  return h('time', { datetime: iso || '', title: iso || '' }, when(iso));
}

export function bytes(n) {
  if (n === null || n === undefined) return '';
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}

export function usd(n) {
  if (n === null || n === undefined) return '—';
  return `$${Number(n).toFixed(2)}`;
}

/** An empty state: a calm sentence and an optional hint. */
export function empty(title, hint) {
  return h('div', { class: 'empty' }, h('p', { class: 'empty-title' }, title), hint ? h('p', { class: 'empty-hint' }, hint) : null);
}

/** A page header with a title and optional actions. */
export function pageHeader(title, ...actions) {
  return h('header', { class: 'page-header' }, h('h1', { id: 'page-title', tabindex: '-1' }, title), h('div', { class: 'page-actions' }, actions));
}

/** A state badge for a session view. */
export function sessionBadge(view, failed) {
  const state = sessionState(view, failed);
  const labels = { waiting: 'waiting for you', running: 'running', idle: 'idle', failed: 'failed' };
  return h('span', { class: `badge badge-${state}`, dataset: { state } }, labels[state]);
}

export function sessionState(view, failed) {
  if (view.waiting_for) return 'waiting';
  if (view.state === 'running') return 'running';
  if (failed) return 'failed';
  return 'idle';
}

/** A small error line for a form or card; role=alert so it is announced. */
export function errorLine(message) {
  return h('p', { class: 'error-line', role: 'alert' }, message);
}
