// The cards of a session's transcript: attachments of the web group (files, views, decisions,
// boards). Questions and plans live in interactions.js.
import { post, fileUrl, viewUrl } from './api.js';
import { h, replace, uid, bytes, timeEl, errorLine } from './dom.js';

const WIDTHS = ['narrow', 'wide', 'full'];

/** The card of an `attachment` entry of session `session`. */
export function attachmentCard(session, body, entry) {
  switch (body && body.type) {
    case 'files':
      return filesCard(session, body);
    case 'view':
      return viewCard(session, body);
    case 'decisions':
      return decisionsCard(session, body);
    case 'board':
      return boardCard(body);
    default:
      return h('div', { class: 'card attachment muted' }, `An attachment this page cannot show (entry ${entry.seq}).`);
  }
}

function filesCard(session, body) {
  const files = body.files || [];
  return h(
    'figure',
    { class: 'attachment attachment-files', dataset: { attachment: body.id } },
    h('ul', { class: 'file-cards' }, files.map((file) => fileCard(session, file))),
    body.caption ? h('figcaption', { class: 'caption' }, body.caption) : null,
  );
}

function fileCard(session, file) {
  const url = fileUrl(session, file.file_id);
  let preview = null;
  if (file.preview === 'image') {
    preview = h('a', { class: 'file-preview', href: url, target: '_blank', rel: 'noopener' }, h('img', { src: url, alt: file.name, loading: 'lazy' }));
  } else if (file.preview === 'video') {
    preview = h('video', { class: 'file-preview', src: url, controls: true, preload: 'metadata', 'aria-label': file.name });
  }
  return h(
    'li',
    { class: 'file-card', dataset: { file: file.file_id } },
    preview,
    h('div', { class: 'file-info' },
      h('span', { class: 'file-icon', 'aria-hidden': 'true' }, extension(file.name)),
      h('span', { class: 'file-text' },
        h('span', { class: 'file-name' }, file.name),
        h('span', { class: 'file-meta muted' }, [bytes(file.size), file.media_type].filter(Boolean).join(' · '))),
      h('a', { class: 'button button-quiet file-download', href: url, download: file.name, 'aria-label': `Download ${file.name}` }, 'Download')),
  );
}

function extension(name) {
  const dot = (name || '').lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1, dot + 5).toUpperCase() : 'FILE';
}

function viewCard(session, body) {
  const width = WIDTHS.includes(body.width) ? body.width : 'narrow';
  const height = Math.min(900, Math.max(160, Number(body.height) || 360));
  const frame = h('iframe', {
    class: 'view-frame',
    sandbox: 'allow-scripts',
    src: viewUrl(session, body.id),
    title: body.title || 'A view',
    loading: 'lazy',
    referrerpolicy: 'no-referrer',
  });
  frame.style.height = `${height}px`;
  const figure = h('figure', { class: `attachment attachment-view width-${width}`, dataset: { attachment: body.id, width } });
  const status = h('span', { class: 'view-status muted', 'aria-live': 'polite' });
  const group = uid('width');
  const switcher = h('fieldset', { class: 'segmented' },
    h('legend', { class: 'visually-hidden' }, `Width of ${body.title || 'the view'}`),
    WIDTHS.map((w) => {
      const id = `${group}-${w}`;
      const input = h('input', { type: 'radio', name: group, id, value: w, checked: w === width });
      input.addEventListener('change', () => setWidth(figure, body.id, w, status));
      return h('span', { class: 'segment' }, input, h('label', { for: id }, w));
    }));
  replace(figure,
    h('div', { class: 'view-head' }, h('span', { class: 'view-title' }, body.title || 'View'), status, switcher),
    frame,
    body.caption ? h('figcaption', { class: 'caption' }, body.caption) : null);
  savedWidth(figure, body.id, switcher);
  return figure;
}

/** The entry carries the agent's width; the server keeps the one a person chose since. */
async function savedWidth(figure, attachment, switcher) {
  try {
    const saved = await post('/api/web/views/width', { attachment });
    const kept = saved && saved.width;
    if (WIDTHS.includes(kept) && kept !== figure.dataset.width) {
      WIDTHS.forEach((w) => figure.classList.toggle(`width-${w}`, w === kept));
      figure.dataset.width = kept;
      switcher.querySelectorAll('input').forEach((input) => { input.checked = input.value === kept; });
    }
  } catch (e) {
    // The agent's width stays.
  }
}

