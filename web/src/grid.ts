// The board as a grid a screen reader reads: one cell per square named
// "e4, white knight", rows from the player's side. In screen-reader mode it
// replaces the picture of the board and is played with the keyboard:
// arrows move, a piece letter jumps to the next such piece, Enter or Space
// picks a piece up and puts it down, T lists where it can go, Escape lets go.

import { FILES, Piece, readFen, Role, ROLES, letterRole } from './chess';
import { h } from './dom';
import { Key, lang, t } from './i18n';
import { lettersOf } from './notation';
import type { Color } from './protocol';

const FIGURINE: Record<Color, Record<Role, string>> = {
  white: { king: '♔', queen: '♕', rook: '♖', bishop: '♗', knight: '♘', pawn: '♙' },
  black: { king: '♚', queen: '♛', rook: '♜', bishop: '♝', knight: '♞', pawn: '♟' },
};

/** "white knight", in the page's language. */
export function pieceName(p: Piece): string {
  return t(`${p.color}_${p.role}` as Key);
}

/** "e4, white knight" or "e4, empty". */
export function squareName(square: string, piece: Piece | undefined): string {
  return `${square}, ${piece ? pieceName(piece) : t('empty')}`;
}

/** The grid of squares. */
export class BoardGrid {
  readonly el: HTMLElement;
  private fen = '8/8/8/8/8/8/8/8 w - - 0 1';
  private dests: Record<string, string[]> = {};
  private orientation: Color = 'white';
  private interactive = false;
  private focused = 'e2';
  private picked: string | null = null;
  private promotion: { from: string; to: string } | null = null;

  /** `onMove` gets each move made on the grid (UCI); `say` announces; `speak` speaks a step aloud (speech only). */
  constructor(
    private readonly onMove: (uci: string) => void,
    private readonly say: (text: string) => void,
    private readonly speak: (text: string) => void,
  ) {
    this.el = h('div', { class: 'grid', role: 'grid', 'data-testid': 'grid' });
    this.el.addEventListener('keydown', (ev) => this.key(ev));
    this.el.addEventListener('click', (ev) => {
      const cell = (ev.target as HTMLElement).closest<HTMLElement>('[data-square]');
      if (cell && this.interactive) {
        this.focused = cell.dataset.square!;
        this.activate();
      }
    });
    // A screen reader's own keys or a script may focus a cell without the arrows: Enter then acts there.
    this.el.addEventListener('focusin', (ev) => {
      const sq = (ev.target as HTMLElement).closest<HTMLElement>('[data-square]')?.dataset.square;
      if (sq && this.interactive && sq !== this.focused) this.aim(sq);
    });
  }

  /** Shows `fen`; `dests` are the moves the player may make now (empty for none). */
  update(fen: string, dests: Record<string, string[]>, orientation: Color): void {
    this.fen = fen;
    this.dests = dests;
    this.orientation = orientation;
    if (this.picked && !(this.picked in dests)) this.picked = null;
    this.promotion = null;
    this.draw();
  }

  /** Turns keyboard play on (screen-reader mode) or off (the grid is then only read). */
  setInteractive(on: boolean): void {
    this.interactive = on;
    this.draw();
  }

  private draw(): void {
    const pieces = readFen(this.fen);
    const hadFocus = this.el.contains(document.activeElement);
    this.el.setAttribute('aria-label', t('boardLabel', { color: t(this.orientation) }));
    const ranks = this.orientation === 'white' ? [8, 7, 6, 5, 4, 3, 2, 1] : [1, 2, 3, 4, 5, 6, 7, 8];
    const files = this.orientation === 'white' ? [...FILES] : [...FILES].reverse();
    this.el.replaceChildren(
      ...ranks.map((rank) =>
        h(
          'div',
          { role: 'row', class: 'rank' },
          ...files.map((file) => {
            const sq = `${file}${rank}`;
            const piece = pieces.get(sq);
            const dark = (FILES.indexOf(file) + rank) % 2 === 1;
            return h(
              'div',
              {
                role: 'gridcell',
                class: `sq ${dark ? 'dark' : 'light'}${piece ? ` ${piece.color}` : ''}`,
                'data-square': sq,
                tabindex: this.interactive ? (sq === this.focused ? 0 : -1) : undefined,
                'aria-selected': this.interactive ? String(sq === this.picked) : undefined,
              },
              h('span', { class: 'fig', 'aria-hidden': 'true' }, piece ? FIGURINE[piece.color][piece.role] : ''),
              h('span', { class: 'name' }, squareName(sq, piece)),
            );
          }),
        ),
      ),
    );
    if (hadFocus) this.cell(this.focused)?.focus();
  }

  private cell(sq: string): HTMLElement | null {
    return this.el.querySelector<HTMLElement>(`[data-square="${sq}"]`);
  }

