// The one input a player types into, as lichess's NVUI and more: a move in
// SAN or long algebraic in the player's language, or a command that reads
// the position (p N, s e, s 4, board, last, clock, material, moves) or acts
// (draw, claim, takeback, abort, resign, accept, decline, flip, help).
// Whatever is not understood is answered with what went wrong, and nothing
// is sent to the server.

import { disambiguated, isProblem, letterRole, MoveProblem, Pieces, readFen, readMove, ReadMove, Role, ROLES } from './chess';
import { pieceName, squareName } from './grid';
import { Key, lang, t } from './i18n';
import { lettersOf, Voice, voicedMove } from './notation';
import { Color, GameState, other } from './protocol';

/** What a command may use of the game view. */
export interface CommandContext {
  state: GameState;
  voice: Voice;
  /** Whether the player may move now (their turn, game on). */
  canMove: boolean;
  /** Both clocks, in words. */
  clocks(): string;
  /** Turns the board; returns the colour now at the bottom. */
  flip(): Color;
  /** Sends a message to the room. */
  send(msg: Record<string, unknown>): void;
}

/** The answer to one line typed. */
export interface Answer {
  /** What to say (empty when the state that comes back will say it). */
  text: string;
  /** The line was not understood or cannot be done: say it as an error and keep the text. */
  problem: boolean;
  /** A move was sent: the text is cleared when it is played. */
  moved: boolean;
}

const ok = (text: string): Answer => ({ text, problem: false, moved: false });
const bad = (text: string): Answer => ({ text, problem: true, moved: false });

