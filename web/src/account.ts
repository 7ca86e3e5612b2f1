// Who is signed in, in the header of every page: Sign in and Sign up when
// nobody is, else the name with a small menu (the profile, Change password,
// Sign out). The forms open in a modal dialog; their errors come from the
// server's error codes, in the page's language.

import { h, tx } from './dom';
import { Key, LANG_CHANGED, t } from './i18n';
import { LeaveView } from './leave';
import { NotifyView } from './notify';
import { errorText } from './outcome';
import type { Lobby } from './lobby';
import { ApiError } from './protocol';
import { changePassword, Me, NAME_RULE, profileUrl, signIn, signOut, signUp, whoAmI } from './users';

type Kind = 'signin' | 'signup' | 'password';

/** A labelled input with an optional hint, described by the hint and the form's error. */
interface Field {
  input: HTMLInputElement;
  row: HTMLElement;
}

function field(id: string, label: Key, type: string, autocomplete: string, hint: Key | null): Field {
  const input = h('input', {
    id: `acct-${id}`,
    name: id,
    type,
    autocomplete,
    autocapitalize: 'off',
    spellcheck: 'false',
    'data-testid': `field-${id}`,
    'aria-describedby': [hint ? `acct-${id}-hint` : '', 'account-error'].filter(Boolean).join(' '),
  });
  const row = h(
    'div',
    { class: 'field' },
    tx('label', label, { for: `acct-${id}` }),
    input,
    hint ? tx('p', hint, { class: 'hint', id: `acct-${id}-hint` }) : null,
  );
  return { input, row };
}

/** The length rule of passwords (8 characters, at most 256 bytes). */
function passwordOk(p: string): boolean {
  return [...p].length >= 8 && new TextEncoder().encode(p).length <= 256;
}

/** The account area of the header and its dialog. */
export class AccountBox {
  readonly el = h('div', { class: 'account', 'data-testid': 'account' });
  private me: Me | null = null;
  private loaded = false;
  private readonly dialog = h('dialog', { class: 'account-dialog', 'data-testid': 'account-dialog', 'aria-labelledby': 'account-title' });
  private readonly menu = h('div', { class: 'account-menu', id: 'account-menu', 'data-testid': 'account-menu', hidden: true });
  private menuButton: HTMLButtonElement | null = null;
  /** Where focus goes back when the dialog closes without a change. */
  private returnFocus: HTMLElement | null = null;
  /** Re-writes the error shown in the dialog (after a language change). */
  private errorText: (() => string) | null = null;
  private readonly error = h('p', { class: 'error', id: 'account-error', 'data-testid': 'account-error', role: 'alert' });

  /**
   * `say` announces politely (the page's live region); `lobby`'s hello
   * says who is signed in (no `GET /api/auth/me`, and so no 401 in the
   * console of a visitor's page), and it is opened again after signing in
   * or out.
   */
  constructor(
    private readonly say: (text: string) => void,
    private readonly lobby: Lobby,
  ) {
    document.body.append(this.dialog);
    this.dialog.addEventListener('close', () => {
      if (this.dialog.open) return; // opened again meanwhile, with another form
      this.dialog.replaceChildren();
      this.errorText = null;
      const back = this.returnFocus;
      this.returnFocus = null;
      if (back?.isConnected) back.focus();
    });
    document.addEventListener(LANG_CHANGED, () => {
      this.render();
      if (this.errorText) this.error.textContent = this.errorText();
    });
    document.addEventListener('click', (ev) => {
      if (!this.menu.hidden && !this.el.contains(ev.target as Node)) this.showMenu(false);
    });
    this.el.addEventListener('keydown', (ev) => {
      if (ev.key === 'Escape' && !this.menu.hidden) {
        this.showMenu(false);
        this.menuButton?.focus();
      }
    });
    lobby.on((msg) => {
      if (msg.t === 'hello') this.know(msg.me);
    });
    if (lobby.known) this.know(lobby.me);
    this.render();
    // Without the socket (blocked by a proxy), the session is asked for over HTTP.
    window.setTimeout(() => {
      if (!this.loaded) void this.load();
    }, 5000);
  }

  /** Who is signed in, as the socket says it; nothing is redrawn when it is who the header shows. */
  private know(me: Me | null): void {
    const same = this.loaded && this.me?.name === me?.name && this.me?.bot === me?.bot;
    this.me = me;
    this.loaded = true;
    if (!same) this.render();
  }

  /** Asks the server who is signed in. */
  async load(): Promise<void> {
    let me: Me | null;
    try {
      me = await whoAmI();
    } catch {
      me = null;
    }
    if (!this.loaded) this.know(me);
  }

