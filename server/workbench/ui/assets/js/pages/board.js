// #/b/<id>: one board: its sessions, its files and the text of its BOARD.md.
import { post } from '../api.js';
import { on } from '../events.js';
import { h, replace, bytes, timeEl, empty, sessionBadge, errorLine } from '../dom.js';
import { table } from './table.js';

export function render(main, id) {
  const load = () => post('/api/web/boards/show', { board: id })
    .then((shown) => {
      const b = shown.board;
      replace(main,
        h('header', { class: 'page-header' },
          h('div', { class: 'session-title' }, h('a', { href: '#/boards', class: 'back', 'aria-label': 'Back to the boards' }, '←'), h('h1', { id: 'page-title', tabindex: '-1' }, b.title)),
          h('p', { class: 'muted' }, b.slug, ' · updated ', timeEl(b.updated_at))),
        h('div', { class: 'board-grid' },
          h('section', { class: 'board-content', 'aria-labelledby': 'board-md' },
            h('h2', { id: 'board-md' }, 'BOARD.md'),
            shown.content === null || shown.content === undefined
              ? empty('The board has no BOARD.md yet.')
              : h('pre', { class: 'board-text', tabindex: '0' }, shown.content)),
          h('aside', { class: 'board-side', 'aria-label': 'Sessions and files' },
            h('h2', {}, 'Sessions'),
            shown.sessions.length
              ? h('ul', { class: 'plain board-sessions' }, shown.sessions.map((s) => h('li', {}, h('a', { href: `#/s/${encodeURIComponent(s.id)}` }, s.name), ' ', sessionBadge(s))))
              : h('p', { class: 'muted' }, 'No session is bound.'),
            h('h2', {}, 'Files'),
            shown.files.length
              ? table('Files of the board', ['Name', 'Size', 'Updated'], shown.files.map((f) => [f.name, bytes(f.size), timeEl(f.updated_at)]))
              : h('p', { class: 'muted' }, 'No files.'))));
    })
    .catch((e) => replace(main, empty('This board cannot be shown.', e.message), errorLine(e.message)));
  const off = on('board', (data) => (data.board === id ? load() : null));
  load();
  return off;
}
