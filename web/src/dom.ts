// A tiny element builder, and translated text that follows the language.

import { Key, t } from './i18n';

type Attrs = Record<string, string | boolean | number | undefined>;
type Child = Node | string | null | undefined | false;

/** Makes an element: `h('button', {'data-testid': 'play'}, 'Play')`. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    el.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children) if (child) el.append(child);
  return el;
}

/** An element whose text is `key` in the current language, re-translated by `translateAll`. */
export function tx<K extends keyof HTMLElementTagNameMap>(tag: K, key: Key, attrs: Attrs = {}): HTMLElementTagNameMap[K] {
  const el = h(tag, { ...attrs, 'data-i18n': key });
  el.textContent = t(key);
  return el;
}

/** Re-translates every element made by `tx` (and `data-i18n-placeholder` inputs). */
export function translateAll(root: ParentNode = document): void {
  root.querySelectorAll<HTMLElement>('[data-i18n]').forEach((el) => {
    el.textContent = t(el.dataset.i18n as Key);
  });
  root.querySelectorAll<HTMLInputElement>('[data-i18n-placeholder]').forEach((el) => {
    el.placeholder = t(el.dataset.i18nPlaceholder as Key);
  });
  root.querySelectorAll<HTMLElement>('[data-i18n-label]').forEach((el) => {
    el.setAttribute('aria-label', t(el.dataset.i18nLabel as Key));
  });
}

/** A `<select>` of translated options. */
export function select(testid: string, options: [string, Key | string][], value: string): HTMLSelectElement {
  const el = h('select', { 'data-testid': testid });
  for (const [v, label] of options) {
    const opt = h('option', { value: v });
    if (label.startsWith('=')) opt.textContent = label.slice(1);
    else {
      opt.dataset.i18n = label;
      opt.textContent = t(label as Key);
    }
    el.append(opt);
  }
  el.value = value;
  return el;
}

/** A labelled form row. */
export function row(label: Key, control: HTMLElement): HTMLElement {
  const id = `f-${control.dataset.testid ?? Math.random().toString(36).slice(2)}`;
  control.id = id;
  const l = tx('label', label, { for: id });
  return h('div', { class: 'row' }, l, control);
}

/** A button with translated text and a test id. */
export function button(key: Key, testid: string, onClick: () => void, cls = ''): HTMLButtonElement {
  const b = tx('button', key, { type: 'button', 'data-testid': testid, class: cls || undefined });
  b.addEventListener('click', onClick);
  return b;
}

/** Says `text` in a form's `error` line, marks `field` as the one at fault and focuses it (the others are cleared). */
export function fault(error: HTMLElement, text: string, field: HTMLElement): void {
  field.closest('form')?.querySelectorAll('[aria-invalid]').forEach((el) => el.removeAttribute('aria-invalid'));
  error.replaceChildren(text);
  field.setAttribute('aria-invalid', 'true');
  field.focus();
}
