// The lobby on the start page: quick pairing for the common controls, a
// custom seek (control, rated or casual, colour, Chess960, rating range),
// and the open seeks as a table with Accept (Cancel on one's own). A
// visitor sees the seeks and an invitation to sign in.

import { h, row, select, tx } from './dom';
import { LANG_CHANGED, t } from './i18n';
import { Lobby, LobbyMessage, Seek } from './lobby';
import { errorText } from './outcome';
import { perfName } from './perf';
import { ApiError } from './protocol';

/** The controls of quick pairing. */
export const QUICK = ['1+0', '2+1', '3+0', '3+2', '5+0', '5+3', '10+0', '10+5', '15+10', '30+0'];

/** The controls a custom seek or a challenge offers. */
export const CONTROLS = [...QUICK, '30+20', '60+0', '90+30'];

/** Correspondence controls counted in days (played by the ICCF rules), which a challenge offers too. */
export const DAY_CONTROLS = ['3d/move', '10/40d', '10/60d', '30d+1d'];

/** What the lobby needs from the page. */
export interface LobbyNav {
  /** Goes to a game (`/g/{id}#{token}`). */
  openUrl(url: string): void;
  /** Opens the sign-in form; focus goes back to `opener`. */
  signIn(opener: HTMLElement): void;
  /** Announces politely. */
  say(text: string): void;
}

/** "1523?" with the word for screen readers. */
export function ratingCell(rating: number | null | undefined, provisional: boolean | undefined): HTMLElement {
  const el = h('span', { class: 'rating' }, rating === null || rating === undefined ? '' : String(rating));
  if (rating !== null && rating !== undefined && provisional) el.append(h('span', { 'aria-hidden': 'true' }, '?'), h('span', { class: 'sr-only' }, ` (${t('provisional')})`));
  return el;
}

/** Re-draws with `draw` inside `root`, keeping focus on the control with the same `data-key` if it is still there. */
export function keepingFocus(root: HTMLElement, draw: () => void, fallback: () => void): void {
  const active = document.activeElement;
  const key = active instanceof HTMLElement && root.contains(active) ? active.dataset.key : undefined;
  draw();
  if (key === undefined) return;
  const again = root.querySelector<HTMLElement>(`[data-key="${CSS.escape(key)}"]`);
  if (again) again.focus();
  else fallback();
}

/** The lobby panel of the start page. */
export class LobbyPanel {
  readonly el: HTMLElement;
  private readonly account = h('div', { class: 'lobby-account' });
  private readonly error = h('p', { class: 'error', role: 'alert', 'data-testid': 'lobby-error' });
  private readonly waiting = h('ul', { class: 'waiting', 'data-testid': 'seek-waiting' });
  // Scrolls sideways on a narrow screen: focusable, so the keyboard can scroll it.
  private readonly table = h('div', { class: 'seeks-wrap', tabindex: 0, role: 'region', 'aria-labelledby': 'seeks-title' });
  private readonly quick = new Map<string, HTMLButtonElement>();
  private readonly off: () => void;
  /** The control of the last seek sent, for the announcement of its `seek_ok`. */
  private sent: string | null = null;
  private busy = false;

  constructor(
    private readonly lobby: Lobby,
    private readonly nav: LobbyNav,
  ) {
    this.el = h(
      'section',
      { class: 'panel lobby', 'data-testid': 'lobby', 'aria-labelledby': 'lobby-title' },
      tx('h2', 'lobby', { id: 'lobby-title', tabindex: -1 }),
      this.account,
      this.error,
      this.table,
    );
    this.off = lobby.on((msg) => this.heard(msg));
    document.addEventListener(LANG_CHANGED, this.relabel);
    this.renderAccount();
    this.renderSeeks();
  }

  /** Leaves the start page. */
  close(): void {
    this.off();
    document.removeEventListener(LANG_CHANGED, this.relabel);
  }

  private readonly relabel = (): void => {
    this.renderAccount();
    this.renderSeeks();
  };

  private heard(msg: LobbyMessage): void {
    switch (msg.t) {
      case 'hello':
        this.renderAccount();
        this.renderSeeks();
        break;
      case 'seeks':
        this.renderSeeks();
        this.renderWaiting();
        break;
      case 'seek_ok':
        this.error.textContent = '';
        if (this.sent) this.nav.say(t('seekOpened', { control: this.sent }));
        this.sent = null;
        break;
      case 'error':
        this.error.textContent = msg.code === 'disconnected' ? t('disconnected') : errorText(msg.code);
        break;
      default:
        break;
    }
  }

  /** One's own open seeks. */
  private own(): Seek[] {
    return this.lobby.seeks.filter((s) => this.lobby.isMe(s.user.name));
  }

  /** Quick pairing and the custom seek for a player; the invitation to sign in for a visitor. */
  private renderAccount(): void {
    keepingFocus(this.account, () => this.drawAccount(), () => (this.el.querySelector<HTMLElement>('#lobby-title') ?? this.el).focus());
  }

