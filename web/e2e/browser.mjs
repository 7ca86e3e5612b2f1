// Launching Debian's chromium through playwright-core (no browser download),
// and the helpers the tests share: the board's squares, moves by click, drag
// and keyboard, and waiting for the server's states.
import { chromium } from 'playwright-core';

/** The flags the tests run chromium with (headless, no network of its own). */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Starts chromium. */
export function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: CHROMIUM_ARGS,
  });
}

/** Fails with `message` unless `cond` holds. */
export function assert(cond, message) {
  if (!cond) throw new Error(`assertion failed: ${message}`);
}

/**
 * A visitor not signed in opens `path`: the way to sign in (`prompt`)
 * shows, and what only a signed-in player may use (`hidden`) does not.
 */
export async function signedOutSees(browser, base, path, prompt, hidden) {
  const visitor = await browser.newContext();
  try {
    const page = await visitor.newPage();
    await page.goto(`${base}${path}`);
    await byId(page, prompt).waitFor();
    assert(await byId(page, hidden).isHidden(), `${path}: no ${hidden} before signing in`);
  } finally {
    await visitor.close();
  }
}

/** The page's locator for a `data-testid`. */
export const byId = (page, id) => page.locator(`[data-testid="${id}"]`);

/** The centre of `square` (e.g. "e2") on the page, as the board is oriented now. */
export async function squareCenter(page, square) {
  const board = page.locator('.board');
  const box = await byId(page, 'board').boundingBox();
  const orientation = await board.getAttribute('data-orientation');
  const file = square.charCodeAt(0) - 97;
  const rank = Number(square[1]) - 1;
  const col = orientation === 'white' ? file : 7 - file;
  const row = orientation === 'white' ? 7 - rank : rank;
  return { x: box.x + ((col + 0.5) * box.width) / 8, y: box.y + ((row + 0.5) * box.height) / 8 };
}

/** The number of half-moves the page shows as played. */
export async function shownPly(page) {
  return Number(await byId(page, 'status').getAttribute('data-ply'));
}

/** Waits until the page shows `ply` half-moves played (or more, with `atLeast`). */
export async function waitPly(page, ply, timeout = 15_000, atLeast = false) {
  await page.waitForFunction(
    ([n, least]) => {
      const shown = Number(document.querySelector('[data-testid="status"]')?.getAttribute('data-ply') ?? NaN);
      return least ? shown >= n : shown === n;
    },
    [ply, atLeast],
    { timeout },
  );
}

/** Plays `uci` by clicking the start square, then the destination (and the promotion piece). */
export async function clickMove(page, uci) {
  const from = await squareCenter(page, uci.slice(0, 2));
  const to = await squareCenter(page, uci.slice(2, 4));
  await page.mouse.click(from.x, from.y);
  await page.mouse.click(to.x, to.y);
  if (uci.length === 5) await byId(page, `promote-${uci[4]}`).click();
}

/** Plays `uci` by dragging the piece. */
export async function dragMove(page, uci) {
  const from = await squareCenter(page, uci.slice(0, 2));
  const to = await squareCenter(page, uci.slice(2, 4));
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move((from.x + to.x) / 2, (from.y + to.y) / 2, { steps: 4 });
  await page.mouse.move(to.x, to.y, { steps: 4 });
  await page.mouse.up();
  if (uci.length === 5) await byId(page, `promote-${uci[4]}`).click();
}

/** Types `san` into the keyboard move entry and sends it. */
export async function typeMove(page, san) {
  await byId(page, 'move-input').fill(san);
  await byId(page, 'move-input').press('Enter');
}

/** Fills the settings panel and presses Play; returns the game id. */
export async function startGame(page, { opponent, level, color, control }) {
  await byId(page, 'opponent').selectOption(opponent);
  if (level) await byId(page, 'level').selectOption(String(level));
  if (color) await byId(page, 'color').selectOption(color);
  await byId(page, 'time-control').selectOption(control);
  await page.waitForFunction(() => !document.querySelector('[data-testid="play"]')?.disabled);
  await byId(page, 'play').click();
  await page.waitForURL(/\/g\//);
  await byId(page, 'status').waitFor();
  await page.waitForFunction(() => document.querySelector('[data-testid="status"]')?.hasAttribute('data-ply'));
  return new URL(page.url()).pathname.split('/')[2];
}

/** The game's state as the server reports it to spectators. */
export async function serverState(base, id) {
  const res = await fetch(`${base}/api/games/${id}`);
  assert(res.ok, `GET /api/games/${id} answered ${res.status}`);
  return res.json();
}

/** Waits for the result box and returns its result and reason. */
export async function waitResult(page, timeout = 15_000) {
  const result = byId(page, 'result');
  await result.waitFor({ timeout });
  return {
    result: await result.getAttribute('data-result'),
    reason: await result.getAttribute('data-reason'),
    text: (await result.textContent()) ?? '',
  };
}

/** A small deterministic generator, so a failing robot game can be replayed. */
export function lcg(seed) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/**
 * Plays White against the robot in game `id` with random legal moves
 * (chosen by `seed`) until the game ends or White has made `limit` moves;
 * `play(uci, state, n)` makes White's n-th move on the page. Returns the
 * number of moves White made.
 */
export async function playAsWhite(page, base, id, { seed, limit = 40, play }) {
  const random = lcg(seed);
  let moves = 0;
  for (;;) {
    const state = await serverState(base, id);
    if (state.outcome) break;
    if (state.turn !== 'white') {
      await waitPly(page, state.ply + 1, 30_000).catch(() => undefined);
      continue;
    }
    if (moves === limit) break;
    await waitPly(page, state.ply);
    const choices = Object.entries(state.dests).flatMap(([from, tos]) => tos.map((to) => from + to));
    await play(choices[Math.floor(random() * choices.length)], state, moves);
    moves += 1;
    await waitPly(page, state.ply + 1, 15_000, true);
  }
  return moves;
}
