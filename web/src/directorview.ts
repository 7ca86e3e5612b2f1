// The director's page (`/director`, ICCF 14, issue 17 point 11): the games
// that need the director (`GET /api/director`: silent longer than the
// tournament allows, clocks stopped) with a decision for each, the open
// appeals and claims with an answer box, one's tournaments, and for a site
// director the form that creates a tournament.

import type { DashboardNav } from './dashboard';
import { openDecide } from './decide';
import {
  actText,
  answerRequest,
  Attention,
  AttentionGame,
  codeOf,
  createTournament,
  DirectorRequest,
  fetchAttention,
  fetchTournament,
  fetchTournaments,
  refusal,
  Tournament,
} from './director';
import { fault, h, row, tx } from './dom';
import { plural, t } from './i18n';
import type { Lobby } from './lobby';
import { PageView } from './pageview';
import { settingsFields } from './tnform';
import { stateText } from './tnwords';

/** What the director's pages need from the page. */
export interface DirectorNav extends DashboardNav {
  /** Goes to a page of the site (`/tournaments/{id}`, `/g/{id}`). */
  go(path: string): void;
}

/** A link that the page follows itself. */
export function pageLink(nav: DirectorNav, href: string, text: string, attrs: Record<string, string> = {}): HTMLAnchorElement {
  const a = h('a', { href, ...attrs }, text);
  a.addEventListener('click', (ev) => {
    if (ev.button !== 0 || ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.altKey) return;
    ev.preventDefault();
    nav.go(href);
  });
  return a;
}

/** "Ann – Bob": a game's players. */
export function pairing(white: string | null, black: string | null): string {
  return `${white ?? '?'} – ${black ?? '?'}`;
}

/** The director's page. */
export class DirectorView extends PageView {
  readonly el: HTMLElement;
  protected readonly title = tx('h2', 'directorTitle', { tabindex: -1, id: 'director-title', 'data-testid': 'director-title' });
  private readonly state = h('p', { class: 'hint', role: 'status', 'data-testid': 'director-state' });
  private readonly gamesTitle = tx('h3', 'attentionTitle', { id: 'attention-title', tabindex: -1 });
  private readonly games = h('ul', { class: 'director-list', 'data-testid': 'attention-games', 'aria-labelledby': 'attention-title' });
  private readonly requestsTitle = tx('h3', 'requestsTitle', { id: 'requests-title', tabindex: -1 });
  private readonly requests = h('ul', { class: 'director-list', 'data-testid': 'open-requests', 'aria-labelledby': 'requests-title' });
  private readonly mine = h('ul', { class: 'director-list', 'data-testid': 'my-tournaments', 'aria-labelledby': 'my-tournaments-title' });
  /** The director's work: hidden from a visitor not signed in, who is asked to sign in. */
  private readonly work = h('div', { 'data-testid': 'director-work' });
  private data: Attention | null = null;
  /** The form of a new tournament, shown to the site's directors. */
  private readonly form: HTMLElement;
  /** What everyone else sees in its place. */
  private readonly directorsOnly = tx('p', 'tnDirectorsOnly', { class: 'hint', 'data-testid': 'tn-directors-only' });
  private tournaments: Tournament[] = [];
  /** The tournaments the requests name, with their players and decisions. */
  private readonly known = new Map<string, Tournament>();

  constructor(
    private readonly lobby: Lobby,
    private readonly nav: DirectorNav,
  ) {
    super();
    this.form = this.createForm();
    this.el = h(
      'section',
      { class: 'director-page', 'data-testid': 'director-page', 'aria-labelledby': 'director-title' },
      this.title,
      tx('p', 'directorIntro', { class: 'hint' }),
      this.state,
      this.work,
    );
    this.work.append(
      this.gamesTitle,
      this.games,
      this.requestsTitle,
      this.requests,
      tx('h3', 'myTournaments', { id: 'my-tournaments-title' }),
      this.mine,
      this.form,
      this.directorsOnly,
    );
    this.follow(lobby, (msg) => msg.t === 'hello' || (msg.t === 'news' && msg.news.type === 'notice'));
  }

