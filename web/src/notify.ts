// Notification settings in the account menu's dialog
// (`GET`/`POST /api/account/notifications`): the e-mail address of the
// digest, the language of the e-mails, and up to three "time running low"
// thresholds (typed in hours or days, sent as hours) or the server's
// default. The page checks what it can before sending; a refusal is said
// from its code, the server's message as detail, next to the field it names.

import { refusal } from './director';
import { h, select, tx } from './dom';
import { Key, LANG_CHANGED, LANGS, t } from './i18n';
import { call } from './protocol';

/** `GET /api/account/notifications`. */
export interface NotifySettings {
  email: string | null;
  lang: string;
  low_time_hours: number[];
  own_low_time: boolean;
}

/** The most thresholds, and the longest one in hours (crates/server/src/notify/thresholds.rs). */
const MOST = 3;
const LONGEST = 720;

/** True when `s` passes the server's check of an address (a local part, `@`, a dot in the domain). */
const plausibleEmail = (s: string): boolean => s.length <= 254 && /^[^@\s]+@\S*\.\S*$/.test(s);

/** One threshold's row: a whole number and its unit. */
interface Entry {
  count: HTMLInputElement;
  unit: HTMLSelectElement;
  label: HTMLLabelElement;
  unitLabel: HTMLLabelElement;
}

/** The contents of the notifications dialog. */
export class NotifyView {
  readonly el = h('div', { class: 'notify-view', 'data-testid': 'notify-view' });
  private readonly email = h('input', { id: 'nt-email', type: 'email', autocomplete: 'email', spellcheck: 'false', 'data-testid': 'notify-email', 'aria-describedby': 'nt-email-hint nt-email-error' });
  private readonly lang = select('notify-lang', LANGS.map(([code, name]): [string, string] => [code, `=${name}`]), 'en');
  private readonly useDefault = h('input', { id: 'nt-default', type: 'checkbox', 'data-testid': 'notify-default' });
  private readonly entries: Entry[] = [];
  private readonly rows = h('div', { class: 'nt-entries', 'data-testid': 'notify-entries' });
  private readonly save = tx('button', 'ntSave', { type: 'submit', class: 'primary', 'data-testid': 'notify-save', disabled: true });
  private readonly form: HTMLFormElement;
  /** The error lines: next to the address, under the thresholds, and for anything else. */
  private readonly errors = {
    email: h('p', { class: 'error', id: 'nt-email-error', role: 'alert', 'data-testid': 'notify-email-error' }),
    low: h('p', { class: 'error', id: 'nt-low-error', role: 'alert', 'data-testid': 'notify-low-error' }),
    other: h('p', { class: 'error', id: 'nt-error', role: 'alert', 'data-testid': 'notify-error' }),
  };
  /** The error shown and where, written again after a change of language. */
  private shown: { where: keyof NotifyView['errors']; text: () => (string | Node)[] } | null = null;

