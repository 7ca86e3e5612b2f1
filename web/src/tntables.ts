// A live event's tables on its page (issue 18 point 9): the standings with
// the organiser's tie-breaks in columns, the crosstable of a round robin,
// and one round's pairings with their results; the words for results,
// byes and tie-breaks.

import type { PairedRound, Standing, Tournament } from './director';
import { h, tx } from './dom';
import { Key, t } from './i18n';
import { resultText } from './outcome';

/** The C.07 short names and their words. */
export const TIEBREAKS: Record<string, Key> = {
  DE: 'tb_DE',
  WIN: 'tb_WIN',
  WON: 'tb_WON',
  BPG: 'tb_BPG',
  BWG: 'tb_BWG',
  PS: 'tb_PS',
  BH: 'tb_BH',
  'BH-C1': 'tb_BH_C1',
  'BH-C2': 'tb_BH_C2',
  'BH-M1': 'tb_BH_M1',
  'BH-M2': 'tb_BH_M2',
  SB: 'tb_SB',
  KS: 'tb_KS',
  ARO: 'tb_ARO',
  TPR: 'tb_TPR',
};

/** A tie-break's name in words ("Buchholz Cut-1"). */
export const tiebreakName = (code: string): string => (TIEBREAKS[code] ? t(TIEBREAKS[code]) : code);

/** Points as a crosstable writes them: 0, ½, 1, 1½. */
export function pointsText(n: number): string {
  const whole = Math.floor(n);
  const half = n - whole >= 0.5;
  return half ? `${whole || ''}½` : String(whole);
}

/** A board's result in words (`1-0`, `½-½`, forfeits named); "in progress" while playing. */
export function boardResult(result: string | null): string {
  if (result === null) return t('gameOngoing');
  if (result === '+-') return t('tnForfeitWhite');
  if (result === '-+') return t('tnForfeitBlack');
  if (result === '--') return t('tnForfeitBoth');
  return resultText(result);
}

/** A bye's kind in words with what it scores. */
export function byeText(kind: PairedRound['byes'][number]['kind']): string {
  return t(kind === 'pairing' ? 'tnByePairing' : kind === 'half' ? 'tnByeHalf' : kind === 'full' ? 'tnByeFull' : 'tnByeZero');
}

/** A player's name, withdrawn ones marked. */
const shownName = (r: Standing): string => (r.withdrawn ? t('tnWithdrawnName', { name: r.name }) : r.name);

/**
 * The standings: place, number, name, rating, points and the tie-breaks
 * in the organiser's order; the signed-in player's line marked.
 */
export function standingsTable(d: Tournament, me: string | null): HTMLElement {
  const rows = d.standings ?? [];
  const head = (key: Key): HTMLElement => tx('th', key, { scope: 'col' });
  const live = d.byRound;
  const caption = h('caption', {}, t(d.status === 'finished' ? 'tnStandingsFinal' : d.provisional ? 'tnStandingsProvisional' : 'tnStandings'));
  return h(
    'div',
    { class: 'tn-scroll' },
    h(
      'table',
      { class: 'tn-table', 'data-testid': 'tn-standings' },
      caption,
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          head('tnRank'),
          live ? head('tnNumber') : null,
          head('colPlayer'),
          live ? head('tnRating') : null,
          head('tnPoints'),
          ...(live ? d.tiebreaks.map((code) => h('th', { scope: 'col', 'data-testid': 'tn-tiebreak-head' }, h('abbr', { title: tiebreakName(code) }, code))) : []),
          live ? null : head('tnFinished'),
        ),
      ),
      h(
        'tbody',
        {},
        ...rows.map((r, i) =>
          h(
            'tr',
            { 'data-testid': 'tn-standing', 'data-withdrawn': String(r.withdrawn), 'data-player': r.name, class: me && r.name.toLowerCase() === me.toLowerCase() ? 'mine' : undefined },
            h('td', {}, String(live ? r.rank : i + 1)),
            live ? h('td', {}, String(r.number)) : null,
            h('th', { scope: 'row' }, shownName(r)),
            live ? h('td', {}, r.rating === null ? '–' : String(r.rating)) : null,
            h('td', { 'data-testid': 'tn-points' }, pointsText(r.points)),
            ...(live ? r.tiebreaks.map((v) => h('td', { 'data-testid': 'tn-tiebreak' }, v)) : []),
            live ? null : h('td', {}, String(r.finished)),
          ),
        ),
      ),
    ),
  );
}