  private drawAccount(): void {
    this.quick.clear();
    if (!this.lobby.known) {
      this.account.replaceChildren();
      return;
    }
    if (!this.lobby.me) {
      const signIn = tx('button', 'signIn', { type: 'button', 'data-testid': 'lobby-sign-in' });
      signIn.addEventListener('click', () => this.nav.signIn(signIn));
      this.account.replaceChildren(h('p', { 'data-testid': 'lobby-visitor' }, t('signInToPlay'), ' ', signIn));
      return;
    }
    const buttons = QUICK.map((tc) => {
      const b = h('button', { type: 'button', class: 'quick-button', 'data-testid': `quick-${tc}`, 'data-key': `quick-${tc}`, 'aria-pressed': 'false' }, tc);
      b.addEventListener('click', () => void this.quickPair(tc));
      this.quick.set(tc, b);
      return b;
    });
    this.account.replaceChildren(
      tx('h3', 'quickPairing', { id: 'quick-title' }),
      tx('p', 'quickHint', { class: 'hint', id: 'quick-hint' }),
      h('div', { class: 'quick', role: 'group', 'aria-labelledby': 'quick-title', 'aria-describedby': 'quick-hint' }, ...buttons),
      this.waiting,
      this.customForm(),
    );
    this.renderWaiting();
  }

  /** The own seeks waiting, each with Cancel; the quick buttons pressed for theirs. */
  private renderWaiting(): void {
    const own = this.own();
    for (const [tc, b] of this.quick) b.setAttribute('aria-pressed', String(own.some((s) => s.time_control === tc)));
    keepingFocus(
      this.waiting,
      () => {
        this.waiting.replaceChildren(
          ...own.map((s) => {
            const cancel = tx('button', 'cancel', { type: 'button', 'data-testid': 'seek-cancel', 'data-key': `cancel-${s.id}` });
            cancel.setAttribute('aria-label', t('cancelSeekLabel', { control: s.time_control }));
            cancel.addEventListener('click', () => this.cancel(s));
            return h('li', { 'data-seek': s.id }, h('span', { class: 'spinner', 'aria-hidden': 'true' }), t('waitingFor', { control: s.time_control }), ' ', cancel);
          }),
        );
      },
      () => this.quick.values().next().value?.focus(),
    );
  }

  private cancel(s: Seek): void {
    this.lobby.cancel(s.id);
    this.nav.say(t('seekCancelled', { control: s.time_control }));
  }

  /** A quick pairing button: one's own seek with that control is withdrawn; else an open seek is taken, or one's own opened. */
  private async quickPair(tc: string): Promise<void> {
    if (this.busy) return;
    this.error.textContent = '';
    const own = this.own().find((s) => s.time_control === tc);
    if (own) {
      this.cancel(own);
      return;
    }
    const open = this.lobby.seeks.filter((s) => s.time_control === tc && s.rated && !s.chess960 && !this.lobby.isMe(s.user.name));
    this.busy = true;
    try {
      for (const s of open) {
        try {
          const link = await this.lobby.acceptSeek(s.id);
          this.nav.openUrl(link.url);
          return;
        } catch (e) {
          const code = e instanceof ApiError ? e.code : 'unknown';
          if (code !== 'not_allowed' && code !== 'not_found') {
            this.error.textContent = errorText(code);
            return;
          }
        }
      }
      this.sent = tc;
      this.lobby.seek({ time_control: tc, rated: true, color: 'random', chess960: false });
    } finally {
      this.busy = false;
    }
  }

