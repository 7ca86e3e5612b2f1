// Tournaments and their directors (ICCF 14) as the page reads them: the
// calls of docs/api.md ("Tournaments and their directors"), a decision in
// words, and a refusal of the server in words with its message as detail.

import { formatDays } from './correspondence';
import { h } from './dom';
import { Key, plural, t } from './i18n';
import { errorText, resultText } from './outcome';
import { ApiError, call, Color } from './protocol';

/** What a director decided (`{"act": "stop_clocks"}`, …; on a player: `warning`, `withdrawal`, `leave_granted`). */
export interface Act {
  act: string;
  color?: Color;
  left_ms?: number | null;
  moves?: number | null;
  result?: string;
  silent?: boolean;
  days?: number;
  year?: number;
  round?: number;
  kind?: string;
  from_round?: number;
}

/** A decision in a game's state (no id: the order is the log's). */
export interface StateDecision {
  decision: Act;
  by: string;
  reason: string;
  ago: number;
}

/** A decision as the log keeps it (`by` is the director's account). */
export interface LoggedDecision {
  id: number;
  tournament: string | null;
  game: string | null;
  player: number | null;
  by: number;
  decision: Act;
  reason: string;
  at: number;
}

/** An appeal or a claim to the director, and the answer once there is one. */
export interface DirectorRequest {
  id: number;
  kind: 'appeal' | 'claim';
  game: string | null;
  decision: number | null;
  tournament: string | null;
  by: number;
  message: string;
  at: number;
  answer: { text: string; at: number } | null;
}

/** A game that needs the director: silent too long, or its clocks stopped. */
export interface AttentionGame {
  id: string;
  tournament: string | null;
  white: string | null;
  black: string | null;
  turn: Color;
  ply: number;
  why: 'silent' | 'stopped';
  days: number;
}

/** A player's round in the standings: the opponent's pairing number, the colour, TRF's result character (`*` while playing). */
export interface StandingRound {
  round: number;
  opponent?: number;
  colour?: 'w' | 'b';
  result: string | null;
  game?: string | null;
}

/** A line of the standings (tie-break values as text, in the order of `Tournament.tiebreaks`). */
export interface Standing {
  rank: number;
  number: number;
  id: number;
  name: string;
  rating: number | null;
  points: number;
  tiebreaks: string[];
  withdrawn: boolean;
  finished: number;
  rounds: StandingRound[];
}

/** A player on a board or with a bye. */
export interface Paired {
  id: number;
  name: string | null;
  number: number | null;
}

/** A round's pairings: boards with their results (null while playing), then the byes. */
export interface PairedRound {
  round: number;
  started: number;
  finished: number | null;
  boards: { board: number; white: Paired; black: Paired; game: string | null; result: string | null }[];
  byes: { player: Paired; kind: 'pairing' | 'half' | 'full' | 'zero' }[];
}

/** A tournament (`GET /api/tournaments/{id}` adds games, standings, pairings and decisions). */
export interface Tournament {
  id: string;
  name: string;
  director: string;
  timeControl: string;
  rules: string;
  rated: boolean;
  double: boolean;
  tripleBlock: boolean;
  drawsFromMove: number | null;
  chess960: null | 'each_game' | number;
  silenceDays: number;
  /** The default time of its live games, seconds (6.7.1); null: none. */
  defaultSecs: number | null;
  system: 'round_robin' | 'swiss' | 'knockout' | 'arena';
  rounds: number;
  /** An arena's length. */
  minutes: number | null;
  /** An arena's time and games being played. */
  arena?: import('./tnarena').ArenaState;
  baku: boolean;
  byRound: boolean;
  startsAt: number | null;
  breakSecs: number;
  entry: { open: boolean; minRating: number | null; maxRating: number | null; minAccountDays: number | null };
  tiebreaks: string[];
  maxByes: number;
  /** A knockout's matches. */
  knockout: NewTournament['knockout'] | null;
  paused: boolean;
  status: 'created' | 'started' | 'finished';
  /** Why it ended before its start, if it did. */
  calledOff: null | { by: 'director'; reason: string } | { by: 'too_few_players' };
  round: number;
  finished: number | null;
  players: { id: number; name: string; rating?: number | null; withdrawn: boolean }[];
  started: number | null;
  created: number;
  games?: { id: string; white: string | null; black: string | null; chess960: number | null; result: string | null; ply: number | null }[];
  standings?: Standing[];
  provisional?: boolean;
  crosstable?: string[][];
  /** A knockout's bracket. */
  bracket?: import('./tnbracket').Bracket;
  pairings?: PairedRound[];
  decisions?: LoggedDecision[];
}

/** What the body of `POST /api/tournaments` carries. */
export interface NewTournament {
  name: string;
  time_control: string;
  rules?: string;
  rated?: boolean;
  system?: 'round_robin' | 'swiss' | 'knockout' | 'arena';
  rounds?: number;
  minutes?: number;
  baku?: boolean;
  knockout?: { games: number; tie_breaks: { kind: string; games?: number; time_control: string; until_decided?: boolean }[]; third_place: boolean };
  double: boolean;
  triple_block: boolean;
  draws_from_move: number | null;
  chess960: null | 'random' | 'each_game' | number;
  silence_days?: number;
  default_secs?: number;
  director?: string;
  starts_at?: number;
  break_secs?: number;
  entry?: { open: boolean; min_rating?: number; max_rating?: number; min_account_days?: number };
  tiebreaks?: string[];
  max_byes?: number;
}

