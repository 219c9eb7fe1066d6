// #/executions: the turns of every session, newest first.
import { post } from '../api.js';
import { on } from '../events.js';
import { h, replace, timeEl, usd, empty, pageHeader, errorLine } from '../dom.js';
import { table } from './table.js';

export function render(main) {
  const body = h('section', { 'aria-labelledby': 'page-title', 'aria-busy': 'true' });
  replace(main, pageHeader('Executions'), body);
  const load = async () => {
    try {
      const { executions } = await post('/api/ui/executions', { limit: 200 });
      if (!executions.length) {
        replace(body, empty('No executions yet.', 'Every turn of a session is an execution; they appear here as they run.'));
        return;
      }
      replace(body, table('Executions', ['Status', 'Session', 'Started', 'Ended', 'Cost', 'Error'], executions.map((e) => [
        h('span', { class: `badge badge-${badgeOf(e.status)}` }, e.status),
        h('a', { href: `#/s/${encodeURIComponent(e.session_id)}` }, e.session_name || e.session_id),
        timeEl(e.started_at),
        e.ended_at ? timeEl(e.ended_at) : '—',
        usd(e.usd),
        e.error ? h('span', { class: 'error-text' }, e.error) : '',
      ])));
    } catch (e) {
      replace(body, errorLine(e.message));
    } finally {
      body.setAttribute('aria-busy', 'false');
    }
  };
  const off = on('turn', load);
  load();
  return off;
}

export function badgeOf(status) {
  return { running: 'running', completed: 'idle', failed: 'failed', stopped: 'waiting' }[status] || 'idle';
}
