// The board: lichess's chessground showing the server's position, with the
// server's legal destinations as the only movable squares, and a picker for
// the promotion piece.

import { Chessground } from 'chessground';
import type { Api } from 'chessground/api';
import type { Key } from 'chessground/types';
import { h, tx } from './dom';
import { t } from './i18n';
import { BoardGrid } from './grid';
import type { Color, GameState } from './protocol';

const PROMOTIONS: [string, string][] = [
  ['q', 'queen'],
  ['n', 'knight'],
  ['r', 'rook'],
  ['b', 'bishop'],
];

/** The start position, shown before a game begins. */
export const START_FEN = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

/** White's legal first moves from the start position. */
function startDests(): Map<Key, Key[]> {
  const dests = new Map<Key, Key[]>();
  for (const f of 'abcdefgh') dests.set(`${f}2` as Key, [`${f}3` as Key, `${f}4` as Key]);
  dests.set('b1', ['a3', 'c3']);
  dests.set('g1', ['f3', 'h3']);
  return dests;
}

/** A chessground piece element, for the picker's buttons. */
function pieceIcon(role: string, color: Color): HTMLElement {
  const el = document.createElement('piece');
  el.className = `${role} ${color}`;
  return el;
}

/** The board and its promotion picker. */
export class Board {
  readonly el: HTMLElement;
  private readonly cg: Api;
  private readonly picker: HTMLElement;
  private last: GameState | null = null;
  /** Whose pieces could move in the last state shown. */
  private lastMovable: Color | 'both' | null = null;
  /** The same position as a grid of named squares, for screen readers and the keyboard. */
  readonly grid: BoardGrid;

  /**
   * `onMove` receives each move the player makes, in UCI (`e7e8q`); `say`
   * announces what the grid answers, `speak` speaks a step aloud.
   */
  constructor(
    private readonly onMove: (uci: string) => void,
    say: (text: string) => void,
    speak: (text: string) => void,
  ) {
    const reducedMotion = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
    // The picture is hidden from screen readers: the grid says the same in words.
    const wrap = h('div', { class: 'cg-wrap', 'data-testid': 'board', 'aria-hidden': 'true' });
    this.picker = h('div', { class: 'promotion', 'data-testid': 'promotion', hidden: true });
    this.grid = new BoardGrid(onMove, say, speak);
    this.el = h('div', { class: 'board', 'data-orientation': 'white', 'data-motion': reducedMotion ? 'reduced' : 'full' }, wrap, this.grid.el, this.picker);
    this.cg = Chessground(wrap, {
      fen: START_FEN,
      viewOnly: false,
      movable: { free: false, color: undefined, showDests: true, events: { after: (o, d) => this.moved(o, d) } },
      highlight: { lastMove: true, check: true },
      premovable: { enabled: false },
      // No sliding pieces for those who asked their system for less motion.
      animation: { enabled: !reducedMotion, duration: 180 },
      draggable: { enabled: true, showGhost: true },
      drawable: { enabled: true },
    });
    // Chessground measures the board again only on scroll and resize, but the
    // page moves it too (one's games in the header, the challenges below it,
    // a shorter page after leaving the lobby): every press measures afresh.
    const measure = () => this.cg.state.dom.bounds.clear();
    wrap.addEventListener('mousedown', measure, { capture: true });
    wrap.addEventListener('touchstart', measure, { capture: true, passive: true });
  }

  /** Shows `state`; the player may move the pieces of `movable` (or none). */
  show(state: GameState, movable: Color | 'both' | null): void {
    this.last = state;
    this.lastMovable = movable;
    this.picker.hidden = true;
    const dests = new Map<Key, Key[]>();
    if (movable) for (const [from, tos] of Object.entries(state.dests)) dests.set(from as Key, tos as Key[]);
    const last = state.last_move;
    this.cg.set({
      fen: state.fen,
      turnColor: state.turn,
      check: state.check ? state.turn : false,
      lastMove: last ? [last.slice(0, 2) as Key, last.slice(2, 4) as Key] : undefined,
      movable: {
        color: movable === null ? undefined : movable === 'both' ? state.turn : movable,
        dests,
        rookCastle: state.chess960 !== null,
      },
    });
    this.el.dataset.fen = state.fen;
    this.grid.update(state.fen, movable ? state.dests : {}, this.orientation());
  }

