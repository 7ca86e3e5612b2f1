// One game on the screen: the room's states drawn on the board, the clocks,
// the move list and the buttons; the player's actions sent back.

import { Announcer, prefs, speak, spokenTime } from './access';
import type { Board } from './board';
import { sanOf } from './chess';
import { Clocks } from './clock';
import { runCommand } from './commands';
import { ConditionalBox } from './conditional';
import { DecisionsPanel } from './decisions';
import { SimulPanel } from './simul';
import { deadlineText, Deadlines, deadlinesOf, isCorrespondence, leaveText } from './correspondence';
import { button, h, tx } from './dom';
import { Invitation, renderInvite } from './invite';
import { isKey, Key, lang, t } from './i18n';
import { announcement, renderMoves, savedStyle, saveStyle } from './moves';
import { notesBox } from './notes';
import { fenTurn, localSan, pieceLetters, voicedMove } from './notation';
import { errorText, outcomeText } from './outcome';
import { Color, GameState, NewGame, other, pgnUrl, ServerMessage } from './protocol';
import { confirmMoves, saveConfirmMoves, settingsOf } from './settings';
import { Room } from './socket';
import { cueOf, play } from './sound';

/** The parts of the page a game draws into. */
export interface Frame {
  board: Board;
  side: HTMLElement;
  announcer: Announcer;
  bars: Record<'top' | 'bottom', { name: HTMLElement; clock: HTMLElement; label: HTMLElement; face: HTMLElement; bar: HTMLElement }>;
}

/** What a game page needs to start another game. */
export interface Navigator {
  newGame(settings: NewGame | null): void;
  openGame(id: string, token: string | null): void;
}


/** A move (or a claim with its intended move) waiting for the player's confirmation (ICCF 4.1). */
interface Pending {
  msg: Record<string, unknown>;
  /** The move in the reader's notation, numbered: "12. Nf3", "12… Nf6". */
  text: string;
  ply: number;
}

/** The view of one game. */
export class GameView {
  private readonly room: Room;
  private readonly clocks: Clocks;
  private state: GameState | null = null;
  private oriented = false;
  private autoFlip = localStorage.getItem('rochade.autoflip') === 'on';
  private armedClaim: 'threefold' | 'fifty' | null = null;
  private confirmingResign = false;
  /** The typed command `resign` waits for its repetition. */
  private readonly resignCommand = { armed: false };
  /** The ply a typed move was sent at: the input is cleared when it is played, kept when it is refused. */
  private typedAt: number | null = null;
  /** The control to focus after the next render when the focused one went away. */
  private focusNext: string | null = null;
  /** A correspondence move shown on the board, not sent until confirmed. */
  private pending: Pending | null = null;
  /** The ply a confirmed move was sent at: the board keeps showing it until the server's answer. */
  private sentAt: number | null = null;
  /** Under the ICCF rules: the next move carries a draw offer (9.1.2.1). */
  private drawWithMove = false;
  /** Half-moves (indexes) seen to carry a draw offer, marked (=) in the list. */
  private readonly offerMoves = new Set<number>();
  /** The flag's moment and the booked leave, from the last state. */
  private deadlines: Deadlines = { flagAt: null, pauses: [] };

  private readonly status = h('p', { class: 'status', 'data-testid': 'status', tabindex: -1 });
  private readonly error = h('p', { class: 'error', 'data-testid': 'error', role: 'alert' });
  private readonly answer = h('p', { class: 'answer', 'data-testid': 'answer', role: 'status' });
  private readonly connection = h('p', { class: 'connection', 'data-testid': 'connection' });
  private readonly lastMove = h('p', { class: 'last-move', 'data-testid': 'last-move' });
  private readonly control = h('p', { class: 'category', 'data-testid': 'game-control' });
  private readonly deadline = h('p', { class: 'deadline', 'data-testid': 'deadline' });
  private readonly leave = h('p', { class: 'deadline', 'data-testid': 'leave-note' });
  private readonly notes = h('div', { class: 'notes-slot' });
  /** Conditional moves (correspondence), built once the game is known to be one. */
  private conditional: ConditionalBox | null = null;
  /** The lines the server said it holds, kept until the box exists. */
  private conditionalLines: string[] = [];
  private readonly conditionalSlot = h('div', { class: 'cond-slot' });
  /** The director's stop of the clocks (6.10), in words. */
  private readonly halted = h('p', { class: 'halted', 'data-testid': 'halted', hidden: true });
  /** The moment the player on move loses by default without a first move (6.7.1). */
  private readonly defaultNote = h('p', { class: 'halted', 'data-testid': 'default-note', hidden: true });
  /** The director's decisions, appeals and claims (ICCF 14). */
  private readonly decisions: DecisionsPanel;
  /** A simul's board: the way back, and the host's next board waiting. */
  private readonly simul: SimulPanel;
  // Focusable, so that the scrolled list can be read with the keyboard.
  private readonly moveList = h('ol', { class: 'moves', 'data-testid': 'moves', tabindex: 0, 'data-i18n-label': 'moves', 'aria-label': t('moves') });
  private readonly controls = h('div', { class: 'controls' });
  private readonly offers = h('div', { class: 'offers', 'data-testid': 'offers' });
  private readonly result = h('div', { class: 'result', 'data-testid': 'result-box', hidden: true });
  private readonly invite = h('div', { class: 'invite', 'data-testid': 'invite', hidden: true });
  private readonly moveInput = h('input', {
    type: 'text',
    'data-testid': 'move-input',
    autocomplete: 'off',
    autocapitalize: 'off',
    spellcheck: 'false',
    'data-i18n-label': 'enterMove',
    'aria-label': t('enterMove'),
  });
  private readonly style = h(
    'select',
    { 'data-testid': 'notation', 'data-i18n-label': 'notation', 'aria-label': t('notation') },
    tx('option', 'letters', { value: 'letters' }),
    tx('option', 'figurines', { value: 'figurines' }),
  );

