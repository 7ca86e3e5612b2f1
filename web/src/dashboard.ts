// The correspondence dashboard (`/correspondence`, issue 17 point 14): one's
// correspondence games from `GET /api/account/games`, "your move" first,
// then by deadline; for each the time left in days and hours and the
// deadline as a date in the reader's time zone and language, the private
// notes (kept on the server), and an analysis board whose moves are never
// sent. The list follows the account socket's `games` messages.

import { AnalysisBoard } from './analysis';
import { formatDays, formatMoment } from './correspondence';
import { h, tx } from './dom';
import { t } from './i18n';
import type { Lobby, OpenGame } from './lobby';
import { notesBox } from './notes';
import { PageView } from './pageview';
import { errorText } from './outcome';
import { perfName } from './perf';
import { ApiError, call, other } from './protocol';

/** What the dashboard needs from the page. */
export interface DashboardNav {
  openUrl(url: string): void;
  say(text: string): void;
  signIn(opener: HTMLElement): void;
}

/** One's correspondence games in dashboard order: one's move first, then the nearest deadline. */
export function dashboardOrder(games: OpenGame[]): OpenGame[] {
  const due = (g: OpenGame): number => g.deadline ?? Number.MAX_SAFE_INTEGER;
  return games.filter((g) => g.speed === 'correspondence').sort((a, b) => Number(b.isMyTurn) - Number(a.isMyTurn) || due(a) - due(b));
}

/** A game's card: the parts redrawn when the list changes, and those kept (notes, analysis). */
interface Card {
  el: HTMLElement;
  head: HTMLElement;
  times: HTMLElement;
  analysis: AnalysisBoard | null;
  game: OpenGame;
}

/** The dashboard view. */
export class DashboardView extends PageView {
  readonly el: HTMLElement;
  protected readonly title = tx('h2', 'dashTitle', { tabindex: -1, 'data-testid': 'dash-title' });
  private readonly state = h('p', { class: 'dash-state', 'data-testid': 'dash-state', role: 'status' });
  private readonly list = h('ol', { class: 'dash-games', 'data-testid': 'dash-games' });
  private readonly cards = new Map<string, Card>();
  private games: OpenGame[] = [];

  constructor(
    lobby: Lobby,
    private readonly nav: DashboardNav,
  ) {
    super();
    this.el = h('section', { class: 'dashboard', 'data-testid': 'dashboard', 'aria-labelledby': 'dash-title' }, this.title, tx('p', 'dashIntro', { class: 'hint' }), this.state, this.list);
    this.title.id = 'dash-title';
    this.follow(lobby, (msg) => msg.t === 'hello' || msg.t === 'games');
  }

  /** Reads one's games from the server. */
  protected async load(): Promise<void> {
    try {
      const answer = await call<{ games: OpenGame[] }>('GET', '/api/account/games');
      this.games = dashboardOrder(answer.games);
      this.state.replaceChildren(this.games.length ? t('dashCount', { n: this.games.length, m: this.games.filter((g) => g.isMyTurn).length }) : t('dashNone'));
      this.state.dataset.state = 'ready';
    } catch (e) {
      this.games = [];
      const code = e instanceof ApiError ? e.code : 'unknown';
      this.state.dataset.state = code;
      if (code === 'unauthorized') {
        const b = tx('button', 'signIn', { type: 'button', 'data-testid': 'dash-sign-in' });
        b.addEventListener('click', () => this.nav.signIn(b));
        this.state.replaceChildren(t('dashSignIn'), ' ', b);
      } else this.state.replaceChildren(errorText(code));
    }
    this.render();
  }

  /** Draws the cards in order, keeping each game's notes and analysis board. */
  protected render(): void {
    const ids = new Set(this.games.map((g) => g.gameId));
    for (const [id, card] of this.cards) {
      if (!ids.has(id)) {
        card.el.remove();
        this.cards.delete(id);
      }
    }
    this.games.forEach((g, i) => {
      const card = this.cards.get(g.gameId) ?? this.card(g);
      card.game = g;
      this.fill(card);
      // Moved only when out of place, so that a field being typed in keeps its focus.
      if (this.list.children[i] !== card.el) this.list.insertBefore(card.el, this.list.children[i] ?? null);
    });
  }

  /** A new card for `g`. */
  private card(g: OpenGame): Card {
    const head = h('h3', { class: 'dash-head', id: `dash-head-${g.gameId}` });
    const times = h('p', { class: 'dash-times', 'data-testid': 'dash-times' });
    const board = h('div', { class: 'dash-analysis', id: `analysis-${g.gameId}`, hidden: true });
    const toggle = tx('button', 'analysisOpen', { type: 'button', 'data-testid': 'analysis-open', 'aria-expanded': 'false', 'aria-controls': `analysis-${g.gameId}`, 'aria-describedby': `dash-head-${g.gameId}` });
    const el = h('li', { class: 'dash-game', 'data-testid': 'dash-game', 'data-game': g.gameId, 'aria-labelledby': `dash-head-${g.gameId}` }, head, times, notesBox(g.gameId), toggle, board);
    const card: Card = { el, head, times, analysis: null, game: g };
    toggle.addEventListener('click', () => {
      const open = board.hidden;
      board.hidden = !open;
      toggle.setAttribute('aria-expanded', String(open));
      if (open && !card.analysis) {
        card.analysis = new AnalysisBoard(card.game.fen ?? 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', card.game.color, (text) => this.nav.say(text), card.game.gameId);
        board.append(card.analysis.el);
      }
      if (open) this.nav.say(t('analysisOpened'));
    });
    this.cards.set(g.gameId, card);
    return card;
  }

  /** Writes a card's heading and times from its game. */
  private fill(card: Card): void {
    const g = card.game;
    const o = g.opponent;
    const who = o.rating === undefined ? o.username : `${o.username} (${o.rating})`;
    const link = h('a', { href: g.url, 'data-testid': 'dash-link' }, t('versus', { name: who }));
    link.addEventListener('click', (ev) => {
      if (ev.button !== 0 || ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.altKey) return;
      ev.preventDefault();
      this.nav.openUrl(g.url);
    });
    card.el.dataset.myTurn = String(g.isMyTurn);
    card.el.classList.toggle('your-move', g.isMyTurn);
    card.head.replaceChildren(h('span', { class: 'turn', 'data-testid': 'dash-turn' }, t(g.isMyTurn ? 'yourMove' : 'theirMove')), ' ', link);
    const parts = [`${g.timeControl} · ${perfName(g.perf)}${g.rules === 'iccf' ? ` · ${t('iccfRules')}` : ''}`];
    if (g.secondsLeft !== null && g.secondsLeft !== undefined) parts.push(t('timeLeftShort', { time: formatDays(g.secondsLeft * 1000) }));
    if (g.deadline) parts.push(g.isMyTurn ? t('deadlineYours', { date: formatMoment(g.deadline) }) : t('deadlineOf', { color: t(other(g.color)), date: formatMoment(g.deadline) }));
    card.times.textContent = parts.join(' · ');
    card.times.dataset.deadline = String(g.deadline ?? '');
  }
}
