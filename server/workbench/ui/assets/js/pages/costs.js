// #/costs: spend per day and per project against the caps, as uPlot charts and as a table.
import { post } from '../api.js';
import { h, replace, uid, usd, empty, pageHeader, errorLine } from '../dom.js';
import { table } from './table.js';

export function render(main) {
  const daysId = uid('days');
  const days = h('select', { id: daysId }, [7, 30, 90, 366].map((n) => h('option', { value: String(n), selected: n === 30 }, `${n} days`)));
  const body = h('div', { class: 'costs' });
  replace(main, pageHeader('Costs', h('label', { for: daysId, class: 'inline-label' }, 'Period'), days), body);
  const charts = [];
  const load = () => post('/api/ui/costs', { days: Number(days.value) })
    .then((c) => draw(body, c, charts))
    .catch((e) => replace(body, errorLine(e.message)));
  days.addEventListener('change', load);
  load();
  return () => charts.forEach((chart) => chart.destroy());
}

function draw(body, costs, charts) {
  charts.splice(0).forEach((chart) => chart.destroy());
  const caps = costs.caps || {};
  const summary = h('div', { class: 'stat-row' },
    stat('In this period', usd(costs.total_usd)),
    stat('Today', usd(costs.today_usd), capLine(caps.daily_usd, caps.daily_remaining_usd)),
    stat('This month', usd(costs.month_usd), capLine(caps.monthly_usd, caps.monthly_remaining_usd)));
  const spent = costs.days.some((d) => d.usd > 0) || costs.projects.some((p) => p.usd > 0 || p.month_usd > 0);
  if (!spent) {
    replace(body, summary, empty('Nothing spent in this period.'));
    return;
  }
  const dayChart = h('figure', { class: 'chart' }, h('figcaption', {}, 'Spend per day (USD)'));
  const projectChart = h('figure', { class: 'chart' }, h('figcaption', {}, 'Spend per project this month (USD)'));
  replace(body, summary,
    h('div', { class: 'chart-grid' }, dayChart, projectChart),
    h('h2', {}, 'Per day'),
    h('p', { class: 'muted' }, 'Days with spend, the newest first.'),
    table('Spend per day', ['Day', 'USD'], costs.days.filter((d) => d.usd > 0).reverse().map((d) => [d.day, usd(d.usd)])),
    h('h2', {}, 'Per project'),
    table('Spend per project', ['Project', 'In this period', 'Today', 'Daily cap', 'This month', 'Monthly cap'], costs.projects.map((p) => [
      p.project || '(none)', usd(p.usd), usd(p.today_usd), capText(p.daily_cap_usd), usd(p.month_usd), capText(p.monthly_cap_usd)])));
  if (!window.uPlot) return;
  const css = getComputedStyle(document.documentElement);
  const stroke = css.getPropertyValue('--accent').trim() || '#3b6ef5';
  const muted = css.getPropertyValue('--muted').trim() || '#888';
  const axis = { stroke: muted, grid: { stroke: css.getPropertyValue('--line').trim() || '#ddd' } };
  const width = (figure) => Math.max(240, figure.clientWidth - 26);
  const x = costs.days.map((d) => Date.parse(`${d.day}T00:00:00Z`) / 1000);
  const series = [{}, { label: 'USD', stroke, fill: `${stroke}33`, width: 2 }];
  const data = [x, costs.days.map((d) => d.usd)];
  if (caps.daily_usd != null) {
    series.push({ label: 'daily cap', stroke: '#d9534f', dash: [6, 4], width: 1 });
    data.push(costs.days.map(() => caps.daily_usd));
  }
  const zero = (u, min, max) => [0, Math.max(max, 1) * 1.1];
  charts.push(new window.uPlot({ width: width(dayChart), height: 220, series, scales: { y: { range: zero } }, axes: [axis, axis] }, data, dayChart));
  const names = costs.projects.map((p) => p.project || '(none)');
  const px = names.map((_, i) => i);
  const pseries = [{}, { label: 'USD', stroke, fill: `${stroke}55`, paths: window.uPlot.paths && window.uPlot.paths.bars ? window.uPlot.paths.bars({ size: [0.6] }) : undefined, points: { show: false } }];
  const pdata = [px, costs.projects.map((p) => p.month_usd)];
  if (costs.projects.some((p) => p.monthly_cap_usd != null)) {
    pseries.push({ label: 'monthly cap', stroke: '#d9534f', dash: [6, 4], width: 1, points: { show: true } });
    pdata.push(costs.projects.map((p) => p.monthly_cap_usd));
  }
  charts.push(new window.uPlot({
    width: width(projectChart), height: 220, series: pseries, scales: { x: { time: false, range: () => [-0.5, names.length - 0.5] }, y: { range: zero } },
    axes: [{ ...axis, splits: () => px, values: (u, ticks) => ticks.map((t) => names[t] || '') }, axis],
  }, pdata, projectChart));
}

function stat(label, value, note) {
  return h('div', { class: 'stat' }, h('span', { class: 'stat-label muted' }, label), h('span', { class: 'stat-value' }, value),
    note ? h('span', { class: 'stat-note muted' }, note) : null);
}

function capLine(cap, remaining) {
  return cap == null ? 'no cap' : `cap ${usd(cap)}, ${usd(remaining)} left`;
}

function capText(cap) {
  return cap == null ? '—' : usd(cap);
}
