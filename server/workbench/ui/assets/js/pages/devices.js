// #/devices: the machines connected to the hub.
import { post } from '../api.js';
import { h, replace, timeEl, empty, pageHeader, errorLine } from '../dom.js';
import { table } from './table.js';

export function render(main) {
  const body = h('section', { 'aria-labelledby': 'page-title' });
  replace(main, pageHeader('Devices'), body);
  post('/api/ui/devices', {})
    .then(({ devices }) => {
      if (!devices.length) {
        replace(body, empty('No devices enrolled.', 'Enrol one with cortex server enroll NAME, then run cortex client on it.'));
        return;
      }
      replace(body, table('Devices', ['Device', 'State', 'Platform', 'Last heartbeat', 'Jobs running'], devices.map((d) => [
        h('strong', {}, d.name),
        h('span', { class: `badge ${d.online ? 'badge-running' : 'badge-idle'}` }, d.online ? 'online' : 'offline'),
        d.platform || '—',
        d.last_heartbeat ? timeEl(d.last_heartbeat) : '—',
        String(d.jobs_running ?? 0),
      ])));
    })
    .catch((e) => replace(body, errorLine(e.message)));
}