  constructor(
    private readonly frame: Frame,
    readonly id: string,
    private readonly token: string | null,
    private readonly nav: Navigator,
    private readonly settings: NewGame | null,
    private readonly invitation: Invitation | null,
    private firstMove: string | null = null,
  ) {
    this.clocks = new Clocks(
      { white: frame.bars.bottom.face, black: frame.bars.top.face },
      (c) => this.lowTime(c),
    );
    this.decisions = new DecisionsPanel((text) => this.frame.announcer.say(text));
    this.simul = new SimulPanel((game, token) => this.nav.openGame(game, token));
    this.style.value = savedStyle();
    this.style.addEventListener('change', () => {
      saveStyle(this.style.value === 'figurines' ? 'figurines' : 'letters');
      this.render();
    });
    const moveForm = h(
      'form',
      { class: 'move-entry' },
      this.moveInput,
      tx('button', 'send', { type: 'submit', 'data-testid': 'move-send' }),
    );
    moveForm.addEventListener('submit', (ev) => {
      ev.preventDefault();
      this.command(this.moveInput.value);
    });
    frame.side.replaceChildren(
      h(
        'section',
        { class: 'panel game', 'data-testid': 'game', 'data-game': id },
        this.status,
        this.halted,
        this.defaultNote,
        this.lastMove,
        this.control,
        this.deadline,
        this.leave,
        this.connection,
        this.result,
        this.invite,
        this.offers,
        h('div', { class: 'moves-head' }, tx('h2', 'moves'), this.style),
        this.moveList,
        moveForm,
        this.error,
        this.answer,
        this.controls,
        this.decisions.el,
        this.simul.el,
        this.conditionalSlot,
        this.notes,
      ),
    );
    this.connection.textContent = t('connecting');
    document.addEventListener('keydown', this.typeAnywhere);
    this.room = new Room(
      id,
      token,
      (m) => this.receive(m),
      (up) => this.connected(up),
    );
  }

  /** The tournament of this game once it is over (its player may be taken to their next round's game), else null. */
  finishedTournament(): string | null {
    const s = this.state;
    return s?.tournament && (s.outcome || s.aborted) ? s.tournament : null;
  }

  /** Leaves the game (the page goes elsewhere). */
  close(): void {
    this.room.close();
    this.decisions.close();
    this.clocks.update(null, false);
    document.removeEventListener('keydown', this.typeAnywhere);
  }

  /** A letter or digit typed outside any field starts a move in the keyboard entry; Alt+C reads the clocks. */
  private readonly typeAnywhere = (ev: KeyboardEvent): void => {
    if (ev.altKey && !ev.ctrlKey && !ev.metaKey && ev.code === 'KeyC') {
      ev.preventDefault();
      this.frame.announcer.say(this.clocksText(), false, true);
      return;
    }
    const target = ev.target as HTMLElement | null;
    if (ev.key === 'Escape' && this.pending && !target?.closest('dialog')) {
      ev.preventDefault();
      this.settle(false);
      return;
    }
    if (target?.closest('[role="grid"]')) return;
    const inField = target !== null && /^(INPUT|SELECT|TEXTAREA|BUTTON)$/.test(target.tagName);
    if (inField || ev.ctrlKey || ev.metaKey || ev.altKey || ev.key.length !== 1 || !/[\p{L}\d]/u.test(ev.key)) return;
    if (this.moveInput.disabled) return;
    this.moveInput.focus();
  };

