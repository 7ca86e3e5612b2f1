// A player's profile at `/@/{name}`: the name (and BOT title), member
// since, the rating of each category with its bounds beside the Laws'
// own categories and a small chart of its history, and the games, newest
// first, a page at a time, narrowed by result and category.

import { ChallengeBox } from './challenge';
import { ratingChart } from './chart';
import { h, row, select, tx } from './dom';
import { Key, LANG_CHANGED, plural, t } from './i18n';
import type { Lobby } from './lobby';
import { errorText, statusText } from './outcome';
import { fideName, perfLine, perfName } from './perf';
import { ApiError, Color } from './protocol';
import { fetchGames, fetchRatingHistory, fetchUser, GameFilter, GamePlayer, GameSummary, PERFS, profileUrl, RatingHistory, UserProfile } from './users';

/** Games asked for at a time. */
const PAGE = 20;

/** What a profile needs from the page. */
export interface ProfileNavigator {
  /** Opens the replay of `game` (listed on the profile of `name`). */
  openReplay(name: string, game: GameSummary): void;
  /** The account socket: who is signed in (the Challenge button is for others' profiles). */
  readonly lobby: Lobby;
}

/** A date and time in the page's language. */
function when(ms: number): string {
  return new Date(ms).toLocaleDateString(document.documentElement.lang, { day: 'numeric', month: 'short', year: 'numeric' });
}

/** "5+3", "½+0", "30 s+0", or the words for no clock. */
function controlText(game: GameSummary): string {
  const c = game.clock;
  if (!c) return t('noClock');
  const base = c.initial % 60 === 0 ? String(c.initial / 60) : c.initial === 30 ? '½' : c.initial === 15 ? '¼' : `${c.initial} s`;
  return `${base}+${c.increment}`;
}

/** A player of a game by name, the robot, or nobody signed in. */
function playerName(p: GamePlayer): string {
  if (p.user) return p.user.name;
  if (p.aiLevel !== undefined) return t('robotLevel', { level: p.aiLevel });
  return t('anonymous');
}

/** How a game went for the player whose profile it is. */
function outcomeFor(game: GameSummary, me: Color): { key: Key; cls: string } {
  if (game.status === 'aborted' || game.status === 'noStart') return { key: 'gameAborted', cls: 'aborted' };
  if (game.status === 'created' || game.status === 'started') return { key: 'gameOngoing', cls: 'ongoing' };
  if (!game.winner) return { key: 'gameDrawn', cls: 'draw' };
  return game.winner === me ? { key: 'gameWon', cls: 'win' } : { key: 'gameLost', cls: 'loss' };
}

/** The colour the player `id` had in `game` (White when neither side is theirs). */
export function colorOf(game: GameSummary, id: string): Color {
  return game.players.black.user?.id === id ? 'black' : 'white';
}

/** "1520?" for a provisional rating, with the word for screen readers. */
function ratingText(rating: number | undefined, provisional: boolean | undefined): HTMLElement {
  const el = h('span', { class: 'rating' }, rating === undefined ? '' : String(rating));
  if (rating !== undefined && provisional) el.append(h('span', { 'aria-hidden': 'true', title: t('provisional') }, '?'), h('span', { class: 'sr-only' }, ` (${t('provisional')})`));
  return el;
}

/** The profile of one player. */
export class ProfileView {
  readonly el = h('section', { class: 'profile', 'data-testid': 'profile', 'aria-labelledby': 'profile-name' });
  private user: UserProfile | null = null;
  private history: RatingHistory[] = [];
  private games: GameSummary[] = [];
  private filter: GameFilter = { result: '', perf: '' };
  private more = false;
  private loading = false;
  /** Bumped by every new list, so that an old answer is dropped. */
  private generation = 0;
  private problem: (() => string) | null = null;

  private readonly head = h('div', { class: 'profile-head' });
  private readonly ratings = h('section', { class: 'ratings', 'data-testid': 'ratings', 'aria-labelledby': 'ratings-title' });
  private readonly list = h('ol', { class: 'game-list', 'data-testid': 'game-list' });
  private readonly listStatus = h('p', { class: 'hint', role: 'status', 'data-testid': 'games-status' });
  private readonly moreButton = tx('button', 'moreGames', { type: 'button', 'data-testid': 'more-games', hidden: true });
  private readonly resultFilter = select('filter-result', [['', 'allResults'], ['win', 'wins'], ['loss', 'losses'], ['draw', 'draws']], '');
  private readonly perfFilter = select('filter-perf', [['', 'allCategories'], ...PERFS.map((p): [string, Key] => [p, `cat_${p}` as Key])], '');
  private readonly gamesSection: HTMLElement;
  private readonly challenge: ChallengeBox;

