// A small form of a tournament director's: a heading, its fields, an error
// line (the server's refusal, next to the control that caused it), a status
// line and the button; keyboard-usable as any form (Enter sends it).

import { codeOf, refusal } from './director';
import { h, tx } from './dom';
import type { Key } from './i18n';

/** A tool's parts. */
export interface ToolForm {
  form: HTMLFormElement;
  status: HTMLElement;
  error: HTMLElement;
  send: HTMLButtonElement;
}

/** A form with test ids from `testid`: `act` runs on submit; what it throws is shown in the error line. */
export function toolForm(testid: string, titleKey: Key, sendKey: Key, fields: HTMLElement[], act: (f: ToolForm) => Promise<void>): ToolForm {
  const titleId = `${testid}-title`;
  const status = h('p', { class: 'hint', role: 'status', 'data-testid': `${testid}-status` });
  const error = h('p', { class: 'error', role: 'alert', id: `${testid}-error`, 'data-testid': `${testid}-error` });
  const send = tx('button', sendKey, { type: 'submit', class: 'primary', 'data-testid': `${testid}-send`, 'aria-describedby': `${testid}-error` });
  const form = h('form', { novalidate: true, class: 'tn-form', 'data-testid': `${testid}-form`, 'aria-labelledby': titleId }, tx('h3', titleKey, { id: titleId }), ...fields, error, status, send);
  const f: ToolForm = { form, status, error, send };
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    form.querySelectorAll('[aria-invalid]').forEach((el) => el.removeAttribute('aria-invalid'));
    error.replaceChildren();
    status.replaceChildren();
    send.disabled = true;
    void act(f)
      .catch((e: unknown) => {
        error.replaceChildren(...refusal(e, { not_found: 'tnNoPlayer', forbidden: 'tnNotDirector' }));
        error.dataset.code = codeOf(e);
      })
      .finally(() => {
        send.disabled = false;
      });
  });
  return f;
}

/** A labelled text area for the reason of a decision. */
export function reasonField(testid: string): { row: HTMLElement; input: HTMLTextAreaElement } {
  const input = h('textarea', { rows: 2, maxlength: 2000, 'data-testid': `${testid}-reason`, id: `${testid}-reason` });
  return { row: h('div', { class: 'field' }, tx('label', 'decideReason', { for: `${testid}-reason` }), input), input };
}