  /** Runs a typed move or command and answers it. */
  private command(text: string): void {
    const s = this.state;
    if (!text.trim() || !s) return;
    const answer = runCommand(
      text,
      {
        state: s,
        voice: prefs().voice,
        canMove: this.movable(s) !== null && this.myTurn(s),
        clocks: () => this.clocksText(),
        flip: () => {
          this.frame.board.flip();
          this.render();
          return this.frame.board.orientation();
        },
        send: (msg) => this.submit(msg),
      },
      this.resignCommand,
    );
    this.error.textContent = answer.problem ? answer.text : '';
    delete this.error.dataset.code;
    // The alert is read by a screen reader; with speech on, what went wrong is spoken too (19.5, 19.10).
    if (answer.problem) return speak(answer.text, true);
    this.sayAnswer(answer.text);
    if (answer.moved) this.typedAt = s.ply;
    else this.moveInput.value = '';
  }

  /** Shows and announces a command's answer. */
  private sayAnswer(text: string): void {
    this.answer.textContent = text;
    if (text) this.frame.announcer.say(text);
  }

  /** Both clocks in words, or that there is no clock. */
  private clocksText(): string {
    const s = this.state;
    if (!s?.clock) return t('noClock');
    const times = (['white', 'black'] as Color[]).map((c) => `${t(c)}: ${spokenTime(this.clocks.left(c))}`).join(', ');
    const deadline = isCorrespondence(s) ? deadlineText(s, this.deadlines) : '';
    return deadline ? `${times}. ${deadline}` : times;
  }

  /** The board reports a move made by hand. */
  boardMove(uci: string): void {
    if (!this.state) return;
    if (this.armedClaim) {
      const kind = this.armedClaim;
      this.armedClaim = null;
      this.submit({ t: 'claim', kind, uci, ply: this.state.ply, ...this.localColor() });
    } else this.submit({ t: 'move', ply: this.state.ply, uci });
  }

  /** True when the game is played by the ICCF rules (a move is final, a draw is offered with a move). */
  private iccf(s: GameState): boolean {
    return s.rules === 'iccf';
  }

  /**
   * Sends an action; under the ICCF rules a move carries the armed draw
   * offer, a draw offer on its own arms one instead (9.1.2.1), and in a
   * correspondence game a move waits for confirmation first (ICCF 4.1;
   * a setting turns that off).
   */
  private submit(msg: Record<string, unknown>): void {
    const s = this.state;
    if (!s) return;
    if (this.iccf(s) && msg.t === 'draw' && msg.action === 'offer') {
      this.armDraw(true);
      return;
    }
    const moving = (msg.t === 'move' || msg.t === 'claim') && typeof msg.uci === 'string';
    if (moving && msg.t === 'move' && this.drawWithMove && this.iccf(s)) msg = { ...msg, offer_draw: true };
    if (moving && isCorrespondence(s) && confirmMoves() && s.you !== 'both') {
      this.pending = { msg, text: this.moveText(s, msg.uci as string), ply: s.ply };
      this.focusNext = 'move-confirm';
      this.render();
      this.frame.announcer.say(this.confirmQuestion(this.pending));
      return;
    }
    this.send(msg);
  }

  /** Sends `msg` now; a move takes the armed draw offer with it. */
  private send(msg: Record<string, unknown>): void {
    if (msg.t === 'move' || msg.t === 'claim') {
      if (msg.offer_draw && this.state) this.offerMoves.add(this.state.ply);
      if (msg.t === 'move') this.drawWithMove = false;
    }
    this.room.send(msg);
  }

  /** "12. Nf3" in the reader's letters: the move `uci` of the side to move in `s`. */
  private moveText(s: GameState, uci: string): string {
    const san = sanOf({ fen: s.fen, turn: s.turn, check: s.check, dests: s.dests, chess960: s.chess960 !== null }, uci);
    const first = fenTurn(s.initial_fen);
    const start = Number(s.initial_fen.split(' ')[5] ?? '1') || 1;
    const number = start + Math.floor((s.ply + (first === 'black' ? 1 : 0)) / 2);
    const voice = prefs().reader ? prefs().voice : null;
    const shown = voice ? voicedMove(san, uci, s.fen, lang(), voice, s.turn) : localSan(san, lang(), 'letters', s.turn);
    return `${number}${s.turn === 'white' ? '.' : '…'} ${shown}`;
  }

  /** The question of the confirmation bar. */
  private confirmQuestion(p: Pending): string {
    if (p.msg.t === 'claim') return t('confirmClaim', { move: p.text, kind: t(p.msg.kind === 'fifty' ? 'claimFifty' : 'claimThreefold') });
    return t(p.msg.offer_draw ? 'confirmMoveDraw' : 'confirmMove', { move: p.text });
  }

