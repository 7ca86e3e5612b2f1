// Simultaneous exhibitions: `/simuls` lists them and lets an account host
// one; `/simuls/{id}` is one simul's page. Before the start the host
// accepts or rejects applicants and starts it, others apply or withdraw;
// once started the page shows every board (position, whose move, result),
// and for the host the boards waiting for their move: "next board" (the
// button, or the N key) opens the first of them, and the live region says
// when a board starts waiting. At the end: every board's result and one
// PGN file of all of them.

import { Chessground } from 'chessground';
import { codeOf, refusal } from './director';
import { DirectorNav, pageLink } from './directorview';
import { h, row, select, tx } from './dom';
import { Key, t } from './i18n';
import type { Lobby } from './lobby';
import { resultText } from './outcome';
import { PageView } from './pageview';
import { call, GameState } from './protocol';

/** One board of a started simul (`GET /api/simuls/{id}`). */
export interface SimulBoard {
  number: number;
  player: string;
  hostColor: 'white' | 'black';
  game: string;
  /** The seat's link with its token for the host and the player, else the game's. */
  url: string;
  you?: 'white' | 'black';
  fen?: string;
  turn?: 'white' | 'black';
  result: string | null;
  finished: boolean;
  hostToMove: boolean;
}

/** A simul as the server describes it. */
export interface Simul {
  id: string;
  name: string;
  host: string;
  timeControl: string;
  hostExtraTime: number;
  hostExtraTimePerPlayer: number;
  hostClockExtra: number;
  hostColor: 'white' | 'black' | 'random';
  chess960: number | 'each_board' | null;
  fen: string | null;
  status: 'created' | 'started' | 'finished' | 'cancelled';
  applicants: { name: string; accepted: boolean }[];
  boards?: SimulBoard[];
  waiting?: number[];
}

/** How often the page reads the simul again while it is open, ms. */
const POLL_MS = 3000;

const STATUS_KEYS: Record<Simul['status'], Key> = {
  created: 'simStatusCreated',
  started: 'simStatusStarted',
  finished: 'simStatusFinished',
  cancelled: 'simStatusCancelled',
};

/** The list of simuls and the form that hosts a new one. */
export class SimulListView extends PageView {
  readonly el: HTMLElement;
  protected readonly title = tx('h2', 'simTitle', { tabindex: -1, id: 'sim-list-title', 'data-testid': 'sim-list-title' });
  private readonly list = h('ul', { 'data-testid': 'sim-list', 'aria-labelledby': 'sim-list-title' });
  private readonly error = h('p', { class: 'error', role: 'alert', 'data-testid': 'sim-create-error' });
  /** The form that hosts a simul: for a signed-in visitor. */
  private readonly hostForm: HTMLElement;
  /** In its place for a visitor not signed in: why not, and the way in. */
  private readonly signIn = h('p', { 'data-testid': 'sim-host-sign-in' });
  private simuls: Simul[] = [];

  constructor(
    private readonly lobby: Lobby,
    private readonly nav: DirectorNav,
  ) {
    super();
    this.hostForm = this.form();
    this.el = h(
      'section',
      { class: 'simul-page', 'data-testid': 'simul-list-page', 'aria-labelledby': 'sim-list-title' },
      this.title,
      this.list,
      this.signIn,
      this.hostForm,
    );
    this.follow(lobby, (msg) => msg.t === 'hello');
  }

  protected async load(): Promise<void> {
    try {
      this.simuls = (await call<{ simuls: Simul[] }>('GET', '/api/simuls')).simuls;
    } catch {
      this.simuls = [];
    }
    this.render();
  }

