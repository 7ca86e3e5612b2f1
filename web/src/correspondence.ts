// Correspondence chess on the page (the ICCF rules): time left counted in
// days and hours, deadlines as dates in the player's own time zone, booked
// leave in words (a game's private notes are in notes.ts).

import { lang, t } from './i18n';
import type { ClockState, GameState } from './protocol';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** True for a game whose clock counts days (the ICCF rules apply to it by default). */
export function isCorrespondence(s: GameState): boolean {
  return s.clock?.category === 'correspondence';
}

/** Time left as a correspondence player reads it: "12 d 5 h", below a day "5 h 12 min", below an hour "12 min 5 s". */
export function formatDays(ms: number): string {
  const left = Math.max(0, ms);
  if (left >= DAY) return t('daysHours', { d: Math.floor(left / DAY), h: Math.floor((left % DAY) / HOUR) });
  if (left >= HOUR) return t('hoursMinutes', { h: Math.floor(left / HOUR), m: Math.floor((left % HOUR) / 60_000) });
  return t('minutesSeconds', { m: Math.floor(left / 60_000), s: Math.floor((left % 60_000) / 1000) });
}

/** A moment as a date and time in the reader's time zone and language: "Fri, 28 Nov 2026, 10:00 CET". */
export function formatMoment(at: number): string {
  return new Intl.DateTimeFormat(lang(), {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
  }).format(new Date(at));
}

/** A day of leave (`YYYY-MM-DD`, a UTC day) as a date in the reader's language: "1 Dec 2026". */
export function formatDay(day: string): string {
  return new Intl.DateTimeFormat(lang(), { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${day}T00:00:00Z`));
}

/**
 * The clock's times for the page: the flag's moment and the booked pauses
 * taken from "ms from now" to moments (`Date.now()` based), when the state
 * arrived.
 */
export interface Deadlines {
  /** When the running flag falls if nobody moves, or null. */
  flagAt: number | null;
  /** Booked stops of both clocks, as moments. */
  pauses: [number, number][];
}

/** The deadlines of `clock` as of now. */
export function deadlinesOf(clock: ClockState | null): Deadlines {
  const now = Date.now();
  return {
    flagAt: clock?.flag_in === null || clock?.flag_in === undefined ? null : now + clock.flag_in,
    pauses: (clock?.pauses ?? []).map(([from, to]): [number, number] => [now + from, now + to]),
  };
}

/** The deadline line: whose move, until when. */
export function deadlineText(s: GameState, d: Deadlines): string {
  if (d.flagAt === null || !s.clock?.running) return '';
  const mine = s.you === s.clock.running || s.you === 'both';
  return mine ? t('deadlineYours', { date: formatMoment(d.flagAt) }) : t('deadlineOf', { color: t(s.clock.running), date: formatMoment(d.flagAt) });
}

/** The leave line: "On leave until …" while a pause runs, else the next booked one. */
export function leaveText(d: Deadlines): string {
  const now = Date.now();
  const current = d.pauses.find(([from, to]) => from <= now + 1000 && to > now);
  if (current) return t('onLeaveUntil', { date: formatMoment(current[1]) });
  // Leave is booked in whole UTC days: the last day is the one before the clocks start again.
  const next = d.pauses.filter(([from]) => from > now).sort((a, b) => a[0] - b[0])[0];
  const day = (at: number): string => new Date(at).toISOString().slice(0, 10);
  return next ? t('leaveBooked', { from: formatDay(day(next[0])), to: formatDay(day(next[1] - 1)) }) : '';
}
