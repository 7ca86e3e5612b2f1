// A finished (or any) game played through again: the board shows the
// position after the chosen move, read-only; the move list is a list of
// buttons that jump to their move; Left, Right, Home and End step through
// it; the move reached is announced politely; the PGN can be downloaded.

import { prefs } from './access';
import { START_FEN as START } from './board';
import { h, tx } from './dom';
import type { Frame } from './game';
import { Key, LANG_CHANGED, lang, t } from './i18n';
import { savedStyle } from './moves';
import { fenTurn, localSan, voicedMove } from './notation';
import { errorText, resultText, statusText } from './outcome';
import { ApiError, Color, other } from './protocol';
import { exportUrl, fetchReplay, Replay } from './users';

/** Who is on the board, as the page that opens the replay knows them. */
export interface Sides {
  white: string;
  black: string;
  /** The colour shown at the bottom. */
  bottom: Color;
  /** How the game ended (lichess's status), when known. */
  status: string | null;
}

/** The profile the replay was opened from: its player is kept at the bottom, and the link goes back to it. */
export interface Origin {
  name: string;
  href: string;
  back: () => void;
}

/** The view of one replay in the frame's board and side panel. */
export class ReplayView {
  private replay: Replay | null = null;
  /** The number of half-moves shown played (0: the start position). */
  private ply = 0;
  private readonly heading = h('h2', { tabindex: -1, 'data-testid': 'replay-title' });
  private readonly result = h('p', { class: 'status', 'data-testid': 'replay-result' });
  private readonly error = h('p', { class: 'error', role: 'alert', 'data-testid': 'replay-error' });
  private readonly list = h('ol', { class: 'replay-moves', 'data-testid': 'replay-moves' });
  private readonly download = h('a', { class: 'button', 'data-testid': 'replay-pgn', download: '' });
  private readonly nav: Record<'start' | 'prev' | 'next' | 'end', HTMLButtonElement>;
  private readonly back: HTMLAnchorElement;
  readonly el: HTMLElement;

  /**
   * Loads game `id` into `frame`; `sides` names the players (until the
   * server says); `origin` is the profile it was opened from.
   */
  constructor(
    private readonly frame: Frame,
    readonly id: string,
    private sides: Sides,
    private readonly origin: Origin,
  ) {
    this.back = h('a', { href: origin.href, class: 'button', 'data-testid': 'replay-back' });
    this.back.addEventListener('click', (ev) => {
      if (ev.button !== 0 || ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.altKey) return;
      ev.preventDefault();
      origin.back();
    });
    const navButton = (key: Key, testid: string, icon: string, go: () => void) => {
      const b = h('button', { type: 'button', class: 'nav', 'data-testid': testid, 'data-i18n-label': key, 'aria-label': t(key) });
      const glyph = h('span', { class: 'icon', 'aria-hidden': 'true' });
      glyph.innerHTML = `<svg viewBox="0 0 24 24" width="20" height="20" fill="none" stroke="currentColor" stroke-width="2.2" stroke-linecap="round" stroke-linejoin="round">${icon}</svg>`;
      b.append(glyph);
      b.addEventListener('click', go);
      return b;
    };
    this.nav = {
      start: navButton('replayStart', 'replay-start', '<path d="M6 5v14M18 5l-8 7 8 7"/>', () => this.go(0)),
      prev: navButton('replayPrev', 'replay-prev', '<path d="M15 5l-8 7 8 7"/>', () => this.go(this.ply - 1)),
      next: navButton('replayNext', 'replay-next', '<path d="M9 5l8 7-8 7"/>', () => this.go(this.ply + 1)),
      end: navButton('replayEnd', 'replay-end', '<path d="M18 5v14M6 5l8 7-8 7"/>', () => this.go(this.length())),
    };
    this.download.href = exportUrl(id);
    this.download.setAttribute('download', `rochade-${id}.pgn`);
    this.download.dataset.i18n = 'downloadPgn';
    this.download.textContent = t('downloadPgn');
    this.el = h(
      'section',
      { class: 'panel replay', 'data-testid': 'replay', 'data-game': id, 'aria-labelledby': 'replay-heading' },
      this.heading,
      this.result,
      this.error,
      h('div', { class: 'replay-nav', role: 'group', 'data-i18n-label': 'replayControls', 'aria-label': t('replayControls') }, ...Object.values(this.nav)),
      tx('p', 'replayKeys', { class: 'hint' }),
      tx('h3', 'moves', { id: 'replay-moves-title' }),
      this.list,
      h('div', { class: 'buttons' }, this.download, this.back),
    );
    this.heading.id = 'replay-heading';
    this.list.setAttribute('aria-labelledby', 'replay-moves-title');
    frame.side.replaceChildren(this.el);
    frame.board.orient(sides.bottom);
    frame.board.position(START, null, false);
    this.names();
    document.addEventListener('keydown', this.keys);
    document.addEventListener(LANG_CHANGED, this.relabel);
    void this.load();
  }

  /** Leaves the replay. */
  close(): void {
    document.removeEventListener('keydown', this.keys);
    document.removeEventListener(LANG_CHANGED, this.relabel);
  }

  /** Moves focus to the replay's heading (when it was opened from a list). */
  focus(): void {
    this.heading.focus();
  }

