// The page: a board ready to play, the settings panel, and the game view at
// `/g/{id}#{token}`; `/j/{invite}` takes a friend's invitation; `/@/{name}`
// is a player's profile, and `/@/{name}?game={id}` the replay of a game of
// theirs; `/director` is the director's page and `/tournaments/{id}` a
// tournament's (ICCF 14); `/simuls` lists the simultaneous exhibitions and
// `/simuls/{id}` is one's. Who is signed in is shown in the header of every
// page.

import { ACCESS_CHANGED, accessPanel, Announcer, prefs, setPrefs, speak } from './access';
import { AccountBox } from './account';
import { Board } from './board';
import { DashboardView } from './dashboard';
import { DirectorNav, DirectorView } from './directorview';
import type { PageView } from './pageview';
import { h, translateAll, tx } from './dom';
import { Frame, GameView } from './game';
import type { Invitation } from './invite';
import { Key, LANGS, Lang, parseLang, setLang, t } from './i18n';
import { Lobby } from './lobby';
import { LobbyPanel } from './lobbyview';
import { Notices } from './notices';
import { errorText } from './outcome';
import { colorOf, ProfileView } from './profile';
import { ApiError, createGame, NewGame, takeInvite } from './protocol';
import { ReplayView } from './replay';
import { SimulListView, SimulView } from './simul';
import { TournamentView } from './tournament';
import { TournamentListView } from './tournamentlist';
import { saveSettings, SettingsPanel, settingsPanel } from './settings';
import { play, setSound, soundOn } from './sound';
import type { GameSummary } from './users';

const LANG_KEY = 'rochade.lang';

/** A toggle button; its state is shown in `aria-pressed` and `data-state`. */
function toggle(testid: string, onClick: () => void): HTMLButtonElement {
  const b = h('button', { type: 'button', class: 'toggle', 'data-testid': testid });
  b.addEventListener('click', onClick);
  return b;
}

/** Line icons (24×24, drawn with the text colour). */
const ICONS = {
  soundOn: '<path d="M4 9h4l5-4v14l-5-4H4z"/><path d="M16 9a4 4 0 0 1 0 6M18.5 6.5a8 8 0 0 1 0 11"/>',
  soundOff: '<path d="M4 9h4l5-4v14l-5-4H4z"/><path d="M16 9l5 6M21 9l-5 6"/>',
  fullscreen: '<path d="M4 9V4h5M20 9V4h-5M4 15v5h5M20 15v5h-5"/>',
};

/** Shows a toggle's state: an icon, and a label that a phone hides. */
function showToggle(b: HTMLButtonElement, on: boolean, icon: keyof typeof ICONS, label: string): void {
  b.setAttribute('aria-pressed', String(on));
  b.dataset.state = on ? 'on' : 'off';
  b.title = label;
  const svg = h('span', { class: 'icon', 'aria-hidden': 'true' });
  svg.innerHTML = `<svg viewBox="0 0 24 24" width="18" height="18" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">${ICONS[icon]}</svg>`;
  b.replaceChildren(svg, h('span', { class: 'label' }, label));
}

/** The visible link, first in the tab order, that switches screen-reader mode on and off. */
function toggleLink(onClick: () => void): HTMLAnchorElement {
  const a = h('a', { href: '#', class: 'access-link', 'data-testid': 'access-link', role: 'button' });
  a.addEventListener('click', (ev) => {
    ev.preventDefault();
    onClick();
  });
  a.addEventListener('keydown', (ev) => {
    if (ev.key === ' ') {
      ev.preventDefault();
      onClick();
    }
  });
  return a;
}

/** True when settings `s` let the player make White's first move on the start board. */
function firstMoveStarts(s: NewGame): boolean {
  return s.chess960 === null && (s.opponent === 'local' || s.color === 'white');
}

