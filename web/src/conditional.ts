// Conditional moves on a correspondence game's page (issue 17 point 10):
// "if my opponent plays X, I answer Y", entered as lines while the
// opponent is to move. Each line alternates the opponent's move and one's
// answer from the position now; lines sharing a beginning share a branch,
// so together they are a tree. The lines are read on the page (the reader's
// piece letters, SAN or long algebraic; chess.ts checks them) and sent in
// UCI over the game socket (`{"t":"conditional","lines":[…]}`); the server
// answers with the lines it holds, to their owner only, and plays an
// answer the moment the opponent's move matches.

import { problemText } from './commands';
import { isProblem, playMove, positionOf, readMove, sanIn } from './chess';
import { h, tx } from './dom';
import { keepingFocus } from './lobbyview';
import { lang, t } from './i18n';
import { lettersOf, localSan } from './notation';
import type { Color, GameState } from './protocol';

/** The line `uci` (moves separated by spaces) from `fen` in the reader's notation, numbered: "1… e5 2. Nf3". */
export function lineText(fen: string, uci: string): string {
  const parts: string[] = [];
  let at = fen;
  for (const [i, move] of uci.split(' ').entries()) {
    const mover: Color = at.split(' ')[1] === 'b' ? 'black' : 'white';
    const number = at.split(' ')[5] ?? '1';
    const dests = positionOf(at).dests[move.slice(0, 2)] ?? [];
    if (!dests.includes(move.slice(2, 4))) return uci;
    const san = localSan(sanIn(at, move), lang(), 'letters', mover);
    parts.push(mover === 'white' ? `${number}. ${san}` : i === 0 ? `${number}… ${san}` : san);
    at = playMove(at, move);
  }
  return parts.join(' ');
}

/** A typed line read from `fen`: its moves in UCI, or what is wrong with which move. */
export function readLine(fen: string, text: string): { uci: string } | { problem: string } {
  // Move numbers ("1…", "2.") are skipped.
  const words = text.split(/[\s,;]+/).filter((w) => w && !/^\d+\.*…?$/.test(w));
  if (words.length === 0) return { problem: t('condEmpty') };
  if (words.length % 2 === 1) return { problem: t('condUnanswered') };
  const moves: string[] = [];
  let at = fen;
  for (const [i, word] of words.entries()) {
    const read = readMove(positionOf(at), word, lettersOf(lang()));
    if (isProblem(read)) return { problem: t('condBadMove', { n: i + 1, text: word, reason: problemText(read, word) }) };
    moves.push(read.uci);
    at = playMove(at, read.uci);
  }
  return { uci: moves.join(' ') };
}

/** The earlier line that answers the same opponent's move differently from `line`, or null. */
function conflict(lines: string[], line: string): string | null {
  const mine = line.split(' ');
  for (const other of lines) {
    const theirs = other.split(' ');
    for (let i = 0; i + 1 < Math.min(mine.length, theirs.length); i += 2) {
      if (mine[i] !== theirs[i]) break;
      if (mine[i + 1] !== theirs[i + 1]) return other;
    }
  }
  return null;
}

/** The conditional moves of one game: the lines held, each with Delete, and a field for a new line. */
export class ConditionalBox {
  readonly el: HTMLElement;
  /** The lines the server holds, UCI. */
  private lines: string[] = [];
  private state: GameState | null = null;
  private readonly list = h('ul', { class: 'cond-lines', 'data-testid': 'cond-lines' });
  private readonly empty = tx('p', 'condNone', { class: 'hint', 'data-testid': 'cond-none' });
  private readonly input = h('input', { id: 'cond-input', type: 'text', autocomplete: 'off', autocapitalize: 'off', spellcheck: 'false', 'data-testid': 'cond-input', 'aria-describedby': 'cond-hint' });
  private readonly add = tx('button', 'condAdd', { type: 'submit', 'data-testid': 'cond-add' });
  private readonly hint = h('p', { class: 'hint', id: 'cond-hint', 'data-testid': 'cond-hint' });
  private readonly error = h('p', { class: 'error', 'data-testid': 'cond-error', role: 'alert' });

