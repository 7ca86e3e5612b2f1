// A tournament's page (`/tournaments/{id}`, ICCF 14; issue 18 points 7-9):
// its settings, joining and leaving, one's own game, the standings with the
// tie-breaks in columns, a round robin's crosstable, each round's pairings
// with their results (a correspondence section: its games), downloads and
// the director's decisions, all kept live by the tournament's socket; new
// rounds, one's pairing and results are said in the live region, and a
// player is taken to their new game. For its director: adding players
// (after the start of a Swiss, late entries), starting it, the arbiter's
// controls (tnarbiter.ts), a decision on each game, and warnings,
// withdrawals and extra leave for a player, each with its reason.

import { openDecide } from './decide';
import { codeOf, decisionLine, fetchTournament, refusal, Tournament, tournamentAct } from './director';
import { DirectorNav, pageLink, pairing } from './directorview';
import { fault, h, row, select, tx } from './dom';
import { Key, t } from './i18n';
import type { Lobby } from './lobby';
import { resultText } from './outcome';
import { PageView } from './pageview';
import { ArbiterTools } from './tnarbiter';
import { arenaView, ownArenaGame } from './tnarena';
import { bracketView } from './tnbracket';
import { TournamentSocket } from './tnlive';
import { ownPairing, PlayerBox } from './tnplayer';
import { boardResult, byeText, crosstableView, pairingsView, standingsTable } from './tntables';
import { localInput, settingsFields } from './tnform';
import { reasonField, ToolForm, toolForm } from './tntool';
import { liveSettings, stateText } from './tnwords';

/** What was said about a tournament already (so a reload says only what is new). */
interface Seen {
  round: number;
  results: Map<string, string | null>;
  paused: boolean;
  status: string;
}

/** The page of one tournament. */
export class TournamentView extends PageView {
  readonly el: HTMLElement;
  protected readonly title = h('h2', { tabindex: -1, id: 'tn-title', 'data-testid': 'tn-title' });
  private readonly state = h('p', { class: 'hint', role: 'status', 'data-testid': 'tn-state' });
  private readonly body = h('div', { class: 'tn-body' });
  private readonly tools = h('div', { class: 'tn-tools', 'data-testid': 'tn-tools', hidden: true });
  private readonly gamesTitle = tx('h3', 'tnGames', { id: 'tn-games-title', tabindex: -1 });
  private readonly roundsTitle = tx('h3', 'tnRounds', { id: 'tn-rounds-title', tabindex: -1 });
  private readonly roundSelect = h('select', { 'data-testid': 'tn-round-select' });
  /** The round the reader chose; null: the newest, followed as rounds are paired. */
  private roundChosen: number | null = null;
  private readonly pairingsBox = h('div', { 'data-testid': 'tn-round-box' });
  private data: Tournament | null = null;
  /** The start time in the director's form. */
  private readonly startsAt = h('input', { type: 'datetime-local', 'data-testid': 'tn-reschedule-at' });
  private seen: Seen | null = null;
  private readonly playerSelect = h('select', { 'data-testid': 'tn-player' });
  private readonly player: PlayerBox;
  private readonly arbiter: ArbiterTools;
  private readonly startHint = tx('p', 'tnStartHint', { class: 'hint' });
  private readonly socket: TournamentSocket;
  private offGame: () => void;
  /** A new game of one's own the lobby told of, until the tournament shows it (Unix ms it came). */
  private pending: { game: string; url: string; at: number } | null = null;
  private loading: Promise<void> | null = null;
  private queued: Promise<void> | null = null;

