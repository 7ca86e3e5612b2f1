// The organiser's settings of a live event on the director's form (issue 18
// point 7): the system (round robin, single or double, a Swiss of N rounds
// with Baku acceleration, or a knockout of matches with tie-break stages
// and a match for third place, or an arena of N minutes), the start time,
// the break between rounds, open entry with a rating range and an account
// age, the tie-break order and the byes a player may ask for.

import type { NewTournament, Tournament } from './director';
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
  /** Shows the settings of `d` (a change of settings). */
  set(d: Tournament): void;
}

/** The live event's fields of the director's form; their test ids begin with `scope`. */
export function liveFields(scope: string): LiveFields {
  const input = (testid: string, type: string, attrs: Record<string, string | number> = {}): HTMLInputElement => h('input', { type, 'data-testid': testid, ...attrs });
  const check = (box: HTMLInputElement, key: Key): HTMLElement => h('label', { class: 'check' }, box, tx('span', key));
  const system = select(`${scope}-system-choice`, [['round_robin', 'tnSystemRoundRobin'], ['swiss', 'tnSystemSwiss'], ['knockout', 'tnSystemKnockout'], ['arena', 'tnSystemArena']], 'round_robin');
  const koGames = input(`${scope}-ko-games`, 'number', { min: 1, max: 20, value: 2 });
  const koStages = select(`${scope}-ko-tie-breaks`, Object.entries(KO_PRESETS).map(([v, p]) => [v, p.key]), 'world_cup');
  // A knockout's stages as they stand, when no preset gives them (a change of settings).
  let keptStages: NonNullable<NewTournament['knockout']>['tie_breaks'] | null = null;
  const koThird = input(`${scope}-ko-third`, 'checkbox');
  const koRows = h('div', { class: 'tn-group' }, row('koGamesField', koGames), row('koTieBreaksField', koStages), check(koThird, 'koThirdPlaceField'));
  const minutes = input(`${scope}-minutes`, 'number', { min: 5, max: 720, value: 60 });
  const arenaRows = h('div', { class: 'tn-group' }, row('arenaMinutesField', minutes));
  const rounds = input(`${scope}-rounds`, 'number', { min: 1, max: 50, value: 5 });
  const baku = input(`${scope}-baku`, 'checkbox');
  const swissRows = h('div', { class: 'tn-group' }, row('tnRoundsField', rounds), check(baku, 'tnBaku'));
  const startsAt = input(`${scope}-starts-at`, 'datetime-local');
  const breakMin = input(`${scope}-break`, 'number', { min: 0, max: 1440, step: 'any' });
  const breakRow = row('tnBreakField', breakMin);
  const open = input(`${scope}-open`, 'checkbox');
  const minRating = input(`${scope}-min-rating`, 'number', { min: 0, max: 4000 });
  const maxRating = input(`${scope}-max-rating`, 'number', { min: 0, max: 4000 });
  const days = input(`${scope}-min-days`, 'number', { min: 0, max: 3650 });
  const entryRows = h('div', { class: 'tn-group' }, row('tnMinRating', minRating), row('tnMaxRating', maxRating), row('tnMinDays', days));
  const slots = Array.from({ length: TIEBREAK_SLOTS }, (_, i) => {
    return select(`${scope}-tiebreak-${i + 1}`, [['', 'tnTiebreakNone'], ...Object.entries(TIEBREAKS)], '');
  });
  const tiebreaks = h(
    'fieldset',
    { class: 'tn-group', 'data-testid': `${scope}-tiebreaks` },
    tx('legend', 'tnTiebreakOrder'),
    tx('p', 'tnTiebreakHint', { class: 'hint' }),
    ...slots.map((s, i) => {
      s.id = `f-${scope}-tiebreak-${i + 1}`;
      return h('div', { class: 'row' }, h('label', { for: s.id }, t('tnTiebreakN', { n: i + 1 })), s);
    }),
  );
  const maxByes = input(`${scope}-max-byes`, 'number', { min: 0, max: 50, value: 0 });
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
        const stages = koStages.value === 'kept' && keptStages ? keptStages : KO_PRESETS[koStages.value].stages;
        body.knockout = { games, tie_breaks: stages, third_place: koThird.checked };
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
    set(d) {
      const text = (el: HTMLInputElement, v: number | null | undefined): void => void (el.value = v == null ? '' : String(v));
      system.value = d.system;
      text(rounds, d.system === 'swiss' ? d.rounds : 5);
      baku.checked = d.baku;
      text(minutes, d.minutes ?? 60);
      if (d.knockout) {
        text(koGames, d.knockout.games);
        koThird.checked = d.knockout.third_place;
        const same = Object.entries(KO_PRESETS).find(([, p]) => JSON.stringify(p.stages) === JSON.stringify(d.knockout!.tie_breaks));
        keptStages = same ? null : d.knockout.tie_breaks;
        koStages.querySelector('option[value="kept"]')?.remove();
        if (!same) koStages.append(h('option', { value: 'kept', 'data-i18n': 'koPresetKept' }, t('koPresetKept')));
        koStages.value = same ? same[0] : 'kept';
      }
      startsAt.value = d.startsAt ? localInput(d.startsAt) : '';
      text(breakMin, d.breakSecs / 60);
      open.checked = d.entry.open;
      text(minRating, d.entry.minRating);
      text(maxRating, d.entry.maxRating);
      text(days, d.entry.minAccountDays);
      slots.forEach((s, i) => (s.value = d.tiebreaks[i] ?? ''));
      text(maxByes, d.maxByes);
      follow();
    },
  };
}