  /** `send` puts a message on the game socket; `say` announces. */
  constructor(
    private readonly send: (msg: Record<string, unknown>) => void,
    private readonly say: (text: string) => void,
  ) {
    const form = h('form', { class: 'cond-form' }, tx('label', 'condLabel', { for: 'cond-input' }), h('div', { class: 'move-entry' }, this.input, this.add), this.hint);
    form.addEventListener('submit', (ev) => {
      ev.preventDefault();
      this.enter(this.input.value);
    });
    this.el = h('details', { class: 'cond-box', 'data-testid': 'cond-box' }, tx('summary', 'condTitle'), tx('p', 'condIntro', { class: 'hint' }), this.empty, this.list, form, this.error);
  }

  /** The lines the server holds now (its `conditional` message). */
  take(lines: string[]): void {
    const had = this.lines.length;
    this.lines = lines;
    this.render();
    if (had && !lines.length && this.state && this.state.turn === this.mine()) this.say(t('condDropped'));
  }

  /** Draws the box for state `s`. */
  update(s: GameState): void {
    this.state = s;
    this.render();
  }

  /** One's colour. */
  private mine(): Color | null {
    const you = this.state?.you;
    return you === 'white' || you === 'black' ? you : null;
  }

  /** True when lines may be entered now: the opponent is to move. */
  private open(): boolean {
    const s = this.state;
    return s !== null && this.mine() !== null && s.turn !== this.mine() && !s.outcome && !s.aborted;
  }

  private render(): void {
    const s = this.state;
    if (!s) return;
    const open = this.open();
    this.input.disabled = !open;
    this.add.disabled = !open;
    this.hint.textContent = open ? t('condHint') : t('condWait');
    this.empty.hidden = this.lines.length > 0;
    this.el.dataset.count = String(this.lines.length);
    keepingFocus(
      this.list,
      () =>
        this.list.replaceChildren(
          ...this.lines.map((line, i) => {
            const text = lineText(s.fen, line);
            const remove = tx('button', 'condDelete', { type: 'button', 'data-testid': 'cond-delete', 'data-key': `cond-${line}`, 'aria-label': t('condDeleteLabel', { line: text }) });
            remove.addEventListener('click', () => this.remove(i));
            return h('li', { 'data-testid': 'cond-line', 'data-uci': line }, h('span', {}, text), ' ', remove);
          }),
        ),
      () => (this.list.querySelector('button') ?? (this.input.disabled ? this.el.querySelector('summary') : this.input))?.focus(),
    );
  }

  /** Reads a typed line and sends the lines with it. */
  private enter(text: string): void {
    const s = this.state;
    if (!s || !this.open()) return;
    const read = readLine(s.fen, text);
    if ('problem' in read) {
      this.error.textContent = read.problem;
      return;
    }
    if (this.lines.includes(read.uci)) {
      this.error.textContent = t('condAlready');
      return;
    }
    const clash = conflict(this.lines, read.uci);
    if (clash) {
      this.error.textContent = t('condConflict', { line: lineText(s.fen, clash) });
      return;
    }
    this.error.textContent = '';
    this.input.value = '';
    this.put([...this.lines, read.uci]);
    this.say(t('condAdded', { line: lineText(s.fen, read.uci) }));
  }

  /**
   * Sends `lines` to replace those held, and shows them at once (the lines
   * were checked here, and the server's answer repeats them), so that a
   * second line typed before that answer adds to the first.
   */
  private put(lines: string[]): void {
    this.send({ t: 'conditional', lines });
    this.lines = lines;
    this.render();
  }

  /** Deletes line `i` (sends the others). */
  private remove(i: number): void {
    const s = this.state;
    const line = this.lines[i];
    if (!s || line === undefined) return;
    this.put(this.lines.filter((_, j) => j !== i));
    this.say(t('condDeleted', { line: lineText(s.fen, line) }));
  }
}
