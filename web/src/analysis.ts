// An analysis board: a second board that starts from a game's position,
// where the player tries moves with the Laws checked on the page
// (chess.ts), takes them back and starts again. Nothing played here is
// ever sent: it has no socket, and says so in its heading.

import { Chessground } from 'chessground';
import type { Api } from 'chessground/api';
import type { Key as Square } from 'chessground/types';
import { problemText } from './commands';
import { isProblem, playMove, positionOf, readMove, sanIn } from './chess';
import { button, h, tx } from './dom';
import { lang, t } from './i18n';
import { lettersOf, localSan } from './notation';
import type { Color } from './protocol';

/** A move played on the analysis board. */
interface Played {
  uci: string;
  san: string;
  /** The position before it. */
  fen: string;
}

/** One analysis board. */
export class AnalysisBoard {
  readonly el: HTMLElement;
  private readonly cg: Api;
  private readonly list = h('ol', { class: 'moves analysis-moves', 'data-testid': 'analysis-moves' });
  private readonly status = h('p', { class: 'analysis-status', 'data-testid': 'analysis-status' });
  private readonly input: HTMLInputElement;
  private readonly error = h('p', { class: 'error', 'data-testid': 'analysis-error', role: 'alert' });
  private readonly picker = h('div', { class: 'analysis-promotion', role: 'group', 'data-testid': 'analysis-promotion', hidden: true });
  private played: Played[] = [];