class App {
  private readonly frame: Frame;
  private game: GameView | null = null;
  private settings: SettingsPanel | null = null;
  private readonly sound = toggle('sound', () => this.toggleSound());
  private readonly full = toggle('fullscreen', () => void this.toggleFullscreen());
  private readonly access: HTMLAnchorElement;
  private readonly main: HTMLElement;
  private readonly account: AccountBox;
  private profile: ProfileView | null = null;
  private replay: ReplayView | null = null;
  private readonly lobby = new Lobby();
  private lobbyPanel: LobbyPanel | null = null;
  /** A page of its own (the dashboard, the director's, a tournament's) and its address. */
  private page: { view: PageView; path: string } | null = null;

  constructor(root: HTMLElement) {
    setLang(parseLang(localStorage.getItem(LANG_KEY)) ?? parseLang(navigator.language) ?? 'en');
    document.body.classList.toggle('reader', prefs().reader);
    const announcer = new Announcer();
    const board = new Board(
      (uci) => this.boardMove(uci),
      (text) => announcer.say(text),
      (text) => speak(text),
    );
    board.grid.setInteractive(prefs().reader);
    const bar = (place: string) => {
      const name = h('span', { class: 'name', 'data-testid': `name-${place}` });
      // The face is named for the screen reader ("White clock"); the time is in its own span.
      const label = h('span', { class: 'sr-only' });
      const clock = h('span', { class: 'time' });
      const face = h('span', { class: 'clock', hidden: true }, label, clock);
      return { bar: h('div', { class: `bar ${place}`, 'data-testid': `bar-${place}` }, name, face), name, clock, label, face };
    };
    const top = bar('top');
    const bottom = bar('bottom');
    const side = h('div', { class: 'side-content' });
    this.frame = { board, side, announcer, bars: { top, bottom } };
    this.access = toggleLink(() => setPrefs({ reader: !prefs().reader }));
    document.addEventListener(ACCESS_CHANGED, () => {
      board.grid.setInteractive(prefs().reader);
      this.relabel();
    });

    const language = h('select', { 'data-testid': 'language', 'aria-label': 'Language / Jazyk' });
    for (const [code, name] of LANGS) language.append(h('option', { value: code }, name));
    language.value = document.documentElement.lang;
    language.addEventListener('change', () => {
      localStorage.setItem(LANG_KEY, language.value);
      setLang(language.value as Lang);
      this.relabel();
    });
    document.addEventListener('fullscreenchange', () => this.relabel());

    this.account = new AccountBox((text) => announcer.say(text), this.lobby);
    const notices = new Notices(this.lobby, {
      openUrl: (url) => this.openUrl(url),
      say: (text, urgent) => announcer.say(text, urgent),
      focusFallback: () => (root.querySelector<HTMLElement>('[data-testid="account-button"]') ?? root.querySelector<HTMLElement>('.logo'))?.focus(),
    });
    // A new game answering one's own seek or challenge: the page goes to one's seat; so does
    // one's next game after a tournament's game is over (lichess's way; tournament.ts does it on
    // the event's page).
    this.lobby.on((msg) => {
      if (msg.t !== 'game') return;
      if (this.lobby.expecting()) this.openUrl(msg.url);
      else if (this.game?.finishedTournament()) {
        announcer.say(t('tnNextGame'));
        this.openUrl(msg.url);
      }
    });
    this.main = h('main', { 'data-view': 'play' }, h('section', { class: 'play' }, top.bar, board.el, bottom.bar), h('aside', { class: 'side' }, side, accessPanel()));
    root.replaceChildren(
      h(
        'header',
        {},
        this.access,
        h('h1', { class: 'site' }, h('a', { href: '/', class: 'logo', 'data-testid': 'home' }, 'Rochade')),
        notices.games,
        this.account.el,
        h('div', { class: 'tools' }, language, this.sound, this.full),
      ),
      notices.el,
      this.main,
      announcer.polite,
      announcer.urgent,
    );
    root.querySelector<HTMLAnchorElement>('.logo')!.addEventListener('click', (ev) => {
      ev.preventDefault();
      this.newGame(null);
    });
    window.addEventListener('popstate', () => void this.route());
    this.relabel();
    void this.route();
  }

