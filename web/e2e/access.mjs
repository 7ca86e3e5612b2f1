// The end-to-end tests of issue 19: what a blind or visually impaired
// player meets, read from Chromium's accessibility tree and the live
// regions; axe-core on every screen.
import AxeBuilder from '@axe-core/playwright';
import { assert, byId, clickMove, playAsWhite, serverState, startGame, waitPly, waitResult } from './browser.mjs';
import { bookLeave, correspondenceGame, dayFromToday, openLeave } from './correspondence.mjs';

/** The text of the polite live region (every announcement, oldest first). */
const liveText = async (page) => (await byId(page, 'live').textContent()) ?? '';
/** The text of the assertive live region. */
const urgentText = async (page) => (await byId(page, 'live-urgent').textContent()) ?? '';

/** Waits until the polite live region contains `text`. */
async function waitLive(page, text, region = 'live', timeout = 15_000) {
  await page
    .waitForFunction(([t, r]) => document.querySelector(`[data-testid="${r}"]`)?.textContent?.includes(t), [text, region], { timeout })
    .catch(async () => {
      throw new Error(`the live region "${region}" never said "${text}": "${await byId(page, region).textContent()}"`);
    });
}

/** Types one line into the command input and sends it. */
async function command(page, text) {
  await byId(page, 'move-input').fill(text);
  await byId(page, 'move-input').press('Enter');
}

/** Types `moves` one by one into the command input, each waited for on the board (the first is ply `from` + 1). */
export async function playTyped(page, moves, from = 0) {
  for (const [i, m] of moves.entries()) {
    await command(page, m);
    await waitPly(page, from + i + 1);
  }
}

/**
 * A new local game played by typing until White's pawn on b7 may take the
 * rook on a8 (`bishop` and `knight` are the page's letters for them); types
 * `bxa8` without a piece and returns the page's question.
 */
async function toPromotion(page, base, bishop, knight) {
  await page.goto(base);
  await startGame(page, { opponent: 'local', control: '-' });
  await playTyped(page, ['a4', 'b5', 'axb5', 'a6', 'bxa6', `${bishop}b7`, 'axb7', `${knight}c6`]);
  await command(page, 'bxa8');
  return waitAnswer(page, 'bxa8=', 'error');
}

/** The text in the answer line (a command's answer) once it contains `part`. */
async function waitAnswer(page, part, id = 'answer') {
  await page
    .waitForFunction(([p, i]) => document.querySelector(`[data-testid="${i}"]`)?.textContent?.includes(p), [part, id], { timeout: 10_000 })
    .catch(async () => {
      throw new Error(`"${id}" never said "${part}": "${await byId(page, id).textContent()}"`);
    });
  return (await byId(page, id).textContent()) ?? '';
}

/** The test id of the focused element. */
const focused = (page) => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName);