  /** The form of a custom seek, folded in a disclosure. */
  private customForm(): HTMLElement {
    const control = select('seek-control', CONTROLS.map((c): [string, string] => [c, `=${c}`]), '5+3');
    const mode = select('seek-mode', [['rated', 'ratedOpt'], ['casual', 'casualOpt']], 'rated');
    const color = select('seek-color', [['random', 'random'], ['white', 'white'], ['black', 'black']], 'random');
    const c960 = h('input', { type: 'checkbox', id: 'f-seek-chess960', 'data-testid': 'seek-chess960' });
    const number = (testid: string, label: 'ratingMin' | 'ratingMax') =>
      h('input', { type: 'number', min: 400, max: 4000, step: 50, inputmode: 'numeric', 'data-testid': testid, 'data-i18n-label': label, 'aria-label': t(label), 'aria-describedby': 'seek-range-hint' });
    const low = number('seek-min', 'ratingMin');
    const high = number('seek-max', 'ratingMax');
    const submit = tx('button', 'createSeek', { type: 'submit', class: 'primary', 'data-testid': 'seek-create' });
    const form = h(
      'form',
      { class: 'seek-form', 'data-testid': 'seek-form', novalidate: true },
      row('timeControl', control),
      row('mode', mode),
      row('color', color),
      h('div', { class: 'check' }, c960, tx('label', 'chess960', { for: 'f-seek-chess960' })),
      h('fieldset', { class: 'range' }, tx('legend', 'ratingRange'), low, h('span', { 'aria-hidden': 'true' }, '–'), high, tx('p', 'ratingRangeHint', { class: 'hint', id: 'seek-range-hint' })),
      submit,
    );
    form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      this.error.textContent = '';
      const [a, b] = [low.value.trim(), high.value.trim()];
      let range: [number, number] | undefined;
      if (a || b) {
        const lo = a ? Number(a) : 0;
        const hi = b ? Number(b) : 4000;
        if (!Number.isInteger(lo) || !Number.isInteger(hi) || lo > hi) {
          this.error.textContent = t('badRange');
          low.setAttribute('aria-invalid', 'true');
          low.focus();
          return;
        }
        range = [lo, hi];
      }
      low.removeAttribute('aria-invalid');
      this.sent = control.value;
      this.lobby.seek({ time_control: control.value, rated: mode.value === 'rated', color: color.value as 'random', chess960: c960.checked, ...(range ? { rating_range: range } : {}) });
    });
    return h('details', { class: 'custom-seek', 'data-testid': 'custom-seek' }, tx('summary', 'customSeek'), form);
  }

  /** The table of open seeks (Accept or Cancel for a player, nothing for a visitor). */
  private renderSeeks(): void {
    const me = this.lobby.me;
    const seeks = this.lobby.seeks;
    keepingFocus(
      this.table,
      () => {
        if (!seeks.length) {
          this.table.replaceChildren(tx('h3', 'openSeeks', { id: 'seeks-title' }), tx('p', 'noSeeks', { class: 'hint', 'data-testid': 'seeks-empty' }));
          return;
        }
        const heads = ['colPlayer', 'timeControl', 'colGame', 'colPlays'] as const;
        const head = h('tr', {}, ...heads.map((k) => tx('th', k, { scope: 'col' })), me ? h('th', { scope: 'col' }, h('span', { class: 'sr-only' }, t('colAction'))) : null);
        const rows = seeks.map((s) => this.seekRow(s, me !== null));
        this.table.replaceChildren(
          tx('h3', 'openSeeks', { id: 'seeks-title' }),
          h('table', { class: 'seeks', 'data-testid': 'seeks', 'aria-labelledby': 'seeks-title' }, h('thead', {}, head), h('tbody', {}, ...rows)),
        );
      },
      () => (this.el.querySelector<HTMLElement>('#lobby-title') ?? this.el).focus(),
    );
  }

  /** One seek: "Alice 1523? · 5+3 · rated · blitz", with its button. */
  private seekRow(s: Seek, signedIn: boolean): HTMLElement {
    const own = this.lobby.isMe(s.user.name);
    const game = [t(s.rated ? 'rated' : 'casualGame'), perfName(s.perf), s.chess960 && s.perf !== 'chess960' ? t('chess960') : '', s.rating_range ? `${s.rating_range[0]}–${s.rating_range[1]}` : ''].filter(Boolean).join(' · ');
    let action: HTMLElement | null = null;
    if (signedIn && own) {
      action = tx('button', 'cancel', { type: 'button', 'data-testid': 'seek-row-cancel', 'data-key': `row-cancel-${s.id}` });
      action.setAttribute('aria-label', t('cancelSeekLabel', { control: s.time_control }));
      action.addEventListener('click', () => this.cancel(s));
    } else if (signedIn) {
      const b = tx('button', 'accept', { type: 'button', class: 'primary', 'data-testid': 'seek-accept', 'data-key': `accept-${s.id}` });
      b.setAttribute('aria-label', t('acceptSeekLabel', { control: s.time_control, name: s.user.name }));
      b.addEventListener('click', () => void this.accept(s, b));
      action = b;
    }
    return h(
      'tr',
      { 'data-testid': 'seek-row', 'data-seek': s.id, 'data-owner': s.user.name, class: own ? 'own' : undefined },
      h('td', {}, s.user.title ? h('span', { class: 'bot-title' }, `${s.user.title} `) : null, s.user.name, ' ', ratingCell(s.user.rating, s.user.provisional), own ? h('span', { class: 'hint' }, ` (${t('ownSeek')})`) : null),
      h('td', {}, s.time_control),
      h('td', {}, game),
      h('td', {}, t(s.color)),
      signedIn ? h('td', {}, action) : null,
    );
  }

  private async accept(s: Seek, b: HTMLButtonElement): Promise<void> {
    this.error.textContent = '';
    b.disabled = true;
    try {
      const link = await this.lobby.acceptSeek(s.id);
      this.nav.openUrl(link.url);
    } catch (e) {
      const code = e instanceof ApiError ? e.code : 'unknown';
      this.error.textContent = code === 'not_allowed' ? t('seekNotAllowed') : code === 'not_found' ? t('seekGone') : errorText(code);
      b.disabled = false;
    }
  }
}
