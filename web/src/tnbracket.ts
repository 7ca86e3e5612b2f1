// A knockout's bracket on its event page (issue 18 points 3 and 9): the
// stages of a match, then each round's matches, each with both players
// (seed and name), how it stands, its games with their results and a link
// to each, and who went through; the match for third place and the
// champion. One table a round, read row by row by a screen reader.

import { h } from './dom';
import { Key, t } from './i18n';
import { boardResult } from './tntables';

/** One side of a match: a seeded player, nobody (a bye), or not known yet (null). */
export type BracketSide = { seed: number; name: string | null; id: number | null } | { nobody: true } | null;

/** A game of a match. */
export interface BracketGame {
  number: number;
  stage: number;
  game: string;
  started: boolean;
  white: string | null;
  black: string | null;
  result: string | null;
}

/** A match of the bracket. */
export interface BracketMatch {
  id: string;
  upper: BracketSide;
  lower: BracketSide;
  state: 'waiting' | 'bye' | 'playing' | 'decided';
  winner: BracketSide;
  games: BracketGame[];
}

/** A knockout's bracket as `GET /api/tournaments/{id}` gives it. */
export interface Bracket {
  stages: string[];
  rounds: { round: number; matches: BracketMatch[] }[];
  thirdPlace: BracketMatch | null;
  champion: BracketSide;
}

/** A side in words: "Anna (1)", "bye", or "to be decided". */
function sideText(side: BracketSide): string {
  if (side === null) return t('koUndecided');
  if ('nobody' in side) return t('koNobody');
  return `${side.name ?? '?'} (${side.seed})`;
}

/** How a match stands, in words. */
function stateText(m: BracketMatch): string {
  const key: Key = m.state === 'waiting' ? 'koWaiting' : m.state === 'bye' ? 'koBye' : m.state === 'playing' ? 'koPlaying' : 'koDecided';
  return m.winner && !('nobody' in m.winner) ? t('koThrough', { state: t(key), name: m.winner.name ?? '?' }) : t(key);
}

/** A round's name: the final, the semi-finals, or "Round N". */
function roundName(round: number, rounds: number): string {
  if (round === rounds) return t('koFinal');
  if (round === rounds - 1) return t('koSemiFinals');
  return t('koRound', { n: round });
}

/** One match's row: its number, both sides, how it stands, its games. */
function matchRow(m: BracketMatch, stages: string[]): HTMLElement {
  const games = m.games.map((g) =>
    h(
      'li',
      { 'data-testid': 'ko-game', 'data-result': g.result ?? '' },
      g.started
        ? h('a', { href: `/${g.game}` }, t('koGame', { n: g.number, white: g.white ?? '?', black: g.black ?? '?' }))
        : t('koGame', { n: g.number, white: g.white ?? '?', black: g.black ?? '?' }),
      ` — ${stages[g.stage] ?? ''}: ${boardResult(g.result)}`,
    ),
  );
  return h(
    'tr',
    { 'data-testid': 'ko-match', 'data-match': m.id, 'data-state': m.state },
    h('th', { scope: 'row' }, m.id),
    h('td', {}, sideText(m.upper)),
    h('td', {}, sideText(m.lower)),
    h('td', { 'data-testid': 'ko-state' }, stateText(m)),
    h('td', {}, games.length ? h('ol', { class: 'ko-games' }, ...games) : ''),
  );
}

/** A table of `matches` captioned `caption`. */
function matchTable(caption: string, matches: BracketMatch[], stages: string[]): HTMLElement {
  const head = (key: Key): HTMLElement => h('th', { scope: 'col' }, t(key));
  return h(
    'div',
    { class: 'tn-scroll' },
    h(
      'table',
      { class: 'tn-table', 'data-testid': 'ko-round' },
      h('caption', {}, caption),
      h('thead', {}, h('tr', {}, head('koMatch'), head('koUpper'), head('koLower'), head('koState'), head('koGames'))),
      h('tbody', {}, ...matches.map((m) => matchRow(m, stages))),
    ),
  );
}

/** The bracket: the match format, the champion once known, every round, the match for third place. */
export function bracketView(bracket: Bracket): HTMLElement {
  const champion = bracket.champion && !('nobody' in bracket.champion) ? bracket.champion : null;
  return h(
    'section',
    { class: 'ko-bracket', 'data-testid': 'ko-bracket', 'aria-labelledby': 'ko-title' },
    h('h3', { id: 'ko-title' }, t('koBracket')),
    h('p', {}, t('koFormat', { stages: bracket.stages.join('; ') })),
    champion ? h('p', { 'data-testid': 'ko-champion' }, t('koChampion', { name: champion.name ?? '?' })) : null,
    ...bracket.rounds.map((r) => matchTable(roundName(r.round, bracket.rounds.length), r.matches, bracket.stages)),
    bracket.thirdPlace ? matchTable(t('koThirdPlace'), [bracket.thirdPlace], bracket.stages) : null,
  );
}
