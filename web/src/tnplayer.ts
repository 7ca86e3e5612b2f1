// The player's part of a tournament's page: joining or leaving an open
// event (the server's refusal beside the button), and one's own game in
// the current round with its link (one's seat), or one's bye.

import { codeOf, PairedRound, refusal, Tournament, tournamentAct } from './director';
import { DirectorNav, pageLink } from './directorview';
import { h, tx } from './dom';
import { t } from './i18n';
import type { Lobby } from './lobby';
import { boardResult, byeText } from './tntables';

/** Whether one may join `d` now (an open event before its start, a Swiss with rounds left, an arena while it runs). */
export function joinable(d: Tournament): boolean {
  if (!d.entry.open || d.status === 'finished') return false;
  return d.status === 'created' || d.system === 'arena' || (d.system === 'swiss' && d.byRound && d.round < d.rounds);
}

/** Whether `name` plays in `d` and has not left. */
export function playing(d: Tournament, name: string | undefined): boolean {
  const me = name?.toLowerCase();
  return !!me && d.players.some((p) => p.name.toLowerCase() === me && !p.withdrawn);
}

/** One's own game in round `round` of `d`: the board and one's colour, or one's bye. */
export function ownPairing(d: Tournament, name: string, round = d.round): { board?: PairedRound['boards'][number]; color?: 'white' | 'black'; bye?: PairedRound['byes'][number]['kind'] } | null {
  const r = d.pairings?.[round - 1];
  if (!r) return null;
  const me = name.toLowerCase();
  for (const b of r.boards) {
    if (b.white.name?.toLowerCase() === me) return { board: b, color: 'white' };
    if (b.black.name?.toLowerCase() === me) return { board: b, color: 'black' };
  }
  const bye = r.byes.find((b) => b.player.name?.toLowerCase() === me);
  return bye ? { bye: bye.kind } : null;
}

/** The join or leave button and one's game. */
export class PlayerBox {
  readonly el: HTMLElement;
  private readonly entry = h('div', { class: 'tn-entry', 'data-testid': 'tn-entry' });
  private readonly error = h('p', { class: 'error', role: 'alert', id: 'tn-entry-error', 'data-testid': 'tn-entry-error' });
  private readonly game = h('section', { class: 'tn-your-game', 'data-testid': 'tn-your-game', 'aria-labelledby': 'tn-your-title' });

  constructor(
    private readonly id: string,
    private readonly lobby: Lobby,
    private readonly nav: DirectorNav,
    private readonly changed: () => Promise<void>,
  ) {
    this.el = h('div', { class: 'tn-player-box' }, this.entry, this.error, this.game);
  }

  /** Draws the box for `d` as the signed-in account sees it. */
  render(d: Tournament): void {
    const me = this.lobby.me?.name;
    const mine = playing(d, me);
    const buttons: HTMLElement[] = [];
    if (!me && this.lobby.known && joinable(d)) {
      const b = tx('button', 'tnSignInToJoin', { type: 'button', 'data-testid': 'tn-sign-in', 'data-key': 'tn-sign-in' });
      b.addEventListener('click', () => this.nav.signIn(b));
      buttons.push(b);
    } else if (me && !mine && joinable(d) && (d.system === 'arena' || !d.players.some((p) => p.name.toLowerCase() === me.toLowerCase()))) {
      // An arena's player who left comes back by joining again.
      buttons.push(this.button('tnJoin', 'tn-join', 'join', t('tnJoined', { name: d.name })));
    } else if (mine && (d.byRound || d.system === 'arena') && d.status !== 'finished') {
      buttons.push(this.button(d.status === 'created' ? 'tnQuit' : 'tnQuitStarted', 'tn-quit', 'quit', t('tnLeft', { name: d.name })));
    }
    if (mine && (d.byRound || d.system === 'arena') && d.status === 'created') buttons.unshift(tx('p', 'tnYouPlay', { class: 'hint', 'data-testid': 'tn-you-play' }));
    this.entry.replaceChildren(...buttons);
    this.entry.hidden = buttons.length === 0;
    if (!buttons.length) this.error.replaceChildren();
    this.renderGame(d, me);
  }

  /** A button that joins or leaves (`what`), says `done` and reads the tournament again. */
  private button(key: 'tnJoin' | 'tnQuit' | 'tnQuitStarted', testid: string, what: 'join' | 'quit', done: string): HTMLButtonElement {
    const b = tx('button', key, { type: 'button', class: what === 'join' ? 'primary' : undefined, 'data-testid': testid, 'data-key': testid, 'aria-describedby': 'tn-entry-error' });
    b.addEventListener('click', () => {
      b.disabled = true;
      this.error.replaceChildren();
      void tournamentAct(this.id, what)
        .then(async () => {
          this.nav.say(done);
          await this.changed();
          this.entry.querySelector<HTMLElement>('button')?.focus();
        })
        .catch((e: unknown) => {
          this.error.replaceChildren(...refusal(e));
          this.error.dataset.code = codeOf(e);
          b.focus();
        })
        .finally(() => {
          b.disabled = false;
        });
    });
    return b;
  }

  /** One's game in the current round, with its link; one's bye; or nothing for one not paired. */
  private renderGame(d: Tournament, me: string | undefined): void {
    const own = me && d.byRound && d.round > 0 ? ownPairing(d, me) : null;
    if (!own || !me) {
      this.game.hidden = true;
      this.game.replaceChildren();
      return;
    }
    this.game.hidden = false;
    const title = tx('h3', 'tnYourGame', { id: 'tn-your-title' });
    if (own.bye) {
      this.game.replaceChildren(title, h('p', { 'data-testid': 'tn-your-line' }, t('tnYourBye', { n: d.round, what: byeText(own.bye) })));
      return;
    }
    const b = own.board!;
    const color = own.color!;
    const opponent = (color === 'white' ? b.black.name : b.white.name) ?? '?';
    const line = t(b.result === null ? 'tnYourPairing' : 'tnYourGameOver', { n: d.round, board: b.board, color: t(color), name: opponent, result: boardResult(b.result) });
    const seat = b.game ? this.lobby.games.find((g) => g.gameId === b.game) : undefined;
    const href = seat?.url ?? (b.game ? `/g/${encodeURIComponent(b.game)}` : null);
    const link = href ? pageLink(this.nav, href, t(b.result === null ? 'openMyGame' : 'openGame'), { 'data-testid': 'tn-your-link', 'data-key': 'tn-your-link', 'aria-describedby': 'tn-your-line' }) : null;
    this.game.replaceChildren(title, h('p', { id: 'tn-your-line', 'data-testid': 'tn-your-line', 'data-game': b.game ?? '' }, line), link ? h('p', {}, link) : '');
  }
}
