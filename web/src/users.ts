// The accounts and profiles the server keeps, as the page reads them: who
// is signed in (`/api/auth/*`, the page's own shapes) and a player's
// profile, rating history, games and a game's replay (lichess's shapes).

import { ApiError, call, Color } from './protocol';

/** Who is signed in (`GET /api/auth/me`). */
export interface Me {
  name: string;
  bot: boolean;
}

/** `GET /api/auth/me`: the account of this browser's session, or null. */
export async function whoAmI(): Promise<Me | null> {
  try {
    return await call<Me>('GET', '/api/auth/me');
  } catch (e) {
    if (e instanceof ApiError && (e.code === 'unauthorized' || e.code === '401')) return null;
    throw e;
  }
}

/** `POST /api/auth/signup`: makes an account and signs it in. */
export function signUp(name: string, password: string): Promise<Me> {
  return call('POST', '/api/auth/signup', { name, password });
}

/** `POST /api/auth/signin`. */
export function signIn(name: string, password: string): Promise<Me> {
  return call('POST', '/api/auth/signin', { name, password });
}

/** `POST /api/auth/signout`. */
export async function signOut(): Promise<void> {
  await call('POST', '/api/auth/signout', {});
}

/** `POST /api/auth/password`: a new password (other sessions end). */
export async function changePassword(current: string, next: string): Promise<void> {
  await call('POST', '/api/auth/password', { current, new: next });
}

/** A user name the server accepts: 2–20 of `[A-Za-z0-9_-]`. */
export const NAME_RULE = /^[A-Za-z0-9_-]{2,20}$/;

/** The rating categories, in lichess's order. */
export const PERFS = ['ultraBullet', 'bullet', 'blitz', 'rapid', 'classical', 'correspondence', 'chess960'] as const;
export type Perf = (typeof PERFS)[number];

/** One category's rating. */
export interface PerfRating {
  games: number;
  rating: number;
  rd: number;
  prog: number;
  prov?: boolean;
}

/** `GET /api/user/{name}`. */
export interface UserProfile {
  id: string;
  username: string;
  title?: string;
  createdAt: number;
  seenAt?: number;
  perfs: Partial<Record<Perf, PerfRating>>;
  count: { all: number; rated: number; win: number; loss: number; draw: number };
}

/** One category's ratings over time, oldest first: `[year, month 0–11, day, rating]`. */
export interface RatingHistory {
  name: string;
  points: [number, number, number, number][];
}

/** A player in a game: an account, the robot, or nobody signed in. */
export interface GamePlayer {
  user?: { name: string; id: string };
  rating?: number;
  ratingDiff?: number;
  provisional?: boolean;
  aiLevel?: number;
}

/** A game as `GET /api/games/user/{name}` lists it. */
export interface GameSummary {
  id: string;
  rated: boolean;
  variant: string;
  speed: string;
  perf: string;
  fideCategory?: string;
  createdAt: number;
  lastMoveAt: number;
  status: string;
  players: Record<Color, GamePlayer>;
  winner?: Color;
  moves: string;
  clock?: { initial: number; increment: number; totalTime: number };
}

/** One half-move of a replay and the position after it. */
export interface ReplayMove {
  san: string;
  uci: string;
  fen: string;
}

/** `GET /api/games/{id}/replay`. */
export interface Replay {
  id: string;
  initialFen: string;
  moves: ReplayMove[];
  result: string;
  white: string | null;
  black: string | null;
}

const user = (name: string) => `/api/user/${encodeURIComponent(name)}`;

/** `GET /api/user/{name}`. */
export function fetchUser(name: string): Promise<UserProfile> {
  return call('GET', user(name));
}

/** `GET /api/user/{name}/rating-history`. */
export function fetchRatingHistory(name: string): Promise<RatingHistory[]> {
  return call('GET', `${user(name)}/rating-history`);
}

/** What the game list is narrowed to. */
export interface GameFilter {
  result: '' | 'win' | 'loss' | 'draw';
  perf: '' | Perf;
}

/** `GET /api/games/user/{name}` (NDJSON): up to `max` games, newest first, older than `until` when given. */
export async function fetchGames(name: string, filter: GameFilter, max: number, until: number | null): Promise<GameSummary[]> {
  const q = new URLSearchParams({ max: String(max) });
  if (until !== null) q.set('until', String(until));
  if (filter.perf) q.set('perfType', filter.perf);
  if (filter.result) q.set('result', filter.result);
  const res = await fetch(`/api/games/user/${encodeURIComponent(name)}?${q}`, { headers: { accept: 'application/x-ndjson' } });
  const text = await res.text();
  if (!res.ok) throw new ApiError(res.status === 404 ? 'not_found' : String(res.status), text);
  return text
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as GameSummary);
}

/** `GET /api/games/{id}/replay`. */
export function fetchReplay(id: string): Promise<Replay> {
  return call('GET', `/api/games/${encodeURIComponent(id)}/replay`);
}

/** The address of a game's PGN (lichess's export path). */
export function exportUrl(id: string): string {
  return `/game/export/${encodeURIComponent(id)}`;
}

/** The address of a player's profile. */
export function profileUrl(name: string): string {
  return `/@/${encodeURIComponent(name)}`;
}