  protected render(): void {
    this.list.replaceChildren(
      ...this.simuls.map((s) => h('li', {}, pageLink(this.nav, `/simuls/${encodeURIComponent(s.id)}`, `${s.name} — ${s.host} (${t(STATUS_KEYS[s.status])})`))),
    );
    if (!this.simuls.length) this.list.append(tx('li', 'simNone'));
    const signedIn = Boolean(this.lobby.me);
    this.hostForm.hidden = !signedIn;
    this.signIn.hidden = signedIn;
    if (!signedIn) {
      const b = tx('button', 'signIn', { type: 'button', 'data-testid': 'sim-sign-in' });
      b.addEventListener('click', () => this.nav.signIn(b));
      this.signIn.replaceChildren(t('simHostSignIn'), ' ', b);
    }
  }

  /** The form that hosts a new simul. */
  private form(): HTMLElement {
    const name = h('input', { type: 'text', 'data-testid': 'sim-name', required: true, maxlength: 80 });
    const control = h('input', { type: 'text', 'data-testid': 'sim-control', value: '10+5', required: true });
    const extra = h('input', { type: 'number', 'data-testid': 'sim-extra', min: 0, max: 60, value: 0 });
    const perPlayer = h('input', { type: 'number', 'data-testid': 'sim-extra-player', min: 0, max: 60, value: 0 });
    const color = select(
      'sim-color',
      [
        ['white', 'white'],
        ['black', 'black'],
        ['random', 'simColorRandom'],
      ],
      'white',
    );
    const chess960 = h('input', { type: 'checkbox', 'data-testid': 'sim-chess960' });
    const send = tx('button', 'simCreate', { type: 'submit', 'data-testid': 'sim-create' });
    const form = h(
      'form',
      { class: 'sim-form tn-form', 'data-testid': 'sim-form', 'aria-labelledby': 'sim-form-title' },
      tx('h3', 'simHost', { id: 'sim-form-title' }),
      row('simName', name),
      row('timeControl', control),
      row('simExtra', extra),
      row('simExtraPerPlayer', perPlayer),
      row('simColor', color),
      row('chess960', chess960),
      send,
      this.error,
    );
    form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      this.error.replaceChildren();
      const body = {
        name: name.value,
        time_control: control.value,
        host_extra_time: Number(extra.value || 0) * 60,
        host_extra_time_per_player: Number(perPlayer.value || 0),
        host_color: color.value,
        chess960: chess960.checked ? 'each_board' : null,
      };
      call<Simul>('POST', '/api/simuls', body)
        .then((s) => this.nav.go(`/simuls/${encodeURIComponent(s.id)}`))
        .catch((e: unknown) => {
          this.error.replaceChildren(...refusal(e, { unauthorized: 'simSignIn' }));
          name.focus();
        });
    });
    return form;
  }
}

/** The page of one simul. */
export class SimulView extends PageView {
  readonly el: HTMLElement;
  protected readonly title = h('h2', { tabindex: -1, id: 'sim-title', 'data-testid': 'sim-title' });
  private readonly state = h('p', { class: 'hint', role: 'status', 'data-testid': 'sim-state' });
  private readonly body = h('div', { class: 'sim-body' });
  private readonly error = h('p', { class: 'error', role: 'alert', 'data-testid': 'sim-error' });
  private data: Simul | null = null;
  /** What the page showed at the last look (none: not drawn yet). */
  private shown = '';
  /** The boards that waited for the host at the last look. */
  private waited = new Set<number>();
  private readonly timer: number;
  private readonly keys = (ev: KeyboardEvent): void => this.key(ev);

  constructor(
    readonly id: string,
    private readonly lobby: Lobby,
    private readonly nav: DirectorNav,
  ) {
    super();
    this.el = h('section', { class: 'simul-page', 'data-testid': 'simul-page', 'aria-labelledby': 'sim-title' }, this.title, this.state, this.error, this.body);
    this.follow(lobby, (msg) => msg.t === 'hello' || msg.t === 'games');
    this.timer = window.setInterval(() => void this.load(), POLL_MS);
    document.addEventListener('keydown', this.keys);
  }