/** The crosstable of a round robin: each player's results against each pairing number, and the points. */
export function crosstableView(d: Tournament): HTMLElement | null {
  const table = d.crosstable;
  if (!table || !d.byRound || !d.started) return null;
  const byNumber = new Map((d.standings ?? []).map((r) => [r.number, r]));
  const n = table.length;
  const numbers = Array.from({ length: n }, (_, i) => i + 1);
  return h(
    'div',
    { class: 'tn-scroll' },
    h(
      'table',
      { class: 'tn-table tn-cross', 'data-testid': 'tn-crosstable' },
      tx('caption', 'tnCrosstable'),
      h(
        'thead',
        {},
        h('tr', {}, tx('th', 'tnNumber', { scope: 'col' }), tx('th', 'colPlayer', { scope: 'col' }), ...numbers.map((j) => h('th', { scope: 'col' }, String(j))), tx('th', 'tnPoints', { scope: 'col' })),
      ),
      h(
        'tbody',
        {},
        ...table.map((cells, i) => {
          const r = byNumber.get(i + 1);
          const name = r ? shownName(r) : d.players[i]?.name ?? '';
          return h(
            'tr',
            { 'data-testid': 'tn-cross-row' },
            h('td', {}, String(i + 1)),
            h('th', { scope: 'row' }, name),
            ...cells.map((c, j) => h('td', { class: i === j ? 'self' : undefined, 'aria-label': i === j ? '—' : undefined }, i === j ? '×' : c)),
            h('td', {}, r ? pointsText(r.points) : ''),
          );
        }),
      ),
    ),
  );
}

/** What a pairings table can do for its reader: open a game, and for the director change a result. */
export interface PairingsActions {
  /** The link to a game: one's own seat where one plays. */
  gameLink(game: string, mine: boolean, describedBy: string): HTMLElement;
  /** The director's control of a finished board, if any. */
  change?(board: PairedRound['boards'][number], describedBy: string): HTMLElement | null;
}

/** One round's pairings: board, White, result, Black, the game; then the byes. */
export function pairingsView(round: PairedRound, me: string | null, actions: PairingsActions): HTMLElement {
  const isMe = (name: string | null): boolean => !!me && !!name && name.toLowerCase() === me.toLowerCase();
  const who = (p: PairedRound['boards'][number]['white']): string => (p.number ? `${p.name ?? '?'} (${p.number})` : p.name ?? '?');
  const head = (key: Key): HTMLElement => tx('th', key, { scope: 'col' });
  const table = h(
    'table',
    { class: 'tn-table', 'data-testid': 'tn-pairings', 'data-round': round.round },
    h('caption', {}, t(round.finished ? 'tnRoundDone' : 'tnRoundGoing', { n: round.round })),
    h('thead', {}, h('tr', {}, head('tnBoard'), head('white'), head('tnResult'), head('black'), tx('th', 'tnGame', { scope: 'col' }))),
    h(
      'tbody',
      {},
      ...round.boards.map((b) => {
        const id = `tn-board-${round.round}-${b.board}`;
        const mine = isMe(b.white.name) || isMe(b.black.name);
        const cells: (HTMLElement | string)[] = [];
        if (b.game) cells.push(actions.gameLink(b.game, mine, id));
        const change = actions.change?.(b, id);
        if (change) cells.push(' ', change);
        return h(
          'tr',
          { 'data-testid': 'tn-board', 'data-board': b.board, 'data-game': b.game ?? '', 'data-result': b.result ?? '', class: mine ? 'mine' : undefined },
          h('th', { scope: 'row', id }, h('span', { 'aria-hidden': 'true' }, String(b.board)), h('span', { class: 'sr-only' }, t('tnBoardN', { n: b.board, white: b.white.name ?? '?', black: b.black.name ?? '?' }))),
          h('td', {}, who(b.white)),
          h('td', { 'data-testid': 'tn-board-result' }, boardResult(b.result)),
          h('td', {}, who(b.black)),
          h('td', {}, ...cells),
        );
      }),
    ),
  );
  const byes = round.byes.length
    ? h('ul', { class: 'tn-byes', 'data-testid': 'tn-byes' }, ...round.byes.map((b) => h('li', { 'data-testid': 'tn-bye', 'data-kind': b.kind }, t('tnByeLine', { name: b.player.name ?? '?', what: byeText(b.kind) }))))
    : null;
  return h('div', { class: 'tn-round' }, h('div', { class: 'tn-scroll' }, table), byes);
}