  constructor(
    readonly id: string,
    private readonly lobby: Lobby,
    private readonly nav: DirectorNav,
  ) {
    super();
    this.player = new PlayerBox(id, lobby, nav, () => this.load());
    this.arbiter = new ArbiterTools(id, (f, text) => this.did(f, text));
    this.el = h('section', { class: 'tournament-page', 'data-testid': 'tournament-page', 'aria-labelledby': 'tn-title' }, this.title, this.state, this.player.el, this.body, this.tools);
    this.tools.append(this.addForm(), this.startForm(), this.rescheduleForm(), this.settingsForm(), this.callOffForm(), this.arbiter.el, this.playerForm());
    this.roundSelect.addEventListener('change', () => {
      const n = Number(this.roundSelect.value);
      this.roundChosen = n === this.data?.round ? null : n;
      if (this.data) this.pairingsBox.replaceChildren(this.roundPairings(this.data));
    });
    this.follow(lobby, (msg) => msg.t === 'hello' || msg.t === 'games' || (msg.t === 'news' && msg.news.type === 'notice'));
    this.offGame = lobby.on((msg) => {
      if (msg.t === 'game') {
        this.pending = { game: msg.game, url: msg.url, at: Date.now() };
        if (!this.takeToGame()) void this.load();
      }
    });
    this.socket = new TournamentSocket(id, () => void this.load());
  }

  close(): void {
    super.close();
    this.offGame();
    this.socket.close();
  }

  /** Reads the tournament again: one read at a time; asked during one, a single read after it (what it answers is newer than the asking). */
  protected load(): Promise<void> {
    if (this.loading) {
      this.queued ??= this.loading.then(() => {
        this.queued = null;
        return this.load();
      });
      return this.queued;
    }
    this.loading = this.read().finally(() => {
      this.loading = null;
    });
    return this.loading;
  }

  private async read(): Promise<void> {
    try {
      this.data = await fetchTournament(this.id);
      this.state.textContent = '';
      this.state.dataset.state = 'ready';
    } catch (e) {
      this.data = null;
      this.state.dataset.state = codeOf(e);
      this.state.replaceChildren(...refusal(e, { not_found: 'tnNotFound' }));
    }
    this.render();
    if (this.data) {
      this.announce(this.data);
      this.takeToGame();
    }
  }

  /** Goes to one's new game once the tournament shows it (lichess's way), saying so; true when it went. */
  private takeToGame(): boolean {
    const p = this.pending;
    const d = this.data;
    if (!p || !d) return false;
    if (Date.now() - p.at > 30_000) {
      this.pending = null;
      return false;
    }
    if (d.system === 'arena') {
      if (!ownArenaGame(d, p.game)) return false;
      this.pending = null;
      this.nav.say(t('arenaTakenToGame'));
      this.nav.openUrl(p.url);
      return true;
    }
    const last = d.pairings?.[d.round - 1];
    const board = last?.boards.find((b) => b.game === p.game);
    if (!board || board.result !== null) return false;
    this.pending = null;
    this.nav.say(t('tnTakenToGame', { n: last!.round }));
    this.nav.openUrl(p.url);
    return true;
  }

  /** Says in the live region what changed since the last read: a new round, one's pairing, results, the pause, the end. */
  private announce(d: Tournament): void {
    const results = new Map<string, string | null>();
    for (const r of d.pairings ?? []) for (const b of r.boards) results.set(`${r.round}/${b.board}`, b.result);
    const before = this.seen;
    this.seen = { round: d.round, results, paused: d.paused, status: d.status };
    if (!before) return;
    const lines: string[] = [];
    for (const r of d.pairings ?? []) {
      for (const b of r.boards) {
        const key = `${r.round}/${b.board}`;
        const was = before.results.get(key);
        if (b.result !== null && was !== undefined && was !== b.result) {
          lines.push(t('tnResultLine', { n: r.round, board: b.board, white: b.white.name ?? '?', black: b.black.name ?? '?', result: boardResult(b.result) }));
        }
      }
    }
    if (lines.length > 4) lines.splice(0, lines.length, t('tnResultsIn', { n: lines.length }));
    if (d.round > before.round) {
      lines.push(t('tnRoundPaired', { n: d.round }));
      const me = this.lobby.me?.name;
      const own = me ? ownPairing(d, me) : null;
      if (own?.board) {
        const b = own.board;
        const opponent = (own.color === 'white' ? b.black.name : b.white.name) ?? '?';
        lines.push(t('tnYourPairing', { n: d.round, board: b.board, color: t(own.color!), name: opponent, result: '' }));
      } else if (own?.bye) lines.push(t('tnYourBye', { n: d.round, what: byeText(own.bye) }));
    }
    if (d.paused !== before.paused && d.status !== 'finished') lines.push(t(d.paused ? 'tnPausedState' : 'tnRunningState'));
    if (d.status === 'finished' && before.status !== 'finished') lines.push(t('tnOver'));
    if (lines.length) this.nav.say(lines.join(' '));
  }

