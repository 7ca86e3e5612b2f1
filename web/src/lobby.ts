// The account socket (`GET /ws/lobby`) and what it keeps: who is signed in
// (its `hello`), the lobby's open seeks, one's challenges in and out, one's
// open games ("your move" first), and the news; the HTTP calls that answer
// challenges and take seeks. One socket for the whole page, kept across the
// page's own navigation; the seeks it opens close with it.

import { call, Color } from './protocol';
import { openSocket } from './socket';
import type { Me } from './users';

/** An open seek of the lobby. */
export interface Seek {
  id: string;
  user: { name: string; rating: number | null; provisional: boolean; title: string | null };
  time_control: string;
  perf: string;
  rated: boolean;
  color: Color | 'random';
  chess960: boolean;
  rating_range: [number, number] | null;
}

/** A player in a challenge (lichess's shape). */
export interface ChallengePlayer {
  id: string;
  name: string;
  rating?: number;
  provisional?: boolean;
  title?: string;
}

/** A challenge (lichess's shape). */
export interface Challenge {
  id: string;
  challenger: ChallengePlayer;
  destUser: ChallengePlayer;
  variant: { key: string };
  rated: boolean;
  speed: string;
  timeControl: { type: string; show?: string; daysPerTurn?: number };
  color: Color | 'random';
  finalColor: Color;
  perf: { name: string };
  declineReasonKey?: string;
}

/** One of one's unfinished games. */
export interface OpenGame {
  gameId: string;
  color: Color;
  isMyTurn: boolean;
  opponent: { username: string; rating?: number; ai?: number };
  perf: string;
  speed: string;
  rated: boolean;
  url: string;
  timeControl: string;
  /** The player's own time left when the list was made, in seconds. */
  secondsLeft?: number | null;
  /** When the running flag falls if nobody moves (Unix ms; booked leave included). */
  deadline?: number | null;
  /** The position now (FEN). */
  fen?: string;
  /** The rule set (`iccf` for a correspondence game by default). */
  rules?: string;
}

/** A correspondence notice (notify/mod.rs's `Notice`). */
export type Notice =
  | { kind: 'your_move' | 'draw_offered' | 'time_low'; opponent: string; deadline?: number | null }
  | { kind: 'decision'; director: string; act: string; reason: string }
  | { kind: 'answered'; director: string; answer: string }
  | { kind: 'leave'; player: string; from: number; to: number }
  | { kind: 'tournament_soon'; tournament: string; name: string; starts_at: number };

/** A piece of lichess's event stream. */
export interface News {
  type: string;
  challenge?: Challenge;
  game?: { gameId: string };
  gameId?: string;
  /** A correspondence notice (`type: 'notice'`). */
  notice?: Notice;
}

/** What the socket says. */
export type LobbyMessage =
  | { t: 'hello'; me: Me | null }
  | { t: 'seeks'; seeks: Seek[] }
  | { t: 'challenges'; in: Challenge[]; out: Challenge[] }
  | { t: 'games'; games: OpenGame[] }
  | { t: 'news'; news: News }
  | { t: 'game'; game: string; color: Color; url: string }
  | { t: 'seek_ok'; id: string }
  | { t: 'pong' }
  | { t: 'error'; code: string; message: string };

/** What a new seek asks for. */
export interface SeekTerms {
  time_control: string;
  rated: boolean;
  color: Color | 'random';
  chess960: boolean;
  rating_range?: [number, number];
}

/** The terms a seek was opened with, to open it again. */
export function termsOf(seek: Seek): SeekTerms {
  const terms: SeekTerms = { time_control: seek.time_control, rated: seek.rated, color: seek.color, chess960: seek.chess960 };
  if (seek.rating_range) terms.rating_range = seek.rating_range;
  return terms;
}

/** The link to one's seat in a new game. */
export interface SeatLink {
  game: string;
  color: Color;
  url: string;
}

/** The reasons lichess gives for declining a challenge. */
export const DECLINE_REASONS = ['generic', 'later', 'tooFast', 'tooSlow', 'timeControl', 'rated', 'casual', 'standard', 'variant', 'noBot', 'onlyBot'] as const;
export type DeclineReason = (typeof DECLINE_REASONS)[number];

/** How long after the last seek or challenge of one's own a new game is still taken as its answer. */
const INTENT_MS = 15_000;

/** The account socket and the state it keeps. */
export class Lobby {
  me: Me | null = null;
  /** True once the socket said who is signed in. */
  known = false;
  seeks: Seek[] = [];
  incoming: Challenge[] = [];
  outgoing: Challenge[] = [];
  games: OpenGame[] = [];
  /** When the games list came (`Date.now()`): the moment its times are counted from. */
  gamesAt = 0;
  /** The seeks this socket opened and that are still open. */
  readonly mine = new Set<string>();
  /** One's seeks that closed with a socket that broke (its server went away), to open again on the next. */
  private lost: SeekTerms[] = [];
  private ws: WebSocket | null = null;
  private retry = 500;
  private pinger = 0;
  private readonly listeners = new Set<(msg: LobbyMessage) => void>();
  /** When one last had a seek or challenge open, or accepted one. */
  private intent = 0;
  private accepting = false;

