// The accessibility choices (screen-reader mode, how moves are announced,
// speech), remembered in the browser; the live regions that announce, and
// speech synthesis (Web Speech API) for players without a screen reader.

import { h, row, select, tx } from './dom';
import { lang } from './i18n';
import { Voice, VOICES } from './notation';

/** What the player chose. */
export interface AccessPrefs {
  /** Screen-reader mode: the board as a grid of named squares, moves in the chosen voice. */
  reader: boolean;
  voice: Voice;
  /** Speak every announcement with the browser's speech synthesis. */
  speech: boolean;
  /** Speech rate, 0.5–2. */
  rate: number;
}

const KEY = 'rochade.access';

/** The event sent on `document` when the choices change. */
export const ACCESS_CHANGED = 'rochade:access';

/** The remembered choices, or the defaults. */
export function prefs(): AccessPrefs {
  const defaults: AccessPrefs = { reader: false, voice: 'words', speech: false, rate: 1 };
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) ?? '{}') as Partial<AccessPrefs>;
    const p = { ...defaults, ...saved };
    if (!VOICES.includes(p.voice)) p.voice = 'words';
    return p;
  } catch {
    return defaults;
  }
}

/** Changes and remembers some choices; tells the page. */
export function setPrefs(change: Partial<AccessPrefs>): void {
  localStorage.setItem(KEY, JSON.stringify({ ...prefs(), ...change }));
  document.body.classList.toggle('reader', prefs().reader);
  document.dispatchEvent(new Event(ACCESS_CHANGED));
}

const SPEECH_LANG: Record<string, string> = { en: 'en-GB', sk: 'sk-SK', cs: 'cs-CZ' };

/**
 * Says `text` with speech synthesis when the player asked for it, with a
 * voice of the page's language if the browser has one (its region first:
 * sk-SK, then any sk; some systems write sk_SK). `now` drops what is still
 * queued (the talking clock answers at once).
 */
export function speak(text: string, now = false): void {
  const p = prefs();
  if (!p.speech || typeof speechSynthesis === 'undefined' || !text) return;
  const u = new SpeechSynthesisUtterance(text);
  const want = SPEECH_LANG[lang()] ?? lang();
  u.lang = want;
  u.rate = p.rate;
  const voices = speechSynthesis.getVoices().map((v) => [v, v.lang.replace('_', '-').toLowerCase()] as const);
  const voice = voices.find(([, l]) => l === want.toLowerCase()) ?? voices.find(([, l]) => l.startsWith(lang()));
  if (voice) u.voice = voice[0];
  if (now) speechSynthesis.cancel();
  speechSynthesis.speak(u);
}

/**
 * The live regions: a polite log for moves and answers, an assertive one
 * for check, low time and the end of the game. Every announcement is a
 * new line of its region, so two quick ones (a move and the robot's
 * reply) are both read.
 */
export class Announcer {
  readonly polite = h('div', { class: 'sr-only', role: 'log', 'aria-live': 'polite', 'data-testid': 'live' });
  readonly urgent = h('div', { class: 'sr-only', 'aria-live': 'assertive', 'aria-atomic': 'false', 'data-testid': 'live-urgent' });

  /** Announces `text`; `urgent` for check, low time and game end; `now` speaks it before anything queued. */
  say(text: string, urgent = false, now = false): void {
    if (!text) return;
    const region = urgent ? this.urgent : this.polite;
    region.append(h('p', {}, text));
    while (region.childElementCount > 8) region.firstElementChild?.remove();
    speak(text, now);
  }
}

/** The accessibility settings: screen-reader mode, announcement voice, speech and its rate. */
export function accessPanel(): HTMLElement {
  const p = prefs();
  const reader = h('input', { type: 'checkbox', 'data-testid': 'reader-mode', id: 'f-reader-mode' });
  reader.checked = p.reader;
  reader.addEventListener('change', () => setPrefs({ reader: reader.checked }));
  const voice = select(
    'voice',
    [
      ['san', 'voiceSan'],
      ['lan', 'voiceLan'],
      ['words', 'voiceWords'],
      ['phonetic', 'voicePhonetic'],
    ],
    p.voice,
  );
  voice.addEventListener('change', () => setPrefs({ voice: voice.value as Voice }));
  const speech = h('input', { type: 'checkbox', 'data-testid': 'speech', id: 'f-speech' });
  speech.checked = p.speech;
  speech.disabled = typeof speechSynthesis === 'undefined';
  speech.addEventListener('change', () => setPrefs({ speech: speech.checked }));
  const rate = h('input', { type: 'range', min: 0.5, max: 2, step: 0.1, value: p.rate, 'data-testid': 'speech-rate' });
  rate.addEventListener('change', () => setPrefs({ rate: Number(rate.value) }));
  const el = h(
    'section',
    { class: 'panel access', 'data-testid': 'access', 'aria-labelledby': 'access-title' },
    tx('h2', 'accessSettings', { id: 'access-title' }),
    h('div', { class: 'check' }, reader, tx('label', 'screenReaderMode', { for: 'f-reader-mode' })),
    row('announceAs', voice),
    h('div', { class: 'check' }, speech, tx('label', 'speak', { for: 'f-speech' })),
    row('speechRate', rate),
    tx('p', 'clockKey', { class: 'hint' }),
  );
  document.addEventListener(ACCESS_CHANGED, () => {
    const now = prefs();
    reader.checked = now.reader;
    voice.value = now.voice;
    speech.checked = now.speech;
    rate.value = String(now.rate);
  });
  return el;
}

/** The time on a clock in words a voice reads well: "4 min 5 s", "9.5 s". */
export function spokenTime(ms: number): string {
  const clamped = Math.max(0, ms);
  if (clamped < 10_000) return `${(Math.floor(clamped / 100) / 10).toFixed(1)} s`;
  const total = Math.floor(clamped / 1000);
  const days = Math.floor(total / 86400);
  const hours = Math.floor((total % 86400) / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  // Correspondence clocks count days: seconds say nothing there.
  if (days) return `${days} d ${hours} h ${m} min`;
  return [hours ? `${hours} h` : '', hours || m ? `${m} min` : '', `${s} s`].filter(Boolean).join(' ');
}