  /** Re-writes every text in the current language. */
  private relabel(): void {
    translateAll();
    if (!this.profile) document.title = t('title');
    showToggle(this.sound, soundOn(), soundOn() ? 'soundOn' : 'soundOff', soundOn() ? t('soundOn') : t('soundOff'));
    const fs = document.fullscreenElement !== null;
    showToggle(this.full, fs, 'fullscreen', t('fullscreen'));
    this.access.textContent = prefs().reader ? t('leaveAccess') : t('skipToAccess');
    this.access.setAttribute('aria-pressed', String(prefs().reader));
    this.frame.board.orient(this.frame.board.orientation());
    this.game?.render();
  }

  private toggleSound(): void {
    setSound(!soundOn());
    if (soundOn()) play('move');
    this.relabel();
  }

  private async toggleFullscreen(): Promise<void> {
    try {
      if (document.fullscreenElement) await document.exitFullscreen();
      else await document.documentElement.requestFullscreen();
    } catch (e) {
      console.warn('fullscreen refused', e);
    }
    this.relabel();
  }

  /** Shows what the address asks for. */
  private async route(): Promise<void> {
    const path = location.pathname;
    const game = /^\/g\/([^/]+)$/.exec(path);
    const join = /^\/j\/([^/]+)$/.exec(path);
    const player = /^\/@\/([^/]+)$/.exec(path);
    if (player) {
      this.leavePage();
      this.showProfile(decodeURIComponent(player[1]), new URLSearchParams(location.search).get('game'));
      return;
    }
    this.leaveProfile();
    if (path === '/correspondence' || path === '/director' || path === '/simuls' || path === '/tournaments' || /^\/(tournaments|simuls)\/[^/]+$/.test(path)) {
      this.showPage(path);
      return;
    }
    this.leavePage();
    if (game) {
      const id = decodeURIComponent(game[1]);
      const token = location.hash.slice(1) || localStorage.getItem(`rochade.token.${id}`);
      this.show(id, token || null);
    } else if (join) {
      await this.join(decodeURIComponent(join[1]));
    } else this.home();
  }

  /**
   * A page of its own at `path`: one's correspondence games
   * (`/correspondence`), the director's page (`/director`) or a
   * tournament's (`/tournaments/{id}`); kept when it is open already.
   */
  private showPage(path: string): void {
    this.leaveLobby();
    this.game?.close();
    this.game = null;
    this.settings = null;
    if (this.page?.path === path) return;
    this.leavePage();
    const nav: DirectorNav = {
      go: (to) => {
        if (to.startsWith('/g/')) this.openUrl(to);
        else {
          history.pushState(null, '', to);
          void this.route();
        }
      },
      openUrl: (url) => this.openUrl(url),
      say: (text) => this.frame.announcer.say(text),
      signIn: (opener) => this.account.open('signin', opener),
    };
    const tournament = /^\/tournaments\/([^/]+)$/.exec(path);
    const simul = /^\/simuls\/([^/]+)$/.exec(path);
    const view = tournament
      ? new TournamentView(decodeURIComponent(tournament[1]), this.lobby, nav)
      : path === '/tournaments'
        ? new TournamentListView(this.lobby, nav)
        : simul
        ? new SimulView(decodeURIComponent(simul[1]), this.lobby, nav)
        : path === '/simuls'
          ? new SimulListView(this.lobby, nav)
          : path === '/director'
            ? new DirectorView(this.lobby, nav)
            : new DashboardView(this.lobby, nav);
    this.page = { view, path };
    this.main.prepend(view.el);
    this.main.dataset.view = view instanceof DashboardView ? 'dashboard' : 'directed';
    document.title = `${t(tournament ? 'tnTitle' : path === '/tournaments' ? 'tnListTitle' : simul || path === '/simuls' ? 'simTitle' : path === '/director' ? 'directorTitle' : 'dashTitle')} · ${t('title')}`;
    view.focus();
  }

  /** Closes the page of its own (the page goes elsewhere). */
  private leavePage(): void {
    if (!this.page) return;
    this.page.view.close();
    this.page.view.el.remove();
    this.page = null;
    this.main.dataset.view = 'play';
  }

