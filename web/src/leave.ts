// Leave (ICCF 10.1) in the account menu's dialog: the allowance of this
// year and the next (days, used, left), the leave booked, and a form of two
// dates that books more (`GET`/`POST /api/account/leave`). The server's
// refusal names the rule broken; the page says it in its own language.

import { h, tx } from './dom';
import { Key, LANG_CHANGED, plural, t } from './i18n';
import { formatDay } from './correspondence';
import { errorText } from './outcome';
import { ApiError, call } from './protocol';

/** One year's allowance. */
export interface Allowance {
  year: number;
  days: number;
  used: number;
  left: number;
}

/** A leave booked: whole UTC days, `from` to `to` included. */
export interface Leave {
  id: number;
  from: string;
  to: string;
  days: number;
}

/** `GET /api/account/leave`. */
export interface LeaveOverview {
  today: string;
  allowance: Allowance[];
  leave: Leave[];
}

/** `GET /api/account/leave`: the allowance and the leave booked. */
export function fetchLeave(): Promise<LeaveOverview> {
  return call('GET', '/api/account/leave');
}

/** `POST /api/account/leave`: books the days from `from` to `to`; the games whose clocks stop over them. */
export function bookLeave(from: string, to: string): Promise<Leave & { games: number }> {
  return call('POST', '/api/account/leave', { from, to });
}