  close(): void {
    super.close();
    window.clearInterval(this.timer);
    document.removeEventListener('keydown', this.keys);
  }

  protected async load(): Promise<void> {
    let key: string;
    try {
      this.data = await call<Simul>('GET', `/api/simuls/${encodeURIComponent(this.id)}`);
      this.state.dataset.state = this.data.status;
      const status = t(STATUS_KEYS[this.data.status]);
      if (this.state.textContent !== status) this.state.textContent = status;
      // The clocks run between two looks; the page does not show them.
      key = JSON.stringify(this.data, (k: string, v: unknown) => (k === 'clock' ? undefined : v)) + String(this.lobby.me?.name);
    } catch (e) {
      this.data = null;
      this.state.dataset.state = codeOf(e);
      this.state.replaceChildren(...refusal(e, { not_found: 'simNotFound' }));
      key = codeOf(e);
    }
    this.announce();
    // Drawn again only when something shown changed: the focus stays where it is.
    if (key !== this.shown) this.render();
    this.shown = key;
  }

  /** True when the one signed in hosts it. */
  private hosts(): boolean {
    const me = this.lobby.me?.name.toLowerCase();
    return Boolean(me && this.data && this.data.host.toLowerCase() === me);
  }

  /** Says "your move on board N" for each board that has started waiting for the host. */
  private announce(): void {
    const waiting = new Set(this.hosts() ? (this.data?.waiting ?? []) : []);
    for (const n of waiting) if (!this.waited.has(n)) this.nav.say(t('simYourMove', { n }));
    this.waited = waiting;
  }

