// Question and plan cards: a person answers what the agent asked (cortex_ask_user) and approves or
// rejects its plan (cortex_plan_exit). The state is the server's: every card is drawn from
// /api/interactions/show, so a reload or a second tab shows the same.
import { post } from './api.js';
import { h, replace, uid, timeEl, errorLine } from './dom.js';

const STATES = { open: 'waiting for you', answered: 'answered', expired: 'expired', cancelled: 'cancelled' };

// Answers refused because the card is settled already (in another tab, by a chat, by time): the
// card is redrawn from the server instead of showing the refusal.
const SETTLED = new Set(['ALREADY_ANSWERED', 'EXPIRED', 'CANCELLED']);

/**
 * A card for interaction view `view`. `onChange(view)` is called with the answered view the server
 * sent back after an answer was accepted, and without one when the card should be read again.
 */
export function interactionCard(view, onChange) {
  const card = h('article', {
    class: `card interaction interaction-${view.kind} state-${view.state} level-${view.level || 'info'}`,
    dataset: { interaction: view.id, state: view.state, kind: view.kind },
    'aria-labelledby': `${view.id}-title`,
  });
  const title = view.kind === 'plan' ? 'Plan for approval' : view.questions && view.questions.length > 1 ? 'Questions for you' : 'A question for you';
  const head = h('header', { class: 'interaction-head' },
    h('h2', { id: `${view.id}-title`, class: 'interaction-title' }, title),
    h('span', { class: `badge badge-interaction-${view.state}` }, STATES[view.state] || view.state),
    view.kind === 'question' ? h('span', { class: 'muted small' }, view.blocking ? 'the agent waits' : 'the agent keeps working') : null);
  const body = view.state === 'open'
    ? (view.kind === 'plan' ? planForm(view, onChange) : questionForm(view, onChange))
    : settled(view);
  replace(card, head, body);
  return card;
}

function questionForm(view, onChange) {
  const parts = (view.questions || []).map((q, i) => questionPart(q, i));
  const status = h('div', { 'aria-live': 'polite' });
  const submit = h('button', { type: 'submit', class: 'button button-primary' }, 'Send answer');
  const form = h('form', { class: 'question-form', novalidate: true }, parts.map((p) => p.el), status, h('div', { class: 'form-actions' }, submit));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const answers = parts.map((p) => p.value());
    const missing = answers.findIndex((a) => a.selected.length === 0 && !(a.text && a.text.trim()));
    if (missing >= 0) {
      replace(status, errorLine(`Question ${missing + 1} needs an answer.`));
      return;
    }
    submit.disabled = true;
    try {
      const answered = await post('/api/interactions/answer', { id: view.id, answers: answers.map(clean) });
      replace(status, h('p', { class: 'muted' }, 'Answer sent.'));
      onChange(answered);
    } catch (e) {
      if (SETTLED.has(e.code)) {
        onChange();
        return;
      }
      replace(status, errorLine(e.message));
      submit.disabled = false;
    }
  });
  return form;
}

function clean(answer) {
  const out = { selected: answer.selected };
  if (answer.text && answer.text.trim()) out.text = answer.text.trim();
  return out;
}

function questionPart(q, index) {
  const name = uid('q');
  const legend = h('legend', {}, q.header ? h('span', { class: 'question-header' }, q.header) : null, h('span', { class: 'question-text' }, q.question));
  const textId = `${name}-text`;
  const options = q.options || [];
  const inputs = options.map((o, j) => {
    const id = `${name}-${j}`;
    const input = h('input', { type: q.multi_select ? 'checkbox' : 'radio', name, id, value: o.label });
    return {
      input,
      el: h('div', { class: 'option' }, input, h('label', { for: id }, h('span', { class: 'option-label' }, o.label), o.description ? h('span', { class: 'option-description muted' }, o.description) : null)),
    };
  });
  const text = h('textarea', { id: textId, rows: options.length ? '1' : '3', maxlength: '4000' });
  const textLabel = options.length ? 'Something else (optional)' : 'Your answer';
  const el = h('fieldset', { class: 'question' }, legend,
    inputs.length ? h('div', { class: q.multi_select ? 'options options-multi' : 'options' }, inputs.map((x) => x.el)) : null,
    q.multi_select ? h('p', { class: 'hint' }, 'Choose any that apply.') : null,
    h('div', { class: 'field' }, h('label', { for: textId }, textLabel), text));
  return {
    el,
    value: () => ({ selected: inputs.filter((x) => x.input.checked).map((x) => x.input.value), text: text.value }),
  };
}

function planForm(view, onChange) {
  const plan = view.plan || {};
  const feedbackId = uid('feedback');
  const feedback = h('textarea', { id: feedbackId, rows: '2', maxlength: '4000', placeholder: 'What should change?' });
  const status = h('div', { 'aria-live': 'polite' });
  const answer = async (approve) => {
    if (!approve && !feedback.value.trim()) {
      replace(status, errorLine('Say what to change to reject the plan.'));
      feedback.focus();
      return;
    }
    const request = { id: view.id, approve };
    if (feedback.value.trim()) request.feedback = feedback.value.trim();
    buttons.forEach((b) => (b.disabled = true));
    try {
      onChange(await post('/api/interactions/answer', request));
    } catch (e) {
      if (SETTLED.has(e.code)) {
        onChange();
        return;
      }
      replace(status, errorLine(e.message));
      buttons.forEach((b) => (b.disabled = false));
    }
  };
  const buttons = [
    h('button', { type: 'button', class: 'button button-primary', onclick: () => answer(true) }, 'Approve plan'),
    h('button', { type: 'button', class: 'button button-danger', onclick: () => answer(false) }, 'Reject with feedback'),
  ];
  return h('div', { class: 'plan' },
    planText(plan),
    h('div', { class: 'field' }, h('label', { for: feedbackId }, 'Feedback (needed to reject)'), feedback),
    status,
    h('div', { class: 'form-actions' }, buttons));
}

function planText(plan) {
  return [
    plan.summary ? h('p', { class: 'plan-summary' }, plan.summary) : null,
    plan.path ? h('p', { class: 'muted small' }, h('code', {}, plan.path)) : null,
    h('pre', { class: 'plan-text', tabindex: '0', 'aria-label': 'The plan' }, plan.content || ''),
  ];
}

function settled(view) {
  const answer = view.answer;
  const parts = [];
  if (view.kind === 'plan') {
    parts.push(h('details', { class: 'plan-settled' }, h('summary', {}, 'The plan'), planText(view.plan || {})));
    if (answer) {
      parts.push(h('p', { class: 'answer-line' }, h('strong', {}, answer.approved ? 'Approved' : 'Rejected'), answer.feedback ? h('q', {}, answer.feedback) : null));
    }
  } else {
    (view.questions || []).forEach((q, i) => {
      const a = answer && answer.answers ? answer.answers[i] : null;
      const said = a ? [...(a.selected || []), a.text].filter((x) => x && String(x).trim()).join(' · ') : '—';
      parts.push(h('div', { class: 'answered-question' }, h('p', { class: 'question-text' }, q.question), h('p', { class: 'answer-line' }, said)));
    });
  }
  if (answer) parts.push(h('p', { class: 'muted small' }, `by ${answer.by || 'person'} via ${answer.via || 'api'} · `, timeEl(answer.at)));
  else if (view.ended_at) parts.push(h('p', { class: 'muted small' }, `${STATES[view.state] || view.state} · `, timeEl(view.ended_at)));
  return h('div', { class: 'interaction-settled' }, parts);
}
