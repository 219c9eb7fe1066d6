// #/plugins: the plugin packages of the home, where each is assigned, and assigning one once a
// person has seen what it adds (its servers, summarised, and the tools each lists now).
import { post } from '../api.js';
import { h, replace, timeEl, empty, pageHeader, errorLine, uid } from '../dom.js';
import { table } from './table.js';

function describe(server) {
  if (server.origin) {
    return server.header_names.length ? `${server.origin}, headers ${server.header_names.join(', ')}` : server.origin;
  }
  const args = `${server.arg_count} ${server.arg_count === 1 ? 'argument' : 'arguments'}`;
  return server.env_keys.length ? `${server.executable}, ${args}, env ${server.env_keys.join(', ')}` : `${server.executable}, ${args}`;
}

/** A tool's description in a line: its first line, at most 160 characters (the whole as a title). */
function short(text) {
  const line = text.trim().split('\n')[0];
  return line.length <= 160 ? line : `${line.slice(0, 159)}…`;
}

function where(environment) {
  return environment === 'default' ? 'sessions without a project' : `project ${environment}`;
}

export function render(main) {
  const status = h('p', { class: 'hint', role: 'status', 'aria-live': 'polite' });
  const list = h('section', { 'aria-label': 'Plugin packages' });
  const assign = h('section', { class: 'panel', 'aria-labelledby': 'assign-title' });
  replace(main, pageHeader('Plugins'), status, list, assign);

  function load() {
    post('/api/plugins/list', {})
      .then(({ plugins, assignments }) => {
        showList(plugins, assignments);
        showAssign(plugins.filter((p) => p.usable));
      })
      .catch((e) => replace(list, errorLine(e.message)));
  }

  function showList(plugins, assignments) {
    if (!plugins.length) {
      replace(list, empty('No plugin packages.', 'Put one folder per package, with plugin.json, under $CORTEX_HOME/plugins/.'));
      return;
    }
    replace(list, table('Plugin packages', ['Plugin', 'Servers', 'Skills', 'Left out', 'Assigned to'], plugins.map((p) => [
      h('span', {}, h('strong', {}, p.id), p.name ? ` ${p.name}${p.version ? ` ${p.version}` : ''}` : '', p.usable ? null : h('span', { class: 'badge badge-failed' }, 'not usable')),
      p.servers.length ? h('ul', { class: 'plain-list' }, p.servers.map((s) => h('li', {}, h('code', {}, s.name), ` (${s.type}): ${describe(s)}`))) : '—',
      String(p.skills.length),
      p.problems.length ? h('ul', { class: 'plain-list' }, p.problems.map((x) => h('li', {}, `${x.component}: ${x.reason}`))) : '—',
      assigned(p, assignments.filter((a) => a.plugin_id === p.id)),
    ])));
  }

  function assigned(plugin, rows) {
    if (!rows.length) return '—';
    return h('ul', { class: 'plain-list' }, rows.map((a) => h('li', { dataset: { environment: a.environment, state: a.state } },
      where(a.environment), ' ',
      h('span', { class: `badge ${a.state === 'active' ? 'badge-running' : 'badge-waiting'}` }, a.state),
      a.held_reason ? h('span', { class: 'hint' }, ` ${a.held_reason}: review and assign it again.`) : null,
      ' ', a.confirmed_at ? timeEl(a.confirmed_at) : null, ' ',
      h('button', { type: 'button', class: 'button button-quiet', onclick: () => unassign(plugin.id, a.environment) }, 'Remove'))));
  }

  function unassign(id, environment) {
    const body = environment === 'default' ? { id } : { id, project: environment };
    post('/api/plugins/unassign', body)
      .then(() => { status.textContent = `${id} is no longer assigned to ${where(environment)}.`; load(); })
      .catch((e) => { status.textContent = e.message; });
  }

  function showAssign(usable) {
    const pluginId = uid('plugin');
    const projectId = uid('project');
    const select = h('select', { id: pluginId, name: 'plugin' }, usable.map((p) => h('option', { value: p.id }, p.id)));
    const project = h('input', { type: 'text', id: projectId, name: 'project', placeholder: 'none: sessions without a project', autocomplete: 'off' });
    const review = h('button', { type: 'submit', class: 'button button-primary', disabled: !usable.length }, 'Review what it adds');
    const offerArea = h('div', { class: 'offer' });
    const form = h('form', { novalidate: true },
      h('div', { class: 'form-grid' },
        h('div', { class: 'field' }, h('label', { for: pluginId }, 'Plugin'), select),
        h('div', { class: 'field' }, h('label', { for: projectId }, 'Project'), project)),
      h('div', { class: 'form-actions' }, review));
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const body = { id: select.value };
      if (project.value.trim()) body.project = project.value.trim();
      review.disabled = true;
      replace(offerArea, h('p', { class: 'hint' }, 'Asking its servers for their tools…'));
      post('/api/plugins/offer', body)
        .then((offer) => showOffer(offerArea, offer, body))
        .catch((e) => replace(offerArea, errorLine(`${e.code}: ${e.message}`)))
        .finally(() => { review.disabled = false; });
    });
    replace(assign, h('h2', { id: 'assign-title' }, 'Assign a plugin'), form, offerArea);
  }

  function showOffer(area, offer, body) {
    const servers = offer.servers.map((s) => h('li', {},
      h('code', {}, s.server.name), ` (${s.server.type}): ${describe(s.server)}`,
      s.tools.length ? h('ul', { class: 'plain-list tools' }, s.tools.map((t) => h('li', { title: t.description || '' }, h('code', {}, t.name), t.description ? `: ${short(t.description)}` : ''))) : h('p', { class: 'hint' }, 'It lists no tools.')));
    const confirm = h('button', { type: 'button', class: 'button button-primary' }, `Assign ${offer.plugin_id}`);
    const cancel = h('button', { type: 'button', class: 'button', onclick: () => replace(area) }, 'Cancel');
    confirm.addEventListener('click', () => {
      confirm.disabled = true;
      const request = Object.assign({}, body, offer.confirmation && offer.servers.length ? { confirmation: offer.confirmation } : {});
      post('/api/plugins/assign', request)
        .then(() => { replace(area); status.textContent = `${offer.plugin_id} is assigned to ${where(offer.environment)}.`; load(); })
        .catch((e) => { confirm.disabled = false; area.appendChild(errorLine(`${e.code}: ${e.message}`)); });
    });
    replace(area,
      h('h3', {}, `${offer.plugin_id} adds to ${where(offer.environment)}`),
      offer.servers.length ? h('ul', { class: 'plain-list servers' }, servers) : h('p', {}, `No MCP servers; ${offer.skills} skills.`),
      offer.servers.length ? h('p', { class: 'hint' }, 'Its servers run with the rights of the user running Cortex: assign only plugins you trust. If a server later offers other tools, the plugin is held back until it is assigned again.') : null,
      h('div', { class: 'form-actions' }, confirm, cancel));
  }

  load();
}