  /** The waiting move is sent (`yes`) or taken off the board. */
  private settle(yes: boolean): void {
    const p = this.pending;
    this.pending = null;
    if (!p) return;
    if (yes) {
      this.send(p.msg);
      // The confirmed move stays on the board until the server answers it.
      this.sentAt = p.ply;
      this.focusNext = 'status';
    } else {
      if (p.msg.t === 'claim') this.armedClaim = p.msg.kind === 'fifty' ? 'fifty' : 'threefold';
      this.frame.board.restore();
      this.focusNext = 'status';
      this.frame.announcer.say(t('moveCancelled'));
    }
    this.render();
  }

  /** Arms or disarms the draw offer that goes with the next move (ICCF 9.1.2.1); `redraw` when its box does not show it yet. */
  private armDraw(on: boolean, redraw = true): void {
    this.drawWithMove = on;
    if (redraw) this.render();
    this.frame.announcer.say(t(on ? 'drawWithMoveArmed' : 'drawWithMoveOff'));
  }

  /** Re-draws everything in the current language. */
  render(): void {
    const s = this.state;
    if (!s) return;
    // Controls are re-made: keep the focus on the same control, or on the next one that makes sense.
    const active = document.activeElement as HTMLElement | null;
    const focusedId = active && this.frame.side.contains(active) ? (active.dataset.testid ?? null) : null;
    // A move waiting for confirmation, or sent and not yet answered, stays on the board.
    if (this.pending) this.frame.board.freeze();
    else if (this.sentAt !== s.ply) this.frame.board.show(s, this.movable(s));
    if (s.you === 'both' && this.autoFlip && !s.outcome) this.frame.board.orient(s.turn);
    this.renderBars(s);
    this.renderStatus(s);
    renderMoves(this.moveList, s, this.style.value === 'figurines' ? 'figurines' : 'letters', prefs().reader ? prefs().voice : null, this.offerMoves);
    this.moveInput.placeholder = t('commandHint');
    this.moveInput.title = pieceLetters(lang());
    this.renderOffers(s);
    this.renderControls(s);
    this.renderResult(s);
    renderInvite(this.invite, s, this.invitation);
    this.renderCorrespondence(s);
    this.refocus(focusedId);
  }

  /** Puts the focus back after a render replaced the focused control. */
  private refocus(focusedId: string | null): void {
    const next = this.focusNext;
    this.focusNext = null;
    if (focusedId === null && next === null) return;
    const current = document.activeElement;
    if (current && current !== document.body && this.frame.side.contains(current) && next === null) return;
    const find = (id: string | null): HTMLElement | null =>
      id ? this.frame.side.querySelector<HTMLElement>(`[data-testid="${id}"]:not([hidden]):not(:disabled)`) : null;
    (find(next) ?? find(focusedId) ?? this.status).focus();
  }

  private receive(msg: ServerMessage): void {
    switch (msg.t) {
      case 'state':
        this.take(msg.state);
        break;
      case 'move': {
        // The state one move on: the move added, the rest taken from the
        // message. One that does not follow what the page holds (a move
        // missed) is dropped and the whole state asked for.
        const prev = this.state;
        if (prev && msg.state.ply === prev.ply + 1) {
          this.take({ ...prev, ...msg.state, moves: [...prev.moves, msg.move] });
        } else {
          this.room.send({ t: 'state' });
        }
        break;
      }
      case 'error':
        // The server's message is English: the page says it from the stable code.
        this.error.textContent = errorText(msg.code);
        this.error.dataset.code = msg.code;
        speak(this.error.textContent, true);
        this.typedAt = null;
        this.sentAt = null;
        this.frame.board.restore();
        break;
      case 'rematch':
        this.nav.openGame(msg.game, msg.token);
        break;
      case 'conditional':
        this.conditionalLines = msg.lines;
        this.conditionalBox()?.take(msg.lines);
        break;
      case 'pong':
        break;
    }
  }