/** axe-core on the page as it is: fails on any violation (WCAG 2.0–2.2 A and AA, and best practice). */
export async function axe(page, where) {
  const { violations } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']).analyze();
  const lines = violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join('; ')})`);
  assert(violations.length === 0, `axe on ${where}:\n        ${lines.join('\n        ')}`);
}

/** Light and dark axe runs on `page` as it is (light again after). */
export async function axeBoth(page, where) {
  for (const colorScheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme });
    await axe(page, `${where} (${colorScheme})`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

/** A fresh page with the accessibility choices `prefs` and the language `lang` set before it loads. */
async function freshPage(browser, { prefs = null, lang = 'en', colorScheme = 'light' } = {}) {
  const context = await browser.newContext({ colorScheme });
  await context.addInitScript(
    ([p, l]) => {
      if (p) localStorage.setItem('rochade.access', JSON.stringify(p));
      localStorage.setItem('rochade.lang', l);
    },
    [prefs, lang],
  );
  const page = await context.newPage();
  return { context, page };
}

export const accessTests = [
  {
    name: 'a11y findings: the board is a grid of named squares; both the move and the reply are announced; a Black player hears the robot\'s first move',
    async run({ browser, base }) {
      const { context, page } = await freshPage(browser);
      await page.goto(base);
      assert((await page.locator('.cg-wrap').getAttribute('aria-hidden')) === 'true', 'the picture of the board is hidden from screen readers');
      await startGame(page, { opponent: 'robot', level: 1, color: 'white', control: '-' });
      const tree = await byId(page, 'grid').ariaSnapshot();
      assert(tree.includes('gridcell "e2, white pawn"') && tree.includes('gridcell "e4, empty"') && tree.includes('gridcell "g8, black knight"'), `the grid names every square:\n${tree.slice(0, 300)}`);
      // Seen in screen-reader mode by those with some sight: a1 dark, h1 light (2.1).
      const shade = (sq) => page.locator(`[role="gridcell"][data-square="${sq}"]`).evaluate((e) => (e.classList.contains('dark') ? 'dark' : 'light'));
      assert((await shade('a1')) === 'dark' && (await shade('h1')) === 'light' && (await shade('e4')) === 'light' && (await shade('d4')) === 'dark', 'the grid\'s squares are coloured as a chessboard\'s (a1 dark)');
      await command(page, 'e4');
      await waitPly(page, 2, 30_000);
      await waitLive(page, 'Black:');
      const live = await liveText(page);
      assert(live.includes('White: pawn e4') && live.indexOf('White: pawn e4') < live.indexOf('Black:'), `both moves announced, in order: "${live}"`);
      assert((await page.getByRole('gridcell', { name: 'e4, white pawn' }).count()) === 1, 'the grid follows the game');
      await context.close();

      const black = await freshPage(browser);
      await black.page.goto(base);
      await startGame(black.page, { opponent: 'robot', level: 1, color: 'black', control: '-' });
      await waitPly(black.page, 1, 30_000);
      await waitLive(black.page, 'White:');
      await black.context.close();
    },
  },
  {
    name: 'a11y findings: Play, resign, draw offers, take-backs and claims move the focus and are announced',
    async run({ browser, base }) {
      const { context, page } = await freshPage(browser);
      await page.goto(base);
      await byId(page, 'opponent').selectOption('local');
      await byId(page, 'time-control').selectOption('-');
      await page.waitForFunction(() => !document.querySelector('[data-testid="play"]')?.disabled);
      await byId(page, 'play').focus();
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/g\//);
      await waitLive(page, 'Game started');
      assert((await focused(page)) === 'status', `the focus is on the game's status after Play: ${await focused(page)}`);
      await byId(page, 'resign').focus();
      await page.keyboard.press('Enter');
      assert((await focused(page)) === 'resign-cancel', `the resignation question takes the focus: ${await focused(page)}`);
      await page.keyboard.press('Enter');
      assert((await focused(page)) === 'resign', `cancelling gives the focus back to Resign: ${await focused(page)}`);
      await command(page, 'e4');
      await waitPly(page, 1);
      await byId(page, 'draw-offer-button').focus();
      await page.keyboard.press('Enter');
      await waitLive(page, 'offers a draw');
      assert((await focused(page)) !== 'BODY', 'the focus stays in the game after a draw offer');
      await byId(page, 'draw-decline').click();
      await waitLive(page, 'The draw offer was declined');
      await byId(page, 'takeback').focus();
      await page.keyboard.press('Enter');
      await waitPly(page, 0);
      await waitLive(page, 'A move was taken back');
      assert((await focused(page)) !== 'BODY', `the focus stays in the game after a take-back: ${await focused(page)}`);
      await byId(page, 'claim-with-move').check();
      await byId(page, 'claim-threefold').click();
      await waitLive(page, 'will be written down with a');
      await context.close();
    },
  },
  {
    name: 'a11y findings: the clocks are named, Alt+C reads them, and the result says who won',
    async run({ browser, base }) {
      const { context, page } = await freshPage(browser);
      await page.goto(base);
      await startGame(page, { opponent: 'local', control: '10+5' });
      const bar = await byId(page, 'bar-bottom').ariaSnapshot();
      assert(/White clock: (10:00|9:5\d)/.test(bar), `the clock has a name: ${bar}`);
      await page.keyboard.press('Alt+c');
      await waitLive(page, 'Black: 10 min 0 s');
      assert(/White: (10 min 0|9 min 5\d) s/.test(await liveText(page)), 'Alt+C reads White\'s clock too');
      await playTyped(page, ['f3', 'e5', 'g4', 'Qh4#']);
      await waitLive(page, 'Black wins', 'live-urgent');
      const r = await waitResult(page);
      assert(r.text.startsWith('Black wins'), `the result says who won: ${r.text}`);
      assert((await urgentText(page)).includes('checkmate'), 'the end is announced at once');
      await context.close();
    },
  },
  {
    name: 'a11y findings: bad input in Slovak: a move into check, an unknown command, the server\'s errors; the input is kept',
    async run({ browser, base }) {
      const { context, page } = await freshPage(browser, { lang: 'sk' });
      // What the page sends on its sockets, but for the keep-alive pings.
      const sent = [];
      page.on('websocket', (ws) => ws.on('framesent', (f) => (String(f.payload).includes('"ping"') ? undefined : sent.push(String(f.payload)))));
      await page.goto(base);
      await startGame(page, { opponent: 'local', control: '-' });
      await playTyped(page, ['e4', 'd5', 'Sb5+']);
      await command(page, 'a5');
      const check = await waitAnswer(page, 'šachu', 'error');
      assert(check.includes('Váš kráľ je v šachu') && check.includes('a7') && check.includes('a5'), `a move that ignores check: "${check}"`);
      assert((await byId(page, 'move-input').inputValue()) === 'a5', 'the input keeps what was typed');
      assert((await byId(page, 'error').getAttribute('data-code')) === null, 'nothing was sent to the server');
      const before = sent.length;
      await command(page, 'xyz');
      const unknown = await waitAnswer(page, 'xyz', 'error');
      assert(unknown.startsWith('Neznámy príkaz: xyz'), `unknown command: "${unknown}"`);
      await command(page, 'Jf5');
      await waitAnswer(page, 'f5', 'error');
      assert(sent.length === before && !sent.some((f) => f.includes('a7a5')), `bad input sends nothing on the socket: ${sent.slice(before).join(' ')}`);
      // The server refuses an abort after both sides moved: its code, said in Slovak.
      await command(page, 'c6');
      await waitPly(page, 4);
      await command(page, 'zrušiť');
      await page.waitForFunction(() => document.querySelector('[data-testid="error"]')?.dataset.code === 'not_allowed');
      const refused = (await byId(page, 'error').textContent()) ?? '';
      assert(refused === 'To teraz nie je dovolené', `the server's refusal in Slovak: "${refused}"`);
      await context.close();
    },
  },
  {
    name: 'a11y findings: ambiguous, impossible and promotion moves are explained; the Chess960 number has a label',
    async run({ browser, base }) {
      const { context, page } = await freshPage(browser);
      await page.goto(base);
      await byId(page, 'chess960').selectOption('number');
      const name = await byId(page, 'chess960-number').getAttribute('aria-label');
      assert(name === 'Chess960 start position number', `the number field is named: ${name}`);
      await byId(page, 'chess960').selectOption('off');
      await startGame(page, { opponent: 'local', control: '-' });
      await command(page, 'Nf5');
      assert((await waitAnswer(page, 'f5', 'error')) === 'No knight can go to f5', 'no piece can go there');
      await playTyped(page, ['d4', 'd5', 'Nf3', 'Nf6']);
      await command(page, 'Nd2');
      const amb = await waitAnswer(page, 'Ambiguous', 'error');
      assert(amb === 'Ambiguous: Nbd2 or Nfd2', `ambiguous: "${amb}"`);
      await command(page, 'Nbd2');
      await waitPly(page, 5);
      const promo = await toPromotion(page, base, 'B', 'N');
      assert(promo.includes('bxa8=Q, bxa8=R, bxa8=B, bxa8=N') && !promo.includes('b7a8q'), `the promotion question: "${promo}"`);
      await command(page, 'bxa8=N');
      await waitPly(page, 9);
      const last = await byId(page, 'move').last().textContent();
      assert(last === 'bxa8=N', `promoted to a knight: ${last}`);
      await waitLive(page, 'White: pawn b takes a8 promotes to knight');
      const list = byId(page, 'moves');
      assert((await list.getAttribute('tabindex')) === '0', 'the move list can be reached with the keyboard');
      await context.close();
    },
  },
  {
    name: 'Appendix D (19.4): a promotion said the phonetic way in Slovak, the piece named (D.2.1: "Bauer Bella 7 … Anna 8 … Springer") in the live region, the move list, the last move and the answer to last',
    async run({ browser, base }) {
      const { context, page } = await freshPage(browser, { lang: 'sk', prefs: { reader: true, voice: 'phonetic', speech: false, rate: 1 } });
      // D.2.1: "When promoting a pawn, the player must announce which piece is chosen."
      const asked = await toPromotion(page, base, 'S', 'J');
      assert(asked.includes('bxa8=D, bxa8=V, bxa8=S, bxa8=J'), `the pawn's piece is asked for in Slovak letters: "${asked}"`);
      await command(page, 'bxa8=J');
      await waitPly(page, 9);
      const said = 'Biely: Bauer Bella 7 berie Anna 8 premena na Springer';
      await waitLive(page, said);
      const tree = await byId(page, 'moves').ariaSnapshot();
      assert(/listitem: "?5\. Biely: Bauer Bella 7 berie Anna 8 premena na Springer/.test(tree), `the move list says the promotion the same way:\n${tree}`);
      const last = (await byId(page, 'last-move').textContent()) ?? '';
      assert(last === 'Posledný ťah: Bauer Bella 7 berie Anna 8 premena na Springer', `the last move under the board: "${last}"`);
      await command(page, 'posledny');
      assert((await waitAnswer(page, 'Springer')).includes(said), 'last answers with the promotion named');
      // Black's reply, heard the same way (a capture of the new knight).
      await command(page, 'Dxa8');
      await waitPly(page, 10);
      await waitLive(page, 'Čierny: Dame David 8 berie Anna 8');
      await context.close();
    },
  },
  {
    name: 'axe-core finds no violation: the start panel, the settings, a game in progress, a finished game, screen-reader mode, dark theme',
    async run({ browser, base }) {
      for (const colorScheme of ['light', 'dark']) {
        const { context, page } = await freshPage(browser, { colorScheme });
        await page.goto(base);
        await page.waitForFunction(() => !document.querySelector('[data-testid="play"]')?.disabled);
        await axe(page, `the start panel (${colorScheme})`);
        await byId(page, 'time-control').selectOption('custom');
        await byId(page, 'custom-control').fill('5 d3');
        await byId(page, 'chess960').selectOption('number');
        await page.waitForFunction(() => document.querySelector('[data-testid="category"]')?.dataset.category === 'blitz');
        await axe(page, `the settings (${colorScheme})`);
        await byId(page, 'chess960').selectOption('off');
        await startGame(page, { opponent: 'local', control: '10+5' });
        // Enough moves for the list to scroll.
        const opening = 'e4 e5 Nf3 Nc6 Bc4 Bc5 c3 Nf6 d3 d6 O-O O-O h3 h6 Re1 Re8 Nbd2 Be6 Bb3 Qd7 Nf1 Rad8 Ng3 a6'.split(' ');
        await playTyped(page, opening);
        await byId(page, 'draw-offer-button').click();
        await byId(page, 'draw-offer').waitFor();
        await axe(page, `a game in progress (${colorScheme})`);
        await byId(page, 'access-link').click();
        await page.locator('body.reader').waitFor();
        await axe(page, `a game in screen-reader mode (${colorScheme})`);
        await byId(page, 'access-link').click();
        await byId(page, 'resign').click();
        await byId(page, 'resign-confirm').click();
        await waitResult(page);
        await axe(page, `a finished game (${colorScheme})`);
        await context.close();
      }
    },
  },
  {
    name: 'screen-reader mode: the link first in the tab order, the grid played by keyboard, commands answered, Slovak phonetic announcements (Felix 3)',
    async run({ browser, base }) {
      const { context, page } = await freshPage(browser, { lang: 'sk' });
      await page.goto(base);
      await page.keyboard.press('Tab');
      assert((await focused(page)) === 'access-link', `the accessible-mode link is first in the tab order: ${await focused(page)}`);
      assert((await byId(page, 'access-link').textContent()) === 'Prístupný režim', 'the link is in Slovak');
      await page.keyboard.press('Enter');
      await page.locator('body.reader').waitFor();
      await byId(page, 'voice').selectOption('phonetic');
      await page.reload();
      await page.locator('body.reader').waitFor();
      assert((await byId(page, 'reader-mode').isChecked()), 'screen-reader mode is remembered');
      await startGame(page, { opponent: 'local', control: '10+5' });
      assert((await focused(page)) === 'move-input', `in screen-reader mode the command input has the focus: ${await focused(page)}`);
      // The knight from g1 to f3 on the grid, with the keyboard alone.
      await page.getByRole('gridcell', { name: 'e2, biely pešiak' }).focus();
      await page.keyboard.press('j');
      const onKnight = await focused(page);
      await page.keyboard.press('j');
      const cell = await page.evaluate(() => document.activeElement?.getAttribute('data-square'));
      assert(cell === 'g1', `the letter J jumps to the knights (${onKnight}, then ${cell})`);
      await page.keyboard.press('Enter');
      await waitLive(page, 'Zdvihnuté: biely jazdec g1; môže ísť na f3, h3');
      await page.keyboard.press('ArrowUp');
      await page.keyboard.press('ArrowUp');
      await page.keyboard.press('ArrowLeft');
      assert((await page.evaluate(() => document.activeElement?.getAttribute('data-square'))) === 'f3', 'the arrows move square by square');
      await page.keyboard.press('Enter');
      await waitPly(page, 1);
      await waitLive(page, 'Biely: Springer Gustav 1 Felix 3');
      const tree = await page.locator('main').ariaSnapshot();
      assert(tree.includes('gridcell "f3, biely jazdec"'), 'the grid shows the knight on f3');
      assert(/listitem: "?1\. Biely: Springer Gustav 1 Felix 3/.test(tree), `the move list is a list in the chosen voice:\n${tree}`);
      // Commands, answered in the live region.
      const ask = async (text, part) => {
        await command(page, text);
        const answer = await waitAnswer(page, part);
        await waitLive(page, part);
        return answer;
      };
      await command(page, 'e5');
      await waitPly(page, 2);
      await waitLive(page, 'Čierny: Bauer Eva 7 Eva 5');
      assert((await ask('p N', 'biely jazdec: b1, f3')).includes('čierny jazdec: b8, g8'), 'p N');
      assert((await ask('s e', 'Stĺpec e')).includes('e4, prázdne') === false, 's e lists only the occupied squares');
      assert((await ask('s 5', '5. rad: e5, čierny pešiak')) !== '', 's 5');
      assert((await ask('šachovnica', '8. rad: a8, čierna veža')).includes('1. rad: a1, biela veža'), 'board');
      assert((await ask('posledny', 'Posledný ťah: Čierny: Bauer Eva 7 Eva 5')) !== '', 'last, typed without diacritics');
      assert((await ask('hodiny', 'Biely: 10 min')).includes('Čierny'), 'clock');
      assert((await ask('materiál', 'Biely: kráľ, dáma')).includes('materiál 39'), 'material');
      assert((await ask('tahy f3', 'biely jazdec f3:')).includes('e5'), 'moves of a piece');
      assert((await ask('help', 'p J')) !== '', 'help');
      assert((await ask('otočiť', 'dole Čierny')) !== '', 'flip');
      assert((await ask('vzdať', 'Napíšte znova vzdať')) !== '', 'resigning asks first');
      await command(page, 'vzdat');
      const r = await waitResult(page);
      assert(r.text.startsWith('Čierny vyhral') && r.reason === 'resignation', `resigned by command: ${r.text}`);
      await waitLive(page, 'Čierny vyhral', 'live-urgent');
      await context.close();
    },
  },
  {
    name: 'a whole game against the robot from the command input alone (or resign by command after 40 moves)',
    async run({ browser, base }) {
      const { context, page } = await freshPage(browser, { prefs: { reader: true, voice: 'san', speech: false, rate: 1 } });
      await page.goto(base);
      const id = await startGame(page, { opponent: 'robot', level: 1, color: 'white', control: '-' });
      const moves = await playAsWhite(page, base, id, {
        seed: 7,
        play: async (uci) => {
          const move = `${uci.slice(0, 2)}-${uci.slice(2)}`;
          await command(page, move);
          // A pawn reaching the last rank needs its piece named: the page asks, then the test names it.
          const asked = await page
            .waitForFunction(() => document.querySelector('[data-testid="error"]')?.textContent?.includes('Which piece'), null, { timeout: 300 })
            .then(() => true, () => false);
          if (asked) await command(page, `${move}=Q`);
        },
      });
      const before = await serverState(base, id);
      if (!before.outcome) {
        await command(page, 'resign');
        await waitAnswer(page, 'again');
        await command(page, 'resign');
      }
      const r = await waitResult(page);
      await waitLive(page, r.text.split(':')[0], 'live-urgent');
      console.log(`      command-only robot game: ${moves} moves by White, ${before.outcome ? `ended ${before.outcome.result} by ${before.outcome.reason}` : 'then White resigned by command'}`);
      assert(before.outcome || (r.result === '0-1' && r.reason === 'resignation'), `resigned by command: ${r.result} ${r.reason}`);
      await context.close();
    },
  },
  {
    name: 'speech: announcements and the talking clock (Alt+C) are spoken in Czech at the chosen rate',
    async run({ browser, base }) {
      const { context, page } = await freshPage(browser, { lang: 'cs', prefs: { reader: false, voice: 'words', speech: true, rate: 1.5 } });
      // A recording stand-in for the browser's speech synthesis.
      await context.addInitScript(() => {
        window.spoken = [];
        Object.defineProperty(window, 'speechSynthesis', {
          configurable: true,
          value: { speak: (u) => window.spoken.push({ text: u.text, lang: u.lang, rate: u.rate }), getVoices: () => [], cancel: () => undefined },
        });
      });
      await page.goto(base);
      assert(await byId(page, 'speech').isChecked(), 'speech is on');
      await startGame(page, { opponent: 'local', control: '10+5' });
      await command(page, 'Jf3');
      await waitPly(page, 1);
      await page.keyboard.press('Alt+c');
      await page.waitForFunction(() => window.spoken.some((u) => u.text.includes('Bílý: 10 min') && u.text.includes('Černý')));
      const spoken = await page.evaluate(() => window.spoken);
      const move = spoken.find((u) => u.text.includes('Bílý: jezdec f3'));
      assert(move && move.lang === 'cs-CZ' && Math.abs(move.rate - 1.5) < 1e-6, `the move is spoken in Czech at rate 1.5: ${JSON.stringify(spoken)}`);
      await context.close();
    },
  },
  {
    name: 'everyone: check and the last move in words, reduced motion, the keyboard alone, 200 % text without horizontal scrolling',
    async run({ browser, base }) {
      const context = await browser.newContext({ reducedMotion: 'reduce', viewport: { width: 1280, height: 900 } });
      await context.addInitScript(() => localStorage.setItem('rochade.lang', 'en'));
      const page = await context.newPage();
      await page.goto(base);
      assert((await page.locator('.board').getAttribute('data-motion')) === 'reduced', 'no piece animation with prefers-reduced-motion');
      // The keyboard alone: Tab to Play, Enter, then moves typed.
      await byId(page, 'opponent').selectOption('local');
      await byId(page, 'time-control').selectOption('-');
      await page.waitForFunction(() => !document.querySelector('[data-testid="play"]')?.disabled);
      for (let i = 0; i < 30 && (await focused(page)) !== 'play'; i++) await page.keyboard.press('Tab');
      assert((await focused(page)) === 'play', 'Play is reached with Tab');
      const outline = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
      assert(outline !== 'none', `the focus is visible: outline ${outline}`);
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/g\//);
      await waitPly(page, 0);
      for (const [i, m] of ['e4', 'f5', 'Qh5+'].entries()) {
        await page.keyboard.type(m);
        await page.keyboard.press('Enter');
        await waitPly(page, i + 1);
      }
      const status = (await byId(page, 'status').textContent()) ?? '';
      assert(status.includes('(check)'), `check is said in words: ${status}`);
      const last = (await byId(page, 'last-move').textContent()) ?? '';
      assert(last === 'Last move: queen h5, check', `the last move in words: ${last}`);
      await waitLive(page, 'White: queen h5, check', 'live-urgent');
      await page.evaluate(() => {
        document.documentElement.style.fontSize = '200%';
      });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert(overflow <= 0, `200 % text needs no horizontal scrolling (${overflow} px too wide)`);
      assert(await byId(page, 'move-input').isVisible(), 'the command input is still there at 200 %');
      await context.close();
    },
  },
  {
    name: 'commands act: a draw offered and declined, a take-back, a threefold claim with the intended move (9.2), all by typing',
    async run({ browser, base }) {
      const { context, page } = await freshPage(browser);
      await page.goto(base);
      await startGame(page, { opponent: 'local', control: '-' });
      await command(page, 'claim');
      assert((await waitAnswer(page, 'Nothing to claim', 'error')) === 'Nothing to claim now', 'no claim at the start');
      await command(page, 'e4');
      await waitPly(page, 1);
      await command(page, 'draw');
      await waitLive(page, 'Black offers a draw');
      await command(page, 'decline');
      await waitLive(page, 'The draw offer was declined');
      await command(page, 'takeback');
      await waitPly(page, 0);
      await waitLive(page, 'A move was taken back');
      const shuffle = ['Nf3', 'Nf6', 'Ng1', 'Ng8', 'Nf3', 'Nf6', 'Ng1'];
      await playTyped(page, shuffle);
      await command(page, 'claim Ng8');
      const r = await waitResult(page);
      assert(r.result === '1/2-1/2' && r.reason === 'threefold_repetition', `claimed by command: ${r.result} ${r.reason}`);
      await waitLive(page, 'Draw', 'live-urgent');
      await context.close();
    },
  },
  {
    name: 'axe-core on correspondence (issue 17): days on the clocks, a move waiting for confirmation, a draw offered with a move, the leave dialog with a refusal, the games list with deadlines; light and dark',
    async run({ browser, base }) {
      const { ann, bob } = await correspondenceGame(browser, base);
      try {
        await clickMove(ann.page, 'e2e4');
        await byId(ann.page, 'move-confirm-box').waitFor();
        let bar = '';
        for (let i = 0; i < 20; i++) {
          bar = await byId(ann.page, 'move-confirm-box').ariaSnapshot();
          if (bar.includes('group "Send 1. e4?"') && bar.includes('button "Send move"') && bar.includes('button "Cancel"')) break;
          await ann.page.waitForTimeout(100);
        }
        assert(bar.includes('group "Send 1. e4?"') && bar.includes('button "Send move"') && bar.includes('button "Cancel"'), `the confirmation is a named group:\n${bar}\n(the page's status: ${await byId(ann.page, 'status').textContent()})`);
        for (const colorScheme of ['light', 'dark']) {
          await ann.page.emulateMedia({ colorScheme });
          await axe(ann.page, `a correspondence move waiting for confirmation (${colorScheme})`);
        }
        await byId(ann.page, 'move-confirm').click();
        await waitPly(bob.page, 1);
        await byId(bob.page, 'draw-with-move').check();
        await clickMove(bob.page, 'e7e5');
        await byId(bob.page, 'move-confirm').click();
        await byId(ann.page, 'draw-offer').waitFor();
        await openLeave(bob.page);
        await bookLeave(bob.page, dayFromToday(0), dayFromToday(1));
        await bob.page.waitForFunction(() => document.querySelector('[data-testid="leave-error"]')?.textContent);
        const form = await byId(bob.page, 'form-leave').ariaSnapshot();
        assert(form.includes('textbox "First day"') || form.includes('First day'), `the dates are labelled:\n${form}`);
        await byId(ann.page, 'notes-box').locator('summary').click();
        await byId(ann.page, 'game-notes').fill('Plan: d4 next.');
        await byId(ann.page, 'games-button').click();
        await byId(ann.page, 'open-game-deadline').waitFor();
        for (const colorScheme of ['light', 'dark']) {
          await ann.page.emulateMedia({ colorScheme });
          await bob.page.emulateMedia({ colorScheme });
          await axe(ann.page, `a correspondence game with a draw offer, notes and the games list (${colorScheme})`);
          await axe(bob.page, `the leave dialog with a refusal (${colorScheme})`);
        }
        await byId(ann.page, 'notes-state').and(ann.page.locator('[data-state="saved"]')).waitFor();
        await ann.page.reload();
        await byId(ann.page, 'notes-state').and(ann.page.locator('[data-state="saved"]')).waitFor();
        assert((await byId(ann.page, 'game-notes').inputValue()) === 'Plan: d4 next.', 'the notes are kept on the server');
      } finally {
        await ann.context.close();
        await bob.context.close();
      }
    },
  },
];
