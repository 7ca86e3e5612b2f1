// A tournament's settings in words (its page and the list of events): the
// system, the start in the reader's time zone, the break, who may join,
// the tie-break order, where it stands.

import { formatMoment } from './correspondence';
import type { Tournament } from './director';
import { h, tx } from './dom';
import { Key, t } from './i18n';
import { tiebreakName } from './tntables';

/** "Swiss, 5 rounds (Baku acceleration)", "round robin", "double round robin", "knockout, 3 rounds", "arena, 60 minutes". */
export function systemText(d: Tournament): string {
  if (d.system === 'swiss') return t(d.baku ? 'tnSwissBaku' : 'tnSwiss', { n: d.rounds });
  if (d.system === 'knockout') return t('tnKnockout', { n: d.rounds });
  if (d.system === 'arena') return t('tnArena', { n: d.minutes ?? 0 });
  return t(d.double ? 'tnDoubleShown' : 'tnSingleShown');
}

/** When it starts: a moment in the reader's zone, or by the director. */
export function startText(d: Tournament): string {
  if (d.calledOff) return t('tnNeverBegan');
  if (d.started) return formatMoment(d.started);
  return d.startsAt ? formatMoment(d.startsAt) : t('tnStartsByDirector');
}

/** A break in minutes and seconds: "1 min 30 s", "45 s". */
export function breakText(secs: number): string {
  const m = Math.floor(secs / 60);
  const s = secs % 60;
  if (!m) return t('tnSeconds', { n: s });
  return s ? t('tnMinutesSeconds', { m, s }) : t('tnMinutes', { n: m });
}

/** Who may join, and on what conditions. */
export function entryText(d: Tournament): string {
  if (!d.entry.open) return t('tnEntryClosed');
  const parts = [t('tnEntryOpen')];
  const { minRating: low, maxRating: high, minAccountDays: days } = d.entry;
  if (low !== null && high !== null) parts.push(t('tnEntryRange', { low, high }));
  else if (low !== null) parts.push(t('tnEntryMin', { n: low }));
  else if (high !== null) parts.push(t('tnEntryMax', { n: high }));
  if (days) parts.push(t('tnEntryDays', { n: days }));
  return parts.join('; ');
}

/** Where it stands: "not started", "round 2 of 5", "round 2 of 5, the next pairing held", "finished". */
export function stateText(d: Tournament): string {
  if (d.calledOff) return d.calledOff.by === 'director' ? t('tnCalledOffBy', { reason: d.calledOff.reason }) : t('tnCalledOffFew');
  if (d.status === 'finished') return t('tnStatusFinished');
  if (d.status === 'created') return t('tnNotStarted');
  if (!d.byRound) return t('tnStarted');
  const at = t('tnRoundOf', { n: d.round, of: d.rounds });
  return d.paused ? t('tnRoundHeld', { round: at }) : at;
}

/** The settings of a live event as a description list's items. */
export function liveSettings(d: Tournament): HTMLElement[] {
  const item = (key: Key, value: string | HTMLElement, testid: string): HTMLElement[] => [tx('dt', key), h('dd', { 'data-testid': testid }, value)];
  const order = h('ol', { class: 'tn-tiebreaks' }, ...d.tiebreaks.map((code) => h('li', {}, `${tiebreakName(code)} (${code})`)));
  const rounds = d.system !== 'arena';
  return [
    ...item('tnSystem', systemText(d), 'tn-system'),
    ...item('timeControl', d.timeControl, 'tn-control'),
    ...item('tnRated', t(d.rated ? 'yes' : 'no'), 'tn-rated'),
    ...item('tnStartsAt', startText(d), 'tn-starts'),
    ...(rounds ? item('tnBreak', breakText(d.breakSecs), 'tn-break') : []),
    ...item('tnDefaultShown', d.defaultSecs ? t('tnDefaultSecs', { n: d.defaultSecs }) : t('tnDefaultNone'), 'tn-default'),
    ...item('tnEntry', entryText(d), 'tn-entry-shown'),
    ...(rounds ? item('tnTiebreakOrder', order, 'tn-tiebreak-order') : []),
    ...(d.system === 'swiss' ? item('tnMaxByes', String(d.maxByes), 'tn-max-byes') : []),
    ...item('tnDirectorShown', d.director, 'tn-director-name'),
    ...item('tnState', stateText(d), 'tn-started'),
  ];
}
