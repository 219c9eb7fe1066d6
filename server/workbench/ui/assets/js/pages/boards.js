// #/boards: the status pages of long-running work.
import { post } from '../api.js';
import { on } from '../events.js';
import { h, replace, timeEl, empty, pageHeader, errorLine } from '../dom.js';

export function render(main) {
  const body = h('section', { 'aria-labelledby': 'page-title' });
  replace(main, pageHeader('Boards'), body);
  const load = () => post('/api/web/boards/list', {})
    .then(({ boards }) => {
      if (!boards.length) {
        replace(body, empty('No boards yet.', 'An agent opens one with board_open to report on long-running work.'));
        return;
      }
      replace(body, h('ul', { class: 'cards' }, boards.map((b) => h('li', { class: 'card board-row', dataset: { board: b.id } },
        h('a', { class: 'session-name', href: `#/b/${encodeURIComponent(b.id)}` }, b.title),
        h('p', { class: 'muted small' }, `${b.slug} · ${(b.sessions || []).length} ${(b.sessions || []).length === 1 ? 'session' : 'sessions'} · updated `, timeEl(b.updated_at))))));
    })
    .catch((e) => replace(body, errorLine(e.message)));
  const off = on('board', load);
  load();
  return off;
}
