// An arena's page (issue 18 point 10), as lichess shows one: the time
// left, counting down (and whether pairing has closed before the end);
// the ranking with each player's sheet — each game's points, those scored
// on fire (double) in bold with a flame, a berserk point marked with
// swords — a flame by those on fire now; the games being played, each a
// link, the leaders' first. A screen reader hears each sheet as a list of
// numbers with what they mean. The page reads the arena again on every
// change the tournament's socket tells of.

import type { Standing, Tournament } from './director';
import { h, tx } from './dom';
import { t } from './i18n';

/** One game on a player's sheet. */
export interface ArenaScore {
  result: 'win' | 'draw' | 'loss';
  points: number;
  fire: boolean;
  berserk: boolean;
}

/** A player of a game being played. */
export interface ArenaSide {
  id: number;
  name: string | null;
  rank: number;
}

/** An arena as `GET /api/tournaments/{id}` gives it. */
export interface ArenaState {
  minutes: number;
  endsAt: number | null;
  closesAt: number | null;
  secondsLeft: number | null;
  games: number;
  playing: { game: string; white: ArenaSide; black: ArenaSide; berserk: { white: boolean; black: boolean } }[];
}

/** A line of an arena's standings. */
export type ArenaStanding = Standing & { sheet: ArenaScore[]; fire: boolean; performance: number | null; playing: string | null };

/** Makes the link to a game: its id, whether it is one's own, its text. */
export type GameLink = (game: string, mine: boolean, text: string) => HTMLElement;

/** "59:58" or "1:02:03". */
function clockText(secs: number): string {
  const s = Math.max(0, Math.floor(secs));
  const mm = String(Math.floor(s / 60) % 60).padStart(2, '0');
  const ss = String(s % 60).padStart(2, '0');
  return s >= 3600 ? `${Math.floor(s / 3600)}:${mm}:${ss}` : `${Math.floor(s / 60)}:${ss}`;
}

/** The countdown's timer (one for the page: each second, every countdown shown is written again). */
let ticking = 0;

/** Writes each countdown shown; stops when there is none. */
function tick(): void {
  const shown = document.querySelectorAll<HTMLElement>('[data-testid="arena-left"][data-until]');
  if (!shown.length) {
    window.clearInterval(ticking);
    ticking = 0;
    return;
  }
  for (const el of shown) {
    const left = (Number(el.dataset.until) - Date.now()) / 1000;
    const closed = Date.now() >= Number(el.dataset.closes);
    el.textContent = t(closed ? 'arenaClosed' : 'arenaLeft', { time: clockText(left) });
  }
}

/** The time left, counting down from what the server said when the page read it. */
function timeLeft(d: Tournament, a: ArenaState): HTMLElement {
  if (d.status === 'finished') return tx('p', 'arenaOver', { 'data-testid': 'arena-left', class: 'arena-left' });
  if (d.status === 'created' || a.secondsLeft === null) return tx('p', 'arenaNotStarted', { 'data-testid': 'arena-left', class: 'arena-left' });
  const now = Date.now();
  const until = now + a.secondsLeft * 1000;
  const closes = until - ((a.endsAt ?? 0) - (a.closesAt ?? 0));
  const el = h('p', { 'data-testid': 'arena-left', class: 'arena-left', 'data-until': until, 'data-closes': closes });
  el.textContent = t(now >= closes ? 'arenaClosed' : 'arenaLeft', { time: clockText(a.secondsLeft) });
  if (!ticking) ticking = window.setInterval(tick, 1000);
  return el;
}

