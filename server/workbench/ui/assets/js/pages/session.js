// #/s/<id>: one session's live transcript, its questions and plans, and the composer.
import { post } from '../api.js';
import { on } from '../events.js';
import { h, replace, uid, timeEl, empty, sessionBadge, errorLine } from '../dom.js';
import { attachmentCard, refreshDecisions } from '../cards.js';
import { interactionCard } from '../interactions.js';

const PAGE = 100;
// The server reads `before` as "the entries just before this seq": a number past every seq asks
// for the newest page.
const NEWEST = Number.MAX_SAFE_INTEGER;
// How close to the bottom (in pixels) counts as reading the newest entries.
const NEAR_BOTTOM = 48;

export function render(main, id) {
  const state = { view: null, first: null, last: 0, blocks: [], tools: new Map(), loaded: false, pending: [] };
  const head = h('header', { class: 'page-header session-head' }, h('h1', { id: 'page-title', tabindex: '-1' }, 'Session'));
  const earlier = h('button', { type: 'button', class: 'button button-quiet load-earlier', hidden: true }, 'Load earlier');
  const transcript = h('ol', { class: 'transcript', tabindex: '-1', 'aria-live': 'polite', 'aria-label': 'Transcript', 'aria-relevant': 'additions text' });
  const interactions = h('section', { class: 'interactions', 'aria-label': 'Questions and plans' });
  const composer = composerForm(id);
  // The transcript scrolls in its own box above the composer, so the composer never covers it.
  const scroller = h('div', { class: 'session-scroll' }, h('div', { class: 'session-inner' }, head, h('div', { class: 'session-body' }, earlier, transcript, interactions)));
  document.body.classList.add('has-composer');
  replace(main, scroller, composer);

  const nearBottom = () => scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight <= NEAR_BOTTOM;
  const toBottom = () => {
    scroller.scrollTop = scroller.scrollHeight;
  };
  /** Runs `change`; a reader who was at the newest entries stays there. */
  const keepingBottom = (change) => {
    const stick = nearBottom();
    change();
    if (stick) toBottom();
  };

  function drawHead() {
    const v = state.view;
    const stop = v.state === 'running'
      ? h('button', { type: 'button', class: 'button button-quiet', onclick: () => post('/api/sessions/stop', { session: id }).catch((e) => head.append(errorLine(e.message))) }, 'Stop')
      : null;
    replace(head,
      h('div', { class: 'session-title' }, h('a', { href: '#/sessions', class: 'back', 'aria-label': 'Back to the sessions' }, '←'), h('h1', { id: 'page-title', tabindex: '-1' }, v.name), sessionBadge(v)),
      h('p', { class: 'muted session-meta' }, [v.project, v.backend, v.model, v.channel].filter(Boolean).join(' · ')),
      h('div', { class: 'page-actions' }, stop));
  }

  async function loadView() {
    try {
      state.view = await post('/api/sessions/show', { session: id });
      drawHead();
    } catch (e) {
      replace(main, empty('This session cannot be shown.', e.message));
    }
  }

  async function loadNewest() {
    const entries = (await post('/api/sessions/transcript', { session: id, before: NEWEST, limit: PAGE })).entries;
    entries.forEach(appendEntry);
    state.first = entries.length ? entries[0].seq : null;
    earlier.hidden = !moreBefore(entries);
    if (!entries.length) transcript.append(h('li', { class: 'transcript-empty muted' }, 'Nothing said yet. Send a message to start.'));
  }

  /** Whether a page read backwards (`entries`, oldest first) leaves anything earlier. */
  function moreBefore(entries) {
    return entries.length === PAGE && entries[0].seq > 1;
  }

  earlier.addEventListener('click', async () => {
    earlier.disabled = true;
    try {
      const entries = (await post('/api/sessions/transcript', { session: id, before: state.first, limit: PAGE })).entries;
      if (entries.length) {
        prepend(entries);
        state.first = entries[0].seq;
      }
      earlier.hidden = !moreBefore(entries);
      if (earlier.hidden) transcript.focus({ preventScroll: true });
    } catch (e) {
      earlier.after(errorLine(e.message));
    } finally {
      earlier.disabled = false;
    }
  });

  /** Puts earlier `entries` above the ones shown; what the reader looks at stays where it is. */
  function prepend(entries) {
    const shown = state.blocks;
    const mark = shown.length ? shown[0].el : null;
    const markBottom = mark ? mark.getBoundingClientRect().bottom : 0;
    state.blocks = [];
    const fragment = document.createDocumentFragment();
    entries.forEach((e) => addEntry(e, fragment));
    const last = state.blocks[state.blocks.length - 1];
    const next = shown[0];
    if (last && next && last.kind === 'assistant' && next.kind === 'assistant' && last.execution === next.execution) {
      // A run of streamed text cut by the page's edge is still one bubble.
      next.text.prepend(last.text.textContent);
      next.el.dataset.seq = last.el.dataset.seq;
      last.el.remove();
      state.blocks.pop();
    }
    transcript.insertBefore(fragment, transcript.firstChild);
    state.blocks = state.blocks.concat(shown);
    if (mark) scroller.scrollTop += mark.getBoundingClientRect().bottom - markBottom;
  }

  function appendEntry(entry) {
    if (entry.seq <= state.last) return;
    state.last = entry.seq;
    const placeholder = transcript.querySelector('.transcript-empty');
    if (placeholder) placeholder.remove();
    addEntry(entry, transcript);
  }

  function addEntry(entry, into) {
    const body = entry.body || {};
    const previous = state.blocks[state.blocks.length - 1];
    if (entry.kind === 'assistant' && previous && previous.kind === 'assistant' && previous.execution === entry.execution_id) {
      previous.text.append(body.text || '');
      return;
    }
    if (entry.kind === 'tool_result' && state.tools.has(body.tool_use_id)) {
      state.tools.get(body.tool_use_id).result(body);
      return;
    }
    const block = blockOf(entry, body);
    state.blocks.push(block);
    into.append(block.el);
  }

  function blockOf(entry, body) {
    const base = { kind: entry.kind, execution: entry.execution_id };
    const li = (cls, ...children) => h('li', { class: `entry entry-${cls}`, dataset: { seq: String(entry.seq), kind: entry.kind } }, children);
    switch (entry.kind) {
      case 'user':
        return { ...base, el: li('user', h('div', { class: 'bubble bubble-user' }, h('p', { class: 'entry-text' }, body.text || '')), h('p', { class: 'entry-meta muted' }, body.source && body.source !== 'api' ? `${body.source} · ` : '', timeEl(entry.at))) };
      case 'assistant': {
        const text = h('p', { class: 'entry-text' }, body.text || '');
        return { ...base, text, el: li('assistant', h('div', { class: 'bubble bubble-assistant' }, text)) };
      }
      case 'tool_use': {
        const status = h('span', { class: 'tool-status badge badge-running' }, 'running');
        const result = h('div', { class: 'tool-result' });
        const details = h('details', { class: 'tool' },
          h('summary', {}, h('span', { class: 'tool-name' }, shortName(body.name)), status),
          h('p', { class: 'tool-label' }, 'Input'),
          h('pre', { class: 'tool-input' }, pretty(body.input)),
          result);
        state.tools.set(body.id, {
          result: (r) => {
            status.textContent = r.is_error ? 'error' : 'done';
            status.className = `tool-status badge ${r.is_error ? 'badge-failed' : 'badge-idle'}`;
            replace(result, h('p', { class: 'tool-label' }, 'Result'), h('pre', { class: 'tool-output' }, pretty(r.content)));
          },
        });
        return { ...base, el: li('tool', details) };
      }
      case 'tool_result':
        return { ...base, el: li('tool', h('details', { class: 'tool' }, h('summary', {}, h('span', { class: 'tool-name' }, 'Tool result'), h('span', { class: `tool-status badge ${body.is_error ? 'badge-failed' : 'badge-idle'}` }, body.is_error ? 'error' : 'done')), h('pre', { class: 'tool-output' }, pretty(body.content)))) };
      case 'attachment':
        return { ...base, el: li('attachment', attachmentCard(id, body, entry)) };
      default:
        return { ...base, el: li('note', h('p', { class: 'entry-note muted' }, body.text || JSON.stringify(body))) };
    }
  }

  /** A live entry: drawn when it is the next one, else the gap before it is read first. */
  async function catchUp(entry) {
    if (!state.loaded) {
      state.pending.push(entry);
      return;
    }
    if (entry.seq <= state.last) return;
    if (entry.seq === state.last + 1) {
      keepingBottom(() => appendEntry(entry));
      return;
    }
    const missed = (await post('/api/sessions/transcript', { session: id, after: state.last, limit: 500 })).entries;
    keepingBottom(() => missed.forEach(appendEntry));
  }

  const cards = new Map();
  async function loadInteractions() {
    const listed = await post('/api/interactions/list', { session: id, all: true });
    (listed.interactions || []).forEach(drawInteraction);
  }
  function drawInteraction(view) {
    const old = cards.get(view.id);
    // A card only moves on from open: an open view read before the answer came is out of date.
    if (old && old.dataset.state !== 'open' && view.state === 'open') return;
    const card = interactionCard(view, (answered) => (answered && answered.id === view.id ? drawInteraction(answered) : refetchInteraction(view.id)));
    const hadFocus = old && old.contains(document.activeElement);
    keepingBottom(() => {
      if (old) old.replaceWith(card);
      else if (view.state === 'open') interactions.prepend(card);
      else interactions.append(card);
    });
    cards.set(view.id, card);
    if (hadFocus) {
      // The button that sent the answer is gone: the keyboard stays on the card.
      card.tabIndex = -1;
      card.focus({ preventScroll: true });
    }
  }
  async function refetchInteraction(request) {
    try {
      drawInteraction(await post('/api/interactions/show', { id: request }));
    } catch (e) {
      interactions.append(errorLine(e.message));
    }
  }

  const mine = (data) => data.session === id;
  const off = [
    on('entry', (data) => mine(data) && data.entry && catchUp(data.entry)),
    on('session', (data) => {
      if (mine(data) && data.view) {
        state.view = data.view;
        drawHead();
      }
    }),
    on('interaction', (data) => mine(data) && refetchInteraction(data.id)),
    on('decision', (data) => {
      if (!mine(data)) return;
      const box = transcript.querySelector(`.attachment-decisions[data-attachment="${CSS.escape(data.attachment)}"]`);
      if (box) refreshDecisions(box);
    }),
  ];
  (async () => {
    await loadView();
    if (!state.view) return;
    try {
      await loadNewest();
      state.loaded = true;
      // Live entries that came while the newest page was read.
      const pending = state.pending;
      state.pending = [];
      for (const entry of pending) await catchUp(entry);
      await loadInteractions();
      toBottom();
    } catch (e) {
      transcript.append(errorLine(e.message));
    }
  })();
  return () => {
    off.forEach((fn) => fn());
    document.body.classList.remove('has-composer');
  };
}

