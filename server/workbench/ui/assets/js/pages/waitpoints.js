// #/waitpoints: what sessions wait for, and what fired them.
import { post } from '../api.js';
import { h, replace, uid, timeEl, empty, pageHeader, errorLine } from '../dom.js';
import { table } from './table.js';

export function render(main) {
  const filterId = uid('wp');
  const filter = h('select', { id: filterId },
    h('option', { value: '' }, 'all'), h('option', { value: 'armed' }, 'armed'), h('option', { value: 'fired' }, 'fired'), h('option', { value: 'expired' }, 'expired'), h('option', { value: 'cancelled' }, 'cancelled'));
  const body = h('section', { 'aria-labelledby': 'page-title' });
  replace(main, pageHeader('Waitpoints', h('label', { for: filterId, class: 'inline-label' }, 'State'), filter), body);
  const load = () => post('/api/ui/waitpoints', filter.value ? { state: filter.value } : {})
    .then(({ waitpoints }) => {
      if (!waitpoints.length) {
        replace(body, empty('No waitpoints.', 'A session arms one when it waits for a time, a webhook or a signal.'));
        return;
      }
      replace(body, table('Waitpoints', ['State', 'Waits for', 'Session', 'Created', 'Ended', 'Expires', 'Signals'], waitpoints.map((w) => [
        h('span', { class: `badge badge-${w.state === 'armed' ? 'waiting' : w.state === 'fired' ? 'running' : 'idle'}`, title: w.phase }, w.fires > 1 ? `${w.state} ×${w.fires}` : w.state),
        h('span', {}, w.label || w.id, w.intent ? h('span', { class: 'muted block' }, w.intent) : null),
        w.session_id ? h('a', { href: `#/s/${encodeURIComponent(w.session_id)}` }, w.session_id) : '—',
        timeEl(w.created_at),
        w.ended_at ? timeEl(w.ended_at) : '—',
        w.expires_at ? timeEl(w.expires_at) : '—',
        (w.signals || []).length ? h('ul', { class: 'plain' }, w.signals.map((s) => h('li', {}, timeEl(s.at), ` ${s.member || s.via || 'signal'} ${s.status}${s.message ? `: ${s.message}` : ''}`))) : '—',
      ])));
    })
    .catch((e) => replace(body, errorLine(e.message)));
  filter.addEventListener('change', load);
  load();
}
