// SAN as the server writes it (English letters) shown with the piece letters
// of the reader's language (FIDE Laws, Appendix C.2–C.3) or figurines, and
// read aloud in words for the screen reader.

import { Key, Lang, t } from './i18n';
import type { Color } from './protocol';

/** How moves are written in the move list. */
export type Style = 'letters' | 'figurines';

/** Piece letters for king, queen, rook, bishop, knight (as laws::notation::Language). */
const LETTERS: Record<Lang, Record<string, string>> = {
  en: { K: 'K', Q: 'Q', R: 'R', B: 'B', N: 'N' },
  sk: { K: 'K', Q: 'D', R: 'V', B: 'S', N: 'J' },
  cs: { K: 'K', Q: 'D', R: 'V', B: 'S', N: 'J' },
};

const FIGURINES: Record<Color, Record<string, string>> = {
  white: { K: '♔', Q: '♕', R: '♖', B: '♗', N: '♘' },
  black: { K: '♚', Q: '♛', R: '♜', B: '♝', N: '♞' },
};

/** The piece letters of `lang` in the order K Q R B N, for hints. */
export function pieceLetters(lang: Lang): string {
  const l = LETTERS[lang];
  return [l.K, l.Q, l.R, l.B, l.N].join(' ');
}

/**
 * Rewrites an English SAN move (`Nf3`, `exd8=Q+`, `O-O`) with the letters of
 * `lang`, or with figurines of the mover's colour.
 */
export function localSan(san: string, lang: Lang, style: Style, mover: Color): string {
  const table = style === 'figurines' ? FIGURINES[mover] : LETTERS[lang];
  return san.replace(/^[KQRBN]|=[QRBN]/g, (m) =>
    m.startsWith('=') ? '=' + table[m[1]] : table[m],
  );
}

const ROLE_WORD: Record<string, Key> = {
  K: 'king',
  Q: 'queen',
  R: 'rook',
  B: 'bishop',
  N: 'knight',
};

/**
 * The move in words, e.g. "knight f3", "pawn e5 takes d6 en passant",
 * "castles short, check"; `uci` tells the start square of a pawn capture and
 * en passant (a pawn capture onto an empty square is en passant; `captureFen`
 * is the board before the move, or null when unknown).
 */
export function spokenMove(san: string, uci: string, boardBefore: string | null): string {
  const words: string[] = [];
  const suffix = san.endsWith('#') ? 'mate' : san.endsWith('+') ? 'check' : null;
  const body = san.replace(/[+#!?]+$/, '');
  if (body.startsWith('O-O-O')) words.push(t('castlesLong'));
  else if (body.startsWith('O-O')) words.push(t('castlesShort'));
  else {
    const m = /^([KQRBN])?([a-h]?[1-8]?)(x?)([a-h][1-8])(?:=([QRBN]))?$/.exec(body);
    if (!m) words.push(body);
    else {
      const [, role, from, takes, to, promo] = m;
      words.push(t(role ? ROLE_WORD[role] : 'pawn'));
      if (from) words.push(from);
      if (takes) words.push(t('takes'));
      words.push(to);
      if (!role && takes && boardBefore !== null && !pieceOn(boardBefore, uci.slice(2, 4))) {
        words.push(t('enPassant'));
      }
      if (promo) words.push(t('promotesTo'), t(ROLE_WORD[promo]));
    }
  }
  const text = words.join(' ');
  return suffix ? `${text}, ${t(suffix)}` : text;
}

/** True when the board part of `fen` has a piece on `square`. */
export function pieceOn(fen: string, square: string): boolean {
  const rows = fen.split(' ')[0].split('/');
  const file = square.charCodeAt(0) - 97;
  const rank = Number(square[1]);
  const row = rows[8 - rank];
  if (row === undefined || file < 0 || file > 7) return false;
  let col = 0;
  for (const ch of row) {
    if (/\d/.test(ch)) col += Number(ch);
    else {
      if (col === file) return true;
      col += 1;
    }
    if (col > file) return false;
  }
  return false;
}

/** The colour to move in a FEN. */
export function fenTurn(fen: string): Color {
  return fen.split(' ')[1] === 'b' ? 'black' : 'white';
}

/** How moves are announced (and written for the screen reader): the reader's choice. */
export type Voice = 'san' | 'lan' | 'words' | 'phonetic';

export const VOICES: Voice[] = ['san', 'lan', 'words', 'phonetic'];

/** The file names of FIDE Appendix D.2.1 (2014), said instead of the letters. */
const PHONETIC_FILES: Record<string, string> = {
  a: 'Anna',
  b: 'Bella',
  c: 'Cesar',
  d: 'David',
  e: 'Eva',
  f: 'Felix',
  g: 'Gustav',
  h: 'Hector',
};

/** The piece names of FIDE Appendix D.2.1 (German, as the appendix gives them). */
const PHONETIC_PIECES: Record<string, string> = {
  K: 'König',
  Q: 'Dame',
  R: 'Turm',
  B: 'Läufer',
  N: 'Springer',
  P: 'Bauer',
};

/** A square said the Appendix D way: `Felix 3`. */
export function phoneticSquare(square: string): string {
  return `${PHONETIC_FILES[square[0]] ?? square[0]} ${square.slice(1)}`;
}

/**
 * The move `san` (English SAN from the server; `uci` gives its start
 * square) in the reader's `voice`: `Jf3`, `Jg1-f3`, "jazdec f3", or
 * "Springer Gustav 1 Felix 3". `boardBefore` is the FEN before the move
 * (for en passant), or null.
 */
export function voicedMove(san: string, uci: string, boardBefore: string | null, lang: Lang, voice: Voice, mover: Color): string {
  if (voice === 'words') return spokenMove(san, uci, boardBefore);
  if (voice === 'san') return localSan(san, lang, 'letters', mover);
  const suffix = san.endsWith('#') ? '#' : san.endsWith('+') ? '+' : '';
  const body = san.replace(/[+#!?]+$/, '');
  const m = /^([KQRBN])?[a-h]?[1-8]?(x?)([a-h][1-8])(?:=([QRBN]))?$/.exec(body);
  const from = uci.slice(0, 2);
  if (voice === 'lan') {
    if (!m) return san;
    const [, role, takes, to, promo] = m;
    const letters = LETTERS[lang];
    return `${role ? letters[role] : ''}${from}${takes ? 'x' : '-'}${to}${promo ? `=${letters[promo]}` : ''}${suffix}`;
  }
  const words: string[] = [];
  if (body.startsWith('O-O-O')) words.push('Lange Rochade');
  else if (body.startsWith('O-O')) words.push('Kurze Rochade');
  else if (!m) words.push(body);
  else {
    const [, role, takes, to, promo] = m;
    words.push(PHONETIC_PIECES[role ?? 'P'], phoneticSquare(from));
    if (takes) words.push(t('takes'));
    words.push(phoneticSquare(to));
    if (!role && takes && boardBefore !== null && !pieceOn(boardBefore, to)) words.push(t('enPassant'));
    if (promo) words.push(t('promotesTo'), PHONETIC_PIECES[promo]);
  }
  const text = words.join(' ');
  return suffix ? `${text}, ${t(suffix === '#' ? 'mate' : 'check')}` : text;
}

/** The letters of `lang` by role, for reading typed moves. */
export function lettersOf(lang: Lang): Record<'king' | 'queen' | 'rook' | 'bishop' | 'knight' | 'pawn', string> {
  const l = LETTERS[lang];
  return { king: l.K, queen: l.Q, rook: l.R, bishop: l.B, knight: l.N, pawn: '' };
}