  /** Reads what needs the director, and the tournaments. */
  protected async load(): Promise<void> {
    try {
      const [data, list] = await Promise.all([fetchAttention(), fetchTournaments()]);
      this.data = data;
      this.tournaments = list.tournaments;
      const ids = new Set(data.requests.map((r) => r.tournament).filter((x): x is string => x !== null));
      await Promise.all([...ids].map(async (id) => this.known.set(id, await fetchTournament(id))));
      this.state.textContent = t('directorCount', { games: data.games.length, requests: data.requests.length });
      this.state.dataset.state = 'ready';
    } catch (e) {
      this.data = null;
      const code = codeOf(e);
      this.state.dataset.state = code;
      if (code === 'unauthorized') {
        const b = tx('button', 'signIn', { type: 'button', 'data-testid': 'director-sign-in' });
        b.addEventListener('click', () => this.nav.signIn(b));
        this.state.replaceChildren(t('directorSignIn'), ' ', b);
      } else this.state.replaceChildren(...refusal(e));
    }
    this.render();
  }

  protected render(): void {
    this.work.hidden = this.state.dataset.state === 'unauthorized';
    const d = this.data;
    this.form.hidden = !d?.site_director;
    this.directorsOnly.hidden = !d || d.site_director;
    this.games.replaceChildren(...(d?.games.length ? d.games.map((g) => this.game(g)) : [tx('li', 'attentionNone', { class: 'hint' })]));
    this.requests.replaceChildren(...(d?.requests.length ? d.requests.map((r) => this.request(r)) : [tx('li', 'requestsNone', { class: 'hint' })]));
    const me = this.lobby.me?.name.toLowerCase();
    const mine = this.tournaments.filter((x) => x.director.toLowerCase() === me);
    this.mine.replaceChildren(
      ...(mine.length
        ? mine.map((x) => h('li', {}, pageLink(this.nav, `/tournaments/${encodeURIComponent(x.id)}`, x.name, { 'data-testid': 'my-tournament' }), ` · ${x.timeControl} · ${stateText(x)}`))
        : [tx('li', 'myTournamentsNone', { class: 'hint' })]),
    );
  }

  /** A game needing attention: its players, why, links, and Decide. */
  private game(g: AttentionGame): HTMLElement {
    const why = g.why === 'stopped' ? t('whyStopped') : t('whySilent', { days: plural('n_days', g.days), color: t(g.turn) });
    const players = pairing(g.white, g.black);
    const id = `attention-${g.id}`;
    const decideButton = tx('button', 'decideOpen', { type: 'button', 'data-testid': 'decide-open', 'data-key': `decide-${g.id}`, 'aria-describedby': id });
    decideButton.addEventListener('click', () => openDecide(g.id, `${players} · ${why}`, decideButton, (text) => this.decided(text)));
    const tournament = g.tournament ? this.tournaments.find((x) => x.id === g.tournament) : null;
    return h(
      'li',
      { 'data-testid': 'attention-game', 'data-game': g.id, 'data-why': g.why },
      h('span', { id }, h('strong', {}, players), ` · ${why}`),
      ' ',
      pageLink(this.nav, `/g/${encodeURIComponent(g.id)}`, t('openGame'), { 'data-testid': 'attention-link' }),
      tournament ? ' · ' : null,
      tournament ? pageLink(this.nav, `/tournaments/${encodeURIComponent(tournament.id)}`, tournament.name) : null,
      ' ',
      decideButton,
    );
  }

  /** After a decision: read again, announced, focus on the list's heading. */
  private decided(text: string): void {
    this.nav.say(text);
    void this.load().then(() => this.gamesTitle.focus());
  }

  /** Who filed request `r`, by name when its tournament says. */
  private filer(r: DirectorRequest): string {
    const t0 = r.tournament ? this.known.get(r.tournament) : null;
    return t0?.players.find((p) => p.id === r.by)?.name ?? t('playerNumber', { id: r.by });
  }

