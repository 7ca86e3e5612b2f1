// A small line chart of one category's rating over time, drawn as inline
// SVG, with the same points as a table for those who cannot see it.

import { h } from './dom';
import { lang, t } from './i18n';

/** A rating on a day: `[year, month 0–11, day, rating]` (lichess's shape). */
export type Point = [number, number, number, number];

const SVG = 'http://www.w3.org/2000/svg';
const W = 240;
const H = 64;
const PAD = 4;

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Record<string, string | number>): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  return el;
}

/** The day of a point, as a time (UTC midnight). */
const dayOf = (p: Point): number => Date.UTC(p[0], p[1], p[2]);

/** A date in the page's language: "25 Nov 2026". */
export function shortDate(ms: number): string {
  return new Date(ms).toLocaleDateString(lang(), { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
}

/**
 * The chart of `points` (oldest first) for `category` (its name in words):
 * an image named with the first and last rating and dates, followed by a
 * collapsed table of every point.
 */
export function ratingChart(category: string, points: Point[]): HTMLElement {
  const el = h('div', { class: 'chart', 'data-testid': 'rating-chart' });
  if (points.length === 0) return el;
  const first = points[0];
  const last = points[points.length - 1];
  const label = t('chartLabel', {
    category,
    first: first[3],
    last: last[3],
    start: shortDate(dayOf(first)),
    end: shortDate(dayOf(last)),
  });
  const times = points.map(dayOf);
  const ratings = points.map((p) => p[3]);
  const t0 = Math.min(...times);
  const t1 = Math.max(...times);
  const lo = Math.min(...ratings);
  const hi = Math.max(...ratings);
  const x = (ms: number) => (t1 === t0 ? W / 2 : PAD + ((ms - t0) / (t1 - t0)) * (W - 2 * PAD));
  const y = (r: number) => (hi === lo ? H / 2 : PAD + ((hi - r) / (hi - lo)) * (H - 2 * PAD));
  const image = svg('svg', { viewBox: `0 0 ${W} ${H}`, width: W, height: H, role: 'img', 'aria-label': label, class: 'chart-svg' });
  image.append(svg('title', {}));
  image.firstChild!.textContent = label;
  const coords = points.map((p) => `${x(dayOf(p)).toFixed(1)},${y(p[3]).toFixed(1)}`);
  if (points.length > 1) image.append(svg('polyline', { points: coords.join(' '), fill: 'none', stroke: 'currentColor', 'stroke-width': 2, 'stroke-linejoin': 'round' }));
  const [lx, ly] = coords[coords.length - 1].split(',');
  image.append(svg('circle', { cx: lx, cy: ly, r: 3, fill: 'currentColor' }));
  const table = h(
    'table',
    {},
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('date')), h('th', { scope: 'col' }, t('rating')))),
    h('tbody', {}, ...points.map((p) => h('tr', {}, h('td', {}, shortDate(dayOf(p))), h('td', {}, String(p[3]))))),
  );
  el.append(image, h('details', { class: 'history' }, h('summary', {}, t('historyTable')), table));
  return el;
}