  /** N opens the next board waiting for the host (outside text fields). */
  private key(ev: KeyboardEvent): void {
    if (ev.key !== 'n' && ev.key !== 'N') return;
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const target = ev.target as HTMLElement | null;
    if (target && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))) return;
    if (!this.hosts()) return;
    ev.preventDefault();
    this.next();
  }

  /** Opens the first board waiting for the host. */
  private next(): void {
    const n = this.data?.waiting?.[0];
    const board = this.data?.boards?.find((b) => b.number === n);
    if (board) {
      // The game's board at the top of the page, wherever the list of boards was scrolled to.
      window.scrollTo(0, 0);
      this.nav.openUrl(board.url);
    } else this.nav.say(t('simNoneWaiting'));
  }

  /** `POST /api/simuls/{id}/{step}`, then reads it again; a refusal is shown. */
  private act(step: string, body?: unknown): void {
    this.error.replaceChildren();
    call('POST', `/api/simuls/${encodeURIComponent(this.id)}/${step}`, body)
      .then(() => this.load())
      .catch((e: unknown) => this.error.replaceChildren(...refusal(e, { unauthorized: 'simSignIn' })));
  }

  /** A button that takes `step`. */
  private stepButton(key: Key, testid: string, step: string, body?: unknown, label?: string): HTMLButtonElement {
    const b = tx('button', key, { type: 'button', 'data-testid': testid, 'aria-label': label });
    b.addEventListener('click', () => this.act(step, body));
    return b;
  }

  protected render(): void {
    const d = this.data;
    this.title.textContent = d ? d.name : t('simTitle');
    if (d) document.title = `${d.name} · ${t('title')}`;
    if (!d) {
      this.body.replaceChildren();
      return;
    }
    // The focused control, found again after the redraw by its test id and place.
    const active = document.activeElement as HTMLElement | null;
    const testid = active && this.body.contains(active) ? (active.dataset.testid ?? null) : null;
    const same = testid ? [...this.body.querySelectorAll(`[data-testid="${testid}"]`)] : [];
    const place = active ? same.indexOf(active) : -1;
    this.body.replaceChildren(this.settings(d), d.status === 'created' ? this.applicants(d) : this.boards(d));
    if (testid) {
      const again = [...this.body.querySelectorAll<HTMLElement>(`[data-testid="${testid}"]`)];
      (again[Math.min(Math.max(place, 0), again.length - 1)] ?? this.title).focus();
    }
  }

  /** The settings as a description list. */
  private settings(d: Simul): HTMLElement {
    const item = (key: Key, value: string, testid: string): HTMLElement[] => [tx('dt', key), h('dd', { 'data-testid': testid }, value)];
    const start = d.fen ? d.fen : d.chess960 === null ? t('off') : d.chess960 === 'each_board' ? t('simChess960Each') : t('tnChess960One', { n: d.chess960 });
    const color = d.hostColor === 'random' ? t('simColorRandom') : t(d.hostColor);
    return h(
      'dl',
      { class: 'tn-settings', 'data-testid': 'sim-settings' },
      ...item('simHostShown', d.host, 'sim-host'),
      ...item('timeControl', d.timeControl, 'sim-control'),
      ...item('simExtraShown', t('simSeconds', { n: d.hostClockExtra }), 'sim-extra-shown'),
      ...item('simColor', color, 'sim-color-shown'),
      ...item('chess960', start, 'sim-start'),
    );
  }

  /** Before the start: the applicants; the host's buttons, or one's own. */
  private applicants(d: Simul): HTMLElement {
    const hosts = this.hosts();
    const me = this.lobby.me?.name.toLowerCase();
    const applied = d.applicants.some((a) => a.name.toLowerCase() === me);
    const items = d.applicants.map((a) =>
      h(
        'li',
        { 'data-testid': 'sim-applicant', 'data-accepted': String(a.accepted) },
        `${a.name} — ${t(a.accepted ? 'simAccepted' : 'simWaiting')} `,
        hosts && !a.accepted ? this.stepButton('simAccept', 'sim-accept', 'accept', { name: a.name }, t('simAcceptName', { name: a.name })) : null,
        hosts ? this.stepButton('simReject', 'sim-reject', 'reject', { name: a.name }, t('simRejectName', { name: a.name })) : null,
      ),
    );
    const tools = hosts
      ? h('div', { class: 'sim-tools' }, this.stepButton('simStart', 'sim-start-button', 'start'), this.stepButton('simCancel', 'sim-cancel', 'cancel'))
      : this.lobby.me
        ? h('div', { class: 'sim-tools' }, applied ? this.stepButton('simWithdraw', 'sim-withdraw', 'withdraw') : this.stepButton('simApply', 'sim-apply', 'apply'))
        : tx('p', 'simSignIn', { class: 'hint' });
    return h(
      'div',
      {},
      tx('h3', 'simApplicants', { id: 'sim-applicants-title' }),
      items.length ? h('ul', { 'data-testid': 'sim-applicants', 'aria-labelledby': 'sim-applicants-title' }, ...items) : tx('p', 'simNoApplicants', { class: 'hint' }),
      tools,
    );
  }

  /** Once started: every board; for the host, the next one waiting. */
  private boards(d: Simul): HTMLElement {
    const hosts = this.hosts();
    const waiting = d.waiting ?? [];
    const next = h('button', { type: 'button', 'data-testid': 'sim-next', 'aria-keyshortcuts': 'N', disabled: waiting.length === 0 }, t('simNext', { n: waiting.length }));
    next.addEventListener('click', () => this.next());
    const list = h(
      'ol',
      { class: 'sim-boards', 'data-testid': 'sim-boards', 'aria-labelledby': 'sim-boards-title' },
      ...(d.boards ?? []).map((b) => this.board(d, b)),
    );
    const done = d.status === 'finished';
    return h(
      'div',
      {},
      hosts && !done ? h('p', { class: 'sim-next' }, next, ' ', tx('span', 'simNextHint', { class: 'hint' })) : null,
      tx('h3', 'simBoards', { id: 'sim-boards-title' }),
      list,
      h('p', {}, h('a', { href: `/api/simuls/${encodeURIComponent(d.id)}/pgn`, download: `rochade-simul-${d.id}.pgn`, 'data-testid': 'sim-pgn' }, t(done ? 'simPgnAll' : 'simPgnSoFar'))),
    );
  }

  /** One board: a small picture, its players, whose move or the result, and its link. */
  private board(d: Simul, b: SimulBoard): HTMLElement {
    const white = b.hostColor === 'white' ? d.host : b.player;
    const black = b.hostColor === 'white' ? b.player : d.host;
    const label = t('simBoardN', { n: b.number, white, black });
    const picture = h('div', { class: 'sim-mini cg-wrap', 'aria-hidden': 'true' });
    Chessground(picture, { fen: b.fen, orientation: b.you ?? b.hostColor, viewOnly: true, coordinates: false });
    const status = b.result !== null ? t('simResult', { result: resultText(b.result) }) : b.finished ? t('simAborted') : b.hostToMove ? t('simHostToMove') : t('simPlayerToMove', { name: b.player });
    const link = pageLink(this.nav, b.url, b.you ? t('simPlayBoard', { n: b.number }) : t('simWatchBoard', { n: b.number }), { 'data-testid': 'sim-board-link' });
    return h(
      'li',
      { class: 'sim-board', 'data-testid': 'sim-board', 'data-waiting': String(b.hostToMove), 'data-result': b.result ?? '' },
      picture,
      h('p', { class: 'sim-board-title' }, label),
      h('p', { 'data-testid': 'sim-board-status' }, status),
      link,
    );
  }
}