  private take(next: GameState): void {
    const prev = this.state;
    this.state = next;
    if (!prev || next.ply !== prev.ply) {
      this.error.textContent = '';
      delete this.error.dataset.code;
    }
    if (!prev || next.ply !== prev.ply || next.outcome || next.aborted) this.sentAt = null;
    // A move waiting for confirmation answers a position that is gone (the game ended, say).
    if (this.pending && (next.ply !== this.pending.ply || next.outcome || next.aborted)) this.pending = null;
    this.noteOffers(prev, next);
    this.deadlines = deadlinesOf(next.clock);
    if (this.typedAt !== null && next.ply > this.typedAt) {
      this.typedAt = null;
      this.moveInput.value = '';
    }
    if (!this.oriented) {
      this.oriented = true;
      this.frame.board.orient(next.you === 'black' ? 'black' : next.you === 'both' && this.autoFlip ? next.turn : 'white');
    }
    this.clocks.update(next.clock, !next.outcome && !next.aborted);
    if (this.firstMove && next.ply === 0 && this.movable(next) !== null && this.myTurn(next)) {
      this.room.send({ t: 'move', ply: 0, uci: this.firstMove });
      this.firstMove = null;
    }
    this.render();
    this.decisions.update(next);
    this.simul.update(next);
    this.announce(prev, next);
    if (next.rematch && this.token === null) this.nav.openGame(next.rematch, null);
  }

  /** Marks the moves that carried a draw offer, as the server records them. */
  private noteOffers(_prev: GameState | null, next: GameState): void {
    this.offerMoves.clear();
    next.moves.forEach((m, i) => {
      if (m.offer) this.offerMoves.add(i);
    });
  }

  /** Says what changed between two states: the move, offers, the result; on the first state, where the game stands. */
  private announce(prev: GameState | null, next: GameState): void {
    const say = (text: string, urgent = false): void => this.frame.announcer.say(text, urgent);
    const voice = prefs().voice;
    if (!prev) {
      const who = this.status.textContent ?? '';
      say(t('gameStarted', { who }));
      // The settings panel that had the focus is gone: the game's status takes it.
      if (document.activeElement === document.body || document.activeElement === null) {
        (prefs().reader ? this.moveInput : this.status).focus();
      }
      // The robot may have moved before the page heard of the game (playing Black).
      if (next.ply > 0 && !next.outcome) say(t('lastMove', { move: announcement(next, null, voice) }));
    } else if (next.ply === prev.ply + 1) {
      const san = next.moves[next.moves.length - 1]?.san ?? '';
      play(cueOf(san));
      say(announcement(next, prev, voice), next.check && !next.outcome);
    } else if (next.ply < prev.ply) {
      play('move');
      say(t('takebackDone'));
    }
    const mine = (c: Color | null): boolean => c !== null && (next.you === c || next.you === 'both');
    for (const kind of ['draw', 'takeback', 'rematch'] as const) {
      const was = prev?.offers[kind] ?? null;
      const now = next.offers[kind];
      if (now && now !== was) {
        const key = mine(now) && next.you !== 'both' ? ({ draw: 'drawOffered', takeback: 'takebackOffered', rematch: 'rematchOffered' } as const)[kind] : ({ draw: 'opponentOffersDraw', takeback: 'opponentTakeback', rematch: 'opponentRematch' } as const)[kind];
        say(t(key, { color: t(now) }));
      } else if (was && !now && prev && next.ply === prev.ply && !next.outcome && kind !== 'rematch') {
        say(t(kind === 'draw' ? 'drawDeclined' : 'takebackDeclined'));
      }
    }
    if (next.halted && !next.outcome && !prev?.halted) say(t('haltedNote'), true);
    else if (prev?.halted && !next.halted && !next.outcome) say(t('resumedNote'));
    if (next.clock?.default_in !== undefined && next.you === next.turn && prev?.clock?.default_in === undefined) say(this.defaultText(next));
    if (next.outcome && (!prev || !prev.outcome)) {
      if (prev) play('end');
      say(outcomeText(next.outcome), true);
    } else if (next.aborted && prev && !prev.aborted) say(t('aborted'), true);
  }

  private connected(up: boolean): void {
    this.connection.textContent = up ? '' : t('disconnected');
    this.connection.dataset.state = up ? 'up' : 'down';
  }

  /** Whose pieces the player may move now, or null. */
  private movable(s: GameState): Color | 'both' | null {
    if (s.outcome || s.aborted || s.halted || s.you === 'spectator') return null;
    if (s.you === 'both') return 'both';
    if (this.waiting(s)) return null;
    return s.you;
  }

  /** The player on move's last moment for a first move, in words: "Make your first move by 19:02:35, …" (6.7.1). */
  private defaultText(s: GameState): string {
    const time = new Date(Date.now() + (s.clock?.default_in ?? 0)).toLocaleTimeString(lang());
    return s.you === s.turn ? t('defaultYours', { time }) : t('defaultTheirs', { color: t(s.turn), time });
  }