  /** Draws the header area for the account (or for nobody). */
  private render(): void {
    this.el.dataset.state = !this.loaded ? 'loading' : this.me ? 'signed-in' : 'anonymous';
    if (!this.loaded) {
      this.el.replaceChildren();
      return;
    }
    const me = this.me;
    if (!me) {
      this.menuButton = null;
      this.el.replaceChildren(this.opener('signIn', 'sign-in', 'signin'), this.opener('signUp', 'sign-up', 'signup'));
      return;
    }
    const wasOpen = !this.menu.hidden;
    const button = h(
      'button',
      { type: 'button', class: 'account-button', 'data-testid': 'account-button', 'aria-expanded': String(wasOpen), 'aria-controls': 'account-menu' },
      h('span', { class: 'sr-only' }, `${t('signedInAs')} `),
      h('span', { class: 'account-name', 'data-testid': 'account-name' }, me.name),
      me.bot ? h('span', { class: 'bot-title' }, ` ${t('botTitle')}`) : null,
    );
    button.addEventListener('click', () => this.showMenu(this.menu.hidden));
    this.menuButton = button;
    const profile = h('a', { href: profileUrl(me.name), 'data-testid': 'my-profile' }, t('myProfile'));
    const password = tx('button', 'changePassword', { type: 'button', 'data-testid': 'change-password' });
    password.addEventListener('click', () => {
      this.showMenu(false);
      this.open('password', button);
    });
    const leave = tx('button', 'leaveMenu', { type: 'button', 'data-testid': 'leave-open' });
    leave.addEventListener('click', () => {
      this.showMenu(false);
      this.openLeave(button);
    });
    const notify = tx('button', 'notifyMenu', { type: 'button', 'data-testid': 'notify-open' });
    notify.addEventListener('click', () => {
      this.showMenu(false);
      this.openNotify(button);
    });
    const dashboard = h('a', { href: '/correspondence', 'data-testid': 'dash-open', 'data-i18n': 'dashMenu' }, t('dashMenu'));
    const director = h('a', { href: '/director', 'data-testid': 'director-open', 'data-i18n': 'directorMenu' }, t('directorMenu'));
    const tournaments = h('a', { href: '/tournaments', 'data-testid': 'tournaments-open', 'data-i18n': 'tnListMenu' }, t('tnListMenu'));
    const simuls = h('a', { href: '/simuls', 'data-testid': 'simuls-open', 'data-i18n': 'simTitle' }, t('simTitle'));
    const out = tx('button', 'signOut', { type: 'button', 'data-testid': 'sign-out' });
    out.addEventListener('click', () => void this.signOut());
    this.menu.replaceChildren(h('ul', {}, h('li', {}, profile), h('li', {}, dashboard), h('li', {}, tournaments), h('li', {}, simuls), h('li', {}, password), h('li', {}, leave), h('li', {}, notify), h('li', {}, director), h('li', {}, out)));
    this.el.replaceChildren(button, this.menu);
  }

  private showMenu(open: boolean): void {
    this.menu.hidden = !open;
    this.menuButton?.setAttribute('aria-expanded', String(open));
  }

  /** A header button that opens a form. */
  private opener(label: Key, testid: string, kind: Kind): HTMLButtonElement {
    const b = tx('button', label, { type: 'button', 'data-testid': testid });
    b.addEventListener('click', () => this.open(kind, b));
    return b;
  }

