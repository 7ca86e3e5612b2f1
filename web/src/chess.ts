// The position as the page knows it (the server's FEN and legal
// destinations), and a reader of typed moves against it: SAN or long
// algebraic in the reader's piece letters, turned into the UCI move the
// server is sent, or into the reason no move fits. The server stays the
// arbiter; this only decides what to send and explains what not to.

import type { Color } from './protocol';

export type Role = 'king' | 'queen' | 'rook' | 'bishop' | 'knight' | 'pawn';

export interface Piece {
  role: Role;
  color: Color;
}

/** The pieces by square (`e4`), read from the board part of a FEN. */
export type Pieces = Map<string, Piece>;

const FEN_ROLE: Record<string, Role> = { k: 'king', q: 'queen', r: 'rook', b: 'bishop', n: 'knight', p: 'pawn' };

/** The roles in the order the Laws list them. */
export const ROLES: Role[] = ['king', 'queen', 'rook', 'bishop', 'knight', 'pawn'];

/** The files and ranks in order. */
export const FILES = 'abcdefgh';

/** Reads the pieces of a FEN. */
export function readFen(fen: string): Pieces {
  const pieces: Pieces = new Map();
  fen
    .split(' ')[0]
    .split('/')
    .forEach((row, i) => {
      let file = 0;
      for (const ch of row) {
        if (/\d/.test(ch)) file += Number(ch);
        else {
          const role = FEN_ROLE[ch.toLowerCase()];
          if (role && file < 8) pieces.set(`${FILES[file]}${8 - i}`, { role, color: ch === ch.toUpperCase() ? 'white' : 'black' });
          file += 1;
        }
      }
    });
  return pieces;
}

/** The en passant square of a FEN, or null. */
function epSquare(fen: string): string | null {
  const ep = fen.split(' ')[3];
  return ep && ep !== '-' ? ep : null;
}

const at = (file: number, rank: number): string | null =>
  file >= 0 && file < 8 && rank >= 1 && rank <= 8 ? `${FILES[file]}${rank}` : null;

const RAYS: Record<'rook' | 'bishop', [number, number][]> = {
  rook: [[1, 0], [-1, 0], [0, 1], [0, -1]],
  bishop: [[1, 1], [1, -1], [-1, 1], [-1, -1]],
};
const KNIGHT: [number, number][] = [[1, 2], [2, 1], [2, -1], [1, -2], [-1, -2], [-2, -1], [-2, 1], [-1, 2]];
const KING: [number, number][] = [[1, 0], [1, 1], [0, 1], [-1, 1], [-1, 0], [-1, -1], [0, -1], [1, -1]];

/**
 * The squares the piece on `from` could go to by the way it moves, ignoring
 * whether its own king would be left in check (and castling): what a player
 * means by "the knight can go there".
 */
export function reach(pieces: Pieces, from: string, fen: string): string[] {
  const piece = pieces.get(from);
  if (!piece) return [];
  const f = from.charCodeAt(0) - 97;
  const r = Number(from[1]);
  const out: string[] = [];
  const free = (sq: string | null): sq is string => sq !== null && pieces.get(sq)?.color !== piece.color;
  const steps = (deltas: [number, number][]): void => {
    for (const [df, dr] of deltas) {
      const sq = at(f + df, r + dr);
      if (free(sq)) out.push(sq);
    }
  };
  const slide = (deltas: [number, number][]): void => {
    for (const [df, dr] of deltas) {
      for (let i = 1; ; i++) {
        const sq = at(f + df * i, r + dr * i);
        if (sq === null) break;
        if (free(sq)) out.push(sq);
        if (pieces.has(sq)) break;
      }
    }
  };
  switch (piece.role) {
    case 'knight':
      steps(KNIGHT);
      break;
    case 'king':
      steps(KING);
      break;
    case 'rook':
    case 'bishop':
      slide(RAYS[piece.role]);
      break;
    case 'queen':
      slide([...RAYS.rook, ...RAYS.bishop]);
      break;
    case 'pawn': {
      const dir = piece.color === 'white' ? 1 : -1;
      const one = at(f, r + dir);
      if (one && !pieces.has(one)) {
        out.push(one);
        const two = at(f, r + 2 * dir);
        if ((r === 2 || r === 7) && r === (piece.color === 'white' ? 2 : 7) && two && !pieces.has(two)) out.push(two);
      }
      for (const df of [-1, 1]) {
        const sq = at(f + df, r + dir);
        if (sq && ((pieces.has(sq) && pieces.get(sq)!.color !== piece.color) || sq === epSquare(fen))) out.push(sq);
      }
      break;
    }
  }
  return out;
}