  /** A friend game whose other player has not come yet (the server starts it when they do). */
  private waiting(s: GameState): boolean {
    // A correspondence game runs from the start: nobody waits for the other to be on the page;
    // nor does a simul's host for a player who has not opened their board yet, nor White in a
    // tournament game, whose clock runs from the round's start (6.5).
    if ((isCorrespondence(s) || s.simul || s.tournament) && s.clock?.running) return false;
    return s.mode === 'friend' && s.ply === 0 && s.you !== 'spectator' && !s.players[other(s.you === 'black' ? 'black' : 'white')].connected;
  }

  /** For a local game, the colour an action is for (the side to move). */
  private localColor(): { color?: Color } {
    return this.state?.you === 'both' ? { color: this.state.turn } : {};
  }

  private playing(s: GameState): boolean {
    return s.you !== 'spectator' && !s.outcome && !s.aborted;
  }

  private myTurn(s: GameState): boolean {
    return s.you === 'both' || s.you === s.turn;
  }

  private lowTime(c: Color): void {
    const s = this.state;
    if (s && (s.you === c || s.you === 'both')) {
      play('lowTime');
      this.frame.announcer.say(t('timeLeft', { color: t(c), time: spokenTime(this.clocks.left(c)) }), true);
    }
  }

  private renderBars(s: GameState): void {
    const bottom = this.frame.board.orientation();
    const top = other(bottom);
    const name = (c: Color): string => {
      const p = s.players[c];
      if (p.kind === 'robot') return t('robotLevel', { level: p.level ?? '?' });
      if (s.you === c) return `${t(c)} — ${t('you')}`;
      return `${t(c)} — ${t('human')}`;
    };
    for (const [place, c] of [
      ['top', top],
      ['bottom', bottom],
    ] as const) {
      const bar = this.frame.bars[place];
      // A player away is said in words, not only greyed (19.8: not by colour alone).
      const away = !s.players[c].connected && s.players[c].kind === 'human';
      bar.name.textContent = away ? `${name(c)} (${t('playerAway')})` : name(c);
      bar.bar.dataset.color = c;
      bar.bar.classList.toggle('offline', away);
      bar.clock.dataset.testid = `clock-${c}`;
      bar.label.textContent = `${t('clockLabel', { color: t(c) })}: `;
    }
    this.clocks.retarget({ white: this.frame.bars[bottom === 'white' ? 'bottom' : 'top'].face, black: this.frame.bars[bottom === 'black' ? 'bottom' : 'top'].face });
  }

  private renderStatus(s: GameState): void {
    let text: string;
    if (s.aborted) text = t('aborted');
    else if (s.outcome) text = outcomeText(s.outcome);
    else if (this.waiting(s)) text = t('waiting');
    else text = t('toMove', { color: t(s.turn) });
    // Check and the last move in words too, not only as colours on the board.
    if (s.check && !s.outcome) text = `${text} (${t('check')})`;
    const i = s.moves.length - 1;
    this.lastMove.textContent =
      i < 0 ? '' : t('lastMove', { move: voicedMove(s.moves[i].san, s.moves[i].uci, null, lang(), prefs().voice, s.turn === 'white' ? 'black' : 'white') });
    const who = s.you === 'spectator' ? t('spectating') : s.you === 'both' ? t('bothSides') : t('youAre', { color: t(s.you) });
    this.status.textContent = `${text} · ${who}`;
    const halted = Boolean(s.halted) && !s.outcome && !s.aborted;
    this.halted.hidden = !halted;
    this.halted.textContent = halted ? t('haltedNote') : '';
    this.status.dataset.halted = String(halted);
    this.defaultNote.hidden = s.clock?.default_in === undefined || Boolean(s.outcome);
    this.defaultNote.textContent = this.defaultNote.hidden ? '' : this.defaultText(s);
    // Moves are refused while the director has stopped the clocks (6.10).
    this.moveInput.disabled = halted;
    const send = this.moveInput.form?.querySelector('button');
    if (send) send.disabled = halted;
    this.status.dataset.turn = s.turn;
    const category = s.clock && isKey(s.clock.category) ? t(s.clock.category) : (s.clock?.category ?? '');
    this.control.textContent = [s.clock ? `${s.clock.control} · ${category}` : t('noClock'), this.iccf(s) ? t('iccfRules') : ''].filter(Boolean).join(' · ');
    this.status.dataset.ply = String(s.ply);
  }

  private renderOffers(s: GameState): void {
    const parts: (HTMLElement | null)[] = [];
    if (this.pending) parts.push(this.confirmBar(this.pending));
    if (this.playing(s)) {
      parts.push(this.offer(s, 'draw', 'opponentOffersDraw', 'drawOffered'));
      // No take-backs under the ICCF rules (4.3).
      if (!this.iccf(s)) parts.push(this.offer(s, 'takeback', 'opponentTakeback', 'takebackOffered'));
    }
    if (s.outcome && s.mode === 'friend') parts.push(this.offer(s, 'rematch', 'opponentRematch', 'rematchOffered'));
    if (this.armedClaim)
      parts.push(this.line(t('claimArmed', { kind: t(this.armedClaim === 'fifty' ? 'claimFifty' : 'claimThreefold') }), 'claim-armed'));
    this.offers.replaceChildren(...parts.filter((p): p is HTMLElement => p !== null));
  }