  /** An open appeal or claim: who, about what, the message, and the answer box. */
  private request(r: DirectorRequest): HTMLElement {
    const about = r.tournament ? this.known.get(r.tournament) : null;
    const decision = r.decision !== null ? about?.decisions?.find((x) => x.id === r.decision) : null;
    const head = t(r.kind === 'appeal' ? 'requestFromAppeal' : 'requestFromClaim', { name: this.filer(r) });
    const subject = decision ? t('appealAgainst', { what: actText(decision.decision), reason: decision.reason }) : '';
    const id = `request-${r.id}`;
    const answer = h('textarea', { id: `${id}-answer`, rows: 3, maxlength: 2000, 'data-testid': 'answer-text', 'aria-describedby': `${id}-error` });
    const error = h('p', { class: 'error', id: `${id}-error`, role: 'alert', 'data-testid': 'answer-error' });
    const send = tx('button', 'answerSend', { type: 'submit', class: 'primary', 'data-testid': 'answer-send' });
    const form = h('form', { novalidate: true, class: 'answer-form', 'aria-labelledby': `${id}-head` }, h('div', { class: 'field' }, tx('label', 'answerLabel', { for: `${id}-answer` }), answer), error, send);
    form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      const text = answer.value.trim();
      if (!text) return fault(error, t('answerMissing'), answer);
      send.disabled = true;
      void answerRequest(r.id, text)
        .then(async () => {
          this.nav.say(t('answerSent', { name: this.filer(r) }));
          await this.load();
          this.requestsTitle.focus();
        })
        .catch((e: unknown) => {
          error.replaceChildren(...refusal(e));
          answer.focus();
        })
        .finally(() => {
          send.disabled = false;
        });
    });
    return h(
      'li',
      { class: 'request', 'data-testid': 'open-request', 'data-kind': r.kind, 'data-request': r.id },
      h('p', { id: `${id}-head` }, h('strong', {}, head), r.game ? ' · ' : null, r.game ? pageLink(this.nav, `/g/${encodeURIComponent(r.game)}`, t('openGame')) : null),
      subject ? h('p', { class: 'hint' }, subject) : null,
      h('blockquote', { 'data-testid': 'request-text' }, r.message),
      form,
    );
  }

  /** The form of a new tournament (shown to site directors; anyone else is refused by the server). */
  private createForm(): HTMLElement {
    const settings = settingsFields();
    const director = h('input', { type: 'text', 'data-testid': 'tn-director', maxlength: 20 });
    const error = h('p', { class: 'error', id: 'tn-error', role: 'alert', 'data-testid': 'tn-error' });
    const send = tx('button', 'tnCreate', { type: 'submit', class: 'primary', 'data-testid': 'tn-create' });
    const form = h(
      'form',
      { novalidate: true, class: 'tn-form', 'data-testid': 'tn-form', 'aria-labelledby': 'tn-form-title' },
      tx('h3', 'tnNew', { id: 'tn-form-title' }),
      tx('p', 'tnNewHint', { class: 'hint' }),
      ...settings.fields,
      row('tnDirector', director),
      tx('p', 'tnDirectorHint', { class: 'hint' }),
      error,
      send,
    );
    form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      const body = settings.body();
      if ('field' in body) return fault(error, body.text, body.field);
      if (director.value.trim()) body.director = director.value.trim();
      send.disabled = true;
      void createTournament(body)
        .then((made) => {
          this.nav.say(t('tnCreated', { name: made.name }));
          this.nav.go(`/tournaments/${encodeURIComponent(made.id)}`);
        })
        .catch((e: unknown) => {
          error.replaceChildren(...refusal(e, { forbidden: 'tnForbidden', not_found: 'tnNoDirector' }));
          error.dataset.code = codeOf(e);
          settings.name.focus();
        })
        .finally(() => {
          send.disabled = false;
        });
    });
    return form;
  }
}