  /**
   * Shows the start position before a game; with `ready`, White may make the
   * first move at once (the page then starts the game with it).
   */
  idle(ready: boolean): void {
    this.last = null;
    this.picker.hidden = true;
    this.cg.set({
      fen: START_FEN,
      turnColor: 'white',
      lastMove: undefined,
      check: false,
      movable: { color: ready ? 'white' : undefined, dests: ready ? startDests() : new Map(), rookCastle: false },
    });
    delete this.el.dataset.fen;
    const dests: Record<string, string[]> = {};
    if (ready) for (const [from, tos] of startDests()) dests[from] = tos;
    this.grid.update(START_FEN, dests, this.orientation());
  }

  /** Shows a position to look at, not to play (a replay): `lastMove` in UCI, `check` for the side to move. */
  position(fen: string, lastMove: string | null, check: boolean): void {
    this.last = null;
    this.picker.hidden = true;
    const turn: Color = fen.split(' ')[1] === 'b' ? 'black' : 'white';
    this.cg.set({
      fen,
      turnColor: turn,
      check: check ? turn : false,
      lastMove: lastMove ? [lastMove.slice(0, 2) as Key, lastMove.slice(2, 4) as Key] : undefined,
      movable: { color: undefined, dests: new Map() },
    });
    this.el.dataset.fen = fen;
    this.grid.update(fen, {}, this.orientation());
  }

  /** Puts back the last position the server sent (after a refused or cancelled move). */
  restore(): void {
    if (this.last) this.show(this.last, this.lastMovable);
  }

  /** Keeps the board as it is (a move shown tentatively, waiting to be confirmed) with no piece movable. */
  freeze(): void {
    this.picker.hidden = true;
    this.cg.set({ movable: { color: undefined, dests: new Map() } });
    this.grid.update(this.last?.fen ?? START_FEN, {}, this.orientation());
  }

  /** The side at the bottom. */
  orientation(): Color {
    return this.cg.state.orientation;
  }

  /** Turns the board so that `color` is at the bottom. */
  orient(color: Color): void {
    if (this.cg.state.orientation !== color) this.cg.set({ orientation: color });
    this.el.dataset.orientation = color;
    this.regrid();
  }

  /** Turns the board round. */
  flip(): void {
    this.cg.toggleOrientation();
    this.el.dataset.orientation = this.cg.state.orientation;
    this.regrid();
  }

  /** Redraws the grid after the board turned. */
  private regrid(): void {
    const movable = this.cg.state.movable;
    const dests: Record<string, string[]> = {};
    if (movable.color) for (const [from, tos] of movable.dests ?? new Map()) dests[from] = tos;
    this.grid.update(this.last?.fen ?? START_FEN, dests, this.orientation());
  }

  /** A move was dropped or clicked on the board. */
  private moved(orig: Key, dest: Key): void {
    const piece = this.cg.state.pieces.get(dest);
    const lastRank = dest[1] === '8' || dest[1] === '1';
    if (piece?.role === 'pawn' && lastRank) this.askPromotion(orig, dest, piece.color);
    else this.onMove(orig + dest);
  }

  /** Shows the promotion picker over the board. */
  private askPromotion(orig: Key, dest: Key, color: Color): void {
    this.picker.replaceChildren(
      tx('p', 'promoteTo'),
      ...PROMOTIONS.map(([letter, role]) => {
        const b = h(
          'button',
          { type: 'button', 'data-testid': `promote-${letter}`, 'aria-label': t(role as 'queen'), class: 'promote' },
          pieceIcon(role, color),
        );
        b.addEventListener('click', () => {
          this.picker.hidden = true;
          this.onMove(orig + dest + letter);
        });
        return b;
      }),
      (() => {
        const cancel = tx('button', 'cancel', { type: 'button', 'data-testid': 'promote-cancel' });
        cancel.addEventListener('click', () => this.restore());
        return cancel;
      })(),
    );
    this.picker.hidden = false;
  }
}