  constructor() {
    this.open();
  }

  /** Calls `fn` with every message, after the state took it in; returns the unsubscription. */
  on(fn: (msg: LobbyMessage) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** True when `name` is the signed-in player. */
  isMe(name: string): boolean {
    return this.me !== null && this.me.name.toLowerCase() === name.toLowerCase();
  }

  /** True when a new game is the answer to a seek or challenge of one's own (so the page goes there). */
  expecting(): boolean {
    this.noteIntent();
    return Date.now() - this.intent < INTENT_MS;
  }

  /** Opens a seek (the answer is `seek_ok` or `error`). */
  seek(terms: SeekTerms): void {
    this.send({ t: 'seek', ...terms });
  }

  /** Withdraws seek `id`. */
  cancel(id: string): void {
    this.send({ t: 'cancel', id });
    this.mine.delete(id);
  }

  /** Takes seek `id`; the link to one's seat. */
  acceptSeek(id: string): Promise<SeatLink> {
    return this.accepted(call('POST', `/api/lobby/seeks/${encodeURIComponent(id)}/accept`));
  }

  /** Challenges `name`. */
  challenge(name: string, terms: Omit<SeekTerms, 'rating_range'>): Promise<Challenge> {
    this.intent = Date.now();
    return call('POST', `/api/account/challenge/${encodeURIComponent(name)}`, terms);
  }

  /** Accepts challenge `id`; the link to one's seat. */
  acceptChallenge(id: string): Promise<SeatLink> {
    return this.accepted(call('POST', `/api/account/challenge/${encodeURIComponent(id)}/accept`));
  }

  /** Declines challenge `id` with `reason`. */
  async decline(id: string, reason: DeclineReason): Promise<void> {
    await call('POST', `/api/account/challenge/${encodeURIComponent(id)}/decline`, { reason });
  }

  /** Withdraws one's challenge `id`. */
  async cancelChallenge(id: string): Promise<void> {
    await call('POST', `/api/account/challenge/${encodeURIComponent(id)}/cancel`);
  }

  /** Opens the socket again (after signing in or out: the session it was opened with changed). */
  reconnect(): void {
    const old = this.ws;
    this.ws = null;
    if (old) {
      old.onclose = null;
      old.onmessage = null;
      old.close();
    }
    clearInterval(this.pinger);
    this.mine.clear();
    this.lost = [];
    this.open();
  }

  private async accepted(answer: Promise<SeatLink>): Promise<SeatLink> {
    this.accepting = true;
    this.intent = Date.now();
    try {
      return await answer;
    } finally {
      this.accepting = false;
      this.intent = Date.now();
    }
  }

  /** Keeps the time of the last intent while one is open. */
  private noteIntent(): void {
    if (this.mine.size || this.outgoing.length || this.accepting) this.intent = Date.now();
  }

  private send(msg: Record<string, unknown>): void {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(msg));
    else this.emit({ t: 'error', code: 'disconnected', message: 'not connected' });
  }

  private emit(msg: LobbyMessage): void {
    for (const fn of [...this.listeners]) fn(msg);
  }

  private open(): void {
    const ws = openSocket('/ws/lobby');
    if (!ws) return;
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 500;
      clearInterval(this.pinger);
      this.pinger = window.setInterval(() => this.send({ t: 'ping' }), 25_000);
    };
    ws.onmessage = (ev) => {
      let msg: LobbyMessage;
      try {
        msg = JSON.parse(String(ev.data)) as LobbyMessage;
      } catch (e) {
        console.error('bad message from server', e);
        return;
      }
      this.take(msg);
      this.emit(msg);
    };
    ws.onclose = () => {
      clearInterval(this.pinger);
      if (this.ws !== ws) return;
      // The server closes a socket's seeks with it: they are opened again on the next socket.
      this.lost = this.seeks.filter((seek) => this.mine.has(seek.id)).map(termsOf);
      this.mine.clear();
      window.setTimeout(() => {
        if (this.ws === ws) this.open();
      }, this.retry);
      this.retry = Math.min(this.retry * 2, 8000);
    };
  }

  /** Takes a message into the state. */
  private take(msg: LobbyMessage): void {
    this.noteIntent();
    switch (msg.t) {
      case 'hello': {
        this.me = msg.me;
        this.known = true;
        if (!msg.me) {
          this.incoming = [];
          this.outgoing = [];
          this.games = [];
        }
        const again = msg.me ? this.lost : [];
        this.lost = [];
        for (const terms of again) this.send({ t: 'seek', ...terms });
        break;
      }
      case 'seeks': {
        this.seeks = msg.seeks;
        const open = new Set(msg.seeks.map((s) => s.id));
        for (const id of [...this.mine]) if (!open.has(id)) this.mine.delete(id);
        break;
      }
      case 'seek_ok':
        this.mine.add(msg.id);
        this.intent = Date.now();
        break;
      case 'challenges':
        this.incoming = msg.in;
        this.outgoing = msg.out;
        break;
      case 'games':
        this.games = msg.games;
        this.gamesAt = Date.now();
        break;
      default:
        break;
    }
  }
}