  constructor(
    readonly name: string,
    private readonly nav: ProfileNavigator,
  ) {
    this.moreButton.addEventListener('click', () => void this.loadGames(true));
    this.resultFilter.addEventListener('change', () => {
      this.filter = { ...this.filter, result: this.resultFilter.value as GameFilter['result'] };
      void this.loadGames(false);
    });
    this.perfFilter.addEventListener('change', () => {
      this.filter = { ...this.filter, perf: this.perfFilter.value as GameFilter['perf'] };
      void this.loadGames(false);
    });
    this.gamesSection = h(
      'section',
      { class: 'games', 'data-testid': 'games', 'aria-labelledby': 'games-title' },
      tx('h3', 'games', { id: 'games-title' }),
      h('p', { class: 'summary', 'data-testid': 'games-summary' }),
      h('div', { class: 'filters' }, row('filterResult', this.resultFilter), row('category', this.perfFilter)),
      this.list,
      this.listStatus,
      this.moreButton,
    );
    this.head.append(h('h2', { id: 'profile-name', tabindex: -1 }, name));
    this.challenge = new ChallengeBox(nav.lobby, name);
    this.el.append(this.head, this.challenge.el, this.ratings, this.gamesSection);
    this.gamesSection.hidden = true;
    document.addEventListener(LANG_CHANGED, this.relabel);
    void this.load();
  }

  /** Leaves the profile. */
  close(): void {
    this.challenge.close();
    document.removeEventListener(LANG_CHANGED, this.relabel);
  }

  /** Focuses the link of game `id` in the list (back from its replay), or the name. */
  focus(id: string | null = null): void {
    const link = id ? this.list.querySelector<HTMLElement>(`[data-game="${CSS.escape(id)}"]`) : null;
    (link ?? this.el.querySelector<HTMLElement>('#profile-name'))?.focus();
  }

  /** The game listed with id `id`, if it is. */
  game(id: string): GameSummary | null {
    return this.games.find((g) => g.id === id) ?? null;
  }

  /** The player's account (once loaded). */
  profile(): UserProfile | null {
    return this.user;
  }

  private readonly relabel = (): void => {
    this.renderHead();
    this.renderRatings();
    this.renderGames(0);
  };

  private async load(): Promise<void> {
    try {
      this.user = await fetchUser(this.name);
    } catch (e) {
      const code = e instanceof ApiError ? e.code : 'unknown';
      this.problem = () => (code === '404' || code === 'not_found' ? t('noSuchPlayer') : errorText(code));
      this.renderHead();
      return;
    }
    this.gamesSection.hidden = false;
    this.challenge.enable();
    this.renderHead();
    this.renderRatings();
    const games = this.loadGames(false);
    try {
      this.history = await fetchRatingHistory(this.user.username);
    } catch {
      this.history = [];
    }
    this.renderRatings();
    await games;
  }

  /** The name, BOT title, member since, last seen; or why there is no profile. */
  private renderHead(): void {
    const u = this.user;
    const title = h('h2', { id: 'profile-name', tabindex: -1, 'data-testid': 'profile-name' }, u?.username ?? this.name);
    if (u?.title === 'BOT') title.append(' ', h('abbr', { class: 'bot-title', title: t('botAccount'), 'data-testid': 'bot-title' }, t('botTitle')));
    const hadFocus = document.activeElement?.id === 'profile-name';
    const lines: HTMLElement[] = [title];
    if (this.problem) lines.push(h('p', { class: 'error', role: 'alert', 'data-testid': 'profile-error' }, this.problem()));
    if (u) {
      lines.push(h('p', { 'data-testid': 'member-since' }, t('memberSince', { date: when(u.createdAt) })));
      if (u.seenAt) lines.push(h('p', { class: 'hint' }, t('lastSeen', { date: when(u.seenAt) })));
    }
    this.head.replaceChildren(...lines);
    if (hadFocus) title.focus();
    document.title = `${u?.username ?? this.name} — ${t('title')}`;
  }

