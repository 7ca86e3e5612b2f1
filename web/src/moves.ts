// The move list in the reader's notation, and the screen-reader live region
// that announces each move in words.

import { h } from './dom';
import { lang, t } from './i18n';
import { fenTurn, localSan, Style, Voice, voicedMove } from './notation';
import type { Color, GameState } from './protocol';

const STYLE_KEY = 'rochade.notation';

/** The notation style chosen last. */
export function savedStyle(): Style {
  return localStorage.getItem(STYLE_KEY) === 'figurines' ? 'figurines' : 'letters';
}

/** Remembers the notation style. */
export function saveStyle(style: Style): void {
  localStorage.setItem(STYLE_KEY, style);
}

/** The mover of the `index`-th half-move of a game starting from `initialFen`. */
function moverOf(initialFen: string, index: number): Color {
  const first = fenTurn(initialFen);
  const other: Color = first === 'white' ? 'black' : 'white';
  return index % 2 === 0 ? first : other;
}

/**
 * Writes the move list of `state` into `list` (an `<ol>`), numbered as the
 * Laws number moves; the half-moves (indexes) in `offers` carried a draw
 * offer and are marked (=) as a score sheet marks them (FIDE 9.1.2.1, ICCF 8.1.4).
 */
export function renderMoves(list: HTMLElement, state: GameState, style: Style, voice: Voice | null = null, offers: ReadonlySet<number> = new Set()): void {
  if (voice) {
    renderVoicedMoves(list, state, voice, offers);
    return;
  }
  const first = fenTurn(state.initial_fen);
  const startNumber = Number(state.initial_fen.split(' ')[5] ?? '1') || 1;
  const items: HTMLElement[] = [];
  let current: HTMLElement | null = null;
  state.moves.forEach((m, i) => {
    const mover = moverOf(state.initial_fen, i);
    const number = startNumber + Math.floor((i + (first === 'black' ? 1 : 0)) / 2);
    if (mover === 'white' || current === null) {
      current = h('li', { value: number }, h('span', { class: 'num' }, `${number}.`));
      if (mover === 'black') current.append(h('span', { class: 'san empty' }, '…'));
      items.push(current);
    }
    current.append(
      h(
        'span',
        { class: 'san', 'data-testid': 'move', 'data-uci': m.uci, 'data-san': m.san, 'data-offer': offers.has(i) ? 'draw' : undefined },
        localSan(m.san, lang(), style, mover),
        offers.has(i) ? h('span', { class: 'offer-mark', title: t('drawOfferMark') }, ' (=)') : null,
      ),
    );
  });
  list.replaceChildren(...items);
  list.scrollTop = list.scrollHeight;
}

/** The announcement of the last move of `state` in `voice`, e.g. "White: knight f3, check". */
export function announcement(state: GameState, previous: GameState | null, voice: Voice): string {
  const i = state.moves.length - 1;
  if (i < 0) return '';
  const m = state.moves[i];
  const mover = moverOf(state.initial_fen, i);
  const before = previous && previous.ply === state.ply - 1 ? previous.fen : null;
  return `${t(mover)}: ${voicedMove(m.san, m.uci, before, lang(), voice, mover)}`;
}

/** The move list for the screen reader: one item per half-move, "1. White: knight f3", in `voice`. */
function renderVoicedMoves(list: HTMLElement, state: GameState, voice: Voice, offers: ReadonlySet<number>): void {
  const first = fenTurn(state.initial_fen);
  const startNumber = Number(state.initial_fen.split(' ')[5] ?? '1') || 1;
  list.replaceChildren(
    ...state.moves.map((m, i) => {
      const mover = moverOf(state.initial_fen, i);
      const number = startNumber + Math.floor((i + (first === 'black' ? 1 : 0)) / 2);
      return h(
        'li',
        { 'data-testid': 'move', 'data-uci': m.uci, 'data-san': m.san },
        `${number}. ${t(mover)}: ${voicedMove(m.san, m.uci, null, lang(), voice, mover)}${offers.has(i) ? `, ${t('drawOfferMark')}` : ''}`,
      );
    }),
  );
  list.scrollTop = list.scrollHeight;
}