/** What the reader needs of the position: the state's FEN, side to move and legal destinations. */
export interface Position {
  fen: string;
  turn: Color;
  check: boolean;
  dests: Record<string, string[]>;
  chess960: boolean;
}

/** A move read from text: the UCI to send and the parts that describe it. */
export interface ReadMove {
  uci: string;
  role: Role;
  from: string;
  to: string;
  promotion: Role | null;
  castle: 'short' | 'long' | null;
}

/** Why a typed move was not read; `key` names the text, `params` fill it. */
export interface MoveProblem {
  problem:
    | 'notAMove'
    | 'noPieceTo'
    | 'noPieceOn'
    | 'notYourPiece'
    | 'cannotGo'
    | 'leavesCheck'
    | 'inCheck'
    | 'ambiguous'
    | 'whichPromotion'
    | 'notPromotion'
    | 'castleIllegal';
  role?: Role;
  from?: string;
  to?: string;
  candidates?: string[];
}

/** The piece letters a reader may type: the language's and, where they do not clash, English. */
export function letterRole(letter: string, letters: Record<Role, string>): Role | null {
  for (const role of ROLES) if (role !== 'pawn' && letters[role] === letter) return role;
  const english: Record<string, Role> = { K: 'king', Q: 'queen', R: 'rook', B: 'bishop', N: 'knight' };
  return english[letter] ?? null;
}

/** The castling moves open to the side to move, by side of the board. */
function castles(pos: Position, pieces: Pieces): Record<'short' | 'long', string | null> {
  const found: Record<'short' | 'long', string | null> = { short: null, long: null };
  for (const [from, tos] of Object.entries(pos.dests)) {
    const piece = pieces.get(from);
    if (piece?.role !== 'king' || piece.color !== pos.turn) continue;
    for (const to of tos) {
      const onRook = pieces.get(to)?.role === 'rook' && pieces.get(to)?.color === pos.turn;
      const jump = Math.abs(to.charCodeAt(0) - from.charCodeAt(0));
      if (!onRook && (pos.chess960 || jump !== 2)) continue;
      found[to.charCodeAt(0) > from.charCodeAt(0) ? 'short' : 'long'] = from + to;
    }
  }
  return found;
}

const SQUARE = '[a-h][1-8]';

/**
 * Reads `text` as a move in SAN (`Jf3`, `exd5`, `e8=D`, `O-O`) or long
 * algebraic (`g1f3`, `Jg1-f3`, `e7e8q`) with the piece `letters` of the
 * reader's language (English letters are understood too); returns the move
 * or what is wrong.
 */