/** A sheet: the digits as lichess writes them (fire in bold, berserk marked), and in words for a screen reader. */
function sheetCell(scores: ArenaScore[]): HTMLElement {
  if (!scores.length) return h('td', { 'data-testid': 'arena-sheet' }, t('arenaNoGames'));
  const shown = h(
    'span',
    { 'aria-hidden': 'true', class: 'arena-sheet' },
    ...scores.map((s) => {
      const text = `${s.points}${s.berserk ? '⚔' : ''}`;
      return s.fire ? h('strong', { 'data-fire': 'true' }, `${text}🔥`) : h('span', {}, text);
    }),
  );
  const said = scores.map((s) => (s.fire ? t('arenaFireScore', { n: s.points }) : s.berserk ? t('arenaBerserkScore', { n: s.points }) : String(s.points)));
  return h('td', { 'data-testid': 'arena-sheet', 'data-digits': scores.map((s) => s.points).join('') }, shown, h('span', { class: 'sr-only' }, t('arenaSheetSaid', { list: said.join(', ') })));
}

/** The ranking, one row a player, the reader's own marked. */
function ranking(rows: ArenaStanding[], me: string | null): HTMLElement {
  const head = h('tr', {}, ...(['arenaRankCol', 'arenaPlayerCol', 'arenaSheetCol', 'arenaPointsCol', 'arenaPerfCol'] as const).map((k) => tx('th', k, { scope: 'col' })));
  const body = rows.map((r) => {
    const name = r.withdrawn ? t('arenaPaused', { name: r.name }) : r.name;
    const fire = r.fire ? [h('span', { 'aria-hidden': 'true' }, ' 🔥'), h('span', { class: 'sr-only' }, ` ${t('arenaOnFire')}`)] : [];
    return h(
      'tr',
      { 'data-testid': 'arena-row', 'data-player': r.name, 'data-fire': String(r.fire), class: r.name === me ? 'me' : '' },
      h('td', {}, String(r.rank)),
      h('th', { scope: 'row' }, name, ...fire),
      sheetCell(r.sheet),
      h('td', { 'data-testid': 'arena-points' }, String(r.points)),
      h('td', {}, r.performance === null ? '' : String(r.performance)),
    );
  });
  return h('table', { class: 'tn-standings', 'data-testid': 'arena-ranking' }, tx('caption', 'arenaRanking'), h('thead', {}, head), h('tbody', {}, ...body));
}

/** The games being played, each a link naming its players, their places and who went berserk. */
function playing(a: ArenaState, me: string | null, link: GameLink): HTMLElement[] {
  const title = tx('h3', 'arenaPlaying', { id: 'arena-playing-title' });
  if (!a.playing.length) return [title, tx('p', 'arenaNoPlaying', { class: 'hint', 'data-testid': 'arena-no-games' })];
  const side = (s: ArenaSide, berserk: boolean): string => `${s.name ?? '?'} (${s.rank})${berserk ? ` ${t('arenaBerserked')}` : ''}`;
  const items = a.playing.map((g) => {
    const text = t('arenaGame', { white: side(g.white, g.berserk.white), black: side(g.black, g.berserk.black) });
    const mine = me !== null && (g.white.name === me || g.black.name === me);
    return h('li', { 'data-testid': 'arena-game', 'data-game': g.game }, link(g.game, mine, text));
  });
  return [title, h('ul', { 'aria-labelledby': 'arena-playing-title' }, ...items)];
}

/** The arena's part of its page. */
export function arenaView(d: Tournament, me: string | null, link: GameLink): HTMLElement {
  const a = d.arena;
  if (!a) return h('div', {});
  const rows = (d.standings ?? []) as ArenaStanding[];
  return h(
    'section',
    { class: 'tn-arena', 'data-testid': 'arena', 'aria-labelledby': 'arena-title' },
    tx('h3', 'arenaTitle', { id: 'arena-title' }),
    timeLeft(d, a),
    tx('p', 'arenaHowTo', { class: 'hint' }),
    d.started ? ranking(rows, me) : '',
    ...(d.started ? playing(a, me, link) : []),
  );
}

/** One's own game being played in the arena, if any. */
export function ownArenaGame(d: Tournament, game: string): boolean {
  return Boolean(d.arena?.playing.some((g) => g.game === game));
}