  /** Makes `sq` the square keys act on and the grid's one Tab stop. */
  private aim(sq: string): void {
    this.focused = sq;
    this.el.querySelectorAll<HTMLElement>('[data-square]').forEach((c) => c.setAttribute('tabindex', c.dataset.square === sq ? '0' : '-1'));
  }

  /** Moves the focus to `sq` and speaks it. */
  private go(sq: string): void {
    this.aim(sq);
    this.cell(sq)?.focus();
    this.speak(squareName(sq, readFen(this.fen).get(sq)));
  }

  private key(ev: KeyboardEvent): void {
    if (!this.interactive || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const f = FILES.indexOf(this.focused[0]);
    const r = Number(this.focused[1]);
    const flip = this.orientation === 'white' ? 1 : -1;
    const move = (df: number, dr: number): void => {
      const nf = f + df * flip;
      const nr = r + dr * flip;
      if (nf >= 0 && nf < 8 && nr >= 1 && nr <= 8) this.go(`${FILES[nf]}${nr}`);
    };
    if (this.promotion) {
      const role = letterRole(ev.key.toUpperCase(), lettersOf(lang()));
      if (role && role !== 'king') {
        ev.preventDefault();
        const { from, to } = this.promotion;
        this.promotion = null;
        this.onMove(from + to + { queen: 'q', rook: 'r', bishop: 'b', knight: 'n' }[role as 'queen']);
        return;
      }
    }
    switch (ev.key) {
      case 'ArrowUp':
        move(0, 1);
        break;
      case 'ArrowDown':
        move(0, -1);
        break;
      case 'ArrowLeft':
        move(-1, 0);
        break;
      case 'ArrowRight':
        move(1, 0);
        break;
      case 'Enter':
      case ' ':
        this.activate();
        break;
      case 'Escape':
        if (!this.picked && !this.promotion) return;
        this.picked = null;
        this.promotion = null;
        this.draw();
        break;
      case 't':
      case 'T':
        // The legal targets of the picked piece, again.
        if (!this.picked) return;
        this.say(this.pickedTargets()!.join(', '));
        break;
      default: {
        const role = ev.key.length === 1 ? this.roleOfKey(ev.key) : null;
        if (!role) return;
        this.jump(role);
      }
    }
    ev.preventDefault();
  }

  /** The piece kind a letter key names: the language's letters, English ones, and p for pawn. */
  private roleOfKey(key: string): Role | null {
    if (key.toLowerCase() === 'p') return 'pawn';
    return letterRole(key.toUpperCase(), lettersOf(lang()));
  }

  /** Jumps to the next square (in reading order) holding a piece of `role`. */
  private jump(role: Role): void {
    const order = [...this.el.querySelectorAll<HTMLElement>('[data-square]')].map((c) => c.dataset.square!);
    const pieces = readFen(this.fen);
    const start = order.indexOf(this.focused);
    for (let i = 1; i <= 64; i++) {
      const sq = order[(start + i) % 64];
      if (pieces.get(sq)?.role === role) {
        this.go(sq);
        return;
      }
    }
  }

  /** Enter on the focused square: picks up a piece, or puts the picked one down. */
  private activate(): void {
    const sq = this.focused;
    const pieces = readFen(this.fen);
    if (this.picked === null) {
      const piece = pieces.get(sq);
      const targets = this.dests[sq];
      if (!piece || !targets) {
        this.say(piece ? t('noLegalMove', { piece: pieceName(piece), from: sq }) : squareName(sq, piece));
        return;
      }
      this.picked = sq;
      this.draw();
      this.say(t('pickedUp', { piece: pieceName(piece), from: sq, targets: targets.join(', ') }));
      return;
    }
    const from = this.picked;
    const piece = pieces.get(from)!;
    if (sq === from) {
      this.picked = null;
      this.draw();
      this.say(t('putBack', { piece: pieceName(piece), from }));
      return;
    }
    if (!(this.dests[from] ?? []).includes(sq)) {
      this.say(t('cannotGoThere', { square: sq, piece: pieceName(piece) }));
      return;
    }
    this.picked = null;
    if (piece.role === 'pawn' && (sq[1] === '8' || sq[1] === '1')) {
      this.promotion = { from, to: sq };
      const l = lettersOf(lang());
      this.say(t('choosePromotion', { letters: ROLES.filter((r) => r !== 'king' && r !== 'pawn').map((r) => `${l[r]} (${t(r)})`).join(', ') }));
      return;
    }
    this.onMove(from + sq);
  }

  /** The legal targets of the picked piece, or null when none is picked. */
  pickedTargets(): string[] | null {
    return this.picked ? (this.dests[this.picked] ?? []) : null;
  }
}