  /** `close` closes the dialog; `saved(text)` closes it after a save and announces `text`. */
  constructor(close: () => void, saved: (text: string) => void) {
    this.lang.id = 'nt-lang';
    this.lang.setAttribute('aria-describedby', 'nt-error');
    for (let n = 1; n <= MOST; n++) {
      const count = h('input', { id: `nt-count-${n}`, type: 'number', min: 1, step: 1, inputmode: 'numeric', 'data-testid': `notify-count-${n}`, 'aria-describedby': 'nt-low-hint nt-low-error' });
      const unit = select(`notify-unit-${n}`, [['1', 'ntHours'], ['24', 'ntDays']], '1');
      unit.id = `nt-unit-${n}`;
      const label = h('label', { for: count.id });
      const unitLabel = h('label', { for: unit.id, class: 'sr-only' });
      this.entries.push({ count, unit, label, unitLabel });
      this.rows.append(h('div', { class: 'nt-entry' }, label, count, unitLabel, unit));
    }
    this.useDefault.addEventListener('change', () => this.showRows());
    const cancel = tx('button', 'cancel', { type: 'button', 'data-testid': 'notify-cancel' });
    cancel.addEventListener('click', close);
    this.form = h(
      'form',
      { novalidate: true, 'data-testid': 'form-notify', 'aria-busy': 'true' },
      h('div', { class: 'field' }, tx('label', 'ntEmail', { for: 'nt-email' }), this.email, tx('p', 'ntEmailHint', { class: 'hint', id: 'nt-email-hint' }), this.errors.email),
      h('div', { class: 'field' }, tx('label', 'ntLang', { for: 'nt-lang' }), this.lang),
      h(
        'fieldset',
        { class: 'nt-low', 'data-testid': 'notify-low' },
        tx('legend', 'ntLow'),
        tx('p', 'ntLowHint', { class: 'hint', id: 'nt-low-hint' }),
        h('div', { class: 'nt-check' }, this.useDefault, tx('label', 'ntDefault', { for: 'nt-default' })),
        this.rows,
        this.errors.low,
      ),
      this.errors.other,
      h('div', { class: 'buttons' }, this.save, cancel),
    );
    this.form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      void this.send(saved);
    });
    this.el.append(tx('h2', 'notifyTitle', { id: 'account-title' }), tx('p', 'notifyIntro', { class: 'hint' }), this.form);
    document.addEventListener(LANG_CHANGED, this.relabel);
    this.write();
  }

  /** The first field, for the dialog's focus. */
  get first(): HTMLInputElement {
    return this.email;
  }

  /** Reads the settings from the server into the form. */
  async load(): Promise<void> {
    let s: NotifySettings;
    try {
      s = await call('GET', '/api/account/notifications');
    } catch (e) {
      this.fail('other', () => refusal(e), null);
      return;
    }
    this.email.value = s.email ?? '';
    this.lang.value = s.lang;
    this.useDefault.checked = !s.own_low_time;
    this.entries.forEach((entry, i) => {
      const hours = s.low_time_hours[i];
      const days = hours !== undefined && hours % 24 === 0;
      entry.count.value = hours === undefined ? '' : String(days ? hours / 24 : hours);
      entry.unit.value = days ? '24' : '1';
    });
    this.showRows();
    this.form.removeAttribute('aria-busy');
    this.save.disabled = false;
  }

  /** Writes the texts again after a change of language, or stops listening once the dialog is gone. */
  private readonly relabel = (): void => {
    if (this.el.isConnected) this.write();
    else document.removeEventListener(LANG_CHANGED, this.relabel);
  };

  /** The labels with a number, and the error, in the language of the moment. */
  private write(): void {
    this.entries.forEach((entry, i) => {
      entry.label.textContent = t('ntEntry', { n: i + 1 });
      entry.unitLabel.textContent = t('ntUnit', { n: i + 1 });
    });
    if (this.shown) this.errors[this.shown.where].replaceChildren(...this.shown.text());
  }

  /** Hides the thresholds while the server's default is chosen. */
  private showRows(): void {
    this.rows.hidden = this.useDefault.checked;
  }

  /** Shows an error `where` (or clears them all with null) and marks and focuses `field`. */
  private fail(where: keyof NotifyView['errors'] | null, text: () => (string | Node)[], field: HTMLElement | null): void {
    this.shown = where ? { where, text } : null;
    for (const [k, el] of Object.entries(this.errors)) el.replaceChildren(...(k === where ? text() : []));
    this.form.querySelectorAll('[aria-invalid]').forEach((el) => el.removeAttribute('aria-invalid'));
    if (field) {
      field.setAttribute('aria-invalid', 'true');
      field.focus();
    }
  }

  /** The thresholds in hours, or the entry at fault and why. */
  private hours(): number[] | { at: HTMLInputElement; key: Key } {
    const hours: number[] = [];
    for (const { count, unit } of this.entries) {
      const v = count.value.trim();
      if (!v && !count.validity.badInput) continue;
      if (!/^\d+$/.test(v)) return { at: count, key: 'nt_whole' };
      const n = Number(v) * Number(unit.value);
      if (n < 1 || n > LONGEST) return { at: count, key: 'nt_range' };
      hours.push(n);
    }
    if (!hours.length) return { at: this.entries[0].count, key: 'nt_none' };
    return hours.slice(0, MOST);
  }

  /** Checks the form, sends it, and closes the dialog with an announcement; a refusal is shown where it belongs. */
  private async send(saved: (text: string) => void): Promise<void> {
    const email = this.email.value.trim();
    if (email && !plausibleEmail(email)) {
      this.fail('email', () => [t('nt_email')], this.email);
      return;
    }
    const hours = this.useDefault.checked ? [] : this.hours();
    if (!Array.isArray(hours)) {
      this.fail('low', () => [t(hours.key)], hours.at);
      return;
    }
    this.fail(null, () => [], null);
    this.save.disabled = true;
    try {
      await call('POST', '/api/account/notifications', { email: email || null, lang: this.lang.value, low_time_hours: hours });
      saved(t('ntSaved'));
    } catch (e) {
      const m = e instanceof Error ? e.message : '';
      const [where, field]: [keyof NotifyView['errors'], HTMLElement] = m.startsWith('email') ? ['email', this.email] : m.startsWith('low_time') ? ['low', this.entries[0].count] : ['other', m.startsWith('lang') ? this.lang : this.email];
      this.fail(where, () => refusal(e), field);
    } finally {
      this.save.disabled = false;
    }
  }
}
