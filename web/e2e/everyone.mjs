// The end-to-end tests of issue 19 points 5, 6, 7 and 8 that the earlier
// files did not cover: speech in the page's language (a recording stand-in
// for the Web Speech API: the voice, the language and the remembered rate;
// the talking clock), a visible focus of enough contrast on every stop of
// the tab order of every screen (start panel, a game, screen-reader mode,
// the correspondence dashboard, /director, /tournaments/{id}, the
// notifications dialog), the keyboard alone on the pages of this wave (no
// trap, dialogs closed by Escape with the focus back), no animation under
// prefers-reduced-motion (the game board and the dashboard's analysis
// board), text at 200 % and a phone of 360×740 without anything cut off;
// axe-core (light and dark) on the states these tests reach.
import { axeBoth, playTyped } from './access.mjs';
import { assert, byId, clickMove, squareCenter, startGame, waitPly } from './browser.mjs';
import { correspondenceGame, openNotify } from './correspondence.mjs';
import { directorSetup, player } from './director.mjs';
import { focused, waitLive } from './lobby.mjs';

/** Types one line into the command input and sends it. */
async function command(page, text) {
  await byId(page, 'move-input').fill(text);
  await byId(page, 'move-input').press('Enter');
}

/**
 * What the focused element is and how its focus shows: its kind (the tag,
 * an input's type, a role), its test id, whether it is visible on the
 * screen, the outline or box shadow that marks it and the contrast of that
 * mark against the background behind the element (WCAG 1.4.11, 2.4.7).
 */
const focusInfo = (page) =>
  page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body) return null;
    const rgb = (c) => {
      const m = c.match(/rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?/);
      return m ? { c: [Number(m[1]), Number(m[2]), Number(m[3])], a: m[4] === undefined ? 1 : Number(m[4]) } : null;
    };
    const lum = ([r, g, b]) => {
      const f = (v) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
      return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
    };
    const ratio = (x, y) => {
      const [a, b] = [lum(x), lum(y)].sort((p, q) => q - p);
      return (a + 0.05) / (b + 0.05);
    };
    // The background the outline is drawn on: the first opaque one outside the element.
    let back = [255, 255, 255];
    for (let p = el.parentElement; p; p = p.parentElement) {
      const c = rgb(getComputedStyle(p).backgroundColor);
      if (c && c.a > 0.5) {
        back = c.c;
        break;
      }
    }
    if (back === null) back = [255, 255, 255];
    const s = getComputedStyle(el);
    const outline = s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2 ? rgb(s.outlineColor) : null;
    const shadow = s.boxShadow !== 'none' ? rgb(s.boxShadow) : null;
    const mark = outline ?? shadow;
    const r = el.getBoundingClientRect();
    const kind = el.getAttribute('role') ?? (el.tagName === 'INPUT' ? `input:${el.type}` : el.tagName.toLowerCase());
    return {
      kind,
      id: el.getAttribute('data-testid') ?? el.id ?? '',
      visible: r.width > 0 && r.height > 0 && r.right > 0 && r.bottom > 0 && r.left < innerWidth && getComputedStyle(el).visibility !== 'hidden',
      mark: mark ? `${outline ? 'outline' : 'shadow'} ${s.outlineColor}` : 'none',
      contrast: mark ? ratio(mark.c, back) : 0,
    };
  });

/**
 * Walks `page` with Tab from where the focus is (or from the top) until the
 * focus comes back to the first stop, leaves the page, or `limit` presses
 * pass: every stop must be on the screen and show its focus with an outline
 * or shadow of 3:1 against its background. Returns the stops.
 */
export async function tabWalk(page, where, { limit = 150, fromTop = true } = {}) {
  // Blurring leaves the browser's starting point where it was: the walk goes
  // round once, through the end of the page if need be, back to its first stop.
  if (fromTop) await page.evaluate(() => (document.activeElement instanceof HTMLElement ? document.activeElement.blur() : undefined));
  const stops = [];
  let first = null;
  let left = false;
  for (let i = 0; ; i++) {
    assert(i < limit, `${where}: the Tab walk never came round (${stops.length} stops): ${stops.map((s) => s.id).join(', ')}`);
    await page.keyboard.press('Tab');
    const info = await focusInfo(page);
    if (!info) {
      if (left) break;
      left = stops.length > 0;
      continue;
    }
    const key = await page.evaluate(() => {
      const el = document.activeElement;
      if (!el.dataset.walk) el.dataset.walk = String(Math.random());
      return el.dataset.walk;
    });
    if (key === first) break;
    first ??= key;
    stops.push(info);
    assert(info.visible, `${where}: the focus went to something not on the screen: ${JSON.stringify(info)}`);
    assert(info.mark !== 'none', `${where}: no visible focus on ${JSON.stringify(info)}`);
    assert(info.contrast >= 3, `${where}: the focus mark contrasts too little (${info.contrast.toFixed(2)}:1): ${JSON.stringify(info)}`);
  }
  assert(stops.length > 0, `${where}: Tab reaches nothing`);
  await page.evaluate(() => document.querySelectorAll('[data-walk]').forEach((e) => delete e.dataset.walk));
  return stops;
}