/** The day after `day` (`YYYY-MM-DD`). */
function nextDay(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/** The server's refusal of a booking (its message names the rule of 10.1) in the page's words. */
export function refusalText(e: unknown): string {
  if (!(e instanceof ApiError)) return errorText('unknown');
  if (e.code !== 'bad_request') return errorText(e.code);
  const m = e.message;
  let r: RegExpExecArray | null;
  if ((r = /begin on (\d{4}-\d\d-\d\d) at the earliest/.exec(m))) return t('lv_ahead', { earliest: formatDay(r[1]) });
  if ((r = /overlaps the leave from (\d{4}-\d\d-\d\d) to (\d{4}-\d\d-\d\d)/.exec(m))) return t('lv_overlap', { from: formatDay(r[1]), to: formatDay(r[2]) });
  if ((r = /(\d+) days of leave in (\d+), but only (\d+)/.exec(m))) return t('lv_allowance', { asked: r[1], year: r[2], left: r[3] });
  if (/before it begins/.test(m)) return t('lv_order');
  if (/is not a date/.test(m)) return t('lv_badDate');
  return t('lv_other', { message: m });
}

/** The contents of the leave dialog. */
export class LeaveView {
  readonly el = h('div', { class: 'leave-view', 'data-testid': 'leave-view' });
  private data: LeaveOverview | null = null;
  private readonly table = h('div', { 'data-testid': 'leave-allowance' });
  private readonly list = h('div', { 'data-testid': 'leave-list' });
  private readonly from = h('input', { type: 'date', id: 'leave-from', 'data-testid': 'leave-from', 'aria-describedby': 'leave-error' });
  private readonly to = h('input', { type: 'date', id: 'leave-to', 'data-testid': 'leave-to', 'aria-describedby': 'leave-error' });
  private readonly error = h('p', { class: 'error', id: 'leave-error', role: 'alert', 'data-testid': 'leave-error' });
  private readonly status = h('p', { class: 'hint', role: 'status', 'data-testid': 'leave-status' });
  /** The texts of the error and the status, written again after a change of language. */
  private errorText: (() => string) | null = null;
  private statusText: (() => string) | null = null;

  /** `close` closes the dialog. The answers are said by the dialog's own live regions (the page's are outside the modal dialog). */
  constructor(close: () => void) {
    const book = tx('button', 'leaveBook', { type: 'submit', class: 'primary', 'data-testid': 'leave-book' });
    const done = tx('button', 'close', { type: 'button', 'data-testid': 'leave-close' });
    done.addEventListener('click', close);
    const form = h(
      'form',
      { novalidate: true, 'data-testid': 'form-leave', 'aria-labelledby': 'leave-form-title' },
      tx('h3', 'leaveBook', { id: 'leave-form-title' }),
      h('div', { class: 'field' }, tx('label', 'leaveFrom', { for: 'leave-from' }), this.from),
      h('div', { class: 'field' }, tx('label', 'leaveTo', { for: 'leave-to' }), this.to),
      this.error,
      this.status,
      h('div', { class: 'buttons' }, book, done),
    );
    form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      void this.book(book);
    });
    this.from.addEventListener('change', () => {
      if (this.from.value && (!this.to.value || this.to.value < this.from.value)) this.to.value = this.from.value;
    });
    this.el.append(tx('h2', 'leaveTitle', { id: 'account-title' }), tx('p', 'leaveIntro', { class: 'hint' }), this.table, this.list, form);
    document.addEventListener(LANG_CHANGED, this.relabel);
    this.draw();
  }

  /** The first field, for the dialog's focus. */
  get first(): HTMLInputElement {
    return this.from;
  }

  /** Reads the allowance and the leave from the server. */
  async load(): Promise<void> {
    try {
      this.data = await fetchLeave();
    } catch (e) {
      this.show(() => errorText(e instanceof ApiError ? e.code : 'unknown'), null);
      return;
    }
    const tomorrow = nextDay(this.data.today);
    this.from.min = tomorrow;
    this.to.min = tomorrow;
    this.draw();
  }

  private readonly relabel = (): void => {
    if (!this.el.isConnected) {
      document.removeEventListener(LANG_CHANGED, this.relabel);
      return;
    }
    this.draw();
    if (this.errorText) this.error.textContent = this.errorText();
    if (this.statusText) this.status.textContent = this.statusText();
  };

  /** The allowance table and the list of leave, in the language of the moment. */
  private draw(): void {
    const d = this.data;
    if (!d) {
      this.table.replaceChildren(tx('p', 'loading', { class: 'hint' }));
      this.list.replaceChildren();
      return;
    }
    const head = (key: Key): HTMLElement => tx('th', key, { scope: 'col' });
    this.table.replaceChildren(
      h(
        'table',
        { class: 'leave-table' },
        tx('caption', 'leaveAllowance'),
        h('thead', {}, h('tr', {}, head('leaveYear'), head('leaveDays'), head('leaveUsed'), head('leaveLeft'))),
        h(
          'tbody',
          {},
          ...d.allowance.map((a) =>
            h('tr', { 'data-testid': 'leave-year', 'data-year': a.year }, h('th', { scope: 'row' }, String(a.year)), h('td', {}, String(a.days)), h('td', {}, String(a.used)), h('td', { 'data-testid': 'leave-left' }, String(a.left))),
          ),
        ),
      ),
    );
    this.list.replaceChildren(
      tx('h3', 'leaveList', { id: 'leave-list-title' }),
      d.leave.length
        ? h(
            'ul',
            { 'aria-labelledby': 'leave-list-title' },
            ...d.leave.map((l) => h('li', { 'data-testid': 'leave-item', 'data-from': l.from, 'data-to': l.to }, t('leaveItem', { from: formatDay(l.from), to: formatDay(l.to), days: plural('n_days', l.days) }))),
          )
        : tx('p', 'leaveNone', { class: 'hint' }),
    );
  }

  /** Shows an error (or clears it with null) and marks `input` as the one at fault. */
  private show(text: (() => string) | null, input: HTMLInputElement | null): void {
    this.errorText = text;
    this.error.textContent = text ? text() : '';
    for (const i of [this.from, this.to]) i.removeAttribute('aria-invalid');
    if (input) {
      input.setAttribute('aria-invalid', 'true');
      input.focus();
    }
  }

  /** Checks the two dates, books them, shows the answer and reads the allowance again. */
  private async book(button: HTMLButtonElement): Promise<void> {
    const from = this.from.value;
    const to = this.to.value;
    this.statusText = null;
    this.status.textContent = '';
    if (!from || !to) {
      this.show(() => t('lv_missing'), from ? this.to : this.from);
      return;
    }
    if (to < from) {
      this.show(() => t('lv_order'), this.to);
      return;
    }
    button.disabled = true;
    try {
      const booked = await bookLeave(from, to);
      this.show(null, null);
      this.statusText = () => t('leaveBookedNow', { from: formatDay(booked.from), to: formatDay(booked.to), days: plural('n_days', booked.days), games: booked.games });
      this.status.textContent = this.statusText();
      await this.load();
    } catch (e) {
      this.show(() => refusalText(e), this.from);
    } finally {
      button.disabled = false;
    }
  }
}