  /** The profile of `name`, or with `gameId` the replay of one of their games. */
  private showProfile(name: string, gameId: string | null): void {
    this.leaveLobby();
    this.game?.close();
    this.game = null;
    this.settings = null;
    if (this.profile?.name !== name) {
      this.leaveProfile();
      this.profile = new ProfileView(name, { openReplay: (n, g) => this.openReplay(n, g), lobby: this.lobby });
      this.main.prepend(this.profile.el);
    }
    const profile = this.profile;
    const from = this.replay?.id ?? null;
    this.replay?.close();
    this.replay = null;
    if (gameId) {
      this.main.dataset.view = 'replay';
      const listed = profile.game(gameId);
      const id = profile.profile()?.id ?? name.toLowerCase();
      const href = `/@/${encodeURIComponent(name)}`;
      const back = () => {
        history.pushState(null, '', href);
        this.showProfile(name, null);
      };
      const bottom = listed ? colorOf(listed, id) : 'white';
      const sides = { white: this.sideName(listed, 'white'), black: this.sideName(listed, 'black'), bottom, status: listed?.status ?? null };
      this.replay = new ReplayView(this.frame, gameId, sides, { name: profile.profile()?.username ?? name, href, back });
      this.replay.focus();
    } else {
      this.main.dataset.view = 'profile';
      this.frame.bars.top.name.textContent = '';
      this.frame.bars.bottom.name.textContent = '';
      if (from) profile.focus(from);
    }
  }

  /** A player's name as the game list knows it (before the replay says). */
  private sideName(game: GameSummary | null, color: 'white' | 'black'): string {
    const p = game?.players[color];
    if (!p) return t(color);
    return p.user?.name ?? (p.aiLevel !== undefined ? t('robotLevel', { level: p.aiLevel }) : t('anonymous'));
  }

  /** Opens the replay of `game` from the profile of `name`. */
  private openReplay(name: string, game: GameSummary): void {
    history.pushState(null, '', `/@/${encodeURIComponent(name)}?game=${encodeURIComponent(game.id)}`);
    this.showProfile(name, game.id);
  }

  /** Closes the profile and its replay (the page goes elsewhere). */
  private leaveProfile(): void {
    this.replay?.close();
    this.replay = null;
    this.profile?.close();
    this.profile?.el.remove();
    this.profile = null;
    this.main.dataset.view = 'play';
    document.title = t('title');
  }

  /** The settings panel next to a board in the start position. */
  private home(): void {
    this.leaveProfile();
    this.leavePage();
    this.leaveLobby();
    this.game?.close();
    this.game = null;
    this.frame.bars.top.name.textContent = '';
    this.frame.bars.bottom.name.textContent = '';
    this.frame.board.orient('white');
    const panel = settingsPanel(
      (s) => this.create(s, null),
      (s) => this.frame.board.idle(s !== null && firstMoveStarts(s)),
    );
    this.settings = panel;
    this.frame.board.idle(false);
    this.lobbyPanel = new LobbyPanel(this.lobby, {
      openUrl: (url) => this.openUrl(url),
      signIn: (opener) => this.account.open('signin', opener),
      say: (text) => this.frame.announcer.say(text),
    });
    // The site's other pages for everyone, signed in or not.
    const link = (href: string, testid: string, label: Key): HTMLAnchorElement => {
      const a = h('a', { href, 'data-testid': testid, 'data-i18n': label }, t(label));
      a.addEventListener('click', (ev) => {
        if (ev.button !== 0 || ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.altKey) return;
        ev.preventDefault();
        history.pushState(null, '', href);
        void this.route();
      });
      return a;
    };
    const pages = h(
      'nav',
      { class: 'site-pages', 'data-i18n-label': 'pagesNav', 'aria-label': t('pagesNav') },
      h('ul', {}, h('li', {}, link('/tournaments', 'tournaments-link', 'tnListMenu')), h('li', {}, link('/simuls', 'simuls-link', 'simTitle'))),
    );
    this.frame.side.replaceChildren(panel.el, this.lobbyPanel.el, pages);
  }