  /** The confirmation of a correspondence move: the move, Send and Cancel (Escape cancels too). */
  private confirmBar(p: Pending): HTMLElement {
    const box = h(
      'div',
      { class: 'confirm move-confirm', role: 'group', 'aria-labelledby': 'move-confirm-text', 'data-testid': 'move-confirm-box' },
      h('span', { id: 'move-confirm-text', 'data-testid': 'move-confirm-text' }, this.confirmQuestion(p)),
      button('sendMove', 'move-confirm', () => this.settle(true), 'primary'),
      button('cancel', 'move-cancel', () => this.settle(false)),
    );
    return box;
  }

  /** One line of the offers box. */
  private line(text: string, testid: string, ...buttons: HTMLElement[]): HTMLElement {
    return h('div', { class: 'offer', 'data-testid': testid }, h('span', {}, text), ...buttons);
  }

  /**
   * A pending offer of `kind`: the opponent's with Accept and Decline (in a
   * local game, answered for the other colour), or the player's own.
   */
  private offer(s: GameState, kind: 'draw' | 'takeback' | 'rematch', theirsKey: Key, mineKey: Key): HTMLElement | null {
    const by = s.offers[kind];
    if (by === null || s.you === 'spectator') return null;
    if (s.you !== 'both' && by === s.you) return this.line(t(mineKey), `${kind}-offered`);
    const color = s.you === 'both' ? { color: other(by) } : {};
    const answer = (action: 'accept' | 'decline'): HTMLButtonElement =>
      button(action, `${kind}-${action}`, () => this.room.send({ t: kind, action, ...color }));
    return this.line(t(theirsKey, { color: t(by) }), `${kind}-offer`, answer('accept'), answer('decline'));
  }

  private renderControls(s: GameState): void {
    const items: HTMLElement[] = [];
    const playing = this.playing(s);
    if (playing) {
      if (this.confirmingResign) {
        items.push(
          h(
            'div',
            { class: 'confirm', 'data-testid': 'resign-confirm-box' },
            tx('span', 'confirmResign'),
            button('yes', 'resign-confirm', () => {
              this.confirmingResign = false;
              this.focusNext = 'play-again';
              this.room.send({ t: 'resign', ...this.localColor() });
            }, 'danger'),
            button('no', 'resign-cancel', () => {
              this.confirmingResign = false;
              this.focusNext = 'resign';
              this.render();
            }),
          ),
        );
      } else
        items.push(
          button('resign', 'resign', () => {
            this.confirmingResign = true;
            this.focusNext = 'resign-cancel';
            this.render();
          }),
        );
      if (s.ply < 2) items.push(button('abort', 'abort', () => this.room.send({ t: 'abort', ...this.localColor() })));
      // An arena's game: berserk before one's first move (White's is ply 0, Black's ply 1).
      const me = s.you === 'white' || s.you === 'black' ? s.you : null;
      if (s.berserk && me && !s.berserk[me] && s.ply < (me === 'white' ? 1 : 2)) items.push(button('berserk', 'berserk', () => this.room.send({ t: 'berserk' })));
      if (this.iccf(s)) {
        // ICCF 9.1.2.1: a draw is offered with a move; the offer stands until answered.
        const mine = s.you === 'both' ? s.turn : s.you;
        if (s.offers.draw !== mine) {
          const arm = h('input', { type: 'checkbox', 'data-testid': 'draw-with-move' });
          arm.checked = this.drawWithMove;
          arm.addEventListener('change', () => this.armDraw(arm.checked, false));
          items.push(h('label', { class: 'check draw-with-move' }, arm, tx('span', 'offerDrawWithMove')));
        }
      } else if (!s.offers.draw)
        items.push(button('offerDraw', 'draw-offer-button', () => this.room.send({ t: 'draw', action: 'offer', ...this.localColor() })));
      if (s.casual !== false && !this.iccf(s) && s.ply > 0 && !s.offers.takeback)
        // No colour: in a local game the server takes back the move just made.
        items.push(button('takeback', 'takeback', () => this.room.send({ t: 'takeback', action: 'request' })));
      const withMove = h('input', { type: 'checkbox', 'data-testid': 'claim-with-move' });
      withMove.checked = this.armedClaim !== null;
      const claim = (kind: 'threefold' | 'fifty'): HTMLButtonElement => {
        const b = button(kind === 'fifty' ? 'claimFifty' : 'claimThreefold', `claim-${kind}`, () => {
          if (withMove.checked) {
            this.armedClaim = kind;
            this.render();
            this.frame.announcer.say(t('claimArmed', { kind: t(kind === 'fifty' ? 'claimFifty' : 'claimThreefold') }));
          } else this.room.send({ t: 'claim', kind, ...this.localColor() });
        });
        b.disabled = !this.myTurn(s) || (!withMove.checked && !s.claimable[kind]);
        return b;
      };
      const three = claim('threefold');
      const fifty = claim('fifty');
      withMove.addEventListener('change', () => {
        if (!withMove.checked) this.armedClaim = null;
        three.disabled = !this.myTurn(s) || (!withMove.checked && !s.claimable.threefold);
        fifty.disabled = !this.myTurn(s) || (!withMove.checked && !s.claimable.fifty);
        this.renderOffers(s);
      });
      items.push(h('div', { class: 'claims' }, three, fifty, h('label', {}, withMove, tx('span', 'claimWithMove'))));
    }
    items.push(
      button('flip', 'flip', () => {
        this.frame.board.flip();
        this.render();
      }),
    );
    if (s.you === 'both') {
      const auto = h('input', { type: 'checkbox', 'data-testid': 'auto-flip' });
      auto.checked = this.autoFlip;
      auto.addEventListener('change', () => {
        this.autoFlip = auto.checked;
        localStorage.setItem('rochade.autoflip', auto.checked ? 'on' : 'off');
        this.render();
      });
      items.push(h('label', { class: 'check' }, auto, tx('span', 'autoFlip')));
    }
    if (isCorrespondence(s) && s.you !== 'spectator') {
      const ask = h('input', { type: 'checkbox', 'data-testid': 'confirm-moves' });
      ask.checked = confirmMoves();
      ask.addEventListener('change', () => saveConfirmMoves(ask.checked));
      items.push(h('label', { class: 'check' }, ask, tx('span', 'confirmMovesSetting')));
    }
    items.push(button('newGame', 'new-game', () => this.nav.newGame(null)));
    this.controls.replaceChildren(...items);
  }

