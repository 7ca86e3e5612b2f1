// The list of events (`/tournaments`, issue 18 point 9): upcoming ones with
// their start time, running ones at round N of M, finished ones; for a
// signed-in account a join or leave button on each open event (the
// server's refusal beside it).

import { codeOf, fetchTournaments, refusal, Tournament, tournamentAct } from './director';
import { DirectorNav, pageLink } from './directorview';
import { h, tx } from './dom';
import { Key, t } from './i18n';
import type { Lobby } from './lobby';
import { PageView } from './pageview';
import { joinable, playing } from './tnplayer';
import { startText, stateText, systemText } from './tnwords';

/** How often the list is read again while it is open, ms (the events' own pages are live). */
const POLL_MS = 15_000;

/** The list of tournaments. */
export class TournamentListView extends PageView {
  readonly el: HTMLElement;
  protected readonly title = tx('h2', 'tnListTitle', { tabindex: -1, id: 'tn-list-title', 'data-testid': 'tn-list-title' });
  private readonly state = h('p', { class: 'hint', role: 'status', 'data-testid': 'tn-list-state' });
  private readonly lists = h('div', { class: 'tn-lists' });
  private list: Tournament[] | null = null;
  private readonly timer: number;

  constructor(
    private readonly lobby: Lobby,
    private readonly nav: DirectorNav,
  ) {
    super();
    this.el = h('section', { class: 'tournament-page', 'data-testid': 'tournament-list', 'aria-labelledby': 'tn-list-title' }, this.title, this.state, this.lists);
    this.follow(lobby, (msg) => msg.t === 'hello');
    this.timer = window.setInterval(() => void this.load(), POLL_MS);
  }

  close(): void {
    super.close();
    clearInterval(this.timer);
  }

  protected async load(): Promise<void> {
    try {
      this.list = (await fetchTournaments()).tournaments;
      this.state.textContent = '';
      this.state.dataset.state = 'ready';
    } catch (e) {
      this.list = null;
      this.state.dataset.state = codeOf(e);
      this.state.replaceChildren(...refusal(e));
    }
    this.render();
  }

  protected render(): void {
    const all = this.list ?? [];
    const focus = document.activeElement;
    const key = focus instanceof HTMLElement && this.lists.contains(focus) ? focus.dataset.key : undefined;
    const part = (status: Tournament['status'], titleKey: Key, noneKey: Key): HTMLElement[] => {
      const some = all.filter((d) => d.status === status);
      if (status === 'created') some.sort((a, b) => (a.startsAt ?? Infinity) - (b.startsAt ?? Infinity));
      const id = `tn-list-${status}`;
      return [
        tx('h3', titleKey, { id }),
        some.length ? h('ul', { class: 'director-list', 'data-testid': id, 'aria-labelledby': id }, ...some.map((d) => this.item(d))) : tx('p', noneKey, { class: 'hint', 'data-testid': `${id}-none` }),
      ];
    };
    this.lists.replaceChildren(...part('created', 'tnUpcoming', 'tnUpcomingNone'), ...part('started', 'tnRunning', 'tnRunningNone'), ...part('finished', 'tnFinishedList', 'tnFinishedNone'));
    if (key) this.lists.querySelector<HTMLElement>(`[data-key="${CSS.escape(key)}"]`)?.focus();
  }

  /** One event: its link, what it is, when or where it stands, its players, and join or leave (described by the event's name and all that, 19.6). */
  private item(d: Tournament): HTMLElement {
    const id = `tn-item-${d.id}`;
    const when = d.status === 'created' ? t('tnStartsShown', { when: startText(d) }) : stateText(d);
    const what = h('span', { id }, ` · ${systemText(d)} · ${d.timeControl} · ${when} · ${t('tnPlayerCount', { n: d.players.length })}`);
    const li = h('li', { 'data-testid': 'tn-item', 'data-id': d.id, 'data-status': d.status }, pageLink(this.nav, `/tournaments/${encodeURIComponent(d.id)}`, d.name, { 'data-testid': 'tn-item-link', 'data-key': `link-${d.id}`, id: `${id}-name` }), what);
    const me = this.lobby.me?.name;
    if (!me || !d.byRound) return li;
    const mine = playing(d, me);
    const entered = d.players.some((p) => p.name.toLowerCase() === me.toLowerCase());
    const join = !entered && joinable(d);
    const quit = mine && d.status === 'created';
    if (!join && !quit) return li;
    const error = h('span', { class: 'error', role: 'alert', id: `${id}-error`, 'data-testid': 'tn-item-error' });
    const b = tx('button', join ? 'tnJoin' : 'tnQuit', { type: 'button', 'data-testid': join ? 'tn-item-join' : 'tn-item-quit', 'data-key': `${join ? 'join' : 'quit'}-${d.id}`, 'aria-describedby': `${id}-name ${id} ${id}-error` });
    b.addEventListener('click', () => {
      b.disabled = true;
      error.replaceChildren();
      void tournamentAct(d.id, join ? 'join' : 'quit')
        .then(async () => {
          this.nav.say(t(join ? 'tnJoined' : 'tnLeft', { name: d.name }));
          await this.load();
          this.lists.querySelector<HTMLElement>(`[data-key="${join ? 'quit' : 'join'}-${CSS.escape(d.id)}"]`)?.focus();
        })
        .catch((e: unknown) => {
          error.replaceChildren(...refusal(e));
          b.disabled = false;
          b.focus();
        });
    });
    li.append(' ', b, ' ', error);
    return li;
  }
}
