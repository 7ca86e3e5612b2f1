// The director's decision on a game, in a modal dialog (ICCF 14;
// `POST /api/games/{id}/decide`): stop or start the clocks (6.10), set a
// clock and its move counter (6.11), adjudicate (11.1), a forfeit or a
// double forfeit (6.9); always with a reason, which the players are told.
// A refusal is said from its code, the server's message as detail.

import { Act, actText, codeOf, decide, refusal } from './director';
import { fault, h, select, tx } from './dom';
import { t } from './i18n';

const HOUR = 3_600_000;

/** The acts offered, as the server names them. */
const ACTS = ['stop_clocks', 'start_clocks', 'set_clock', 'adjudicate', 'forfeit', 'double_forfeit'] as const;

/** A labelled field of the dialog. */
function field(label: Parameters<typeof tx>[1], control: HTMLElement, id: string): HTMLElement {
  control.id = id;
  return h('div', { class: 'field' }, tx('label', label, { for: id }), control);
}

/**
 * Opens the decision dialog for game `game` (its players in `title`);
 * `done(text)` is called with the decision in words once the server took
 * it, after the dialog closed and focus went back to `opener` (or, when
 * the page was drawn again meanwhile, to the element with its `data-key`).
 */
export function openDecide(game: string, title: string, opener: HTMLElement, done: (text: string) => void): void {
  const dialog = h('dialog', { class: 'account-dialog', 'data-testid': 'decide-dialog', 'aria-labelledby': 'decide-title' });
  const act = select('decide-act', ACTS.map((a): [string, string] => [a, `act_${a}`]), 'stop_clocks');
  const color = select('decide-color', [['white', 'white'], ['black', 'black']], 'white');
  const days = h('input', { type: 'number', min: 0, 'data-testid': 'decide-days', inputmode: 'numeric' });
  const hours = h('input', { type: 'number', min: 0, max: 23, 'data-testid': 'decide-hours', inputmode: 'numeric' });
  const moves = h('input', { type: 'number', min: 0, 'data-testid': 'decide-moves', inputmode: 'numeric' });
  const result = select('decide-result', [['1-0', '=1-0'], ['0-1', '=0-1'], ['1/2-1/2', '=½-½']], '1/2-1/2');
  const reason = h('textarea', { rows: 4, maxlength: 2000, 'data-testid': 'decide-reason', 'aria-describedby': 'decide-error' });
  const error = h('p', { class: 'error', id: 'decide-error', role: 'alert', 'data-testid': 'decide-error' });
  const colorRow = field('decideColor', color, 'decide-color');
  const clockRows = h('div', { class: 'clock-fields' }, field('decideDays', days, 'decide-days'), field('decideHours', hours, 'decide-hours'), field('decideMoves', moves, 'decide-moves'), tx('p', 'decideClockHint', { class: 'hint' }));
  const resultRow = field('decideResult', result, 'decide-result');
  const show = (): void => {
    const a = act.value;
    colorRow.hidden = a !== 'set_clock' && a !== 'forfeit';
    clockRows.hidden = a !== 'set_clock';
    resultRow.hidden = a !== 'adjudicate';
  };
  act.addEventListener('change', show);
  show();
  const send = tx('button', 'decideSend', { type: 'submit', class: 'primary', 'data-testid': 'decide-send' });
  const cancel = tx('button', 'cancel', { type: 'button', 'data-testid': 'decide-cancel' });
  const form = h(
    'form',
    { novalidate: true },
    h('p', { class: 'hint' }, title),
    field('decideAct', act, 'decide-act'),
    colorRow,
    clockRows,
    resultRow,
    field('decideReason', reason, 'decide-reason'),
    error,
    h('div', { class: 'buttons' }, send, cancel),
  );
  dialog.append(tx('h2', 'decideTitle', { id: 'decide-title' }), form);
  let said: string | null = null;
  cancel.addEventListener('click', () => dialog.close());
  dialog.addEventListener('close', () => {
    dialog.remove();
    // A live page may have drawn its list again while the dialog was open:
    // the focus goes to the opener's successor (the same `data-key`).
    const key = opener.dataset.key;
    const back = opener.isConnected ? opener : key ? document.querySelector<HTMLElement>(`[data-key="${CSS.escape(key)}"]`) : null;
    back?.focus();
    if (said) done(said);
  });
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const decision: Act = { act: act.value };
    if (act.value === 'set_clock' || act.value === 'forfeit') decision.color = color.value === 'black' ? 'black' : 'white';
    if (act.value === 'adjudicate') decision.result = result.value;
    if (act.value === 'set_clock') {
      if (days.value || hours.value) decision.left_ms = (Number(days.value || 0) * 24 + Number(hours.value || 0)) * HOUR;
      if (moves.value) decision.moves = Number(moves.value);
      if (decision.left_ms === undefined && decision.moves === undefined) {
        fault(error, t('decideClockMissing'), days);
        return;
      }
    }
    const why = reason.value.trim();
    if (!why) {
      fault(error, t('reasonMissing'), reason);
      return;
    }
    send.disabled = true;
    void decide(game, decision, why)
      .then(() => {
        said = t('decided', { what: actText(decision) });
        dialog.close();
      })
      .catch((e: unknown) => {
        error.replaceChildren(...refusal(e));
        error.dataset.code = codeOf(e);
        reason.focus();
      })
      .finally(() => {
        send.disabled = false;
      });
  });
  document.body.append(dialog);
  dialog.showModal();
  act.focus();
}