  /** True when the one signed in directs it. */
  private directs(): boolean {
    const me = this.lobby.me?.name.toLowerCase();
    return Boolean(me && this.data && this.data.director.toLowerCase() === me);
  }

  protected render(): void {
    const d = this.data;
    this.title.textContent = d ? d.name : t('tnTitle');
    if (d) document.title = `${d.name} · ${t('title')}`;
    this.tools.hidden = !d || !this.directs();
    if (!d) {
      this.body.replaceChildren();
      this.player.el.hidden = true;
      return;
    }
    // The focus stays where it was: on the same control, or on its new copy.
    const focus = document.activeElement;
    const active = focus instanceof HTMLElement && this.el.contains(focus) ? focus : null;
    const key = active?.dataset.key;
    this.player.el.hidden = false;
    this.player.render(d);
    const live = d.byRound;
    const arena = d.system === 'arena';
    this.body.replaceChildren(
      this.settings(d),
      this.downloads(d),
      this.players(d),
      ...(arena ? [arenaView(d, this.lobby.me?.name ?? null, (game, mine, text) => this.gameLink(game, mine, text))] : []),
      // An event called off before its start has no standings.
      arena || d.calledOff ? '' : live && d.started ? standingsTable(d, this.lobby.me?.name ?? null) : this.standings(d),
      live ? crosstableView(d) ?? '' : '',
      d.bracket ? bracketView(d.bracket) : '',
      ...(arena ? [] : live ? this.rounds(d) : [this.gamesTitle, this.games(d)]),
      this.decisions(d),
    );
    if (active && !active.isConnected && key) this.el.querySelector<HTMLElement>(`[data-key="${CSS.escape(key)}"]`)?.focus();
    else if (active && active.isConnected && document.activeElement !== active) active.focus();
    // The director's tools follow the tournament's state.
    const late = live && d.system === 'swiss' && d.status === 'started' && d.round < d.rounds;
    this.tools.querySelector<HTMLElement>('[data-testid="tn-add-form"]')!.hidden = d.started !== null && !late;
    const addTitle = this.tools.querySelector<HTMLElement>('#tn-add-title')!;
    addTitle.dataset.i18n = late ? 'tnLateEntry' : 'tnAddPlayer';
    addTitle.textContent = t(late ? 'tnLateEntry' : 'tnAddPlayer');
    this.startHint.dataset.i18n = live ? 'tnStartHintLive' : 'tnStartHint';
    this.startHint.textContent = t(live ? 'tnStartHintLive' : 'tnStartHint');
    // What is decided before the start only.
    for (const form of ['tn-start-form', 'tn-reschedule-form', 'tn-settings-box', 'tn-call-off-form']) this.tools.querySelector<HTMLElement>(`[data-testid="${form}"]`)!.hidden = d.started !== null;
    // The start as it stands, unless the director is changing it.
    if (document.activeElement !== this.startsAt) this.startsAt.value = d.startsAt ? localInput(d.startsAt) : '';
    this.arbiter.el.hidden = !live || d.status === 'finished';
    this.arbiter.update(d);
    const chosen = this.playerSelect.value;
    this.playerSelect.replaceChildren(...d.players.map((p) => h('option', { value: p.name }, p.name)));
    if (d.players.some((p) => p.name === chosen)) this.playerSelect.value = chosen;
  }

