// The Challenge button of a profile (not one's own): a form for the time
// control, colour, rated or casual and Chess960, sent with the session.
// The challenge then waits below the header with Cancel (notices.ts).

import { h, row, select, tx } from './dom';
import { LANG_CHANGED, t } from './i18n';
import { Lobby } from './lobby';
import { CONTROLS, DAY_CONTROLS } from './lobbyview';
import { errorText } from './outcome';
import { ApiError, Color } from './protocol';

/** The Challenge button and its form, for the player `name`. */
export class ChallengeBox {
  readonly el = h('div', { class: 'challenge-box', 'data-testid': 'challenge-box' });
  private readonly button = h('button', { type: 'button', class: 'primary', 'data-testid': 'challenge-button', 'aria-expanded': 'false', 'aria-controls': 'challenge-form' });
  private readonly form: HTMLFormElement;
  private readonly error = h('p', { class: 'error', role: 'alert', 'data-testid': 'challenge-error' });
  private readonly status = h('p', { class: 'hint', role: 'status', 'data-testid': 'challenge-status' });
  private readonly title = h('h3', { id: 'challenge-title' });
  private readonly off: () => void;
  /** Set once the player is known to exist. */
  private enabled = false;

  constructor(
    private readonly lobby: Lobby,
    private readonly name: string,
  ) {
    const control = select('challenge-control', [...CONTROLS, ...DAY_CONTROLS].map((c): [string, string] => [c, `=${c}`]), '5+3');
    const color = select('challenge-color', [['random', 'random'], ['white', 'white'], ['black', 'black']], 'random');
    const mode = select('challenge-mode', [['casual', 'casualOpt'], ['rated', 'ratedOpt']], 'casual');
    const c960 = h('input', { type: 'checkbox', id: 'f-challenge-chess960', 'data-testid': 'challenge-chess960' });
    const send = tx('button', 'sendChallenge', { type: 'submit', class: 'primary', 'data-testid': 'challenge-send' });
    const cancel = tx('button', 'cancel', { type: 'button', 'data-testid': 'challenge-form-cancel' });
    cancel.addEventListener('click', () => this.show(false, true));
    this.form = h(
      'form',
      { id: 'challenge-form', class: 'panel challenge-form', 'data-testid': 'challenge-form', 'aria-labelledby': 'challenge-title', hidden: true, novalidate: true },
      this.title,
      row('timeControl', control),
      row('color', color),
      row('mode', mode),
      h('div', { class: 'check' }, c960, tx('label', 'chess960', { for: 'f-challenge-chess960' })),
      this.error,
      h('div', { class: 'buttons' }, send, cancel),
    );
    this.form.addEventListener('keydown', (ev) => {
      if (ev.key === 'Escape') {
        ev.preventDefault();
        this.show(false, true);
      }
    });
    this.form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      void this.send(send, { time_control: control.value, color: color.value as Color | 'random', rated: mode.value === 'rated', chess960: c960.checked });
    });
    this.button.addEventListener('click', () => this.show(this.form.hidden, false));
    this.el.append(this.button, this.form, this.status);
    this.off = lobby.on((msg) => {
      if (msg.t === 'hello') this.render();
    });
    document.addEventListener(LANG_CHANGED, this.render);
    this.render();
  }

  /** Leaves the profile. */
  close(): void {
    this.off();
    document.removeEventListener(LANG_CHANGED, this.render);
  }

  /** Shows the button (the player exists). */
  enable(): void {
    this.enabled = true;
    this.render();
  }

  /** Shown only to a signed-in player on someone else's profile. */
  private readonly render = (): void => {
    this.el.hidden = !this.enabled || !this.lobby.me || this.lobby.isMe(this.name);
    if (this.el.hidden) this.form.hidden = true;
    this.button.textContent = t('challengeButton', { name: this.name });
    this.title.textContent = t('challengeTitle', { name: this.name });
  };

  /** Opens or closes the form; focus goes to its first field, or back to the button. */
  private show(open: boolean, refocus: boolean): void {
    this.form.hidden = !open;
    this.button.setAttribute('aria-expanded', String(open));
    if (open) {
      this.error.textContent = '';
      this.status.textContent = '';
      this.form.querySelector('select')?.focus();
    } else if (refocus) this.button.focus();
  }

  private async send(button: HTMLButtonElement, terms: { time_control: string; color: Color | 'random'; rated: boolean; chess960: boolean }): Promise<void> {
    button.disabled = true;
    this.error.textContent = '';
    try {
      await this.lobby.challenge(this.name, terms);
      this.show(false, true);
      this.status.textContent = t('challengeSent', { name: this.name });
    } catch (e) {
      const code = e instanceof ApiError ? e.code : 'unknown';
      this.error.textContent = code === 'not_found' ? t('noSuchPlayer') : errorText(code);
    } finally {
      button.disabled = false;
    }
  }
}