  private async load(): Promise<void> {
    try {
      const r = await fetchReplay(this.id);
      this.replay = r;
      const owner = this.origin.name.toLowerCase();
      const bottom = r.black?.toLowerCase() === owner ? 'black' : r.white?.toLowerCase() === owner ? 'white' : this.sides.bottom;
      this.sides = { ...this.sides, white: r.white ?? this.sides.white, black: r.black ?? this.sides.black, bottom };
      this.frame.board.orient(bottom);
      this.names();
      this.ply = r.moves.length;
      this.render();
    } catch (e) {
      const code = e instanceof ApiError ? e.code : 'unknown';
      this.error.textContent = code === '404' ? t('notFound') : errorText(code);
    }
  }

  private length(): number {
    return this.replay?.moves.length ?? 0;
  }

  /** The player names in the bars above and below the board, and the heading. */
  private names(): void {
    const { white, black, bottom } = this.sides;
    this.frame.bars.bottom.name.textContent = bottom === 'white' ? white : black;
    this.frame.bars.top.name.textContent = bottom === 'white' ? black : white;
    this.heading.textContent = `${white} – ${black}`;
    this.back.textContent = t('backToProfile', { name: this.origin.name });
  }

  private readonly relabel = (): void => {
    this.names();
    this.render();
  };

  /** Who made the `i`-th half-move (from 0). */
  private mover(i: number): Color {
    const first = fenTurn(this.replay?.initialFen ?? START);
    return i % 2 === 0 ? first : other(first);
  }

  /** The move number of the `i`-th half-move, as the Laws number moves. */
  private number(i: number): number {
    const fen = this.replay?.initialFen ?? START;
    const start = Number(fen.split(' ')[5] ?? '1') || 1;
    return start + Math.floor((i + (fenTurn(fen) === 'black' ? 1 : 0)) / 2);
  }

  /** "12. Nf3" or "12… Nf6" in the reader's letters or figurines. */
  private moveText(i: number): string {
    const m = this.replay!.moves[i];
    const mover = this.mover(i);
    return `${this.number(i)}${mover === 'white' ? '.' : '…'} ${localSan(m.san, lang(), savedStyle(), mover)}`;
  }

  /** Draws the list, the result and the position at `this.ply`. */
  private render(): void {
    const r = this.replay;
    if (!r) return;
    const why = this.sides.status ? statusText(this.sides.status) : '';
    this.result.textContent = `${t('replayResult', { result: resultText(r.result) })}${why ? ` — ${why}` : ''}`;
    this.list.replaceChildren(
      ...r.moves.map((m, i) => {
        const b = h('button', { type: 'button', class: 'replay-move', 'data-testid': 'replay-move', 'data-ply': i + 1, 'data-san': m.san }, this.moveText(i));
        b.addEventListener('click', () => this.go(i + 1));
        return h('li', { class: this.mover(i) }, b);
      }),
    );
    this.show();
  }

  /** Shows the position after `this.ply` half-moves and marks the current move. */
  private show(): void {
    const r = this.replay;
    if (!r) return;
    const fen = this.ply === 0 ? r.initialFen : r.moves[this.ply - 1].fen;
    const move = this.ply === 0 ? null : r.moves[this.ply - 1];
    this.frame.board.position(fen, move?.uci ?? null, move !== null && /[+#]$/.test(move.san));
    this.el.dataset.ply = String(this.ply);
    this.list.querySelectorAll('button').forEach((b) => {
      if (Number(b.dataset.ply) === this.ply) b.setAttribute('aria-current', 'step');
      else b.removeAttribute('aria-current');
    });
    this.nav.start.disabled = this.nav.prev.disabled = this.ply === 0;
    this.nav.end.disabled = this.nav.next.disabled = this.ply === r.moves.length;
    this.list.querySelector<HTMLElement>('[aria-current]')?.scrollIntoView({ block: 'nearest' });
  }

  /** Goes to the position after `ply` half-moves and announces it. */
  private go(ply: number): void {
    const r = this.replay;
    if (!r) return;
    const to = Math.max(0, Math.min(r.moves.length, ply));
    if (to === this.ply) return;
    // A focused navigation button that becomes disabled would drop the focus.
    const focused = document.activeElement;
    this.ply = to;
    this.show();
    if (focused instanceof HTMLButtonElement && focused.disabled) this.list.querySelector<HTMLElement>(`[data-ply="${to}"]`)?.focus() ?? this.heading.focus();
    this.frame.announcer.say(this.spoken());
  }

  /** The move reached, in the reader's voice: "12. Black: knight f6", or the start position. */
  private spoken(): string {
    const r = this.replay!;
    if (this.ply === 0) return t('replayStart');
    const i = this.ply - 1;
    const m = r.moves[i];
    const before = i === 0 ? r.initialFen : r.moves[i - 1].fen;
    const mover = this.mover(i);
    return `${this.number(i)}. ${t(mover)}: ${voicedMove(m.san, m.uci, before, lang(), prefs().voice, mover)}`;
  }

  /** Left, Right, Home and End step through the game (not inside a field or the board's grid). */
  private readonly keys = (ev: KeyboardEvent): void => {
    if (ev.altKey || ev.ctrlKey || ev.metaKey || ev.shiftKey) return;
    const target = ev.target as HTMLElement | null;
    if (target?.closest('[role="grid"], input, select, textarea, dialog')) return;
    const to = { ArrowLeft: this.ply - 1, ArrowRight: this.ply + 1, Home: 0, End: this.length() }[ev.key];
    if (to === undefined) return;
    ev.preventDefault();
    const inList = target !== null && this.list.contains(target);
    this.go(to);
    if (inList) this.list.querySelector<HTMLElement>(`[data-ply="${this.ply}"]`)?.focus();
  };
}