  /** The settings as a description list. */
  private settings(d: Tournament): HTMLElement {
    if (d.byRound || d.system === 'arena') return h('dl', { class: 'tn-settings', 'data-testid': 'tn-settings' }, ...liveSettings(d));
    const c960 = d.chess960 === null ? t('off') : d.chess960 === 'each_game' ? t('tnChess960Each') : t('tnChess960One', { n: d.chess960 });
    const item = (key: Key, value: string, testid: string): HTMLElement[] => [tx('dt', key), h('dd', { 'data-testid': testid }, value)];
    return h(
      'dl',
      { class: 'tn-settings', 'data-testid': 'tn-settings' },
      ...item('tnDirectorShown', d.director, 'tn-director-name'),
      ...item('timeControl', d.timeControl, 'tn-control'),
      ...item('tnRules', d.rules === 'iccf' ? t('iccfRules') : d.rules.toUpperCase(), 'tn-rules'),
      ...item('tnSystem', t(d.double ? 'tnDoubleShown' : 'tnSingleShown'), 'tn-system'),
      ...item('tnTripleBlock', t(d.tripleBlock ? 'yes' : 'no'), 'tn-triple-shown'),
      ...item('tnDrawsFrom', d.drawsFromMove ? t('tnDrawsFromShown', { n: d.drawsFromMove }) : t('tnDrawsAny'), 'tn-draws-shown'),
      ...item('chess960', c960, 'tn-chess960-shown'),
      ...item('tnSilence', String(d.silenceDays), 'tn-silence-shown'),
      ...item('tnState', stateText(d), 'tn-started'),
    );
  }

  /** A link to game `game`: one's own seat's, or the game's page to watch. */
  private gameLink(game: string, mine: boolean, text: string): HTMLElement {
    const seat = mine ? this.lobby.games.find((g) => g.gameId === game) : undefined;
    return pageLink(this.nav, seat?.url ?? `/g/${encodeURIComponent(game)}`, text, { 'data-testid': 'arena-game-link', 'data-key': `link-${game}` });
  }

  /** The downloads: the standings (CSV), every game (PGN), the TRF (none for an arena, which has no rounds). */
  private downloads(d: Tournament): HTMLElement | string {
    if (!d.started) return '';
    const base = `/api/tournaments/${encodeURIComponent(d.id)}`;
    const link = (what: string, key: Key, file: string): HTMLElement => h('li', {}, h('a', { href: `${base}/${what}`, download: file, 'data-testid': `tn-dl-${what}` }, t(key)));
    return h(
      'div',
      {},
      tx('h3', 'tnDownloads', { id: 'tn-downloads-title' }),
      h('ul', { class: 'tn-downloads', 'aria-labelledby': 'tn-downloads-title' }, link('standings', 'tnDlStandings', `rochade-${d.id}-standings.csv`), link('pgn', 'tnDlPgn', `rochade-${d.id}.pgn`), d.system === 'arena' ? '' : link('trf', 'tnDlTrf', `rochade-${d.id}.trf`)),
    );
  }

  /** The rounds: a selector and the chosen round's pairings (the newest unless the reader chose another). */
  private rounds(d: Tournament): HTMLElement[] {
    const paired = d.pairings ?? [];
    if (!paired.length) return [this.roundsTitle, tx('p', d.status === 'finished' ? 'tnNoRoundsOver' : 'tnNoRounds', { class: 'hint', 'data-testid': 'tn-no-rounds' })];
    if (this.roundChosen !== null && this.roundChosen > paired.length) this.roundChosen = null;
    const shown = this.roundChosen ?? paired.length;
    this.roundSelect.replaceChildren(...paired.map((r) => h('option', { value: r.round }, t(r.finished ? 'tnRoundDoneShort' : 'tnRoundGoingShort', { n: r.round }))));
    this.roundSelect.value = String(shown);
    this.pairingsBox.replaceChildren(this.roundPairings(d));
    return [this.roundsTitle, row('tnRoundChoose', this.roundSelect), this.pairingsBox];
  }

