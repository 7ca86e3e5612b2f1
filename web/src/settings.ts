// The one settings panel: opponent, colour, time control, Chess960; then Play.

import { h, row, select, tx } from './dom';
import { isKey, LANG_CHANGED, t } from './i18n';
import { errorText } from './outcome';
import { ApiError, checkControl, GameState, NewGame } from './protocol';

/** The time-control presets of the issue; `-` is no clock. */
export const PRESETS = ['1+0', '3+2', '5+0', '10+5', '15+10', '90+30', '40/90+30, 30+30', '-'];

const KEY = 'rochade.settings';

/** The settings used last, or the defaults. */
export function savedSettings(): NewGame {
  const defaults: NewGame = {
    opponent: 'robot',
    level: 1,
    color: 'white',
    time_control: '5+0',
    chess960: null,
    casual: true,
  };
  try {
    return { ...defaults, ...(JSON.parse(localStorage.getItem(KEY) ?? '{}') as Partial<NewGame>) };
  } catch {
    return defaults;
  }
}

/** Remembers the settings of the game just created. */
export function saveSettings(s: NewGame): void {
  localStorage.setItem(KEY, JSON.stringify(s));
}

/** The settings panel and what it holds now. */
export interface SettingsPanel {
  el: HTMLElement;
  /** The chosen settings, or null while the time control is not accepted. */
  current(): NewGame | null;
}

/**
 * Builds the panel; `onPlay` gets the chosen settings once the time control
 * is accepted; `onChange` hears of every change (null while not valid).
 */