export function readMove(pos: Position, text: string, letters: Record<Role, string>): ReadMove | MoveProblem {
  const pieces = readFen(pos.fen);
  const body = text.trim().replace(/[+#!?]+$/, '').replace(/\s*e\.?\s*p\.?$/i, '').replace(/[×:]/g, 'x');
  const castle = /^([O0o])-?\1(-?\1)?$/.exec(body);
  if (castle) {
    const side = castle[2] ? 'long' : 'short';
    const uci = castles(pos, pieces)[side];
    if (!uci) return { problem: 'castleIllegal' };
    return { uci, role: 'king', from: uci.slice(0, 2), to: uci.slice(2, 4), promotion: null, castle: side };
  }
  const pieceLetters = '[A-Z]';
  const lan = new RegExp(`^(${pieceLetters})?(${SQUARE})[-x]?(${SQUARE})=?([A-Za-z])?$`).exec(body);
  const san = new RegExp(`^(${pieceLetters})?([a-h])?([1-8])?x?(${SQUARE})=?([A-Z])?$`).exec(body);
  if (lan) {
    const [, letter, from, to, promo] = lan;
    const role = letter ? letterRole(letter, letters) : null;
    if (letter && !role) return { problem: 'notAMove' };
    const promotion = promo ? letterRole(promo.toUpperCase(), letters) ?? (promo === 'b' ? 'bishop' : null) : null;
    if (promo && !promotion) return { problem: 'notAMove' };
    const piece = pieces.get(from);
    if (!piece) return { problem: 'noPieceOn', from };
    if (piece.color !== pos.turn) return { problem: 'notYourPiece', from, role: piece.role };
    if (role && role !== piece.role) return { problem: 'noPieceOn', from, role };
    // A king onto its own rook is castling (Chess960, and king-onto-rook in standard chess).
    const castleSide = castles(pos, pieces);
    for (const side of ['short', 'long'] as const) {
      const c = castleSide[side];
      if (c && c.slice(0, 2) === from && (c.slice(2) === to || (piece.role === 'king' && pieces.get(to)?.role === 'rook' && pieces.get(to)?.color === pos.turn && (to > from) === (side === 'short')))) {
        return { uci: c, role: 'king', from, to: c.slice(2), promotion: null, castle: side };
      }
    }
    return finish(pos, pieces, piece.role, [from], to, promotion);
  }
  if (san) {
    const [, letter, file, rank, to, promo] = san;
    const role = letter ? letterRole(letter, letters) : 'pawn';
    if (!role) return { problem: 'notAMove' };
    const promotion = promo ? letterRole(promo, letters) : null;
    if (promo && !promotion) return { problem: 'notAMove' };
    const mine = [...pieces.entries()]
      .filter(([sq, p]) => p.role === role && p.color === pos.turn && (!file || sq[0] === file) && (!rank || sq[1] === rank))
      .map(([sq]) => sq);
    return finish(pos, pieces, role, mine, to, promotion);
  }
  return { problem: 'notAMove' };
}

/** The one move of a piece of `role` from one of `froms` to `to`, or why there is none. */
function finish(pos: Position, pieces: Pieces, role: Role, froms: string[], to: string, promotion: Role | null): ReadMove | MoveProblem {
  const legal = froms.filter((from) => (pos.dests[from] ?? []).includes(to));
  if (legal.length === 0) {
    const reaching = froms.filter((from) => reach(pieces, from, pos.fen).includes(to));
    if (reaching.length > 0) return { problem: pos.check ? 'inCheck' : 'leavesCheck', role, from: reaching[0], to };
    if (froms.length === 1 && pieces.get(froms[0])?.role === role) return { problem: 'cannotGo', role, from: froms[0], to };
    return { problem: 'noPieceTo', role, to };
  }
  if (legal.length > 1) return { problem: 'ambiguous', role, to, candidates: legal.sort() };
  const from = legal[0];
  const lastRank = to[1] === (pos.turn === 'white' ? '8' : '1');
  if (role === 'pawn' && lastRank && !promotion) return { problem: 'whichPromotion', role, from, to };
  if (promotion && (role !== 'pawn' || !lastRank || promotion === 'pawn' || promotion === 'king')) return { problem: 'notPromotion', role, from, to };
  const letter = promotion ? { queen: 'q', rook: 'r', bishop: 'b', knight: 'n' }[promotion as 'queen'] : '';
  return { uci: from + to + letter, role, from, to, promotion, castle: null };
}

/** True when `x` is a problem rather than a move. */
export function isProblem(x: ReadMove | MoveProblem): x is MoveProblem {
  return 'problem' in x;
}

/** SAN-like names of candidate moves that differ only in their start: `Jbd2`, `Jfd2` (file, else rank, else square). */
export function disambiguated(letter: string, froms: string[], to: string): string[] {
  return froms.map((from) => {
    const sameFile = froms.filter((f) => f[0] === from[0]).length > 1;
    const sameRank = froms.filter((f) => f[1] === from[1]).length > 1;
    const hint = !sameFile ? from[0] : !sameRank ? from[1] : from;
    return `${letter}${hint}${to}`;
  });
}

/** True when a piece of `color` attacks `square` on `pieces` (en passant and castling aside). */
function attacks(pieces: Pieces, color: Color, square: string): boolean {
  for (const [from, p] of pieces) {
    if (p.color !== color) continue;
    if (p.role === 'pawn') {
      const dir = color === 'white' ? 1 : -1;
      const f = from.charCodeAt(0) - 97;
      const r = Number(from[1]);
      if (at(f - 1, r + dir) === square || at(f + 1, r + dir) === square) return true;
    } else if (reach(pieces, from, '8/8/8/8/8/8/8/8 w - - 0 1').includes(square)) return true;
  }
  return false;
}

/**
 * The legal move `uci` of the side to move in English SAN (`Nbd2`, `exd6`,
 * `e8=Q+`, `O-O`), from the position and its legal destinations: what a
 * player is asked to confirm before a move is sent. Check is marked `+`
 * (mate too: the page does not search for replies; the server's SAN, in
 * the move list once played, marks it `#`).
 */
export function sanOf(pos: Position, uci: string): string {
  const pieces = readFen(pos.fen);
  const from = uci.slice(0, 2);
  let to = uci.slice(2, 4);
  const piece = pieces.get(from);
  if (!piece) return uci;
  const target = pieces.get(to);
  const after = new Map(pieces);
  after.delete(from);
  let san: string;
  const jump = to.charCodeAt(0) - from.charCodeAt(0);
  const ontoRook = target?.role === 'rook' && target.color === piece.color;
  if (piece.role === 'king' && (ontoRook || (!pos.chess960 && Math.abs(jump) === 2))) {
    const short = jump > 0;
    san = short ? 'O-O' : 'O-O-O';
    const rank = from[1];
    const rookFrom = ontoRook ? to : `${short ? 'h' : 'a'}${rank}`;
    const rook = after.get(rookFrom);
    after.delete(rookFrom);
    to = `${short ? 'g' : 'c'}${rank}`;
    after.set(to, piece);
    if (rook) after.set(`${short ? 'f' : 'd'}${rank}`, rook);
  } else {
    const letter = { king: 'K', queen: 'Q', rook: 'R', bishop: 'B', knight: 'N', pawn: '' }[piece.role];
    const enPassant = piece.role === 'pawn' && from[0] !== to[0] && !target;
    const takes = target !== undefined || enPassant;
    let hint = '';
    if (piece.role === 'pawn') hint = takes ? from[0] : '';
    else {
      const rivals = [...pieces.entries()]
        .filter(([sq, p]) => sq !== from && p.role === piece.role && p.color === piece.color && (pos.dests[sq] ?? []).includes(to))
        .map(([sq]) => sq);
      if (rivals.length) hint = disambiguated('', [from, ...rivals], to)[0].slice(0, -2);
    }
    const promo = uci.length === 5 ? uci[4].toUpperCase() : '';
    san = `${letter}${hint}${takes ? 'x' : ''}${to}${promo ? `=${promo}` : ''}`;
    if (enPassant) after.delete(`${to[0]}${from[1]}`);
    const roles: Record<string, Role> = { Q: 'queen', R: 'rook', B: 'bishop', N: 'knight' };
    after.set(to, promo ? { role: roles[promo], color: piece.color } : piece);
  }
  const enemy: Color = piece.color === 'white' ? 'black' : 'white';
  const king = [...after.entries()].find(([, p]) => p.role === 'king' && p.color === enemy)?.[0];
  return king && attacks(after, piece.color, king) ? `${san}+` : san;
}

// The rules in full for a board the server does not see (the analysis
// board, conditional moves entered ahead): legal destinations and the
// position after a move, for standard chess (Chess960 castling aside).

/** The FEN's side to move. */
function turnOf(fen: string): Color {
  return fen.split(' ')[1] === 'b' ? 'black' : 'white';
}

/** `pieces` after the piece on `from` goes to `to`: en passant and castling's rook included, promotion to `promo` (a role letter). */
function moved(pieces: Pieces, fen: string, from: string, to: string, promo = ''): Pieces {
  const after = new Map(pieces);
  const piece = after.get(from);
  if (!piece) return after;
  after.delete(from);
  if (piece.role === 'pawn' && from[0] !== to[0] && !pieces.has(to) && to === epSquare(fen)) after.delete(`${to[0]}${from[1]}`);
  if (piece.role === 'king' && Math.abs(to.charCodeAt(0) - from.charCodeAt(0)) === 2) {
    const short = to > from;
    const rookFrom = `${short ? 'h' : 'a'}${from[1]}`;
    const rook = after.get(rookFrom);
    after.delete(rookFrom);
    if (rook) after.set(`${short ? 'f' : 'd'}${from[1]}`, rook);
  }
  const roles: Record<string, Role> = { q: 'queen', r: 'rook', b: 'bishop', n: 'knight' };
  after.set(to, promo && roles[promo] ? { role: roles[promo], color: piece.color } : piece);
  return after;
}

/** True when the king of `color` stands attacked on `pieces`. */
function inCheck(pieces: Pieces, color: Color): boolean {
  const king = [...pieces.entries()].find(([, p]) => p.role === 'king' && p.color === color)?.[0];
  return king !== undefined && attacks(pieces, color === 'white' ? 'black' : 'white', king);
}

/** The legal destinations of the side to move in `fen`, as the server sends them (`{"e2": ["e3", "e4"]}`); castling as the king's two-square step. */
export function legalDests(fen: string): Record<string, string[]> {
  const pieces = readFen(fen);
  const turn = turnOf(fen);
  const enemy: Color = turn === 'white' ? 'black' : 'white';
  const dests: Record<string, string[]> = {};
  for (const [from, p] of pieces) {
    if (p.color !== turn) continue;
    const tos = reach(pieces, from, fen).filter((to) => pieces.get(to)?.role !== 'king' && !inCheck(moved(pieces, fen, from, to), turn));
    if (tos.length) dests[from] = tos;
  }
  const rank = turn === 'white' ? '1' : '8';
  const rights = fen.split(' ')[2] ?? '-';
  const king = pieces.get(`e${rank}`);
  if (king?.role === 'king' && king.color === turn && !inCheck(pieces, turn)) {
    const sides: [string, string, string[], string[]][] = [
      [turn === 'white' ? 'K' : 'k', 'h', ['f', 'g'], ['f', 'g']],
      [turn === 'white' ? 'Q' : 'q', 'a', ['b', 'c', 'd'], ['d', 'c']],
    ];
    for (const [right, rookFile, empty, passed] of sides) {
      const rook = pieces.get(`${rookFile}${rank}`);
      if (!rights.includes(right) || rook?.role !== 'rook' || rook.color !== turn) continue;
      if (empty.some((f) => pieces.has(`${f}${rank}`))) continue;
      if (passed.some((f) => attacks(pieces, enemy, `${f}${rank}`))) continue;
      (dests[`e${rank}`] ??= []).push(`${passed[1]}${rank}`);
    }
  }
  return dests;
}

/** Writes the board part of a FEN. */
function boardFen(pieces: Pieces): string {
  const letter: Record<Role, string> = { king: 'k', queen: 'q', rook: 'r', bishop: 'b', knight: 'n', pawn: 'p' };
  const rows: string[] = [];
  for (let rank = 8; rank >= 1; rank--) {
    let row = '';
    let gap = 0;
    for (const file of FILES) {
      const p = pieces.get(`${file}${rank}`);
      if (!p) gap += 1;
      else {
        row += (gap || '') + (p.color === 'white' ? letter[p.role].toUpperCase() : letter[p.role]);
        gap = 0;
      }
    }
    rows.push(row + (gap || ''));
  }
  return rows.join('/');
}

/** The FEN after the legal move `uci` in `fen` (castling rights, en passant square and move counters kept). */
export function playMove(fen: string, uci: string): string {
  const [, , rights = '-', , half = '0', full = '1'] = fen.split(' ');
  const pieces = readFen(fen);
  const from = uci.slice(0, 2);
  const to = uci.slice(2, 4);
  const piece = pieces.get(from);
  const turn = turnOf(fen);
  const after = moved(pieces, fen, from, to, uci[4] ?? '');
  let castling = rights;
  const drop = (letters: string): void => {
    for (const l of letters) castling = castling.replace(l, '');
  };
  if (piece?.role === 'king') drop(turn === 'white' ? 'KQ' : 'kq');
  const corners: Record<string, string> = { h1: 'K', a1: 'Q', h8: 'k', a8: 'q' };
  for (const sq of [from, to]) if (corners[sq]) drop(corners[sq]);
  const double = piece?.role === 'pawn' && Math.abs(Number(to[1]) - Number(from[1])) === 2;
  const ep = double ? `${from[0]}${(Number(from[1]) + Number(to[1])) / 2}` : '-';
  const reset = piece?.role === 'pawn' || pieces.has(to);
  const next = turn === 'white' ? 'b' : 'w';
  const number = Number(full) + (turn === 'black' ? 1 : 0);
  return `${boardFen(after)} ${next} ${castling || '-'} ${ep} ${reset ? 0 : Number(half) + 1} ${number}`;
}

/** The position of `fen` as the move reader needs it, with the legal destinations worked out here. */
export function positionOf(fen: string): Position {
  const turn = turnOf(fen);
  return { fen, turn, check: inCheck(readFen(fen), turn), dests: legalDests(fen), chess960: false };
}

/** The SAN of the legal move `uci` in `fen`, `#` for mate. */
export function sanIn(fen: string, uci: string): string {
  const san = sanOf(positionOf(fen), uci);
  if (!san.endsWith('+')) return san;
  return Object.keys(legalDests(playMove(fen, uci))).length === 0 ? `${san.slice(0, -1)}#` : san;
}
