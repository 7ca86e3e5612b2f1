// A tournament's page (`/tournaments/{id}`, ICCF 14): its settings, players,
// standings, games and the director's decisions; for its director, adding
// players and starting it, a decision on each game, and warnings,
// withdrawals and extra leave for a player, each with its reason.

import { openDecide } from './decide';
import { codeOf, decisionLine, fetchTournament, refusal, Tournament, tournamentAct } from './director';
import { DirectorNav, pageLink, pairing } from './directorview';
import { fault, h, row, select, tx } from './dom';
import { Key, t } from './i18n';
import type { Lobby } from './lobby';
import { resultText } from './outcome';
import { PageView } from './pageview';

/** A small form of the director's: its fields, a status line and an error line. */
interface ToolForm {
  form: HTMLFormElement;
  status: HTMLElement;
  error: HTMLElement;
  send: HTMLButtonElement;
}

/** The page of one tournament. */
export class TournamentView extends PageView {
  readonly el: HTMLElement;
  protected readonly title = h('h2', { tabindex: -1, id: 'tn-title', 'data-testid': 'tn-title' });
  private readonly state = h('p', { class: 'hint', role: 'status', 'data-testid': 'tn-state' });
  private readonly body = h('div', { class: 'tn-body' });
  private readonly tools = h('div', { class: 'tn-tools', 'data-testid': 'tn-tools', hidden: true });
  private readonly gamesTitle = tx('h3', 'tnGames', { id: 'tn-games-title', tabindex: -1 });
  private data: Tournament | null = null;
  private readonly playerSelect = h('select', { 'data-testid': 'tn-player' });

  constructor(
    readonly id: string,
    private readonly lobby: Lobby,
    private readonly nav: DirectorNav,
  ) {
    super();
    this.el = h('section', { class: 'tournament-page', 'data-testid': 'tournament-page', 'aria-labelledby': 'tn-title' }, this.title, this.state, this.body, this.tools);
    this.tools.append(this.addForm(), this.startForm(), this.playerForm());
    this.follow(lobby, (msg) => msg.t === 'hello' || msg.t === 'games' || (msg.t === 'news' && msg.news.type === 'notice'));
  }

  /** Reads the tournament again. */
  protected async load(): Promise<void> {
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
      return;
    }
    this.body.replaceChildren(this.settings(d), this.players(d), this.standings(d), this.gamesTitle, this.games(d), this.decisions(d));
    // The director's tools follow the tournament's state.
    this.tools.querySelector<HTMLElement>('[data-testid="tn-add-form"]')!.hidden = d.started !== null;
    this.tools.querySelector<HTMLElement>('[data-testid="tn-start-form"]')!.hidden = d.started !== null;
    const chosen = this.playerSelect.value;
    this.playerSelect.replaceChildren(...d.players.map((p) => h('option', { value: p.name }, p.name)));
    if (d.players.some((p) => p.name === chosen)) this.playerSelect.value = chosen;
  }

  /** The settings as a description list. */
  private settings(d: Tournament): HTMLElement {
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
      ...item('tnState', t(d.started ? 'tnStarted' : 'tnNotStarted'), 'tn-started'),
    );
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

  /** The standings: points (1, ½, 0; ICCF 12.1), finished games. */
  private standings(d: Tournament): HTMLElement | string {
    const rows = d.standings ?? [];
    if (!d.started || !rows.length) return '';
    const head = (key: Key): HTMLElement => tx('th', key, { scope: 'col' });
    return h(
      'table',
      { class: 'tn-table', 'data-testid': 'tn-standings' },
      tx('caption', 'tnStandings'),
      h('thead', {}, h('tr', {}, head('tnRank'), head('colPlayer'), head('tnPoints'), head('tnFinished'))),
      h(
        'tbody',
        {},
        ...rows.map((r, i) =>
          h(
            'tr',
            { 'data-testid': 'tn-standing', 'data-withdrawn': String(r.withdrawn) },
            h('td', {}, String(i + 1)),
            h('th', { scope: 'row' }, r.withdrawn ? t('tnWithdrawnName', { name: r.name }) : r.name),
            h('td', { 'data-testid': 'tn-points' }, String(r.points).replace('.5', '½').replace(/^0½$/, '½')),
            h('td', {}, String(r.finished)),
          ),
        ),
      ),
    );
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
          const b = tx('button', 'decideOpen', { type: 'button', 'data-testid': 'decide-open', 'aria-describedby': id });
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

  /** A form of the director's tools: the heading, the fields, the error and status lines, the button. */
  private tool(testid: string, titleKey: Key, sendKey: Key, fields: HTMLElement[], act: (f: ToolForm) => Promise<void>): HTMLFormElement {
    const titleId = `${testid}-title`;
    const status = h('p', { class: 'hint', role: 'status', 'data-testid': `${testid}-status` });
    const error = h('p', { class: 'error', role: 'alert', 'data-testid': `${testid}-error` });
    const send = tx('button', sendKey, { type: 'submit', class: 'primary', 'data-testid': `${testid}-send` });
    const form = h('form', { novalidate: true, class: 'tn-form', 'data-testid': `${testid}-form`, 'aria-labelledby': titleId }, tx('h3', titleKey, { id: titleId }), ...fields, error, status, send);
    const f: ToolForm = { form, status, error, send };
    form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      form.querySelectorAll('[aria-invalid]').forEach((el) => el.removeAttribute('aria-invalid'));
      error.replaceChildren();
      status.replaceChildren();
      send.disabled = true;
      void act(f)
        .catch((e: unknown) => {
          error.replaceChildren(...refusal(e, { not_found: 'tnNoPlayer', forbidden: 'tnNotDirector' }));
          error.dataset.code = codeOf(e);
        })
        .finally(() => {
          send.disabled = false;
        });
    });
    return form;
  }

  /** Shows and announces what a tool did, and reads the tournament again. */
  private async did(f: ToolForm, text: string): Promise<void> {
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
    return this.tool('tn-start', 'tnStartTitle', 'tnStart', [tx('p', 'tnStartHint', { class: 'hint' })], async (f) => {
      await tournamentAct(this.id, 'start');
      await this.did(f, t('tnStartedNow'));
      this.gamesTitle.focus();
    });
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