function shortName(name) {
  const parts = String(name || 'tool').split('__');
  return parts[parts.length - 1];
}

function pretty(value) {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') {
    try {
      return JSON.stringify(JSON.parse(value), null, 2);
    } catch (e) {
      return value;
    }
  }
  return JSON.stringify(value, null, 2);
}

function composerForm(session) {
  const id = uid('composer');
  const text = h('textarea', { id, name: 'text', rows: '2', placeholder: 'Message the agent…  (Ctrl+Enter to send)', required: true });
  const status = h('p', { class: 'composer-status muted', 'aria-live': 'polite' });
  const send = h('button', { type: 'submit', class: 'button button-primary' }, 'Send');
  const form = h('form', { class: 'composer', 'aria-label': 'Send a message' },
    h('label', { for: id, class: 'visually-hidden' }, 'Message'), text, send, status);
  const sendNow = async () => {
    const message = text.value.trim();
    if (!message) return;
    send.disabled = true;
    try {
      const delivery = await post('/api/sessions/send', { session, text: message });
      text.value = '';
      status.textContent = {
        injected: 'Sent into the running turn.',
        started: 'Sent; a turn started.',
        queued: 'Queued for the next turn.',
        offered: 'Offered to the running turn.',
      }[delivery && delivery.status] || 'Sent.';
    } catch (e) {
      status.textContent = `Not sent: ${e.message}`;
    } finally {
      send.disabled = false;
      text.focus();
    }
  };
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    sendNow();
  });
  text.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      sendNow();
    }
  });
  return form;
}