  /**
   * A board from `start` (FEN) with `orientation` at the bottom; `say`
   * announces each move and answer; `key` makes the ids unique.
   */
  constructor(
    private start: string,
    orientation: Color,
    private readonly say: (text: string) => void,
    key: string,
  ) {
    const title = `analysis-title-${key}`;
    const field = `analysis-move-${key}`;
    const wrap = h('div', { class: 'cg-wrap', 'aria-hidden': 'true' });
    this.input = h('input', { id: field, type: 'text', autocomplete: 'off', autocapitalize: 'off', spellcheck: 'false', 'data-testid': 'analysis-input' });
    const form = h('form', { class: 'move-entry' }, tx('label', 'analysisMoveLabel', { for: field }), this.input, tx('button', 'analysisPlay', { type: 'submit', 'data-testid': 'analysis-play' }));
    form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      this.typed(this.input.value);
    });
    this.el = h(
      'section',
      { class: 'analysis', 'aria-labelledby': title, 'data-testid': 'analysis' },
      tx('h3', 'analysisTitle', { id: title, class: 'analysis-title' }),
      h('div', { class: 'analysis-board', 'data-testid': 'analysis-board' }, wrap),
      this.picker,
      this.status,
      form,
      this.error,
      this.list,
      h(
        'div',
        { class: 'buttons' },
        button('analysisUndo', 'analysis-undo', () => this.undo()),
        button('analysisReset', 'analysis-reset', () => this.reset()),
        button('flip', 'analysis-flip', () => this.cg.toggleOrientation()),
      ),
    );
    this.cg = Chessground(wrap, {
      orientation,
      movable: { free: false, showDests: true, events: { after: (o, d) => this.dropped(o, d) } },
      highlight: { lastMove: true, check: true },
      premovable: { enabled: false },
      // No sliding pieces for those who asked their system for less motion.
      animation: { enabled: !matchMedia('(prefers-reduced-motion: reduce)').matches, duration: 150 },
      drawable: { enabled: true },
    });
    const measure = () => this.cg.state.dom.bounds.clear();
    wrap.addEventListener('mousedown', measure, { capture: true });
    wrap.addEventListener('touchstart', measure, { capture: true, passive: true });
    this.draw();
  }

  /** The position now. */
  fen(): string {
    return this.played.length ? playMove(this.played[this.played.length - 1].fen, this.played[this.played.length - 1].uci) : this.start;
  }

  /** How many moves were tried. */
  moves(): number {
    return this.played.length;
  }

  /** Starts again from `fen` (the game's position now). */
  restart(fen: string): void {
    this.start = fen;
    this.reset();
  }

  /** A move made with the mouse; a pawn on the last rank asks which piece it becomes. */
  private dropped(orig: Square, dest: Square): void {
    const pawn = /[18]/.test(dest[1]) && this.cg.state.pieces.get(dest)?.role === 'pawn';
    if (!pawn) {
      this.play(orig + dest);
      return;
    }
    const pick = (letter: string, key: 'queen' | 'rook' | 'bishop' | 'knight'): HTMLButtonElement =>
      button(key, `analysis-promote-${letter}`, () => {
        this.picker.hidden = true;
        this.play(orig + dest + letter);
      });
    const cancel = button('cancel', 'analysis-promote-cancel', () => {
      this.picker.hidden = true;
      this.draw();
    });
    const label = tx('span', 'promoteTo', { id: `${this.input.id}-promote` });
    this.picker.setAttribute('aria-labelledby', label.id);
    this.picker.replaceChildren(label, ' ', pick('q', 'queen'), pick('r', 'rook'), pick('b', 'bishop'), pick('n', 'knight'), cancel);
    this.picker.hidden = false;
    this.picker.querySelector('button')?.focus();
  }

  /** A move typed in the reader's letters (SAN or long algebraic). */
  private typed(text: string): void {
    if (!text.trim()) return;
    const read = readMove(positionOf(this.fen()), text, lettersOf(lang()));
    if (isProblem(read)) {
      this.error.textContent = problemText(read, text);
      return;
    }
    this.input.value = '';
    this.play(read.uci);
  }

  /** Plays the legal move `uci` here. */
  private play(uci: string): void {
    const fen = this.fen();
    const san = sanIn(fen, uci);
    this.picker.hidden = true;
    this.played.push({ uci, san, fen });
    this.error.textContent = '';
    this.draw();
    this.say(`${t('analysisMoved', { move: localSan(san, lang(), 'letters', this.mover(fen)) })} ${this.status.textContent ?? ''}`.trim());
  }

  /** Takes back the last move tried. */
  private undo(): void {
    this.picker.hidden = true;
    if (!this.played.pop()) return;
    this.draw();
    this.say(t('analysisUndone'));
  }

  /** Back to the game's position. */
  private reset(): void {
    this.played = [];
    this.draw();
    this.say(t('analysisResetDone'));
  }

  /** The side to move in `fen`. */
  private mover(fen: string): Color {
    return fen.split(' ')[1] === 'b' ? 'black' : 'white';
  }

  /** Draws the position, the moves tried and whose move it is. */
  private draw(): void {
    this.picker.hidden = true;
    const fen = this.fen();
    const pos = positionOf(fen);
    const dests = new Map<Square, Square[]>();
    for (const [from, tos] of Object.entries(pos.dests)) dests.set(from as Square, tos as Square[]);
    const last = this.played[this.played.length - 1];
    this.cg.set({
      fen,
      turnColor: pos.turn,
      check: pos.check ? pos.turn : false,
      lastMove: last ? [last.uci.slice(0, 2) as Square, last.uci.slice(2, 4) as Square] : undefined,
      movable: { color: pos.turn, dests },
    });
    this.el.dataset.fen = fen;
    const none = dests.size === 0;
    this.status.textContent = none ? t(pos.check ? 'analysisCheckmate' : 'analysisStalemate') : `${t('toMove', { color: t(pos.turn) })}${pos.check ? ` (${t('check')})` : ''}`;
    this.list.replaceChildren(
      ...this.played.map((m) => {
        const full = Number(m.fen.split(' ')[5] ?? '1');
        const mover = this.mover(m.fen);
        return h('li', { 'data-testid': 'analysis-move', 'data-uci': m.uci }, `${full}${mover === 'white' ? '.' : '…'} ${localSan(m.san, lang(), 'letters', mover)}`);
      }),
    );
  }
}
