// On every page, while signed in: one's open games in the header ("your
// move" first, a link to each seat), and below the header the challenges:
// those to you (announced assertively; Accept, and Decline with a reason),
// yours with Cancel, and the answer when one was declined, its reason in
// the page's language.

import { h, tx } from './dom';
import { Key, LANG_CHANGED, plural, t } from './i18n';
import { Challenge, DECLINE_REASONS, DeclineReason, Lobby, LobbyMessage, Notice, OpenGame } from './lobby';
import { DIRECTOR_NEWS } from './decisions';
import { actText } from './director';
import { formatDays, formatMoment } from './correspondence';
import { keepingFocus } from './lobbyview';
import { errorText } from './outcome';
import { perfName } from './perf';
import { ApiError, other } from './protocol';

/** What the notices need from the page. */
export interface NoticeNav {
  openUrl(url: string): void;
  /** Announces; `urgent` in the assertive region. */
  say(text: string, urgent?: boolean): void;
  /** Where focus goes when the control that had it went away. */
  focusFallback(): void;
}

/** A challenge's terms: "5+3 · Blitz · rated · Chess960 · you play Black". */
export function challengeTerms(c: Challenge, incoming: boolean): string {
  const tc = c.timeControl;
  const control = tc.show ?? (tc.daysPerTurn ? t('daysPerMove', { days: plural('n_days', tc.daysPerTurn) }) : t('noClock'));
  const mine = incoming ? other(c.finalColor) : c.finalColor;
  const color = c.color === 'random' ? t('colorsByLot') : t(mine === 'white' ? 'youPlayWhite' : 'youPlayBlack');
  return [control, perfName(c.speed), t(c.rated ? 'rated' : 'casualGame'), c.variant.key === 'chess960' ? t('chess960') : '', color].filter(Boolean).join(' · ');
}

/** A player's name with their rating: "Alice (1500?)". */
function named(p: { name: string; rating?: number; provisional?: boolean }): string {
  return p.rating === undefined ? p.name : `${p.name} (${p.rating}${p.provisional ? '?' : ''})`;
}

/** A notice of the director, or of an opponent's leave, in the page's language. */
export function noticeText(n: Notice): string {
  switch (n.kind) {
    case 'decision':
      return t('noticeDecision', { director: n.director, what: actText({ act: n.act }), reason: n.reason });
    case 'answered':
      return t('noticeAnswered', { director: n.director, answer: n.answer });
    case 'leave':
      return t('noticeLeave', { name: n.player, from: formatMoment(n.from), to: formatMoment(n.to) });
    case 'tournament_soon':
      return t('noticeTournamentSoon', { name: n.name, time: formatMoment(n.starts_at) });
    default:
      return '';
  }
}

/** The reason of a declined challenge in the page's language. */
export function declineText(key: string | undefined): string {
  const reason = DECLINE_REASONS.find((r) => r === key) ?? 'generic';
  return t(`dr_${reason}` as Key);
}

/** One's games in the header, and the challenges below it. */
export class Notices {
  /** The header's list of open games. */
  readonly games = h('div', { class: 'my-games', 'data-testid': 'my-games', hidden: true });
  /** The challenges, below the header. */
  readonly el = h('section', { class: 'notices', 'data-testid': 'notices', 'data-i18n-label': 'notifications', 'aria-label': t('notifications'), hidden: true });
  private readonly gamesButton = h('button', { type: 'button', class: 'games-button', 'data-testid': 'games-button', 'aria-expanded': 'false', 'aria-controls': 'my-games-list' });
  private readonly gamesList = h('ul', { id: 'my-games-list', class: 'my-games-list', 'data-testid': 'my-games-list', hidden: true });
  /** Challenges to you already announced. */
  private readonly heard = new Set<string>();
  /** Declined challenges of yours, until dismissed. */
  private declined: Challenge[] = [];
  /** The director's notices and the opponents' leave, until dismissed. */
  private kept: { id: number; notice: Notice }[] = [];
  private keptCount = 0;
  /** Challenges being answered (their buttons wait). */
  private readonly answering = new Set<string>();