/** Lower case without diacritics, so `vzdat` is `vzdať` and `vzdát`. */
function plain(s: string): string {
  return s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

const COMMANDS = ['board', 'last', 'clock', 'material', 'moves', 'resign', 'draw', 'claim', 'takeback', 'abort', 'flip', 'help', 'accept', 'decline'] as const;
type Command = (typeof COMMANDS)[number];

/** The command a word names, in English or in the page's language. */
function commandOf(word: string): Command | null {
  const w = plain(word);
  for (const c of COMMANDS) if (w === c || w === plain(t(`c_${c}` as Key))) return c;
  if (w === 'takeback' || w === 'take-back' || w === 'undo') return 'takeback';
  return null;
}

/** The role a typed letter names (either case; `p` is the pawn). */
function roleOfLetter(letter: string): Role | null {
  if (letter.toLowerCase() === 'p') return 'pawn';
  return letterRole(letter.toUpperCase(), lettersOf(lang()));
}

/** The role's name in words. */
const roleWord = (role: Role): string => t(role);

/** Capitalised first letter. */
const cap = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/** The text of a problem with a typed move. */
export function problemText(p: MoveProblem, text: string): string {
  const letters = lettersOf(lang());
  const piece = p.role ? roleWord(p.role) : t('piece');
  const params: Record<string, string> = { text, piece, from: p.from ?? '', to: p.to ?? '' };
  if (p.problem === 'ambiguous' && p.candidates && p.to) {
    const letter = p.role && p.role !== 'pawn' ? letters[p.role] : '';
    params.moves = disambiguated(letter, p.candidates, p.to).join(` ${t('or')} `);
  }
  if (p.problem === 'whichPromotion' && p.from && p.to) {
    const head = p.from[0] === p.to[0] ? p.to : `${p.from[0]}x${p.to}`;
    params.moves = (['queen', 'rook', 'bishop', 'knight'] as Role[]).map((r) => `${head}=${letters[r]}`).join(', ');
  }
  return cap(t(`p_${p.problem}` as Key, params));
}

/** Runs one typed line. */
export function runCommand(input: string, ctx: CommandContext, pendingResign: { armed: boolean }): Answer {
  const text = input.trim();
  const s = ctx.state;
  const pieces = readFen(s.fen);
  const [head, ...rest] = text.split(/\s+/);
  const arg = rest.join(' ');
  const wasArmed = pendingResign.armed;
  pendingResign.armed = false;

  // p N: where are the pieces of a kind.
  if (/^p$/i.test(head) && rest.length === 1 && arg.length === 1) {
    const role = roleOfLetter(arg);
    if (!role) return bad(t('unknownCommand', { text }));
    return ok(where(pieces, role));
  }
  // s e, s 4: a file or a rank.
  if (/^s$/i.test(head) && /^([a-h]|[1-8])$/i.test(arg)) return ok(scan(pieces, arg.toLowerCase()));
  const command = commandOf(head);
  if (command) return act(command, arg, ctx, pieces, wasArmed, pendingResign);
  return move(text, ctx, null);
}

/** Reads and sends a move; with `claim`, as the intended move of a claim. */
function move(text: string, ctx: CommandContext, claim: 'threefold' | 'fifty' | null): Answer {
  const s = ctx.state;
  const read = readMove({ fen: s.fen, turn: s.turn, check: s.check, dests: s.dests, chess960: s.chess960 !== null }, text, lettersOf(lang()));
  if (isProblem(read)) {
    if (read.problem === 'notAMove') return bad(t('unknownCommand', { text }));
    if (s.outcome || s.aborted) return bad(t('gameIsOver'));
    return bad(problemText(read, text));
  }
  if (s.outcome || s.aborted) return bad(t('gameIsOver'));
  if (!ctx.canMove) return bad(s.you === 'spectator' ? t('spectating') : t('notYourMove'));
  const local = s.you === 'both' ? { color: s.turn } : {};
  if (claim) ctx.send({ t: 'claim', kind: claim, uci: read.uci, ply: s.ply, ...local });
  else ctx.send({ t: 'move', ply: s.ply, uci: read.uci });
  return { text: '', problem: false, moved: true };
}

function act(command: Command, arg: string, ctx: CommandContext, pieces: Pieces, wasArmed: boolean, pendingResign: { armed: boolean }): Answer {
  const s = ctx.state;
  const playing = s.you !== 'spectator' && !s.outcome && !s.aborted;
  const local = s.you === 'both' ? { color: s.turn } : {};
  const mine: Color | null = s.you === 'both' ? s.turn : s.you === 'spectator' ? null : s.you;
  switch (command) {
    case 'help': {
      const l = lettersOf(lang());
      return ok(t('helpText', { example: `${l.knight}f3`, lan: 'g1f3', knight: l.knight, from: 'g1' }));
    }
    case 'board':
      return ok(board(pieces, ctx.state));
    case 'last': {
      const i = s.moves.length - 1;
      if (i < 0) return ok(t('noMovesYet'));
      const m = s.moves[i];
      const mover: Color = s.turn === 'white' ? 'black' : 'white';
      return ok(t('lastMove', { move: `${t(mover)}: ${voicedMove(m.san, m.uci, null, lang(), ctx.voice, mover)}` }));
    }
    case 'clock':
      return ok(ctx.clocks());
    case 'material':
      return ok(material(pieces));
    case 'moves':
      return ok(legalMoves(pieces, s, arg));
    case 'flip':
      return ok(t('flipped', { color: t(ctx.flip()) }));
  }
  if (!playing) return bad(s.you === 'spectator' ? t('spectating') : t('gameIsOver'));
  switch (command) {
    case 'resign':
      if (!wasArmed) {
        pendingResign.armed = true;
        return ok(t('confirmResignCommand', { word: t('c_resign') }));
      }
      ctx.send({ t: 'resign', ...local });
      return ok('');
    case 'draw':
      if (s.offers.draw && s.offers.draw !== mine) ctx.send({ t: 'draw', action: 'accept', ...(s.you === 'both' ? { color: other(s.offers.draw) } : {}) });
      else ctx.send({ t: 'draw', action: 'offer', ...local });
      return ok('');
    case 'takeback':
      if (s.offers.takeback && s.offers.takeback !== mine) ctx.send({ t: 'takeback', action: 'accept' });
      else ctx.send({ t: 'takeback', action: 'request' });
      return ok('');
    case 'abort':
      ctx.send({ t: 'abort', ...local });
      return ok('');
    case 'accept':
    case 'decline': {
      // At one device either side's offer is answered (for the other side).
      const kind = (['draw', 'takeback'] as const).find((k) => s.offers[k] && (s.you === 'both' || s.offers[k] !== mine));
      if (!kind) return bad(t('nothingToAnswer'));
      ctx.send({ t: kind, action: command, ...(s.you === 'both' ? { color: other(s.offers[kind]!) } : {}) });
      return ok('');
    }
    case 'claim': {
      const words = arg.split(/\s+/).filter(Boolean);
      let kind: 'threefold' | 'fifty' | null = null;
      if (words[0] && /^(3|threefold|fifty|50)$/i.test(words[0])) kind = /^(3|threefold)$/i.test(words.shift()!) ? 'threefold' : 'fifty';
      if (words.length > 0) return move(words.join(''), ctx, kind ?? 'threefold');
      kind = kind ?? (s.claimable.threefold ? 'threefold' : s.claimable.fifty ? 'fifty' : null);
      if (!kind || !s.claimable[kind]) return bad(t('noClaim'));
      ctx.send({ t: 'claim', kind, ...local });
      return ok('');
    }
  }
  return bad(t('unknownCommand', { text: command }));
}

/** The squares of every piece of `role`, White's then Black's. */
function where(pieces: Pieces, role: Role): string {
  return (['white', 'black'] as Color[])
    .map((color) => {
      const squares = [...pieces.entries()].filter(([, p]) => p.role === role && p.color === color).map(([sq]) => sq).sort();
      return `${pieceName({ role, color })}: ${squares.length ? squares.join(', ') : t('none')}`;
    })
    .join('. ');
}

/** The occupied squares of a file (`e`) or rank (`4`). */
function scan(pieces: Pieces, line: string): string {
  const squares = /\d/.test(line) ? [...'abcdefgh'].map((f) => `${f}${line}`) : [1, 2, 3, 4, 5, 6, 7, 8].map((r) => `${line}${r}`);
  const taken = squares.filter((sq) => pieces.has(sq)).map((sq) => squareName(sq, pieces.get(sq)));
  const name = /\d/.test(line) ? t('rankN', { n: line }) : t('fileN', { f: line });
  return `${cap(name)}: ${taken.length ? taken.join('; ') : t('empty')}`;
}

/** The whole position rank by rank, from the top as the player sees it. */
function board(pieces: Pieces, s: GameState): string {
  const ranks = s.you === 'black' ? ['1', '2', '3', '4', '5', '6', '7', '8'] : ['8', '7', '6', '5', '4', '3', '2', '1'];
  return ranks.map((r) => scan(pieces, r)).join('. ');
}

const VALUE: Record<Role, number> = { king: 0, queen: 9, rook: 5, bishop: 3, knight: 3, pawn: 1 };

/** Each side's pieces and their material in pawns. */
function material(pieces: Pieces): string {
  return (['white', 'black'] as Color[])
    .map((color) => {
      const counts = ROLES.map((role) => [role, [...pieces.values()].filter((p) => p.role === role && p.color === color).length] as const).filter(([, n]) => n > 0);
      const points = counts.reduce((sum, [role, n]) => sum + VALUE[role] * n, 0);
      const list = counts.map(([role, n]) => (n > 1 ? `${n}× ${roleWord(role)}` : roleWord(role))).join(', ');
      return t('materialLine', { color: t(color), list, points });
    })
    .join('. ');
}

/** The legal moves of the piece on a square, of every piece of a kind, or of all pieces. */
function legalMoves(pieces: Pieces, s: GameState, arg: string): string {
  let froms = Object.keys(s.dests).sort();
  const a = arg.trim();
  if (/^[a-h][1-8]$/.test(a)) {
    const piece = pieces.get(a);
    if (!piece) return squareName(a, undefined);
    if (!s.dests[a]) return cap(t('noLegalMove', { piece: pieceName(piece), from: a }));
    froms = [a];
  } else if (a.length === 1) {
    const role = roleOfLetter(a);
    if (role) froms = froms.filter((sq) => pieces.get(sq)?.role === role);
  }
  if (froms.length === 0) return t('legalMovesAll', { list: t('none') });
  return t('legalMovesAll', {
    list: froms.map((sq) => t('legalMovesOf', { piece: pieceName(pieces.get(sq)!), from: sq, targets: s.dests[sq].join(', ') })).join('; '),
  });
}

export type { ReadMove };
