// A player's private notes on a game: kept on the server
// (`/api/account/notes/{id}`) so that they follow the player to any device,
// saved a moment after typing stops, with the saved state shown. Notes an
// older page kept in this browser's localStorage are uploaded once and
// dropped from it. In a game without accounts (the server keeps no notes
// for it) they stay in this browser, as before.

import { h, tx } from './dom';
import { t } from './i18n';
import { errorText } from './outcome';
import { ApiError, call } from './protocol';

/** The longest notes the server keeps, in characters. */
export const NOTES_MOST = 10_000;

/** How long after the last key press the notes are saved. */
const DEBOUNCE_MS = 700;

/** Where older pages kept notes in this browser. */
const LOCAL_KEY = 'rochade.notes.';

interface Note {
  text: string;
  at: number | null;
}

/** `GET /api/account/notes/{id}`. */
function readNote(id: string): Promise<Note> {
  return call('GET', `/api/account/notes/${encodeURIComponent(id)}`);
}

/** `POST /api/account/notes/{id}`. */
function writeNote(id: string, text: string): Promise<Note> {
  return call('POST', `/api/account/notes/${encodeURIComponent(id)}`, { text });
}

/** The text to keep when the server has `server` and this browser still has `local`: both, unless one holds the other. */
function merged(server: string, local: string): string {
  if (!local || server.includes(local)) return server;
  if (!server || local.includes(server)) return local;
  return `${server}\n\n${local}`;
}

/**
 * The notes field of game `id`: a labelled text area in a disclosure, and
 * its saved state as a status line ("Saving…", "Saved", "Not saved: …").
 * `testid` tells the boxes of several games apart.
 */
export function notesBox(id: string, open = false): HTMLElement {
  const field = `notes-${id}`;
  const area = h('textarea', { id: field, class: 'notes', rows: 4, maxlength: NOTES_MOST, 'data-testid': 'game-notes', 'aria-describedby': `${field}-hint ${field}-state`, disabled: true });
  const hint = tx('p', 'notesHint', { class: 'hint', id: `${field}-hint` });
  const state = h('p', { class: 'notes-state', id: `${field}-state`, role: 'status', 'data-testid': 'notes-state', 'data-state': 'loading' }, t('notesLoading'));
  const box = h('details', { class: 'notes-box', 'data-testid': 'notes-box', 'data-game': id, open: open || undefined }, tx('summary', 'notes'), tx('label', 'notesLabel', { for: field }), area, hint, state);
  const key = LOCAL_KEY + id;
  let local = false;
  let timer: number | undefined;
  let saving: Promise<void> = Promise.resolve();

  const show = (kind: 'saving' | 'saved' | 'error' | 'local' | 'loading', text: string): void => {
    state.dataset.state = kind;
    state.textContent = text;
  };
  const save = (): void => {
    window.clearTimeout(timer);
    timer = undefined;
    const text = area.value;
    if (local) {
      if (text) localStorage.setItem(key, text);
      else localStorage.removeItem(key);
      show('local', t('notesLocal'));
      return;
    }
    show('saving', t('notesSaving'));
    saving = saving.then(() =>
      writeNote(id, text).then(
        () => {
          if (timer === undefined && area.value === text) show('saved', t('notesSaved'));
        },
        (e: unknown) => show('error', t('notesNotSaved', { reason: errorText(e instanceof ApiError ? e.code : 'unknown') })),
      ),
    );
  };
  area.addEventListener('input', () => {
    window.clearTimeout(timer);
    show('saving', t('notesEditing'));
    timer = window.setTimeout(save, DEBOUNCE_MS);
  });
  area.addEventListener('blur', () => {
    if (timer !== undefined) save();
  });
  // Leaving the page before the pause: the last text goes out as the page unloads.
  const flush = (): void => {
    if (!box.isConnected) window.removeEventListener('pagehide', flush);
    else if (timer !== undefined && !local) {
      window.clearTimeout(timer);
      timer = undefined;
      void fetch(`/api/account/notes/${encodeURIComponent(id)}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text: area.value }), keepalive: true });
    }
  };
  window.addEventListener('pagehide', flush);

  void readNote(id).then(
    (note) => {
      const old = localStorage.getItem(key) ?? '';
      area.value = merged(note.text, old);
      area.disabled = false;
      if (area.value) box.open = true;
      if (old) {
        // Notes an older page kept here: uploaded once, then gone from this browser.
        localStorage.removeItem(key);
        if (area.value !== note.text) save();
        else show('saved', t('notesSaved'));
      } else show('saved', note.at === null ? t('notesEmpty') : t('notesSaved'));
    },
    () => {
      // No notes on the server for this game (no accounts play it): this browser keeps them.
      local = true;
      area.value = localStorage.getItem(key) ?? '';
      area.disabled = false;
      if (area.value) box.open = true;
      hint.dataset.i18n = 'notesHintLocal';
      hint.textContent = t('notesHintLocal');
      show('local', t('notesLocal'));
    },
  );
  return box;
}