export function settingsPanel(
  onPlay: (s: NewGame) => Promise<void>,
  onChange: (s: NewGame | null) => void,
): SettingsPanel {
  const s = savedSettings();
  const opponent = select(
    'opponent',
    [
      ['robot', 'robot'],
      ['local', 'local'],
      ['friend', 'friend'],
    ],
    s.opponent,
  );
  const level = select(
    'level',
    [1, 2, 3, 4, 5, 6, 7, 8].map((n) => [String(n), `=${n}`]),
    String(s.level ?? 1),
  );
  const levelRow = row('level', level);
  const color = select(
    'color',
    [
      ['white', 'white'],
      ['black', 'black'],
      ['random', 'random'],
    ],
    s.color,
  );
  const colorRow = row('color', color);
  const isPreset = PRESETS.includes(s.time_control);
  const tc = select(
    'time-control',
    [...PRESETS.map((p): [string, string] => [p, p === '-' ? 'noClock' : `=${p}`]), ['custom', 'custom']],
    isPreset ? s.time_control : 'custom',
  );
  const custom = h('input', {
    'data-testid': 'custom-control',
    type: 'text',
    'data-i18n-placeholder': 'customHint',
    placeholder: t('customHint'),
    value: isPreset ? '' : s.time_control,
    autocomplete: 'off',
  });
  const category = h('output', { 'data-testid': 'category', class: 'category', 'aria-live': 'polite' });
  const c960 = select(
    'chess960',
    [
      ['off', 'off'],
      ['random', 'random'],
      ['number', 'byNumber'],
    ],
    s.chess960 === null ? 'off' : s.chess960 === 'random' ? 'random' : 'number',
  );
  const c960n = h('input', {
    'data-testid': 'chess960-number',
    type: 'number',
    'data-i18n-label': 'chess960Number',
    'aria-label': t('chess960Number'),
    min: 0,
    max: 959,
    value: typeof s.chess960 === 'number' ? s.chess960 : 518,
  });
  const play = tx('button', 'play', { 'data-testid': 'play', class: 'primary', type: 'submit' });
  const form = h(
    'form',
    { class: 'panel settings', 'data-testid': 'settings' },
    tx('h2', 'newGame'),
    row('opponent', opponent),
    levelRow,
    colorRow,
    row('timeControl', tc),
    custom,
    category,
    row('chess960', c960),
    c960n,
    play,
  );

  const control = (): string => (tc.value === 'custom' ? custom.value.trim() : tc.value);
  let valid = false;
  let asked = 0;
  // A preset is valid as it stands (the server's answer only adds its
  // category); a custom control is valid once the server has read it.
  const validate = async (): Promise<void> => {
    const tcText = control();
    const preset = tc.value !== 'custom';
    const n = ++asked;
    valid = preset;
    play.disabled = !valid;
    category.classList.remove('bad');
    delete category.dataset.category;
    onChange(current());
    if (tcText === '-') {
      category.dataset.i18n = 'noClock';
      category.textContent = t('noClock');
      return;
    }
    delete category.dataset.i18n;
    category.textContent = tcText ? t('checking') : '';
    if (!tcText) return;
    try {
      const report = await checkControl(tcText);
      if (n !== asked) return;
      const cat = isKey(report.category) ? t(report.category) : report.category;
      category.textContent = `${report.normalized} — ${cat}`;
      category.dataset.category = report.category;
      valid = true;
    } catch (e) {
      if (n !== asked) return;
      if (preset) category.textContent = tcText;
      else {
        category.classList.add('bad');
        // The server's reason is English: the page says it in its own words.
        category.textContent = e instanceof ApiError && e.code !== 'bad_request' ? errorText(e.code) : t('invalidControl');
      }
    }
    play.disabled = !valid;
    onChange(current());
  };
  let debounce = 0;
  const layout = (): void => {
    levelRow.hidden = opponent.value !== 'robot';
    colorRow.hidden = opponent.value === 'local';
    custom.hidden = tc.value !== 'custom';
    c960n.hidden = c960.value !== 'number';
  };
  opponent.addEventListener('change', layout);
  c960.addEventListener('change', layout);
  tc.addEventListener('change', () => {
    layout();
    void validate();
  });
  custom.addEventListener('input', () => {
    clearTimeout(debounce);
    debounce = window.setTimeout(() => void validate(), 250);
  });
  const chosen = (): NewGame => {
    const c: NewGame = {
      opponent: opponent.value as NewGame['opponent'],
      color: color.value as NewGame['color'],
      time_control: control(),
      chess960: c960.value === 'off' ? null : c960.value === 'random' ? 'random' : clamp960(c960n.value),
      casual: true,
    };
    if (c.opponent === 'robot') c.level = Number(level.value);
    return c;
  };
  const current = (): NewGame | null => (valid ? chosen() : null);
  form.addEventListener('change', () => onChange(current()));
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    if (!valid) return;
    play.disabled = true;
    onPlay(chosen())
      .catch((e: unknown) => {
        category.classList.add('bad');
        category.textContent = errorText(e instanceof ApiError ? e.code : 'unknown');
      })
      .finally(() => {
        play.disabled = !valid;
      });
  });
  // The category is written in words of the language: write it again when the language changes.
  const relabel = (): void => {
    if (form.isConnected) void validate();
    else document.removeEventListener(LANG_CHANGED, relabel);
  };
  document.addEventListener(LANG_CHANGED, relabel);
  layout();
  void validate();
  return { el: form, current };
}

/** A Chess960 start number from the input, kept within 0–959. */
function clamp960(text: string): number {
  const n = Math.trunc(Number(text));
  return Number.isFinite(n) ? Math.min(959, Math.max(0, n)) : 518;
}

/** The settings of a game whose creation this page did not see (opened by link). */
export function settingsOf(s: GameState): NewGame {
  const robot = s.players.white.kind === 'robot' ? s.players.white : s.players.black;
  return {
    opponent: s.mode,
    level: s.mode === 'robot' ? (robot.level ?? 1) : undefined,
    color: s.you === 'black' ? 'black' : 'white',
    time_control: s.clock?.control ?? '-',
    chess960: s.chess960 === null ? null : 'random',
    casual: true,
  };
}

const CONFIRM_KEY = 'rochade.confirmMoves';

/** Whether a correspondence move waits for the player's confirmation before it is sent (ICCF 4.1); on unless turned off. */
export function confirmMoves(): boolean {
  return localStorage.getItem(CONFIRM_KEY) !== 'off';
}

/** Remembers whether correspondence moves are confirmed before sending. */
export function saveConfirmMoves(on: boolean): void {
  localStorage.setItem(CONFIRM_KEY, on ? 'on' : 'off');
}