async function setWidth(figure, attachment, width, status) {
  WIDTHS.forEach((w) => figure.classList.toggle(`width-${w}`, w === width));
  figure.dataset.width = width;
  status.textContent = 'saving…';
  try {
    const saved = await post('/api/web/views/width', { attachment, width });
    status.textContent = 'saved';
    const kept = saved && (saved.width || saved);
    if (typeof kept === 'string' && WIDTHS.includes(kept) && kept !== width) {
      WIDTHS.forEach((w) => figure.classList.toggle(`width-${w}`, w === kept));
      figure.dataset.width = kept;
    }
  } catch (e) {
    status.textContent = `not saved: ${e.message}`;
  }
}

function boardCard(body) {
  const board = body.board || {};
  return h('div', { class: 'card attachment attachment-board', dataset: { attachment: body.id, board: board.id } },
    h('span', { class: 'board-icon', 'aria-hidden': 'true' }),
    h('div', {},
      h('p', { class: 'muted small' }, 'Board'),
      h('a', { class: 'board-link', href: `#/b/${encodeURIComponent(board.id || board.slug || '')}` }, board.title || board.slug || 'a board')));
}

const STATE_LABELS = { open: 'open', approved: 'approved', explain: 'explanation asked', change: 'change proposed' };

/** Decision cards; their states and action log come from /api/web/decisions/show. */
function decisionsCard(session, body) {
  const box = h('div', { class: 'attachment attachment-decisions', dataset: { attachment: body.id } });
  const initial = (body.decisions || []).map((d, index) => ({ ...d, index, state: 'open', actions: [] }));
  drawDecisions(box, body.id, initial);
  refreshDecisions(box);
  return box;
}

/** Refetches the decisions of a decisions card (after a `decision` event). */
export async function refreshDecisions(box) {
  try {
    const shown = await post('/api/web/decisions/show', { attachment: box.dataset.attachment });
    drawDecisions(box, box.dataset.attachment, shown.decisions || []);
    box.dataset.loaded = 'true';
  } catch (e) {
    if (!box.querySelector('.error-line')) box.append(errorLine(`Decisions could not be loaded: ${e.message}`));
  }
}

function drawDecisions(box, attachment, decisions) {
  const open = new Set([...box.querySelectorAll('details[open]')].map((d) => d.dataset.index));
  replace(box,
    h('p', { class: 'attachment-label muted small' }, decisions.length === 1 ? 'A decision the agent made' : `${decisions.length} decisions the agent made`),
    decisions.map((d) => decisionCard(box, attachment, d, open.has(String(d.index)))));
}

function decisionCard(box, attachment, d, isOpen) {
  const textId = uid('decision-text');
  const text = h('textarea', { id: textId, rows: '2', maxlength: '2000', placeholder: 'What should change, or what is unclear?' });
  const status = h('div', { 'aria-live': 'polite' });
  const act = async (action) => {
    if (action === 'change' && !text.value.trim()) {
      replace(status, errorLine('Say what to change first.'));
      text.focus();
      return;
    }
    const request = { attachment, index: d.index, action };
    if (action !== 'approve' && text.value.trim()) request.text = text.value.trim();
    buttons.forEach((b) => (b.disabled = true));
    try {
      await post('/api/web/decisions/act', request);
      await refreshDecisions(box);
    } catch (e) {
      replace(status, errorLine(e.message));
      buttons.forEach((b) => (b.disabled = false));
    }
  };
  const buttons = [
    h('button', { type: 'button', class: 'button button-primary', onclick: () => act('approve') }, 'Approve'),
    h('button', { type: 'button', class: 'button', onclick: () => act('explain') }, 'Ask to explain'),
    h('button', { type: 'button', class: 'button', onclick: () => act('change') }, 'Propose a change'),
  ];
  const state = d.state || 'open';
  return h('details', { class: `card decision decision-${state}`, open: isOpen, dataset: { index: String(d.index), state } },
    h('summary', {}, h('span', { class: 'decision-title' }, d.title), h('span', { class: `badge badge-decision-${state}` }, STATE_LABELS[state] || state)),
    h('dl', { class: 'decision-body' },
      h('dt', {}, 'Context'), h('dd', {}, d.context || '—'),
      h('dt', {}, 'Decision'), h('dd', {}, d.decision || '—'),
      h('dt', {}, 'Reasoning'), h('dd', {}, d.reasoning || '—')),
    (d.actions || []).length
      ? h('ol', { class: 'action-log', 'aria-label': 'What was done' }, d.actions.map((a) => h('li', {}, timeEl(a.at), ' ', h('strong', {}, STATE_LABELS[a.action] || a.action), a.by ? ` by ${a.by}` : '', a.text ? h('q', {}, a.text) : null)))
      : null,
    h('div', { class: 'field' }, h('label', { for: textId }, 'Your note (needed to propose a change)'), text),
    status,
    h('div', { class: 'form-actions' }, buttons));
}