  /** The pairings of the round shown, with links and, for the director, a result to change. */
  private roundPairings(d: Tournament): HTMLElement {
    const paired = d.pairings ?? [];
    const round = paired[(this.roundChosen ?? paired.length) - 1];
    const directs = this.directs();
    return pairingsView(round, this.lobby.me?.name ?? null, {
      gameLink: (game, mine, describedBy) => {
        const seat = mine ? this.lobby.games.find((g) => g.gameId === game) : undefined;
        return pageLink(this.nav, seat?.url ?? `/g/${encodeURIComponent(game)}`, t(seat ? 'openMyGame' : 'openGame'), { 'data-testid': 'tn-board-link', 'data-key': `link-${game}`, 'aria-describedby': describedBy });
      },
      change: directs
        ? (b, describedBy) => {
            if (!b.game) return null;
            const game = b.game;
            if (b.result === null) {
              const players = pairing(b.white.name, b.black.name);
              const decide = tx('button', 'decideOpen', { type: 'button', 'data-testid': 'decide-open', 'data-key': `decide-${game}`, 'aria-describedby': describedBy });
              decide.addEventListener('click', () =>
                openDecide(game, players, decide, (text) => {
                  this.nav.say(text);
                  void this.load();
                }),
              );
              return decide;
            }
            const change = tx('button', 'tnChangeResult', { type: 'button', 'data-testid': 'tn-change-result', 'data-key': `change-${game}`, 'aria-describedby': describedBy });
            change.addEventListener('click', () => this.arbiter.changeResult(game));
            return change;
          }
        : undefined,
    });
  }

  /** The players, the withdrawn marked. */
  private players(d: Tournament): HTMLElement {
    return h(
      'div',
      {},
      tx('h3', 'tnPlayers', { id: 'tn-players-title' }),
      d.players.length
        ? h('ol', { 'data-testid': 'tn-players', 'aria-labelledby': 'tn-players-title' }, ...d.players.map((p) => h('li', { 'data-testid': 'tn-player-item' }, p.withdrawn ? t('tnWithdrawnName', { name: p.name }) : p.name)))
        : tx('p', 'tnNoPlayers', { class: 'hint' }),
    );
  }

  /** The standings of a correspondence section: points (1, ½, 0; ICCF 12.1), finished games. */
  private standings(d: Tournament): HTMLElement | string {
    const rows = d.standings ?? [];
    if (!d.started || !rows.length) return '';
    return standingsTable(d, this.lobby.me?.name ?? null);
  }

  /** The games with their results, links (one's own seat where one plays) and, for the director, Decide. */
  private games(d: Tournament): HTMLElement {
    const games = d.games ?? [];
    if (!games.length) return tx('p', 'tnNoGames', { class: 'hint' });
    const directs = this.directs();
    return h(
      'ul',
      { class: 'director-list', 'data-testid': 'tn-games', 'aria-labelledby': 'tn-games-title' },
      ...games.map((g) => {
        const mine = this.lobby.games.find((x) => x.gameId === g.id);
        const players = pairing(g.white, g.black);
        const id = `tn-game-${g.id}`;
        const item = h(
          'li',
          { 'data-testid': 'tn-game', 'data-game': g.id, 'data-result': g.result ?? '' },
          h('span', { id }, h('strong', {}, players), ` · ${g.result ? resultText(g.result) : t('gameOngoing')}`),
          ' ',
          pageLink(this.nav, mine?.url ?? `/g/${encodeURIComponent(g.id)}`, t(mine ? 'openMyGame' : 'openGame'), { 'data-testid': 'tn-game-link', 'aria-describedby': id }),
        );
        if (directs && !g.result) {
          const b = tx('button', 'decideOpen', { type: 'button', 'data-testid': 'decide-open', 'data-key': `decide-${g.id}`, 'aria-describedby': id });
          b.addEventListener('click', () =>
            openDecide(g.id, players, b, (text) => {
              this.nav.say(text);
              void this.load();
            }),
          );
          item.append(' ', b);
        }
        return item;
      }),
    );
  }