  /** Opens the dialog with the form of `kind`; focus goes back to `opener` when it closes without a change. */
  open(kind: Kind, opener: HTMLElement | null = null): void {
    this.error.textContent = '';
    this.errorText = null;
    const title: Key = kind === 'signin' ? 'signIn' : kind === 'signup' ? 'signUp' : 'changePassword';
    const fields: Field[] =
      kind === 'password'
        ? [field('current', 'currentPassword', 'password', 'current-password', null), field('new', 'newPassword', 'password', 'new-password', 'passwordHint')]
        : [
            field('name', 'userName', 'text', 'username', kind === 'signup' ? 'nameHint' : null),
            field('password', 'password', 'password', kind === 'signup' ? 'new-password' : 'current-password', kind === 'signup' ? 'passwordHint' : null),
          ];
    const submit = tx('button', title, { type: 'submit', class: 'primary', 'data-testid': 'account-submit' });
    const cancel = tx('button', 'cancel', { type: 'button', 'data-testid': 'account-cancel' });
    cancel.addEventListener('click', () => this.dialog.close());
    const form = h('form', { novalidate: true, 'data-testid': `form-${kind}` }, ...fields.map((f) => f.row), this.error, h('div', { class: 'buttons' }, submit, cancel));
    form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      void this.submit(kind, fields.map((f) => f.input), submit);
    });
    const other: HTMLElement | null =
      kind === 'password'
        ? null
        : (() => {
            const to: Kind = kind === 'signin' ? 'signup' : 'signin';
            const b = tx('button', to === 'signup' ? 'signUp' : 'signIn', { type: 'button', class: 'link', 'data-testid': `switch-${to}` });
            b.addEventListener('click', () => this.open(to, opener));
            return h('p', { class: 'switch' }, tx('span', kind === 'signin' ? 'noAccount' : 'haveAccount'), ' ', b);
          })();
    this.dialog.replaceChildren(...[tx('h2', title, { id: 'account-title' }), form, other].filter((x): x is HTMLElement => x !== null));
    this.dialog.dataset.kind = kind;
    this.returnFocus = opener;
    if (!this.dialog.open) this.dialog.showModal();
    fields[0].input.focus();
  }

  /** Opens the dialog with one's leave (ICCF 10.1); focus goes back to `opener` when it closes. */
  openLeave(opener: HTMLElement | null = null): void {
    this.openView('leave', new LeaveView(() => this.dialog.close()), opener);
  }

  /** Opens the dialog with one's notification settings; focus goes back to `opener` when it closes, and a save is announced. */
  openNotify(opener: HTMLElement | null = null): void {
    const close = (): void => this.dialog.close();
    const saved = (text: string): void => {
      // Focus goes back before the announcement: the dialog's close event,
      // which also returns it, comes a task later.
      const back = this.returnFocus;
      close();
      if (back?.isConnected) back.focus();
      this.say(text);
    };
    this.openView('notify', new NotifyView(close, saved), opener);
  }

  /** Shows `view` in the dialog, focuses its first field and loads it; focus goes back to `opener` when it closes. */
  private openView(kind: string, view: { el: HTMLElement; first: HTMLElement; load(): Promise<void> }, opener: HTMLElement | null): void {
    this.dialog.replaceChildren(view.el);
    this.dialog.dataset.kind = kind;
    this.returnFocus = opener;
    if (!this.dialog.open) this.dialog.showModal();
    view.first.focus();
    void view.load();
  }

  /** Shows an error (in the language of the moment, also after a change) and focuses `input`. */
  private fail(text: () => string, input: HTMLInputElement | null): void {
    this.errorText = text;
    this.error.textContent = text();
    this.dialog.querySelectorAll('input').forEach((i) => i.removeAttribute('aria-invalid'));
    if (input) {
      input.setAttribute('aria-invalid', 'true');
      input.focus();
    }
  }

  /** Checks the form on the page, then sends it; the server's refusal is shown from its code. */
  private async submit(kind: Kind, inputs: HTMLInputElement[], submit: HTMLButtonElement): Promise<void> {
    const [first, second] = inputs;
    const a = kind === 'password' ? first.value : first.value.trim();
    const b = second.value;
    const problem = this.check(kind, a, b);
    if (problem) {
      this.fail(() => t(problem.key), problem.first ? first : second);
      return;
    }
    submit.disabled = true;
    this.dialog.setAttribute('aria-busy', 'true');
    try {
      if (kind === 'password') {
        await changePassword(a, b);
        this.done(t('passwordChanged'));
      } else {
        this.me = await (kind === 'signin' ? signIn(a, b) : signUp(a, b));
        this.lobby.reconnect();
        this.done(t('signedInNow', { name: this.me.name }));
      }
    } catch (e) {
      const code = e instanceof ApiError ? e.code : 'unknown';
      const known = this.refusal(kind, code);
      this.fail(() => (known ? t(known.key) : errorText(code)), known ? (known.first ? first : second) : null);
    } finally {
      submit.disabled = false;
      this.dialog.removeAttribute('aria-busy');
    }
  }

  /** What is wrong with the form before it is sent, and whether the first field is at fault. */
  private check(kind: Kind, a: string, b: string): { key: Key; first: boolean } | null {
    if (kind === 'signin') {
      if (!a) return { key: 'a_nameMissing', first: true };
      if (!b) return { key: 'a_passwordMissing', first: false };
    } else if (kind === 'signup') {
      if (!NAME_RULE.test(a)) return { key: 'a_nameRule', first: true };
      if (!passwordOk(b)) return { key: 'a_passwordRule', first: false };
    } else {
      if (!a) return { key: 'a_passwordMissing', first: true };
      if (!passwordOk(b)) return { key: 'a_passwordRule', first: false };
    }
    return null;
  }

  /** The words for a refusal that means something particular here. */
  private refusal(kind: Kind, code: string): { key: Key; first: boolean } | null {
    if (code === 'too_many_requests') return { key: 'a_tooManyAttempts', first: true };
    if (kind === 'signin' && code === 'unauthorized') return { key: 'a_wrongCredentials', first: false };
    if (kind === 'signup' && code === 'name_taken') return { key: 'a_nameTaken', first: true };
    if (kind === 'signup' && code === 'bad_request') return { key: 'a_notAccepted', first: true };
    if (kind === 'password' && code === 'unauthorized') return { key: 'a_wrongPassword', first: true };
    if (kind === 'password' && code === 'bad_request') return { key: 'a_passwordRule', first: false };
    return null;
  }

  /** After a sign-in, sign-up or new password: closes the dialog, redraws, focuses the name, announces. */
  private done(message: string): void {
    this.returnFocus = null;
    this.dialog.close();
    this.render();
    this.menuButton?.focus();
    this.say(message);
  }

  private async signOut(): Promise<void> {
    try {
      await signOut();
    } catch (e) {
      this.say(errorText(e instanceof ApiError ? e.code : 'unknown'));
      return;
    }
    this.me = null;
    this.lobby.reconnect();
    this.showMenu(false);
    this.render();
    this.el.querySelector<HTMLButtonElement>('[data-testid="sign-in"]')?.focus();
    this.say(t('signedOutNow'));
  }
}