  constructor(
    private readonly lobby: Lobby,
    private readonly nav: NoticeNav,
  ) {
    this.gamesButton.addEventListener('click', () => this.showGames(this.gamesList.hidden));
    this.games.append(this.gamesButton, this.gamesList);
    this.games.addEventListener('keydown', (ev) => {
      if (ev.key === 'Escape' && !this.gamesList.hidden) {
        this.showGames(false);
        this.gamesButton.focus();
      }
    });
    document.addEventListener('click', (ev) => {
      if (!this.gamesList.hidden && !this.games.contains(ev.target as Node)) this.showGames(false);
    });
    lobby.on((msg) => this.take(msg));
    document.addEventListener(LANG_CHANGED, () => {
      this.renderGames();
      this.renderChallenges();
    });
  }

  private take(msg: LobbyMessage): void {
    switch (msg.t) {
      case 'hello':
        if (!msg.me) {
          this.declined = [];
          this.kept = [];
          this.heard.clear();
        }
        this.renderGames();
        this.renderChallenges();
        break;
      case 'games':
        this.renderGames();
        break;
      case 'challenges':
        for (const c of this.lobby.incoming) {
          if (this.heard.has(c.id)) continue;
          this.heard.add(c.id);
          this.nav.say(t('challengeIn', { name: named(c.challenger), terms: challengeTerms(c, true) }), true);
        }
        this.renderChallenges();
        break;
      case 'news': {
        const c = msg.news.challenge;
        if (msg.news.type === 'challengeDeclined' && c && this.lobby.isMe(c.challenger.name)) {
          this.declined = [...this.declined.filter((d) => d.id !== c.id), c];
          this.nav.say(t('declined', { name: c.destUser.name, reason: declineText(c.declineReasonKey) }), true);
          this.renderChallenges();
        } else if (msg.news.type === 'challengeCanceled' && c && this.lobby.isMe(c.destUser.name)) {
          this.nav.say(t('challengeWithdrawn', { name: c.challenger.name }));
        } else if (msg.news.type === 'notice' && msg.news.notice) {
          // Correspondence: said at once; the e-mail digest comes later.
          this.notice(msg.news.notice);
        }
        break;
      }
      default:
        break;
    }
  }

  /** Says a correspondence notice; the director's and a leave are also shown until dismissed. */
  private notice(n: Notice): void {
    if (n.kind === 'your_move' || n.kind === 'draw_offered' || n.kind === 'time_low') {
      const date = n.deadline ? formatMoment(n.deadline) : '';
      if (n.kind === 'your_move') this.nav.say(t('noticeYourMove', { name: n.opponent, date }));
      else if (n.kind === 'draw_offered') this.nav.say(t('noticeDrawOffered', { name: n.opponent }), true);
      else this.nav.say(t('noticeTimeLow', { name: n.opponent, date }), true);
      return;
    }
    if (n.kind !== 'leave' && n.kind !== 'tournament_soon') document.dispatchEvent(new CustomEvent(DIRECTOR_NEWS, { detail: n }));
    this.kept = [...this.kept, { id: (this.keptCount += 1), notice: n }];
    this.nav.say(noticeText(n));
    this.renderChallenges();
  }

  private showGames(open: boolean): void {
    this.gamesList.hidden = !open;
    this.gamesButton.setAttribute('aria-expanded', String(open));
  }

  /** The header's button and list of open games, "your move" first. */
  private renderGames(): void {
    const games = this.lobby.me ? this.lobby.games : [];
    this.games.hidden = games.length === 0;
    if (!games.length) this.showGames(false);
    const mine = games.filter((g) => g.isMyTurn).length;
    this.games.dataset.count = String(games.length);
    this.games.dataset.yourMove = String(mine);
    this.gamesButton.replaceChildren(h('span', { 'aria-hidden': 'true' }, t('myGames')), h('span', { class: 'sr-only' }, t('myGamesCount', { n: games.length, m: mine })));
    if (mine) this.gamesButton.append(h('span', { class: 'badge', 'aria-hidden': 'true', 'data-testid': 'games-badge' }, String(mine)));
    keepingFocus(
      this.gamesList,
      () => this.gamesList.replaceChildren(...games.map((g) => h('li', {}, this.gameLink(g)))),
      () => this.gamesButton.focus(),
    );
  }