/** Unix ms as a `datetime-local` input's value, in the page's time zone. */
export function localInput(ms: number): string {
  const d = new Date(ms);
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}T${two(d.getHours())}:${two(d.getMinutes())}`;
}

/** Every setting of an event on a form: the name, the time control, rated or not, the live fields, the correspondence terms. */
export interface SettingsFields {
  /** The fields, in the form's order. */
  fields: HTMLElement[];
  /** The body; a complaint and the field at fault instead when one is wrong. */
  body(): NewTournament | { text: string; field: HTMLElement };
  /** Shows the settings of `d`. */
  set(d: Tournament): void;
  /** The name's field (the first). */
  name: HTMLInputElement;
}

/** The settings of an event, for a new one (the director's page) or a change before its start (the event's page); the fields' test ids begin with `scope`. */
export function settingsFields(scope = 'tn'): SettingsFields {
  const input = (testid: string, type: string, attrs: Record<string, string | number> = {}): HTMLInputElement => h('input', { type, 'data-testid': testid, ...attrs });
  const check = (box: HTMLInputElement, key: Key): HTMLElement => h('label', { class: 'check' }, box, tx('span', key));
  const name = input(`${scope}-name`, 'text', { maxlength: 80 });
  const control = input(`${scope}-control`, 'text', { value: '10/40d' });
  const rated = input(`${scope}-rated`, 'checkbox', { checked: 'checked' });
  const double = input(`${scope}-double`, 'checkbox');
  const triple = input(`${scope}-triple`, 'checkbox');
  const draws = input(`${scope}-draws`, 'number', { min: 1 });
  const c960 = select(`${scope}-chess960`, [['off', 'off'], ['random', 'tnChess960Random'], ['each_game', 'tnChess960Each'], ['number', 'byNumber']], 'off');
  const number = input(`${scope}-chess960-number`, 'number', { min: 0, max: 959 });
  const silence = input(`${scope}-silence`, 'number', { min: 1, value: 14 });
  const defaultTime = input(`${scope}-default`, 'number', { min: 0, max: 3600, value: 60 });
  const defaultRow = row('tnDefaultField', defaultTime);
  const numberRow = row('tnChess960Number', number);
  const live = liveFields(scope);
  const doubleBox = check(double, 'tnDouble');
  live.showDouble(doubleBox);
  const tripleBox = check(triple, 'tnTripleBlock');
  const silenceRow = row('tnSilence', silence);
  // Triple Block and the days of silence are terms of correspondence play: shown for a control in days.
  const days = (): boolean => /\dd/.test(control.value);
  const follow = (): void => {
    numberRow.hidden = c960.value !== 'number';
    tripleBox.hidden = silenceRow.hidden = !days();
    defaultRow.hidden = days();
  };
  c960.addEventListener('change', follow);
  control.addEventListener('input', follow);
  follow();
  // The rules as set, kept while the control is (the form offers the default of each kind of control).
  let kept: { control: string; rules: string } | null = null;
  return {
    name,
    fields: [row('tnName', name), row('timeControl', control), check(rated, 'tnRated'), ...live.system, doubleBox, ...live.rest, defaultRow, tripleBox, row('tnDrawsFrom', draws), row('chess960', c960), numberRow, silenceRow],
    body() {
      if (!name.value.trim()) return { text: t('tnNameMissing'), field: name };
      if (!control.value.trim()) return { text: t('invalidControl'), field: control };
      if (c960.value === 'number' && !/^\d+$/.test(number.value)) return { text: t('tnChess960Bad'), field: number };
      const body: NewTournament = {
        name: name.value.trim(),
        time_control: control.value.trim(),
        rated: rated.checked,
        double: double.checked,
        triple_block: days() && triple.checked,
        draws_from_move: draws.value ? Number(draws.value) : null,
        chess960: c960.value === 'off' ? null : c960.value === 'number' ? Number(number.value) : (c960.value as 'random' | 'each_game'),
      };
      if (kept && kept.control === body.time_control) body.rules = kept.rules;
      const wrong = live.fill(body);
      if (wrong) return wrong;
      if (days() && silence.value) body.silence_days = Number(silence.value);
      if (!days() && defaultTime.value.trim() !== '') {
        const n = Number(defaultTime.value);
        if (!Number.isInteger(n) || (n !== 0 && (n < 10 || n > 3600))) return { text: t('tnDefaultBad'), field: defaultTime };
        body.default_secs = n;
      }
      return body;
    },
    set(d) {
      name.value = d.name;
      control.value = d.timeControl;
      kept = { control: d.timeControl, rules: d.rules };
      rated.checked = d.rated;
      double.checked = d.double;
      triple.checked = d.tripleBlock;
      draws.value = d.drawsFromMove === null ? '' : String(d.drawsFromMove);
      c960.value = d.chess960 === null ? 'off' : d.chess960 === 'each_game' ? 'each_game' : 'number';
      number.value = typeof d.chess960 === 'number' ? String(d.chess960) : '';
      silence.value = String(d.silenceDays);
      defaultTime.value = String(d.defaultSecs ?? 0);
      live.set(d);
      follow();
    },
  };
}
