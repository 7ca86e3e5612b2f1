// The organiser's settings of a live event on the director's form (issue 18
// point 7): the system (round robin, single or double, a Swiss of N rounds
// with Baku acceleration, or a knockout of matches with tie-break stages
// and a match for third place, or an arena of N minutes), the start time,
// the break between rounds, open entry with a rating range and an account
// age, the tie-break order and the byes a player may ask for.

import type { NewTournament } from './director';
import { h, row, select, tx } from './dom';
import { Key, t } from './i18n';
import { TIEBREAKS } from './tntables';

/** How many tie-breaks the form offers to order. */
const TIEBREAK_SLOTS = 4;

/** A knockout match's tie-break stages, as the form offers them. */
const KO_PRESETS: Record<string, { key: Key; stages: NonNullable<NewTournament['knockout']>['tie_breaks'] }> = {
  world_cup: {
    key: 'koPresetWorldCup',
    stages: [
      { kind: 'rapid', games: 2, time_control: '10+10' },
      { kind: 'blitz', games: 2, time_control: '5+3' },
      { kind: 'armageddon', time_control: '5+3' },
    ],
  },
  armageddon: { key: 'koPresetArmageddon', stages: [{ kind: 'armageddon', time_control: '5+3' }] },
  sudden_death: { key: 'koPresetSuddenDeath', stages: [{ kind: 'blitz', games: 1, time_control: '3+2', until_decided: true }] },
};

/** The fields and what they add to the body. */
export interface LiveFields {
  /** The system's fields (after the name and time control). */
  system: HTMLElement[];
  /** The start, the break, the entry, the tie-breaks, the byes. */
  rest: HTMLElement[];
  /** The double round robin box, shown for a round robin only. */
  showDouble(box: HTMLElement): void;
  /** Adds the fields to `body`; a complaint and the field at fault, or null. */
  fill(body: NewTournament): { text: string; field: HTMLElement } | null;
}