  /** Each category played: the rating ("?" while provisional), the games, the bounds and the Laws' categories, the chart. */
  private renderRatings(): void {
    const u = this.user;
    if (!u) return;
    const played = PERFS.filter((p) => (u.perfs[p]?.games ?? 0) > 0);
    const items = played.map((p) => {
      const r = u.perfs[p]!;
      const history = this.history.find((e) => e.name.replace(/\s/g, '').toLowerCase() === p.toLowerCase());
      return h(
        'li',
        { class: 'perf', 'data-testid': 'perf', 'data-perf': p },
        h('h4', {}, perfName(p), ' ', ratingText(r.rating, r.prov)),
        h('p', { class: 'games-count' }, plural('n_games', r.games)),
        h('p', { class: 'hint' }, perfLine(p)),
        history ? ratingChart(perfName(p), history.points) : null,
      );
    });
    this.ratings.replaceChildren(
      tx('h3', 'ratings', { id: 'ratings-title' }),
      items.length ? h('ul', { class: 'perfs' }, ...items) : tx('p', 'noRatings'),
      tx('p', 'estimateNote', { class: 'hint' }),
    );
    const c = u.count;
    const summary = this.gamesSection.querySelector('.summary');
    if (summary) summary.textContent = `${plural('n_games', c.all)} · ${t('resultsSummary', { win: c.win, loss: c.loss, draw: c.draw })}`;
  }

  /** Loads the first page of games for the filter, or (with `next`) the page after the last shown. */
  private async loadGames(next: boolean): Promise<void> {
    if (!this.user || (next && this.loading)) return;
    const generation = ++this.generation;
    const until = next && this.games.length ? this.games[this.games.length - 1].createdAt - 1 : null;
    this.loading = true;
    this.moreButton.disabled = true;
    this.listStatus.textContent = t('loading');
    try {
      const page = await fetchGames(this.user.username, this.filter, PAGE, until);
      if (generation !== this.generation) return;
      const from = next ? this.games.length : 0;
      this.games = next ? [...this.games, ...page] : page;
      this.more = page.length === PAGE;
      this.renderGames(from);
      if (next) this.list.querySelectorAll<HTMLElement>('a.game-link')[from]?.focus();
    } catch (e) {
      if (generation !== this.generation) return;
      this.listStatus.textContent = errorText(e instanceof ApiError ? e.code : 'unknown');
    } finally {
      if (generation === this.generation) {
        this.loading = false;
        this.moreButton.disabled = false;
      }
    }
  }

  /** Draws the list of games (from item `from` on; the earlier ones stay). */
  private renderGames(from: number): void {
    const u = this.user;
    if (!u) return;
    while (this.list.children.length > from) this.list.lastElementChild!.remove();
    this.list.append(...this.games.slice(from).map((g) => this.gameItem(g, u.id)));
    this.listStatus.textContent = this.games.length ? t('gamesShown', { n: this.games.length }) : t('noGames');
    this.moreButton.hidden = !this.more;
  }

  /** One game: how it went, the opponent, the colour, the category and control, the reason, the moves, the date. */
  private gameItem(g: GameSummary, id: string): HTMLElement {
    const me = colorOf(g, id);
    const mine = g.players[me];
    const theirs = g.players[me === 'white' ? 'black' : 'white'];
    const outcome = outcomeFor(g, me);
    const opponent = theirs.rating === undefined ? playerName(theirs) : `${playerName(theirs)} (${theirs.rating}${theirs.provisional ? '?' : ''})`;
    const plies = g.moves.trim() ? g.moves.trim().split(/\s+/).length : 0;
    const diff = mine.ratingDiff === undefined ? '' : mine.ratingDiff > 0 ? `+${mine.ratingDiff}` : mine.ratingDiff < 0 ? `−${-mine.ratingDiff}` : '±0';
    const details = [
      `${perfName(g.perf)} ${controlText(g)}`,
      t(g.rated ? 'rated' : 'casualGame'),
      g.fideCategory ? `FIDE: ${fideName(g.fideCategory)}` : '',
      statusText(g.status),
      plural('n_moves', Math.ceil(plies / 2)),
    ].filter(Boolean);
    const link = h(
      'a',
      { class: `game-link ${outcome.cls}`, href: `${profileUrl(this.name)}?game=${encodeURIComponent(g.id)}`, 'data-testid': 'game-item', 'data-game': g.id, 'data-result': outcome.cls },
      h('span', { class: 'outcome' }, t(outcome.key)),
      h('span', { class: 'opponent' }, t('versus', { name: opponent }), ' ', t(me === 'white' ? 'withWhite' : 'withBlack')),
      diff ? h('span', { class: 'diff' }, diff) : null,
      h('span', { class: 'details' }, details.join(' · ')),
      h('span', { class: 'when' }, when(g.createdAt)),
    );
    link.addEventListener('click', (ev) => {
      if (ev.button !== 0 || ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.altKey) return;
      ev.preventDefault();
      this.nav.openReplay(this.name, g);
    });
    return h('li', {}, link);
  }
}