/**
 * The game page's part for a board of a simul: the way back to the simul's
 * page, and for the host the next board waiting for their move (read
 * again after each move here).
 */
export class SimulPanel {
  readonly el: HTMLElement;
  private readonly back = h('a', { 'data-testid': 'simul-back' });
  private readonly next = h('button', { type: 'button', 'data-testid': 'simul-next-board' });
  /** The board waiting that Next opens. */
  private target: SimulBoard | null = null;
  /** The moment of the game the panel was read for (ply and result). */
  private seen = '';

  /** `openGame` goes to a seat of a game. */
  constructor(private readonly openGame: (id: string, token: string | null) => void) {
    this.el = h('section', { class: 'simul-box', 'data-testid': 'simul-box', 'aria-label': t('simTitle'), hidden: true }, h('p', {}, this.back), this.next);
    this.next.addEventListener('click', () => {
      const seat = this.target ? /^\/g\/([^/#]+)#?(.*)$/.exec(this.target.url) : null;
      if (seat) this.openGame(decodeURIComponent(seat[1]), seat[2] || null);
    });
    this.next.hidden = true;
  }

  /** Takes a new state of game `s`; reads the simul again when the game moved on. */
  update(s: GameState): void {
    this.el.hidden = !s.simul;
    if (!s.simul) return;
    const moment = `${s.ply}/${s.outcome?.result ?? ''}`;
    if (moment === this.seen) return;
    this.seen = moment;
    void this.load(s.id, s.simul);
  }

  /** Reads simul `simul` and shows the way back and the next board waiting (not game `game`). */
  private async load(game: string, simul: string): Promise<void> {
    let d: Simul;
    try {
      d = await call<Simul>('GET', `/api/simuls/${encodeURIComponent(simul)}`);
    } catch {
      return;
    }
    this.back.href = `/simuls/${encodeURIComponent(simul)}`;
    this.back.textContent = t('simBack', { name: d.name });
    const here = d.boards?.find((b) => b.game === game);
    const hosts = Boolean(here?.you && here.you === here.hostColor);
    const waiting = (d.boards ?? []).filter((b) => b.hostToMove && b.game !== game);
    this.target = waiting[0] ?? null;
    this.next.hidden = !hosts;
    this.next.disabled = this.target === null;
    this.next.textContent = t('simNext', { n: waiting.length });
  }
}
