// #/sessions: every session with its live state, a form for a new one, and stop.
import { post } from '../api.js';
import { on } from '../events.js';
import { h, replace, uid, timeEl, empty, pageHeader, sessionBadge, errorLine } from '../dom.js';

export function render(main) {
  const list = h('div', { class: 'session-list', 'aria-live': 'polite', 'aria-busy': 'true' });
  const summary = h('p', { class: 'summary muted' });
  const state = { views: new Map(), failed: new Set() };
  const form = newSessionForm();
  replace(
    main,
    pageHeader('Sessions', form.toggle),
    summary,
    form.panel,
    h('section', { 'aria-labelledby': 'page-title' }, list),
  );

  async function load() {
    try {
      const [overview, executions] = await Promise.all([post('/api/ui/overview', {}), post('/api/ui/executions', { limit: 200 }).catch(() => ({ executions: [] }))]);
      // A session event that came while the overview was read may be newer than what it says.
      const live = state.views;
      state.views = new Map(overview.sessions.map((v) => [v.id, v]));
      live.forEach((v, key) => {
        const listed = state.views.get(key);
        if (!listed || (v.updated_at || '') >= (listed.updated_at || '')) state.views.set(key, v);
      });
      state.failed = lastFailed(executions.executions || []);
      summary.textContent = `${overview.running} running · ${overview.waiting} waiting for you · ${overview.devices_online} ${overview.devices_online === 1 ? 'device' : 'devices'} online`;
      draw();
    } catch (e) {
      replace(list, errorLine(e.message));
    } finally {
      list.setAttribute('aria-busy', 'false');
    }
  }

  function draw() {
    const views = [...state.views.values()].sort((a, b) => (b.updated_at || '').localeCompare(a.updated_at || ''));
    if (views.length === 0) {
      replace(list, empty('No sessions yet.', 'Start one with “New session”, or from a chat or the command line.'));
      return;
    }
    replace(list, h('ul', { class: 'cards' }, views.map((v) => row(v, state.failed.has(v.id)))));
  }

  const off = [
    on('session', (data) => {
      if (data.view) {
        state.views.set(data.view.id, data.view);
        if (data.view.state === 'running') state.failed.delete(data.view.id);
        draw();
      }
    }),
    on('turn', (data) => {
      if (data.status === 'failed') state.failed.add(data.session);
      else state.failed.delete(data.session);
      draw();
    }),
  ];
  load();
  return () => off.forEach((fn) => fn());
}

function lastFailed(executions) {
  const latest = new Map();
  for (const e of executions) {
    const seen = latest.get(e.session_id);
    if (!seen || (e.started_at || '') > (seen.started_at || '')) latest.set(e.session_id, e);
  }
  return new Set([...latest.values()].filter((e) => e.status === 'failed').map((e) => e.session_id));
}

function row(view, failed) {
  const stop = view.state === 'running'
    ? h('button', { type: 'button', class: 'button button-quiet', 'aria-label': `Stop session ${view.name}`, onclick: (ev) => stopSession(ev, view) }, 'Stop')
    : null;
  return h(
    'li',
    { class: 'card session-row', dataset: { session: view.id } },
    h('div', { class: 'session-row-main' },
      h('a', { class: 'session-name', href: `#/s/${encodeURIComponent(view.id)}` }, view.name),
      sessionBadge(view, failed)),
    h('div', { class: 'session-row-meta muted' },
      h('span', {}, view.project || 'no project'),
      h('span', {}, [view.backend, view.model].filter(Boolean).join(' · ')),
      h('span', {}, 'active ', timeEl(view.updated_at))),
    stop ? h('div', { class: 'session-row-actions' }, stop) : null,
  );
}

async function stopSession(event, view) {
  const button = event.currentTarget;
  button.disabled = true;
  button.textContent = 'Stopping…';
  try {
    await post('/api/sessions/stop', { session: view.id });
  } catch (e) {
    button.after(errorLine(e.message));
  } finally {
    button.disabled = false;
    button.textContent = 'Stop';
  }
}

function field(label, control, hint) {
  const id = uid('new');
  control.id = id;
  return h('div', { class: 'field' }, h('label', { for: id }, label), control, hint ? h('p', { class: 'hint' }, hint) : null);
}

function newSessionForm() {
  const panelId = uid('panel');
  const toggle = h('button', { type: 'button', class: 'button button-primary', 'aria-expanded': 'false', 'aria-controls': panelId }, 'New session');
  const name = h('input', { type: 'text', name: 'name', autocomplete: 'off', placeholder: 'optional' });
  const project = h('input', { type: 'text', name: 'project', autocomplete: 'off', placeholder: 'optional' });
  const backend = h('select', { name: 'backend' },
    h('option', { value: '' }, 'Server default'),
    h('option', { value: 'claude' }, 'claude'),
    h('option', { value: 'api' }, 'api'),
    h('option', { value: 'command' }, 'command'));
  const model = h('input', { type: 'text', name: 'model', autocomplete: 'off', placeholder: 'backend default' });
  const composition = h('select', { name: 'composition' },
    h('option', { value: 'direct' }, 'direct (Cortex tools)'),
    h('option', { value: 'none' }, 'none (no Cortex tools)'));
  const program = h('input', { type: 'text', name: 'program', autocomplete: 'off', spellcheck: 'false' });
  const workingDir = h('input', { type: 'text', name: 'working_dir', autocomplete: 'off', spellcheck: 'false', placeholder: 'the server user’s home' });
  const programField = field('Program (command backend)', program, 'The program and its arguments, separated by spaces.');
  programField.hidden = true;
  backend.addEventListener('change', () => {
    programField.hidden = backend.value !== 'command';
  });
  const status = h('div', { class: 'form-status', 'aria-live': 'polite' });
  const submit = h('button', { type: 'submit', class: 'button button-primary' }, 'Start session');
  const cancel = h('button', { type: 'button', class: 'button button-quiet' }, 'Cancel');
  const form = h('form', { class: 'new-session', 'aria-label': 'New session', novalidate: true },
    h('div', { class: 'form-grid' },
      field('Name', name),
      field('Project', project),
      field('Backend', backend),
      field('Model', model),
      field('Composition', composition),
      field('Working directory', workingDir)),
    programField,
    status,
    h('div', { class: 'form-actions' }, submit, cancel));
  const panel = h('section', { id: panelId, class: 'panel', hidden: true }, form);
  const show = (open) => {
    panel.hidden = !open;
    toggle.setAttribute('aria-expanded', String(open));
    if (open) name.focus();
    else toggle.focus();
  };
  toggle.addEventListener('click', () => show(panel.hidden));
  cancel.addEventListener('click', () => show(false));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const body = { composition: composition.value };
    if (name.value.trim()) body.name = name.value.trim();
    if (project.value.trim()) body.project = project.value.trim();
    if (backend.value) body.backend = backend.value;
    if (model.value.trim()) body.model = model.value.trim();
    if (workingDir.value.trim()) body.working_dir = workingDir.value.trim();
    if (backend.value === 'command') {
      const words = program.value.trim().split(/\s+/).filter(Boolean);
      if (words.length === 0) {
        replace(status, errorLine('The command backend needs a program.'));
        program.focus();
        return;
      }
      body.program = words;
    }
    submit.disabled = true;
    replace(status, h('p', { class: 'muted' }, 'Starting…'));
    try {
      const view = await post('/api/sessions/create', body);
      window.location.hash = `#/s/${encodeURIComponent(view.id)}`;
    } catch (e) {
      replace(status, errorLine(e.message));
    } finally {
      submit.disabled = false;
    }
  });
  return { toggle, panel };
}