  /** A link to one's seat: "vs Bob (1500) · 5+3 · Your move". */
  private gameLink(g: OpenGame): HTMLElement {
    const o = g.opponent;
    const who = o.rating === undefined ? o.username : `${o.username} (${o.rating})`;
    const a = h(
      'a',
      { href: g.url, class: g.isMyTurn ? 'your-move' : undefined, 'data-testid': 'open-game', 'data-game': g.gameId, 'data-key': `game-${g.gameId}`, 'data-my-turn': String(g.isMyTurn) },
      h('span', { class: 'turn' }, t(g.isMyTurn ? 'yourMove' : 'theirMove')),
      ' ',
      h('span', {}, `${t('versus', { name: who })} · ${g.timeControl} · ${perfName(g.perf)}`),
      this.deadlineLine(g),
    );
    a.addEventListener('click', (ev) => {
      if (ev.button !== 0 || ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.altKey) return;
      ev.preventDefault();
      this.showGames(false);
      this.nav.openUrl(g.url);
    });
    return a;
  }

  /**
   * A correspondence game's time left and, on one's move, the deadline in
   * one's own time zone (from the list's time; booked leave, which moves the
   * deadline, is shown on the game's page).
   */
  private deadlineLine(g: OpenGame): HTMLElement | null {
    if (g.speed !== 'correspondence' || g.secondsLeft === null || g.secondsLeft === undefined) return null;
    const ms = g.secondsLeft * 1000;
    const parts = [t('timeLeftShort', { time: formatDays(ms) })];
    if (g.isMyTurn) parts.push(t('deadlineShort', { date: formatMoment(g.deadline ?? this.lobby.gamesAt + ms) }));
    return h('span', { class: 'deadline-line', 'data-testid': 'open-game-deadline' }, parts.join(' · '));
  }

  /** The challenges to you and yours, and the declined ones. */
  private renderChallenges(): void {
    const signedIn = this.lobby.me !== null;
    const incoming = signedIn ? this.lobby.incoming : [];
    const outgoing = signedIn ? this.lobby.outgoing : [];
    const items = [
      ...incoming.map((c) => this.incomingItem(c)),
      ...outgoing.map((c) => this.outgoingItem(c)),
      ...this.declined.map((c) => this.declinedItem(c)),
      ...(signedIn ? this.kept : []).map((k) => this.keptItem(k)),
    ];
    this.el.hidden = items.length === 0;
    keepingFocus(
      this.el,
      () => this.el.replaceChildren(...items),
      () => {
        const next = this.el.querySelector<HTMLElement>('button');
        if (next) next.focus();
        else this.nav.focusFallback();
      },
    );
  }

  /** A challenge to you: who, the terms, Accept, the reason and Decline. */
  private incomingItem(c: Challenge): HTMLElement {
    const id = `challenge-${c.id}`;
    const name = c.challenger.name;
    const accept = tx('button', 'accept', { type: 'button', class: 'primary', 'data-testid': 'challenge-accept', 'data-key': `accept-${c.id}` });
    accept.setAttribute('aria-label', t('acceptChallengeLabel', { name }));
    const reason = h('select', { id: `${id}-reason`, 'data-testid': 'decline-reason', 'data-key': `reason-${c.id}` });
    for (const r of DECLINE_REASONS) reason.append(h('option', { value: r }, t(`r_${r}` as Key)));
    const decline = tx('button', 'decline', { type: 'button', 'data-testid': 'challenge-decline', 'data-key': `decline-${c.id}` });
    decline.setAttribute('aria-label', t('declineChallengeLabel', { name }));
    if (this.answering.has(c.id)) for (const b of [accept, decline]) b.setAttribute('aria-disabled', 'true');
    accept.addEventListener('click', () => void this.answer(c, () => this.lobby.acceptChallenge(c.id).then((link) => this.nav.openUrl(link.url))));
    decline.addEventListener('click', () =>
      void this.answer(c, async () => {
        await this.lobby.decline(c.id, reason.value as DeclineReason);
        this.nav.say(t('challengeDeclinedNow'));
      }),
    );
    return h(
      'div',
      { class: 'notice incoming', role: 'group', 'aria-labelledby': `${id}-text`, 'data-testid': 'challenge-notice', 'data-challenge': c.id },
      h('p', { id: `${id}-text` }, t('challengeIn', { name: named(c.challenger), terms: challengeTerms(c, true) })),
      h('div', { class: 'buttons' }, accept, h('span', { class: 'reason' }, tx('label', 'declineReason', { for: `${id}-reason` }), reason), decline),
    );
  }