  /** The decisions log, newest first. */
  private decisions(d: Tournament): HTMLElement {
    const list = d.decisions ?? [];
    const name = (id: number | null): string => d.players.find((p) => p.id === id)?.name ?? '';
    const game = (id: string | null): string => {
      const g = d.games?.find((x) => x.id === id);
      return g ? pairing(g.white, g.black) : '';
    };
    return h(
      'div',
      {},
      tx('h3', 'decisionsTitle', { id: 'tn-decisions-title' }),
      list.length
        ? h(
            'ol',
            { class: 'decisions', 'data-testid': 'tn-decisions', 'aria-labelledby': 'tn-decisions-title' },
            ...list.map((x) => {
              const about = [game(x.game), x.game ? '' : name(x.player)].filter(Boolean).join('');
              return h('li', { 'data-testid': 'tn-decision', 'data-act': x.decision.act }, about ? h('strong', {}, `${about}: `) : null, decisionLine(d.director, x.decision, x.reason));
            }),
          )
        : tx('p', 'decisionsNone', { class: 'hint' }),
    );
  }

  /** A form of the director's tools (tntool.ts). */
  private tool(testid: string, titleKey: Key, sendKey: Key, fields: HTMLElement[], act: (f: ToolForm) => Promise<void>): HTMLFormElement {
    return toolForm(testid, titleKey, sendKey, fields, act).form;
  }

  /** Shows and announces what a tool did, and reads the tournament again. */
  private async did(f: ToolForm, text: string): Promise<void> {
    // What the other forms refused was about the tournament as it stood before.
    this.tools.querySelectorAll('.tn-form .error').forEach((e) => e.replaceChildren());
    this.tools.querySelectorAll('.tn-form .hint[role="status"]').forEach((e) => e.replaceChildren());
    f.status.textContent = text;
    this.nav.say(text);
    await this.load();
  }

  /** Adds a player by name (before the start). */
  private addForm(): HTMLFormElement {
    const name = h('input', { type: 'text', 'data-testid': 'tn-add-name', autocomplete: 'off', maxlength: 20 });
    return this.tool('tn-add', 'tnAddPlayer', 'tnAdd', [row('userName', name)], async (f) => {
      const who = name.value.trim();
      if (!who) return fault(f.error, t('a_nameMissing'), name);
      await tournamentAct(this.id, 'players', { name: who });
      name.value = '';
      name.focus();
      await this.did(f, t('tnAdded', { name: who }));
    });
  }

  /** Starts it: every game begins. */
  private startForm(): HTMLFormElement {
    return this.tool('tn-start', 'tnStartTitle', 'tnStart', [this.startHint], async (f) => {
      await tournamentAct(this.id, 'start');
      await this.did(f, t(this.data?.byRound ? 'tnStartedLive' : 'tnStartedNow'));
      (this.data?.byRound ? this.roundsTitle : this.gamesTitle).focus();
    });
  }

  /** Moves its start (or leaves it to the director), with the reason. */
  private rescheduleForm(): HTMLFormElement {
    const reason = reasonField('tn-reschedule');
    const fields = [row('tnStartsAtField', this.startsAt), reason.row];
    return this.tool('tn-reschedule', 'tnRescheduleTitle', 'tnReschedule', fields, async (f) => {
      const at = this.startsAt.value ? new Date(this.startsAt.value).getTime() : null;
      if (at !== null && !(at > Date.now())) return fault(f.error, t('tnStartsAtBad'), this.startsAt);
      const why = reason.input.value.trim();
      if (!why) return fault(f.error, t('reasonMissing'), reason.input);
      await tournamentAct(this.id, 'reschedule', { starts_at: at, reason: why });
      reason.input.value = '';
      this.startsAt.blur();
      await this.did(f, t('tnRescheduledNow'));
    });
  }