  /** A correspondence game's deadline, leave and private notes. */
  private renderCorrespondence(s: GameState): void {
    const on = isCorrespondence(s) && !s.outcome && !s.aborted;
    this.deadline.textContent = on ? deadlineText(s, this.deadlines) : '';
    this.leave.textContent = on ? leaveText(this.deadlines) : '';
    if (isCorrespondence(s) && s.you !== 'spectator' && !this.notes.firstChild) this.notes.append(notesBox(s.id));
    this.conditionalBox()?.update(s);
    // Days and hours in the language of the moment.
    this.clocks.redraw();
  }

  /** The conditional moves' box of a correspondence game between two seats, made on first use; null in other games. */
  private conditionalBox(): ConditionalBox | null {
    const s = this.state;
    if (!s || !isCorrespondence(s) || (s.you !== 'white' && s.you !== 'black')) return null;
    if (!this.conditional) {
      this.conditional = new ConditionalBox(
        (msg) => this.room.send(msg),
        (text) => this.frame.announcer.say(text),
      );
      this.conditionalSlot.append(this.conditional.el);
      this.conditional.update(s);
      this.conditional.take(this.conditionalLines);
    }
    return this.conditional;
  }

  private renderResult(s: GameState): void {
    const over = s.outcome !== null || s.aborted;
    this.result.hidden = !over;
    if (!over) return;
    const text = s.aborted ? t('aborted') : outcomeText(s.outcome!);
    const line = h('p', { 'data-testid': 'result', 'data-result': s.outcome?.result ?? '', 'data-reason': s.outcome?.reason ?? 'aborted' }, text);
    const again =
      s.mode === 'friend' && s.you !== 'spectator'
        ? button('rematch', 'play-again', () => this.room.send({ t: 'rematch', action: 'offer' }), 'primary')
        : button('playAgain', 'play-again', () => this.nav.newGame(this.settings ?? settingsOf(s)), 'primary');
    again.hidden = s.you === 'spectator' || (s.mode === 'friend' && s.offers.rematch !== null);
    const pgn = h('a', { href: pgnUrl(s.id), download: `rochade-${s.id}.pgn`, 'data-testid': 'download-pgn', class: 'button', 'data-i18n': 'downloadPgn' }, t('downloadPgn'));
    this.result.replaceChildren(line, h('div', { class: 'buttons' }, again, pgn));
  }
}