  /** A challenge of yours, waiting for the answer, with Cancel. */
  private outgoingItem(c: Challenge): HTMLElement {
    const id = `challenge-${c.id}`;
    const cancel = tx('button', 'cancel', { type: 'button', 'data-testid': 'challenge-cancel', 'data-key': `cancel-${c.id}` });
    cancel.setAttribute('aria-label', t('cancelChallengeLabel', { name: c.destUser.name }));
    if (this.answering.has(c.id)) cancel.setAttribute('aria-disabled', 'true');
    cancel.addEventListener('click', () =>
      void this.answer(c, async () => {
        await this.lobby.cancelChallenge(c.id);
        this.nav.say(t('challengeCancelledNow'));
      }),
    );
    return h(
      'div',
      { class: 'notice outgoing', role: 'group', 'aria-labelledby': `${id}-text`, 'data-testid': 'challenge-out', 'data-challenge': c.id },
      h('p', { id: `${id}-text` }, t('challengeOut', { name: named(c.destUser), terms: challengeTerms(c, false) })),
      h('div', { class: 'buttons' }, cancel),
    );
  }

  /** A challenge of yours that was declined: the reason, and Dismiss. */
  private declinedItem(c: Challenge): HTMLElement {
    const dismiss = tx('button', 'dismiss', { type: 'button', 'data-testid': 'declined-dismiss', 'data-key': `dismiss-${c.id}` });
    dismiss.addEventListener('click', () => {
      this.declined = this.declined.filter((d) => d.id !== c.id);
      this.renderChallenges();
    });
    return h(
      'div',
      { class: 'notice declined', 'data-testid': 'declined-notice', 'data-challenge': c.id, 'data-reason': c.declineReasonKey ?? 'generic' },
      h('p', {}, t('declined', { name: c.destUser.name, reason: declineText(c.declineReasonKey) })),
      h('div', { class: 'buttons' }, dismiss),
    );
  }

  /** A notice of the director or of leave, with Dismiss. */
  private keptItem(k: { id: number; notice: Notice }): HTMLElement {
    const dismiss = tx('button', 'dismiss', { type: 'button', 'data-testid': 'notice-dismiss', 'data-key': `notice-dismiss-${k.id}` });
    dismiss.addEventListener('click', () => {
      this.kept = this.kept.filter((x) => x.id !== k.id);
      this.renderChallenges();
    });
    const n = k.notice;
    // A tournament about to begin: its page, where the player is taken to their game.
    const open = n.kind === 'tournament_soon' ? tx('button', 'openTournament', { type: 'button', class: 'primary', 'data-testid': 'notice-open' }) : null;
    open?.addEventListener('click', () => n.kind === 'tournament_soon' && this.nav.openUrl(`/tournaments/${encodeURIComponent(n.tournament)}`));
    return h(
      'div',
      { class: `notice ${n.kind}`, 'data-testid': 'director-notice', 'data-kind': n.kind },
      h('p', {}, noticeText(n)),
      h('div', { class: 'buttons' }, open, dismiss),
    );
  }

  /** Answers challenge `c` with `act`; a refusal is announced from its code. */
  private async answer(c: Challenge, act: () => Promise<void>): Promise<void> {
    if (this.answering.has(c.id)) return;
    this.answering.add(c.id);
    this.renderChallenges();
    try {
      await act();
    } catch (e) {
      this.nav.say(errorText(e instanceof ApiError ? e.code : 'unknown'), true);
    } finally {
      this.answering.delete(c.id);
      this.renderChallenges();
    }
  }
}