  /** Changes its settings before its start, with the reason: shown filled with the settings as they stand when opened. */
  private settingsForm(): HTMLElement {
    const settings = settingsFields('tn-edit');
    const reason = reasonField('tn-settings');
    const box = h('details', { class: 'tn-change', 'data-testid': 'tn-settings-box' }, tx('summary', 'tnSettingsOpen', { 'data-testid': 'tn-settings-open' }));
    const f = toolForm('tn-settings', 'tnSettingsTitle', 'tnSettingsSave', [...settings.fields, reason.row], async (f) => {
      const body = settings.body();
      if ('field' in body) return fault(f.error, body.text, body.field);
      const why = reason.input.value.trim();
      if (!why) return fault(f.error, t('reasonMissing'), reason.input);
      await tournamentAct(this.id, 'settings', { settings: body, reason: why });
      reason.input.value = '';
      await this.did(f, t('tnSettingsSaved'));
    });
    box.addEventListener('toggle', () => {
      if (box.open && this.data) settings.set(this.data);
    });
    box.append(f.form);
    return box;
  }

  /** Calls it off before its start, with the reason. */
  private callOffForm(): HTMLFormElement {
    const reason = reasonField('tn-call-off');
    const f = toolForm('tn-call-off', 'tnCallOffTitle', 'tnCallOff', [tx('p', 'tnCallOffHint', { class: 'hint' }), reason.row], async (f) => {
      const why = reason.input.value.trim();
      if (!why) return fault(f.error, t('reasonMissing'), reason.input);
      await tournamentAct(this.id, 'cancel', { reason: why });
      reason.input.value = '';
      await this.did(f, t('tnCalledOffNow'));
      this.title.focus();
    });
    // It cannot be undone: the button looks like resigning.
    f.send.className = 'danger';
    return f.form;
  }

  /** A warning, a withdrawal (silent or not) or extra leave for a player, with the reason. */
  private playerForm(): HTMLFormElement {
    const what = select('tn-act', [['warn', 'tnWarn'], ['withdraw', 'tnWithdraw'], ['withdraw_silent', 'tnWithdrawSilent'], ['leave', 'tnLeave']], 'warn');
    const days = h('input', { type: 'number', min: 1, max: 365, value: 7, 'data-testid': 'tn-leave-days' });
    const year = h('input', { type: 'number', value: new Date().getUTCFullYear(), 'data-testid': 'tn-leave-year' });
    const reason = h('textarea', { rows: 3, maxlength: 2000, 'data-testid': 'tn-reason', id: 'tn-reason' });
    const leaveRows = h('div', {}, row('leaveDays', days), row('leaveYear', year));
    what.addEventListener('change', () => (leaveRows.hidden = what.value !== 'leave'));
    leaveRows.hidden = true;
    const fields = [row('tnPlayer', this.playerSelect), row('tnAct', what), leaveRows, h('div', { class: 'field' }, tx('label', 'decideReason', { for: 'tn-reason' }), reason)];
    return this.tool('tn-player-act', 'tnPlayerTitle', 'tnPlayerSend', fields, async (f) => {
      const player = this.playerSelect.value;
      const why = reason.value.trim();
      if (!why) return fault(f.error, t('reasonMissing'), reason);
      const kind = what.value;
      if (kind === 'leave') await tournamentAct(this.id, 'leave', { player, days: Number(days.value), year: Number(year.value), reason: why });
      else if (kind === 'warn') await tournamentAct(this.id, 'warn', { player, reason: why });
      else await tournamentAct(this.id, 'withdraw', { player, silent: kind === 'withdraw_silent', reason: why });
      reason.value = '';
      await this.did(f, t('tnPlayerDone', { name: player, what: t(kind === 'leave' ? 'tnLeave' : kind === 'warn' ? 'tnWarn' : kind === 'withdraw' ? 'tnWithdraw' : 'tnWithdrawSilent') }));
    });
  }
}
