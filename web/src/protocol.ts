// The messages of docs/protocol.md (version 1), as TypeScript types, and the
// HTTP calls the page makes.

import type { StateDecision } from './director';

export type Color = 'white' | 'black';
export type Mode = 'robot' | 'local' | 'friend';

/** The other colour. */
export const other = (c: Color): Color => (c === 'white' ? 'black' : 'white');
export type Seat = Color | 'both' | 'spectator';

export interface Player {
  kind: 'human' | 'robot';
  level: number | null;
  connected: boolean;
}

export interface ClockState {
  control: string;
  category: string;
  white: number;
  black: number;
  running: Color | null;
  increment: number;
  /** ms until the running flag falls if nobody moves, booked leave included (null when no flag can fall). */
  flag_in?: number | null;
  /** Booked stops of both clocks (leave, ICCF 10.1) not yet over: `[from, to]` in ms from now. */
  pauses?: [number, number][];
  /** ms the player on move has left to make their first move before losing by default (a tournament's default time, 6.7.1). */
  default_in?: number;
}

/** The rule set a game is played under. */
export type Rules = 'fide' | 'fide2009' | 'iccf';

export interface Outcome {
  result: string;
  winner: Color | null;
  reason: string;
  reason_id: number;
  article: string;
}

export interface GameState {
  id: string;
  /** Absent from older servers: read as FIDE's. */
  rules?: Rules;
  mode: Mode;
  you: Seat;
  players: Record<Color, Player>;
  initial_fen: string;
  chess960: number | null;
  fen: string;
  ply: number;
  turn: Color;
  check: boolean;
  last_move: string | null;
  /** `offer`: a draw was offered with the move ((=), FIDE 9.1.2.1, ICCF 8.1.4). */
  moves: { uci: string; san: string; offer?: boolean }[];
  dests: Record<string, string[]>;
  clock: ClockState | null;
  offers: { draw: Color | null; takeback: Color | null; rematch: Color | null };
  claimable: { threefold: boolean; fifty: boolean };
  outcome: Outcome | null;
  aborted: boolean;
  rematch: string | null;
  /** Take-backs may be asked for (not in a rated or tournament game, nor under the ICCF rules). */
  casual?: boolean;
  /** The tournament the game belongs to (ICCF 14). */
  tournament?: string;
  /** The simul the game is a board of. */
  simul?: string;
  /** Who went berserk, in an arena's game only. */
  berserk?: { white: boolean; black: boolean };
  /** The director has stopped the clocks (6.10): no move until they start them again. */
  halted?: boolean;
  /** The director's decisions on the game, oldest first. */
  decisions?: StateDecision[];
}

/** What a move changes in the state, besides its list of moves. */
export type MovedState = Pick<
  GameState,
  'fen' | 'ply' | 'turn' | 'check' | 'last_move' | 'dests' | 'clock' | 'offers' | 'claimable' | 'outcome' | 'aborted' | 'rematch' | 'halted'
>;

export type ServerMessage =
  | { t: 'state'; state: GameState }
  | { t: 'move'; move: GameState['moves'][number]; state: MovedState }
  | { t: 'error'; code: string; message: string; ply?: number }
  | { t: 'rematch'; game: string; token: string }
  | { t: 'conditional'; color: Color; lines: string[] }
  | { t: 'pong' };

/** What the settings panel asks for (the body of `POST /api/games`). */
export interface NewGame {
  opponent: Mode;
  level?: number;
  color: Color | 'random';
  time_control: string;
  chess960: null | 'random' | number;
  casual: boolean;
}

export interface Created {
  game: string;
  color: Color | 'both';
  token: string;
  invite: string | null;
  links: Record<Color, string> | null;
}

export interface ControlReport {
  normalized: string;
  category: string;
}

/** An error answered by the server, with its code from the protocol. */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** An HTTP call to the server: JSON in and out; an error answer becomes an `ApiError` with its code (or the status when it has none). */
export async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(path, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    // not JSON: reported below
  }
  if (!res.ok) {
    const err = (json as { error?: { code?: string; message?: string } } | null)?.error;
    throw new ApiError(err?.code ?? String(res.status), err?.message ?? (text || res.statusText));
  }
  return json as T;
}

/** `POST /api/games`. */
export function createGame(game: NewGame): Promise<Created> {
  return call('POST', '/api/games', game);
}

/** `POST /api/invites/{invite}`: takes the free seat of a friend game. */
export function takeInvite(invite: string): Promise<{ game: string; token: string; color: Color }> {
  return call('POST', `/api/invites/${encodeURIComponent(invite)}`);
}

/** `GET /api/timecontrol?tc=…`: the control as the Laws read it. */
export function checkControl(tc: string): Promise<ControlReport> {
  return call('GET', `/api/timecontrol?tc=${encodeURIComponent(tc)}`);
}

/** The address of the game's PGN. */
export function pgnUrl(id: string): string {
  return `/api/games/${encodeURIComponent(id)}/pgn`;
}
