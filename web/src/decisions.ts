// The game page's "Director's decisions" (ICCF 14, issue 17 point 11): each
// decision of the director on the game with who took it and the reason, a
// new one announced politely; for the players, Appeal on each decision and
// "Write to the director" (a claim), both in a small modal dialog, and
// their requests with the director's answers (`GET /api/account/decisions`).

import { actText, codeOf, decisionLine, DirectorRequest, fetchMine, fileRequest, LoggedDecision, refusal, StateDecision } from './director';
import { fault, h, tx } from './dom';
import { LANG_CHANGED, t } from './i18n';
import type { GameState } from './protocol';

/** Fired on `document` by the notices when the director decides or answers (its detail is the notice). */
export const DIRECTOR_NEWS = 'rochade:director-news';

/** The panel of a game that has a director. */
export class DecisionsPanel {
  readonly el: HTMLElement;
  private readonly list = h('ol', { class: 'decisions', 'data-testid': 'decisions' });
  private readonly requests = h('ul', { class: 'requests', 'data-testid': 'my-requests' });
  private readonly claim = tx('button', 'claimOpen', { type: 'button', 'data-testid': 'claim-open' });
  private state: GameState | null = null;
  /** How many decisions the page has shown (null before the first state). */
  private seen: number | null = null;
  private mine: { decisions: LoggedDecision[]; requests: DirectorRequest[] } | null = null;

  /** `say` announces politely in the page's live region. */
  constructor(private readonly say: (text: string) => void) {
    const title = tx('h2', 'decisionsTitle', { id: 'decisions-title' });
    this.el = h('section', { class: 'decisions-box', 'data-testid': 'decisions-box', 'aria-labelledby': 'decisions-title', hidden: true }, title, this.list, this.requests, this.claim);
    this.claim.addEventListener('click', () => this.open('claim', null, this.claim));
    document.addEventListener(LANG_CHANGED, this.redraw);
    document.addEventListener(DIRECTOR_NEWS, this.news);
  }

  /** Leaves the game. */
  close(): void {
    document.removeEventListener(LANG_CHANGED, this.redraw);
    document.removeEventListener(DIRECTOR_NEWS, this.news);
  }

  private readonly redraw = (): void => this.render();

  private readonly news = (): void => void this.loadMine();

  /** True when the page has a seat of a player (not both, not watching). */
  private player(s: GameState): boolean {
    return s.you === 'white' || s.you === 'black';
  }

  /** Takes a new state: draws the decisions, announcing the new ones. */
  update(s: GameState): void {
    this.state = s;
    const decisions = s.decisions ?? [];
    const directed = Boolean(s.tournament) || s.clock?.category === 'correspondence';
    this.el.hidden = !directed && decisions.length === 0;
    if (this.seen !== null && decisions.length > this.seen) {
      for (const d of decisions.slice(this.seen)) this.say(t('decisionNew', { line: decisionLine(d.by, d.decision, d.reason) }));
    }
    // Only accounts play tournament games, and only they get decisions: nobody else asks (no 401).
    if (this.player(s) && (s.tournament || decisions.length > 0) && this.seen !== decisions.length) void this.loadMine();
    this.seen = decisions.length;
    this.render();
  }

  /** Reads one's decisions and requests (the ids an appeal names, the answers). */
  private async loadMine(): Promise<void> {
    try {
      this.mine = await fetchMine();
    } catch {
      this.mine = null;
    }
    this.render();
  }

  /** This game's logged decisions, oldest first: the state's order. */
  private logged(): LoggedDecision[] {
    const id = this.state?.id;
    return (this.mine?.decisions ?? []).filter((d) => d.game === id).sort((a, b) => a.id - b.id);
  }

  private render(): void {
    const s = this.state;
    if (!s) return;
    const decisions = s.decisions ?? [];
    const player = this.player(s) && !s.aborted;
    // The list is made again: the focused Appeal keeps the focus.
    const focusedKey = (document.activeElement as HTMLElement | null)?.dataset?.key ?? null;
    this.list.replaceChildren(
      ...(decisions.length
        ? decisions.map((d, i) => this.item(d, i, player))
        : [tx('li', 'decisionsNone', { class: 'hint' })]),
    );
    this.claim.hidden = !player;
    const mine = (this.mine?.requests ?? []).filter((r) => r.game === s.id).sort((a, b) => a.id - b.id);
    this.requests.replaceChildren(...mine.map((r) => this.request(r)));
    if (focusedKey) this.list.querySelector<HTMLElement>(`[data-key="${focusedKey}"]`)?.focus();
  }