/** The live event's fields of the director's form. */
export function liveFields(): LiveFields {
  const input = (testid: string, type: string, attrs: Record<string, string | number> = {}): HTMLInputElement => h('input', { type, 'data-testid': testid, ...attrs });
  const check = (box: HTMLInputElement, key: Key): HTMLElement => h('label', { class: 'check' }, box, tx('span', key));
  const system = select('tn-system-choice', [['round_robin', 'tnSystemRoundRobin'], ['swiss', 'tnSystemSwiss'], ['knockout', 'tnSystemKnockout'], ['arena', 'tnSystemArena']], 'round_robin');
  const koGames = input('tn-ko-games', 'number', { min: 1, max: 20, value: 2 });
  const koStages = select('tn-ko-tie-breaks', Object.entries(KO_PRESETS).map(([v, p]) => [v, p.key]), 'world_cup');
  const koThird = input('tn-ko-third', 'checkbox');
  const koRows = h('div', { class: 'tn-group' }, row('koGamesField', koGames), row('koTieBreaksField', koStages), check(koThird, 'koThirdPlaceField'));
  const minutes = input('tn-minutes', 'number', { min: 5, max: 720, value: 60 });
  const arenaRows = h('div', { class: 'tn-group' }, row('arenaMinutesField', minutes));
  const rounds = input('tn-rounds', 'number', { min: 1, max: 50, value: 5 });
  const baku = input('tn-baku', 'checkbox');
  const swissRows = h('div', { class: 'tn-group' }, row('tnRoundsField', rounds), check(baku, 'tnBaku'));
  const startsAt = input('tn-starts-at', 'datetime-local');
  const breakMin = input('tn-break', 'number', { min: 0, max: 1440, step: 'any' });
  const breakRow = row('tnBreakField', breakMin);
  const open = input('tn-open', 'checkbox');
  const minRating = input('tn-min-rating', 'number', { min: 0, max: 4000 });
  const maxRating = input('tn-max-rating', 'number', { min: 0, max: 4000 });
  const days = input('tn-min-days', 'number', { min: 0, max: 3650 });
  const entryRows = h('div', { class: 'tn-group' }, row('tnMinRating', minRating), row('tnMaxRating', maxRating), row('tnMinDays', days));
  const slots = Array.from({ length: TIEBREAK_SLOTS }, (_, i) => {
    return select(`tn-tiebreak-${i + 1}`, [['', 'tnTiebreakNone'], ...Object.entries(TIEBREAKS)], '');
  });
  const tiebreaks = h(
    'fieldset',
    { class: 'tn-group', 'data-testid': 'tn-tiebreaks' },
    tx('legend', 'tnTiebreakOrder'),
    tx('p', 'tnTiebreakHint', { class: 'hint' }),
    ...slots.map((s, i) => {
      s.id = `f-tn-tiebreak-${i + 1}`;
      return h('div', { class: 'row' }, h('label', { for: s.id }, t('tnTiebreakN', { n: i + 1 })), s);
    }),
  );
  const maxByes = input('tn-max-byes', 'number', { min: 0, max: 50, value: 0 });
  const byesRow = row('tnMaxByes', maxByes);
  let doubleBox: HTMLElement | null = null;
  const follow = (): void => {
    const swiss = system.value === 'swiss';
    const knockout = system.value === 'knockout';
    const arena = system.value === 'arena';
    swissRows.hidden = !swiss;
    byesRow.hidden = !swiss;
    koRows.hidden = !knockout;
    arenaRows.hidden = !arena;
    breakRow.hidden = arena;
    tiebreaks.hidden = knockout || arena;
    if (doubleBox) doubleBox.hidden = swiss || knockout || arena;
    entryRows.hidden = !open.checked;
  };
  system.addEventListener('change', follow);
  open.addEventListener('change', follow);
  follow();
  const whole = (el: HTMLInputElement): number | null => (el.value.trim() === '' ? null : Number(el.value));
  return {
    system: [row('tnSystem', system), swissRows, koRows, arenaRows],
    rest: [row('tnStartsAtField', startsAt), tx('p', 'tnStartsAtHint', { class: 'hint' }), breakRow, check(open, 'tnOpenEntry'), entryRows, tiebreaks, byesRow],
    showDouble(box) {
      doubleBox = box;
      follow();
    },
    fill(body) {
      if (system.value === 'swiss') {
        const n = whole(rounds);
        if (n === null || !Number.isInteger(n) || n < 1) return { text: t('tnRoundsBad'), field: rounds };
        body.system = 'swiss';
        body.rounds = n;
        body.baku = baku.checked;
        body.double = false;
        const byes = whole(maxByes);
        if (byes) body.max_byes = byes;
      }
      if (system.value === 'knockout') {
        const games = whole(koGames);
        if (games === null || !Number.isInteger(games) || games < 1 || games > 20) return { text: t('koGamesBad'), field: koGames };
        body.system = 'knockout';
        body.double = false;
        body.knockout = { games, tie_breaks: KO_PRESETS[koStages.value].stages, third_place: koThird.checked };
      }
      if (system.value === 'arena') {
        const n = whole(minutes);
        if (n === null || !Number.isInteger(n) || n < 5 || n > 720) return { text: t('arenaMinutesBad'), field: minutes };
        body.system = 'arena';
        body.minutes = n;
        body.double = false;
      }
      if (startsAt.value) {
        const at = new Date(startsAt.value).getTime();
        if (!Number.isFinite(at) || at <= Date.now()) return { text: t('tnStartsAtBad'), field: startsAt };
        body.starts_at = at;
      }
      const pause = system.value === 'arena' ? null : whole(breakMin);
      if (pause !== null) {
        if (!(pause >= 0)) return { text: t('tnBreakBad'), field: breakMin };
        body.break_secs = Math.round(pause * 60);
      }
      if (open.checked) {
        body.entry = { open: true };
        const low = whole(minRating);
        const high = whole(maxRating);
        const age = whole(days);
        if (low !== null) body.entry.min_rating = low;
        if (high !== null) body.entry.max_rating = high;
        if (age !== null) body.entry.min_account_days = age;
      }
      const order = slots.map((s) => s.value).filter(Boolean);
      const twice = slots.find((s, i) => s.value && slots.slice(0, i).some((o) => o.value === s.value));
      if (twice) return { text: t('tnTiebreakTwice'), field: twice };
      if (order.length && system.value !== 'knockout' && system.value !== 'arena') body.tiebreaks = order;
      return null;
    },
  };
}