/** The accessible description of the focused element: the texts its aria-describedby names, as a screen reader reads them after its name. */
export const focusedDescription = (page) =>
  page.evaluate(() =>
    (document.activeElement?.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((i) => document.getElementById(i)?.textContent ?? '')
      .join(' '),
  );

/** Presses Tab until the element with test id `id` has the focus (fails after `limit` presses). */
export async function tabTo(page, id, limit = 150) {
  for (let i = 0; i < limit; i++) {
    if ((await focused(page)) === id) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached "${id}" (the focus is on ${await focused(page)})`);
}

/** A stand-in for the Web Speech API that records every utterance (text, language, rate, voice) in `window.spoken`. */
function recordSpeech() {
  window.spoken = [];
  window.cancelled = 0;
  const voices = [
    { name: 'English', lang: 'en-US', default: true, localService: true, voiceURI: 'en' },
    { name: 'Slovak', lang: 'sk-SK', default: false, localService: true, voiceURI: 'sk' },
    { name: 'Czech', lang: 'cs_CZ', default: false, localService: true, voiceURI: 'cs' },
  ];
  window.SpeechSynthesisUtterance = class {
    constructor(text) {
      this.text = text;
      this.lang = '';
      this.rate = 1;
      this.voice = null;
    }
  };
  Object.defineProperty(window, 'speechSynthesis', {
    configurable: true,
    value: {
      speak: (u) => window.spoken.push({ text: u.text, lang: u.lang, rate: u.rate, voice: u.voice?.name ?? null }),
      getVoices: () => voices,
      cancel: () => {
        window.cancelled += 1;
      },
      addEventListener: () => undefined,
    },
  });
}

/** Counts the board's pieces that slide (chessground marks them `anim`) from now on, in `window.slid`. */
const watchSliding = (page) =>
  page.evaluate(() => {
    window.slid = 0;
    new MutationObserver((list) => {
      for (const m of list) {
        const nodes = m.type === 'attributes' ? [m.target] : [...m.addedNodes];
        if (nodes.some((n) => n instanceof Element && n.tagName === 'PIECE' && n.classList.contains('anim'))) window.slid += 1;
      }
    }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['class'] });
  });

/** The running CSS animations and transitions on the page. */
const running = (page) => page.evaluate(() => document.getAnimations().filter((a) => a.playState === 'running').map((a) => `${a.constructor.name} ${a.animationName ?? a.transitionProperty ?? ''} on ${a.effect?.target?.className ?? '?'}`));

/**
 * The controls cut off at the sides: every visible button, link, field and
 * cell must lie inside the window's width. Returns descriptions of those
 * that do not, and how much wider than the window the page is.
 */
const cutOff = (page) =>
  page.evaluate(() => {
    const out = [];
    for (const el of document.querySelectorAll('button, a[href], input, select, textarea, summary, [tabindex], [role="gridcell"]')) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || el.closest('.sr-only, [hidden]') || getComputedStyle(el).visibility === 'hidden') continue;
      if (r.left < -1 || r.right > document.documentElement.clientWidth + 1) out.push(`${el.getAttribute('data-testid') ?? el.tagName} ${Math.round(r.left)}..${Math.round(r.right)}`);
    }
    return { out, wider: document.documentElement.scrollWidth - document.documentElement.clientWidth };
  });

/** WCAG's contrast ratio of two sRGB colours ([r, g, b], 0–255). */
function contrast(x, y) {
  const lum = ([r, g, b]) => {
    const f = (v) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  const [a, b] = [lum(x), lum(y)].sort((p, q) => q - p);
  return (a + 0.05) / (b + 0.05);
}

/**
 * The colours the eye sees on the visual board: a screenshot of it, read
 * pixel by pixel on a blank page of the same context. `points` are
 * [square, dx, dy] with dx, dy fractions of a square from its top left
 * corner (negative or above 1 reach into the neighbour); returns [r, g, b]
 * for each.
 */
async function boardPixels(page, points) {
  const wrap = byId(page, 'board');
  const box = await wrap.boundingBox();
  const white = (await page.locator('.board').getAttribute('data-orientation')) === 'white';
  const size = box.width / 8;
  const xy = points.map(([sq, dx, dy]) => {
    const file = sq.charCodeAt(0) - 97;
    const rank = Number(sq[1]) - 1;
    const col = white ? file : 7 - file;
    const row = white ? 7 - rank : rank;
    return [Math.floor((col + dx) * size), Math.floor((row + dy) * size)];
  });
  const png = (await wrap.screenshot({ animations: 'disabled' })).toString('base64');
  const blank = await page.context().newPage();
  try {
    return await blank.evaluate(
      async ([data, at]) => {
        const img = new Image();
        img.src = `data:image/png;base64,${data}`;
        await img.decode();
        const canvas = document.createElement('canvas');
        canvas.width = img.width;
        canvas.height = img.height;
        const g = canvas.getContext('2d');
        g.drawImage(img, 0, 0);
        return at.map(([x, y]) => [...g.getImageData(x, y, 1, 1).data.slice(0, 3)]);
      },
      [png, xy],
    );
  } finally {
    await blank.close();
  }
}

/**
 * Measures one highlighted square's frame on the picture of the board: the
 * pixel just inside its left edge (its right edge on the a file) against
 * the fill inside the frame (in a bottom corner, where no piece is) and
 * the neighbouring square across that edge. Returns the two ratios.
 */
async function frameContrast(page, sq) {
  // On the board's left edge (the a file, seen from White) the right edge is measured instead.
  const right = sq[0] === 'a';
  const [frame, fill, neighbour] = await boardPixels(page, [
    [sq, right ? 0.985 : 0.015, 0.5],
    [sq, right ? 0.88 : 0.12, 0.95],
    [sq, right ? 1.03 : -0.03, 0.5],
  ]);
  return { frame, fill, neighbour, inside: contrast(frame, fill), outside: contrast(frame, neighbour) };
}

export const everyoneTests = [
  {
    name: 'speech (19.5): Slovak phonetic moves spoken with the Slovak voice (Felix 3); bad input spoken; the rate set by keyboard and remembered; Alt+C speaks both clocks at once; Czech voice, long algebraic, each grid step spoken, Space and T on the grid',
    async run({ browser, base }) {
      const context = await browser.newContext();
      await context.addInitScript(() => {
        if (!sessionStorage.getItem('seeded')) {
          localStorage.setItem('rochade.access', JSON.stringify({ reader: false, voice: 'phonetic', speech: false, rate: 1 }));
          sessionStorage.setItem('seeded', '1');
        }
        localStorage.setItem('rochade.lang', 'sk');
      });
      await context.addInitScript(recordSpeech);
      const page = await context.newPage();
      try {
        await page.goto(base);
        assert(!(await byId(page, 'speech').isDisabled()), 'speech can be turned on');
        await byId(page, 'speech').focus();
        await page.keyboard.press('Space');
        assert(await byId(page, 'speech').isChecked(), 'speech turned on with the keyboard');
        await byId(page, 'speech-rate').focus();
        for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
        await page.waitForFunction(() => JSON.parse(localStorage.getItem('rochade.access') ?? '{}').rate === 1.3);
        await page.reload();
        assert((await byId(page, 'speech-rate').inputValue()) === '1.3', `the rate is remembered: ${await byId(page, 'speech-rate').inputValue()}`);
        assert(await byId(page, 'speech').isChecked(), 'speech is remembered');
        await startGame(page, { opponent: 'local', control: '10+5' });
        await command(page, 'Jf3');
        await waitPly(page, 1);
        await page.waitForFunction(() => window.spoken.some((u) => u.text.includes('Felix 3')));
        const move = (await page.evaluate(() => window.spoken)).find((u) => u.text.includes('Felix 3'));
        assert(move.text.includes('Biely: Springer Gustav 1 Felix 3'), `the move in Appendix D's words: ${move.text}`);
        assert(move.lang === 'sk-SK' && move.voice === 'Slovak' && Math.abs(move.rate - 1.3) < 1e-6, `in Slovak, with the Slovak voice, at 1.3: ${JSON.stringify(move)}`);
        // What went wrong is spoken too, never silent (19.10): an unknown command, a move for no piece.
        for (const [line, said] of [
          ['xyz', 'Neznámy príkaz: xyz'],
          ['Jf5', 'f5'],
        ]) {
          const n = await page.evaluate(() => window.spoken.length);
          await command(page, line);
          await page.waitForFunction(([k, w]) => window.spoken.slice(k).some((u) => u.text.includes(w) && u.lang === 'sk-SK'), [n, said], { timeout: 5_000 }).catch(async () => {
            throw new Error(`"${line}" was answered in silence: ${JSON.stringify((await page.evaluate(() => window.spoken)).slice(n))}`);
          });
        }
        const cancelled = await page.evaluate(() => window.cancelled);
        await page.keyboard.press('Alt+c');
        await page.waitForFunction(() => window.spoken.some((u) => u.text.includes('Biely: ') && u.text.includes('Čierny: ')));
        const clock = (await page.evaluate(() => window.spoken)).find((u) => u.text.includes('Biely: ') && u.text.includes('Čierny: '));
        assert(/Biely: (10|9) min \d+ s, Čierny: (10|9) min \d+ s/.test(clock.text) && clock.lang === 'sk-SK' && clock.voice === 'Slovak', `both clocks spoken: ${JSON.stringify(clock)}`);
        assert((await page.evaluate(() => window.cancelled)) > cancelled, 'the talking clock does not wait behind older speech');
        await waitLive(page, clock.text);

        // Czech: the voice whose language is written cs_CZ (as some systems do) is found; a move typed from-to.
        await byId(page, 'language').selectOption('cs');
        await command(page, 'e7e5');
        await waitPly(page, 2);
        await page.waitForFunction(() => window.spoken.some((u) => u.text.includes('Eva 5')));
        const czech = (await page.evaluate(() => window.spoken)).find((u) => u.text.includes('Eva 5'));
        assert(czech.lang === 'cs-CZ' && czech.voice === 'Czech', `in Czech with the Czech voice: ${JSON.stringify(czech)}`);

        // Long algebraic (19.4), then screen-reader mode: every step on the grid is spoken (19.3).
        await byId(page, 'voice').selectOption('lan');
        await command(page, 'Jc3');
        await waitPly(page, 3);
        await page.waitForFunction(() => window.spoken.some((u) => u.text.includes('Bílý: Jb1-c3')));
        await byId(page, 'reader-mode').check();
        await page.locator('body.reader').waitFor();
        const heard = await page.evaluate(() => window.spoken.length);
        await page.locator('[role="gridcell"][data-square="e2"]').focus();
        await page.keyboard.press('ArrowUp');
        await page.waitForFunction((n) => window.spoken.slice(n).some((u) => u.text.startsWith('e3, ')), heard);
        // Space picks Black's d-pawn up, T lists its targets again, Space puts it down on d6.
        await page.locator('[role="gridcell"][data-square="d7"]').focus();
        await page.keyboard.press('Space');
        await page.locator('[role="gridcell"][data-square="d7"][aria-selected="true"]').waitFor();
        const listed = await page.evaluate(() => window.spoken.length);
        await page.keyboard.press('t');
        await page.waitForFunction((n) => window.spoken.slice(n).some((u) => u.text === 'd6, d5'), listed);
        await page.keyboard.press('ArrowDown');
        await page.keyboard.press('Space');
        await waitPly(page, 4);
      } finally {
        await context.close();
      }
    },
  },
  {
    name: 'focus (19.8): every Tab stop of the start panel, a game and screen-reader mode shows its focus (3:1), light and dark; every kind of control covered',
    async run({ browser, base }) {
      const kinds = new Set();
      for (const colorScheme of ['light', 'dark']) {
        const context = await browser.newContext({ colorScheme });
        await context.addInitScript(() => localStorage.setItem('rochade.lang', 'en'));
        const page = await context.newPage();
        try {
          await page.goto(base);
          await page.waitForFunction(() => !document.querySelector('[data-testid="play"]')?.disabled);
          for (const s of await tabWalk(page, `the start panel (${colorScheme})`)) kinds.add(s.kind);
          await startGame(page, { opponent: 'local', control: '10+5' });
          for (const [i, m] of ['e4', 'e5', 'Nf3'].entries()) {
            await command(page, m);
            await waitPly(page, i + 1);
          }
          await byId(page, 'notes-box').count().then((n) => (n ? byId(page, 'notes-box').locator('summary').click() : undefined));
          for (const s of await tabWalk(page, `a game (${colorScheme})`)) kinds.add(s.kind);
          await byId(page, 'access-link').click();
          await page.locator('body.reader').waitFor();
          const reader = await tabWalk(page, `screen-reader mode (${colorScheme})`);
          for (const s of reader) kinds.add(s.kind);
          assert(reader.some((s) => s.kind === 'gridcell'), 'the grid is in the tab order in screen-reader mode');
          await byId(page, 'access-link').click();
        } finally {
          await context.close();
        }
      }
      console.log(`      kinds of control walked: ${[...kinds].sort().join(', ')}`);
      for (const want of ['a', 'button', 'combobox', 'input:checkbox', 'input:text', 'input:range', 'gridcell']) {
        assert([...kinds].some((k) => k === want || (want === 'combobox' && k === 'select')), `a ${want} was among the stops: ${[...kinds].join(', ')}`);
      }
    },
  },
  {
    name: 'motion (19.8): under prefers-reduced-motion no piece slides and no CSS animation runs (the game, the dashboard\'s analysis board); without it pieces slide; a check on the analysis board in words',
    async run({ browser, base }) {
      // The check itself sees sliding when motion is allowed.
      const plain = await browser.newContext();
      const page = await plain.newPage();
      await page.goto(base);
      await startGame(page, { opponent: 'local', control: '-' });
      await watchSliding(page);
      await command(page, 'e4');
      await waitPly(page, 1);
      await page.waitForFunction(() => window.slid > 0, null, { timeout: 5_000 }).catch(() => {
        throw new Error('a move made without reduced motion did not slide: the check sees nothing');
      });
      await plain.close();

      const { ann, bob } = await correspondenceGame(browser, base);
      try {
        await ann.page.emulateMedia({ reducedMotion: 'reduce' });
        await ann.page.reload();
        await waitPly(ann.page, 0);
        assert((await ann.page.locator('.board').getAttribute('data-motion')) === 'reduced', 'the game board knows');
        await watchSliding(ann.page);
        await clickMove(ann.page, 'e2e4');
        await byId(ann.page, 'move-confirm').click();
        await waitPly(ann.page, 1);
        await waitPly(bob.page, 1);
        await clickMove(bob.page, 'e7e5');
        await byId(bob.page, 'move-confirm').click();
        await waitPly(ann.page, 2);
        assert((await ann.page.evaluate(() => window.slid)) === 0, 'no piece slid on the game board');
        assert((await running(ann.page)).length === 0, `no animation runs: ${await running(ann.page)}`);

        await ann.page.goto(`${base}/correspondence`);
        await ann.page.locator('[data-testid="dash-game"]').first().waitFor();
        await watchSliding(ann.page);
        await byId(ann.page, 'analysis-open').first().click();
        await byId(ann.page, 'analysis-input').waitFor();
        await byId(ann.page, 'analysis-input').fill('Nf3');
        await byId(ann.page, 'analysis-input').press('Enter');
        await ann.page.locator('[data-testid="analysis-move"]').first().waitFor();
        assert((await ann.page.evaluate(() => window.slid)) === 0, `no piece slid on the analysis board (${await ann.page.evaluate(() => window.slid)})`);
        assert((await running(ann.page)).length === 0, `no animation runs on the dashboard: ${await running(ann.page)}`);
        // Not by colour alone (19.8): a check on the analysis board is said in words too.
        for (const [i, m] of ['d6', 'Bb5+'].entries()) {
          await byId(ann.page, 'analysis-input').fill(m);
          await byId(ann.page, 'analysis-input').press('Enter');
          await ann.page.waitForFunction((n) => document.querySelectorAll('[data-testid="analysis-move"]').length === n, i + 2);
        }
        const said = (await byId(ann.page, 'analysis-status').textContent()) ?? '';
        assert(said === 'Black to move (check)', `the check in words: ${said}`);
      } finally {
        await ann.context.close();
        await bob.context.close();
      }
    },
  },
  {
    name: 'board colours (19.8): on the picture of the board the last move, the check, the picked-up piece and its destinations stand out 3:1 from both square colours (WCAG 1.4.11), light and dark; the last move framed and the check marked "+" (not by colour alone, 1.4.1); the coordinates readable',
    async run({ browser, base }) {
      for (const colorScheme of ['light', 'dark']) {
        // Reduced motion: no piece is caught sliding across a square measured.
        const context = await browser.newContext({ colorScheme, viewport: { width: 1280, height: 720 }, reducedMotion: 'reduce' });
        await context.addInitScript(() => localStorage.setItem('rochade.lang', 'en'));
        const page = await context.newPage();
        try {
          // Two positions: the highlights first on light squares (d1, h5, e8), then on dark ones (d8, h4, e1).
          const lines = [
            { moves: ['e4', 'f5', 'Qh5+'], last: ['d1', 'h5'], king: 'e8', pick: 'g7', dest: 'g6' },
            { moves: ['f3', 'e6', 'a3', 'Qh4+'], last: ['d8', 'h4'], king: 'e1', pick: 'g2', dest: 'g3' },
          ];
          const seen = new Set();
          for (const line of lines) {
            await page.goto(base);
            await startGame(page, { opponent: 'local', control: '-' });
            await playTyped(page, line.moves);
            const where = `${line.moves.join(' ')} (${colorScheme})`;
            for (const sq of [...line.last, line.king]) {
              const c = await frameContrast(page, sq);
              seen.add(((sq.charCodeAt(0) - 97 + Number(sq[1])) % 2 === 1 ? 'dark ' : 'light ') + (sq === line.king ? 'check' : 'last move'));
              assert(c.inside >= 3 && c.outside >= 3, `${where}: the frame on ${sq} contrasts ${c.inside.toFixed(2)}:1 with its fill and ${c.outside.toFixed(2)}:1 with its neighbour: ${JSON.stringify(c)}`);
            }
            const plus = await page.evaluate(() => {
              const el = document.querySelector('cg-board square.check');
              return el ? getComputedStyle(el, '::after').content : null;
            });
            assert(plus === '"+"', `${where}: the king in check is marked "+", not by its colour alone: ${plus}`);
            // The piece picked up (a click) and where it may go.
            const at = await squareCenter(page, line.pick);
            await page.mouse.click(at.x, at.y);
            await page.locator('cg-board square.selected').waitFor();
            const picked = await frameContrast(page, line.pick);
            assert(picked.inside >= 3 && picked.outside >= 3, `${where}: the picked-up square ${line.pick} framed at ${picked.inside.toFixed(2)}:1 and ${picked.outside.toFixed(2)}:1: ${JSON.stringify(picked)}`);
            const [dot, around] = await boardPixels(page, [
              [line.dest, 0.5, 0.5],
              [line.dest, 0.12, 0.12],
            ]);
            assert(contrast(dot, around) >= 3, `${where}: the destination dot on ${line.dest} contrasts ${contrast(dot, around).toFixed(2)}:1 with its square (${dot} on ${around})`);
            // The coordinates are text: 4.5:1 against both square colours (1.4.3).
            const ink = await page.evaluate(() => [...document.querySelectorAll('.cg-wrap coords coord')].map((c) => getComputedStyle(c).color + ' ' + getComputedStyle(c.parentElement).opacity));
            const [light, dark] = await boardPixels(page, [
              ['d3', 0.5, 0.5],
              ['e3', 0.5, 0.5],
            ]);
            for (const i of new Set(ink)) {
              const m = i.match(/rgba?\((\d+), (\d+), (\d+)(?:, ([\d.]+))?\) ([\d.]+)/);
              const alpha = (m[4] === undefined ? 1 : Number(m[4])) * Number(m[5]);
              for (const square of [light, dark]) {
                const seenInk = [1, 2, 3].map((k, j) => Number(m[k]) * alpha + square[j] * (1 - alpha));
                assert(contrast(seenInk, square) >= 4.5, `${where}: a coordinate (${i}) contrasts ${contrast(seenInk, square).toFixed(2)}:1 with a square (${square})`);
              }
            }
          }
          assert(seen.size === 4, `the frames were measured on both square colours: ${[...seen].join(', ')}`);
        } finally {
          await context.close();
        }
      }
    },
  },
  {
    name: 'zoom and phones (19.8): text at 200 % on 1280 px, a 360×740 phone and 320 px (400 % zoom): nothing cut off, no sideways scrolling, the board fits and a game is played there',
    async run({ browser, base }) {
      const wide = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      await wide.addInitScript(() => {
        localStorage.setItem('rochade.lang', 'sk');
        document.addEventListener('DOMContentLoaded', () => {
          document.documentElement.style.fontSize = '200%';
        });
      });
      const page = await wide.newPage();
      try {
        await page.goto(base);
        await page.waitForFunction(() => !document.querySelector('[data-testid="play"]')?.disabled);
        assert(await page.evaluate(() => getComputedStyle(document.documentElement).fontSize === '32px'), 'the text is at 200 %');
        let cut = await cutOff(page);
        assert(cut.out.length === 0 && cut.wider <= 0, `the start panel at 200 %: ${JSON.stringify(cut)}`);
        await startGame(page, { opponent: 'local', control: '10+5' });
        await command(page, 'e4');
        await waitPly(page, 1);
        cut = await cutOff(page);
        assert(cut.out.length === 0 && cut.wider <= 0, `a game at 200 %: ${JSON.stringify(cut)}`);
        await byId(page, 'access-link').click();
        await page.locator('body.reader').waitFor();
        cut = await cutOff(page);
        assert(cut.out.length === 0 && cut.wider <= 0, `screen-reader mode at 200 %: ${JSON.stringify(cut)}`);
      } finally {
        await wide.close();
      }

      const phone = await browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
      await phone.addInitScript(() => localStorage.setItem('rochade.lang', 'en'));
      const small = await phone.newPage();
      try {
        await small.goto(base);
        await small.waitForFunction(() => !document.querySelector('[data-testid="play"]')?.disabled);
        let cut = await cutOff(small);
        assert(cut.out.length === 0 && cut.wider <= 0, `the start panel on a phone: ${JSON.stringify(cut)}`);
        await startGame(small, { opponent: 'local', control: '10+5' });
        const board = await byId(small, 'board').boundingBox();
        assert(board.x >= 0 && board.x + board.width <= 360 && board.width >= 300, `the board fits the phone's width: ${JSON.stringify(board)}`);
        await clickMove(small, 'e2e4');
        await waitPly(small, 1);
        await command(small, 'e5');
        await waitPly(small, 2);
        cut = await cutOff(small);
        assert(cut.out.length === 0 && cut.wider <= 0, `a game on a phone: ${JSON.stringify(cut)}`);
        for (const id of ['resign', 'draw-offer-button', 'move-input']) {
          const box = await byId(small, id).boundingBox();
          assert(box && box.width >= 24 && box.height >= 24, `${id} is a target of at least 24×24 px (2.5.8): ${JSON.stringify(box)}`);
        }
        await axeBoth(small, 'a game on a phone');
      } finally {
        await phone.close();
      }

      // 320 px wide: WCAG's reflow width (1280 px at 400 % zoom).
      const narrow = await browser.newContext({ viewport: { width: 320, height: 640 } });
      const thin = await narrow.newPage();
      try {
        await thin.goto(base);
        await thin.waitForFunction(() => !document.querySelector('[data-testid="play"]')?.disabled);
        let cut = await cutOff(thin);
        assert(cut.out.length === 0 && cut.wider <= 0, `the start panel at 320 px: ${JSON.stringify(cut)}`);
        await startGame(thin, { opponent: 'local', control: '10+5' });
        cut = await cutOff(thin);
        assert(cut.out.length === 0 && cut.wider <= 0, `a game at 320 px: ${JSON.stringify(cut)}`);
      } finally {
        await narrow.close();
      }
    },
  },
  {
    name: 'simuls by keyboard (19.6, 19.8): /simuls walked and a simul made with Tab and Enter; a player applies, the host accepts and starts by keyboard; the boards walked with a visible focus; N opens the board waiting',
    async run({ browser, base }) {
      const people = [];
      try {
        for (const prefix of ['Host', 'Ann']) people.push(await player(browser, base, prefix));
        const [host, ann] = people;
        await host.page.goto(`${base}/simuls`);
        await byId(host.page, 'sim-list-title').waitFor();
        await tabWalk(host.page, '/simuls with the form');
        await host.page.evaluate(() => document.activeElement?.blur());
        await tabTo(host.page, 'sim-name');
        await host.page.keyboard.type('Keyboard simul');
        await tabTo(host.page, 'sim-create');
        await host.page.keyboard.press('Enter');
        await host.page.waitForURL(/\/simuls\/[^/]+$/);
        const simul = new URL(host.page.url()).pathname.split('/')[2];
        await host.page.waitForFunction(() => document.querySelector('[data-testid="sim-title"]')?.textContent === 'Keyboard simul');

        await ann.page.goto(`${base}/simuls/${simul}`);
        await byId(ann.page, 'sim-title').waitFor();
        await tabTo(ann.page, 'sim-apply');
        await ann.page.keyboard.press('Enter');
        await byId(ann.page, 'sim-withdraw').waitFor();

        await host.page.locator('[data-testid="sim-applicant"]').waitFor();
        await tabWalk(host.page, 'a simul\'s applicants for its host');
        await host.page.evaluate(() => document.activeElement?.blur());
        await tabTo(host.page, 'sim-accept');
        await host.page.keyboard.press('Enter');
        await host.page.locator('[data-testid="sim-applicant"][data-accepted="true"]').waitFor();
        await host.page.evaluate(() => document.activeElement?.blur());
        await tabTo(host.page, 'sim-start-button');
        await host.page.keyboard.press('Enter');
        await byId(host.page, 'sim-board').waitFor();
        await waitLive(host.page, 'Your move on board 1.');
        const boards = await tabWalk(host.page, 'the host\'s boards');
        assert(boards.some((b) => b.id === 'sim-board-link'), `the boards are reached: ${boards.map((b) => b.id).join(', ')}`);
        await host.page.evaluate(() => document.activeElement?.blur());
        await host.page.keyboard.press('n');
        await host.page.waitForURL(/\/g\/[^/#]+#/);
      } finally {
        for (const p of people) await p.context.close();
      }
    },
  },
  {
    name: 'this wave\'s pages by keyboard (19.6, 19.7): /director and /tournaments/{id} worked with Tab and Enter (a tournament made, players added, started, a draw adjudicated), the decision dialog closed by Escape; the dashboard, the lobby, a profile, a replay and the notifications dialog walked; a visible focus on every stop; axe light and dark',
    async run({ browser }) {
      const { base, dee, ann, bob, close } = await directorSetup(browser);
      try {
        // /director: a tournament made with the keyboard alone.
        await dee.page.goto(`${base}/director`);
        await byId(dee.page, 'director-state').and(dee.page.locator('[data-state="ready"]')).waitFor();
        await tabWalk(dee.page, '/director');
        await dee.page.evaluate(() => document.activeElement?.blur());
        await tabTo(dee.page, 'tn-name');
        await dee.page.keyboard.type('Keyboard Cup');
        await tabTo(dee.page, 'tn-create');
        await dee.page.keyboard.press('Enter');
        await dee.page.waitForURL(/\/tournaments\/[^/]+$/);
        await dee.page.waitForFunction(() => document.querySelector('[data-testid="tn-title"]')?.textContent === 'Keyboard Cup');
        const tournament = new URL(dee.page.url()).pathname.split('/')[2];

        // /tournaments/{id}: players added and the start, by keyboard.
        for (const p of [ann, bob]) {
          await tabTo(dee.page, 'tn-add-name');
          await dee.page.keyboard.type(p.name);
          await dee.page.keyboard.press('Enter');
          await waitLive(dee.page, `${p.name} added.`);
        }
        await tabWalk(dee.page, 'a tournament\'s page before its start');
        await dee.page.evaluate(() => document.activeElement?.blur());
        await tabTo(dee.page, 'tn-start-send');
        await dee.page.keyboard.press('Enter');
        await waitLive(dee.page, 'The tournament has started');
        await byId(dee.page, 'tn-game').first().waitFor();
        await dee.page.evaluate(() => document.activeElement?.blur());
        await tabTo(dee.page, 'decide-open');
        const decideFor = await focusedDescription(dee.page);
        assert(decideFor.includes(ann.name) && decideFor.includes(bob.name), `a screen reader hears which game "Decide…" is for: "${decideFor}"`);
        await dee.page.keyboard.press('Enter');
        await byId(dee.page, 'decide-dialog').waitFor();
        assert((await focused(dee.page)) === 'decide-act', `the dialog opens on its first field: ${await focused(dee.page)}`);
        const inDialog = await tabWalk(dee.page, 'the decision dialog', { fromTop: false });
        assert(inDialog.every((s) => s.id.startsWith('decide-')), `Tab stays in the dialog: ${inDialog.map((s) => s.id).join(', ')}`);
        await dee.page.keyboard.press('Escape');
        await byId(dee.page, 'decide-dialog').waitFor({ state: 'detached' });
        assert((await focused(dee.page)) === 'decide-open', `Escape gives the focus back: ${await focused(dee.page)}`);
        const walked = await tabWalk(dee.page, 'a started tournament for its director');
        assert(walked.some((s) => s.id === 'tn-game-link') && walked.some((s) => s.id === 'decide-open'), `the games and their decisions are reached: ${walked.map((s) => s.id).join(', ')}`);

        // The players' view of the tournament, axe and the keyboard.
        await ann.page.goto(`${base}/tournaments/${tournament}`);
        await byId(ann.page, 'tn-game').first().waitFor();
        const game = await byId(ann.page, 'tn-game').first().getAttribute('data-game');
        await axeBoth(ann.page, 'a started tournament seen by a player');
        const seen = await tabWalk(ann.page, 'a tournament seen by a player');
        assert(seen.some((s) => s.id === 'tn-game-link'), `a player reaches the game: ${seen.map((s) => s.id).join(', ')}`);
        await ann.page.evaluate(() => document.activeElement?.blur());
        await tabTo(ann.page, 'tn-game-link');
        await ann.page.keyboard.press('Enter');
        await ann.page.waitForURL(/\/g\/[^/]+/);
        await ann.page.waitForFunction(() => document.querySelector('[data-testid="status"]')?.hasAttribute('data-ply'));

        // The dashboard: the game listed, walked with Tab, its notes opened and typed with the keyboard.
        await ann.page.goto(`${base}/correspondence`);
        await byId(ann.page, 'dash-game').first().waitFor();
        const dash = await tabWalk(ann.page, '/correspondence');
        assert(dash.some((s) => s.id === 'dash-link') && dash.some((s) => s.id === 'analysis-open'), `the dashboard's games and tools are reached: ${dash.map((s) => s.id).join(', ')}`);
        await ann.page.evaluate(() => document.activeElement?.blur());
        const cards = await byId(ann.page, 'dashboard').ariaSnapshot();
        assert(cards.includes(`link "vs ${bob.name}`), `the dashboard's game is a link named by the opponent:\n${cards}`);
        await tabTo(ann.page, 'analysis-open');
        const analysisFor = await focusedDescription(ann.page);
        assert(analysisFor.includes(bob.name), `a screen reader hears which game the analysis board is for: "${analysisFor}"`);
        await ann.page.keyboard.press('Enter');
        await byId(ann.page, 'analysis-input').waitFor();
        await tabTo(ann.page, 'analysis-input');
        await ann.page.keyboard.type('e4');
        await ann.page.keyboard.press('Enter');
        await byId(ann.page, 'analysis-move').first().waitFor();
        await tabWalk(ann.page, '/correspondence with an analysis board');
        await axeBoth(ann.page, 'the dashboard with an analysis board');

        // A draw adjudicated from the decision dialog with the keyboard alone.
        await dee.page.evaluate(() => document.activeElement?.blur());
        await tabTo(dee.page, 'decide-open');
        await dee.page.keyboard.press('Enter');
        await byId(dee.page, 'decide-dialog').waitFor();
        await dee.page.keyboard.type('Adj');
        await dee.page.waitForFunction(() => document.querySelector('[data-testid="decide-act"]')?.value === 'adjudicate');
        await tabTo(dee.page, 'decide-reason');
        await dee.page.keyboard.type('A dead draw (11.1)');
        await tabTo(dee.page, 'decide-send');
        await dee.page.keyboard.press('Enter');
        await byId(dee.page, 'decide-dialog').waitFor({ state: 'detached' });
        await dee.page.locator(`[data-testid="tn-game"][data-result="1/2-1/2"]`).waitFor();

        // The lobby, the profile with the finished game and its replay, walked.
        await ann.page.goto(base);
        await byId(ann.page, 'play').waitFor();
        await tabWalk(ann.page, 'the start page with the lobby');
        await ann.page.goto(`${base}/@/${ann.name}`);
        await ann.page.locator(`[data-testid="game-item"][data-game="${game}"]`).waitFor();
        await tabWalk(ann.page, 'a profile');
        await ann.page.goto(`${base}/@/${ann.name}?game=${game}`);
        await byId(ann.page, 'replay').waitFor();
        const replay = await tabWalk(ann.page, 'a replay');
        assert(replay.some((s) => s.id.startsWith('replay-')), `the replay's controls are reached: ${replay.map((s) => s.id).join(', ')}`);

        // The notifications dialog: Tab stays inside, Escape closes it and gives the focus back.
        await openNotify(bob.page);
        const notify = await tabWalk(bob.page, 'the notifications dialog', { fromTop: false });
        const inside = await bob.page.evaluate(() => !!document.activeElement?.closest('dialog'));
        assert(inside && notify.length >= 4, `Tab stays in the notifications dialog: ${notify.map((s) => s.id).join(', ')}`);
        await bob.page.keyboard.press('Escape');
        await bob.page.waitForFunction(() => !document.querySelector('dialog[open]'));
        await bob.page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'account-button');
      } finally {
        await close();
      }
    },
  },
];