/** `GET /api/director`. */
export const fetchAttention = (): Promise<Attention> => call('GET', '/api/director');

/** What `GET /api/director` answers: what needs the player as a director, and whether they are one of the site's. */
export interface Attention {
  games: AttentionGame[];
  requests: DirectorRequest[];
  /** One of the site's directors, who alone create tournaments. */
  site_director: boolean;
}

/** `GET /api/account/decisions`. */
export const fetchMine = (): Promise<{ decisions: LoggedDecision[]; requests: DirectorRequest[] }> => call('GET', '/api/account/decisions');

/** `GET /api/tournaments`. */
export const fetchTournaments = (): Promise<{ tournaments: Tournament[] }> => call('GET', '/api/tournaments');

/** `GET /api/tournaments/{id}`. */
export const fetchTournament = (id: string): Promise<Tournament> => call('GET', `/api/tournaments/${encodeURIComponent(id)}`);

/** `POST /api/tournaments`. */
export const createTournament = (body: NewTournament): Promise<Tournament> => call('POST', '/api/tournaments', body);

/** `POST /api/tournaments/{id}/{what}` (players, start, withdraw, warn, leave, join, quit, pause, pair, result, bye). */
export const tournamentAct = (id: string, what: string, body?: unknown): Promise<unknown> => call('POST', `/api/tournaments/${encodeURIComponent(id)}/${what}`, body);

/** `POST /api/games/{id}/decide`. */
export const decide = (game: string, decision: Act, reason: string): Promise<{ decision: number }> =>
  call('POST', `/api/games/${encodeURIComponent(game)}/decide`, { decision, reason });

/** `POST /api/requests`: an appeal against decision `decision`, or a claim about `game`. */
export const fileRequest = (body: { kind: 'appeal'; decision: number; message: string } | { kind: 'claim'; game: string; message: string }): Promise<{ id: number }> =>
  call('POST', '/api/requests', body);

/** `POST /api/requests/{id}/answer`. */
export const answerRequest = (id: number, answer: string): Promise<{ id: number }> => call('POST', `/api/requests/${id}/answer`, { answer });

/** A clock's time left and move counter in words: "3 d 0 h left, 12 moves". */
function clockWords(a: Act): string {
  const parts: string[] = [];
  if (a.left_ms !== null && a.left_ms !== undefined) parts.push(t('timeLeftShort', { time: formatDays(a.left_ms) }));
  if (a.moves !== null && a.moves !== undefined) parts.push(plural('n_moves', a.moves));
  return parts.join(', ');
}

/** A decision in words: "Clocks stopped (6.10)", "Adjudicated: ½-½ (11.1)". */
export function actText(a: Act): string {
  const color = a.color ? t(a.color) : '';
  // A notice names the act alone: the words without its details.
  switch (a.act) {
    case 'call_off':
      return t('d_call_off');
    case 'reschedule':
      return t('d_reschedule');
    case 'settings':
      return t('d_settings');
    case 'set_clock':
      return a.color ? t('d_set_clock', { color, what: clockWords(a) }) : t('d_set_clock_any');
    case 'adjudicate':
      return a.result ? t('d_adjudicate', { result: resultText(a.result) }) : t('d_adjudicate_any');
    case 'forfeit':
      return a.color ? t('d_forfeit', { color }) : t('d_forfeit_any');
    case 'withdrawal':
      return t(a.silent ? 'd_withdrawal_silent' : 'd_withdrawal');
    case 'leave_granted':
      return a.days ? t('d_leave_granted', { days: plural('n_days', a.days), year: a.year ?? '' }) : t('d_leave_granted_any');
    case 'pair':
      return t('d_pair', { n: a.round ?? '' });
    case 'result':
      return t('d_result', { result: a.result ? resultText(a.result) : '' });
    case 'bye':
      return t('d_bye', { n: a.round ?? '', what: t(a.kind === 'full' ? 'tnByeFull' : a.kind === 'zero' ? 'tnByeZero' : a.kind === 'none' ? 'tnByeNone' : 'tnByeHalf') });
    case 'late_entry':
      return t('d_late_entry', { n: a.from_round ?? '' });
    default: {
      const key = `d_${a.act}`;
      return key in { d_stop_clocks: 1, d_start_clocks: 1, d_double_forfeit: 1, d_warning: 1, d_pause: 1, d_resume: 1 } ? t(key as Key) : a.act.replace(/_/g, ' ');
    }
  }
}

/** A decision's line: "Arbiter: Clocks stopped (6.10). Reason: illness". */
export function decisionLine(by: string, a: Act, reason: string): string {
  return t('decisionLine', { by, what: actText(a), reason });
}

/** The code of a refusal (`unknown` for anything that is not the server's). */
export const codeOf = (e: unknown): string => (e instanceof ApiError ? e.code : 'unknown');

/** A refusal in words from its code, and the server's own message (English) as detail. */
export function refusal(e: unknown, own: Partial<Record<string, Key>> = {}): HTMLElement[] {
  const code = codeOf(e);
  const key = own[code];
  const words = key ? t(key) : errorText(code);
  const detail = e instanceof ApiError && e.message ? h('span', { class: 'detail', lang: 'en', 'data-testid': 'error-detail' }, ` (${e.message})`) : null;
  return [h('span', { 'data-testid': 'error-words', 'data-code': code }, words), ...(detail ? [detail] : [])];
}