  /** Closes the lobby panel (the page leaves the start page). */
  private leaveLobby(): void {
    this.lobbyPanel?.close();
    this.lobbyPanel = null;
  }

  /**
   * Goes to a seat's address (`/g/{id}#{token}`) from the lobby, a
   * challenge or the list of games; one's other open seeks are withdrawn
   * when a game starts from one of them.
   */
  openUrl(url: string): void {
    const m = /^\/g\/([^/#?]+)#?(.*)$/.exec(url);
    if (!m) {
      location.assign(url);
      return;
    }
    const id = decodeURIComponent(m[1]);
    if (location.pathname === `/g/${encodeURIComponent(id)}` && this.game?.id === id) return;
    const open = new Set(this.lobby.seeks.map((s) => s.id));
    for (const seek of [...this.lobby.mine]) if (open.has(seek)) this.lobby.cancel(seek);
    this.openGame(id, m[2] || null);
  }

  /** A move on the board: the game's, or on the start board the first move of a new game. */
  private boardMove(uci: string): void {
    if (this.game) this.game.boardMove(uci);
    else {
      const s = this.settings?.current();
      if (s && firstMoveStarts(s)) void this.create(s, uci).catch(() => this.frame.board.idle(true));
      else this.frame.board.idle(false);
    }
  }

  /** Starts the view of game `id`; `firstMove` is played as soon as the game is there. */
  private show(id: string, token: string | null, firstMove: string | null = null): void {
    this.leaveProfile();
    this.leavePage();
    this.leaveLobby();
    this.game?.close();
    this.settings = null;
    const stored = sessionStorage.getItem(`rochade.game.${id}`);
    const { settings, invitation } = stored
      ? (JSON.parse(stored) as { settings: NewGame | null; invitation: Invitation | null })
      : { settings: null, invitation: null };
    this.game = new GameView(this.frame, id, token, this, settings, invitation, firstMove);
  }

  /** Takes a friend's invitation and moves on to the game. */
  private async join(invite: string): Promise<void> {
    try {
      const seat = await takeInvite(invite);
      localStorage.setItem(`rochade.token.${seat.game}`, seat.token);
      history.replaceState(null, '', `/g/${encodeURIComponent(seat.game)}#${seat.token}`);
      this.show(seat.game, seat.token);
    } catch (e) {
      const key = e instanceof ApiError && e.code === 'seat_taken' ? 'seatTaken' : 'notFound';
      this.home();
      this.frame.side.prepend(tx('p', key, { class: 'error', 'data-testid': 'join-error', role: 'alert' }));
    }
  }

  /** Creates a game with `s` and opens it, playing `firstMove` in it. */
  private async create(s: NewGame, firstMove: string | null): Promise<void> {
    const created = await createGame(s);
    saveSettings(s);
    const invitation: Invitation = { invite: created.invite, links: created.links };
    sessionStorage.setItem(`rochade.game.${created.game}`, JSON.stringify({ settings: s, invitation }));
    this.openGame(created.game, created.token, firstMove);
  }

  /** Opens game `id` with seat `token` (from a rematch or a new game). */
  openGame(id: string, token: string | null, firstMove: string | null = null): void {
    if (token) localStorage.setItem(`rochade.token.${id}`, token);
    history.pushState(null, '', `/g/${encodeURIComponent(id)}${token ? `#${token}` : ''}`);
    this.show(id, token, firstMove);
  }

  /** Starts a game with `settings` at once, or shows the settings panel. */
  newGame(settings: NewGame | null): void {
    if (settings) {
      void this.create(settings, null).catch((e: unknown) => {
        this.home();
        this.frame.side.prepend(h('p', { class: 'error', role: 'alert' }, errorText(e instanceof ApiError ? e.code : 'unknown')));
      });
      return;
    }
    history.pushState(null, '', '/');
    this.home();
  }
}

new App(document.getElementById('app')!);