  /** One decision: who, what, why; Appeal for a player. */
  private item(d: StateDecision, i: number, player: boolean): HTMLElement {
    const text = h('span', { id: `decision-${i}` }, decisionLine(d.by, d.decision, d.reason));
    const li = h('li', { 'data-testid': 'decision', 'data-act': d.decision.act }, text);
    if (player) {
      const appeal = tx('button', 'appealOpen', { type: 'button', class: 'link', 'data-testid': 'appeal-open', 'data-key': `appeal-${i}`, 'aria-describedby': `decision-${i}` });
      appeal.addEventListener('click', () => this.open('appeal', i, appeal));
      li.append(' ', appeal);
    }
    return li;
  }

  /** One of one's requests about the game, with the answer once there is one. */
  private request(r: DirectorRequest): HTMLElement {
    const head = t(r.kind === 'appeal' ? 'requestAppeal' : 'requestClaim', { message: r.message });
    const answer = r.answer ? t('requestAnswer', { answer: r.answer.text }) : t('requestWaiting');
    return h('li', { 'data-testid': 'my-request', 'data-answered': String(r.answer !== null) }, head, h('br'), h('span', { class: r.answer ? 'answer-text' : 'hint' }, answer));
  }

  /** Opens the dialog of an appeal against decision `index`, or of a claim; focus goes back to `opener`. */
  private open(kind: 'appeal' | 'claim', index: number | null, opener: HTMLElement): void {
    const s = this.state;
    if (!s) return;
    const about = index === null ? null : (s.decisions ?? [])[index];
    const dialog = h('dialog', { class: 'account-dialog', 'data-testid': 'request-dialog', 'aria-labelledby': 'request-title' });
    const message = h('textarea', { id: 'request-message', 'data-testid': 'request-message', rows: 5, maxlength: 2000, 'aria-describedby': 'request-error' });
    const error = h('p', { class: 'error', id: 'request-error', role: 'alert', 'data-testid': 'request-error' });
    const send = tx('button', 'requestSend', { type: 'submit', class: 'primary', 'data-testid': 'request-send' });
    const cancel = tx('button', 'cancel', { type: 'button', 'data-testid': 'request-cancel' });
    const form = h(
      'form',
      { novalidate: true },
      about ? h('p', { class: 'hint', 'data-testid': 'request-about' }, t('appealAbout', { what: actText(about.decision), reason: about.reason })) : tx('p', 'claimIntro', { class: 'hint' }),
      h('div', { class: 'field' }, tx('label', kind === 'appeal' ? 'appealLabel' : 'claimLabel', { for: 'request-message' }), message),
      error,
      h('div', { class: 'buttons' }, send, cancel),
    );
    dialog.append(tx('h2', kind === 'appeal' ? 'appealTitle' : 'claimTitle', { id: 'request-title' }), form);
    let sent: string | null = null;
    const close = (): void => dialog.close();
    cancel.addEventListener('click', close);
    dialog.addEventListener('close', () => {
      dialog.remove();
      // The list may have been made again meanwhile: the same Appeal, found by its key.
      const again = opener.isConnected ? opener : opener.dataset.key ? this.list.querySelector<HTMLElement>(`[data-key="${opener.dataset.key}"]`) : null;
      (again ?? this.claim).focus();
      if (sent) this.say(sent);
    });
    form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      void (async () => {
        const text = message.value.trim();
        if (!text) return fault(error, t('requestEmpty'), message);
        send.disabled = true;
        try {
          if (kind === 'appeal') {
            await this.loadMine();
            const logged = this.logged()[index ?? -1];
            if (!logged) throw new Error('no such decision');
            await fileRequest({ kind: 'appeal', decision: logged.id, message: text });
            sent = t('appealSent');
          } else {
            await fileRequest({ kind: 'claim', game: s.id, message: text });
            sent = t('claimSent');
          }
          close();
          void this.loadMine();
        } catch (e) {
          error.replaceChildren(...refusal(e, { forbidden: 'requestForbidden' }));
          error.dataset.code = codeOf(e);
          message.focus();
        } finally {
          send.disabled = false;
        }
      })();
    });
    document.body.append(dialog);
    dialog.showModal();
    message.focus();
  }
}
