// The end-to-end tests of issue 5, point 12: a real `rochade serve`, a real
// headless chromium, the page as a player uses it.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  assert,
  byId,
  clickMove,
  dragMove,
  playAsWhite,
  serverState,
  startGame,
  typeMove,
  waitPly,
  waitResult,
} from './browser.mjs';

export const tests = [
  {
    name: 'the robot at level 1: play until the game ends or 40 moves, then resign',
    async run({ browser, base, out }) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      await page.goto(base);
      const id = await startGame(page, { opponent: 'robot', level: 1, color: 'white', control: '-' });
      const moves = await playAsWhite(page, base, id, {
        seed: 5,
        play: async (move, state, n) => {
          let uci = move;
          if (uci[1] === '7' && uci[3] === '8' && pawnOn(state.fen, uci.slice(0, 2))) uci += 'q';
          if (n % 2 === 0) await clickMove(page, uci);
          else await dragMove(page, uci);
          if (n === 2) {
            await waitPly(page, state.ply + 1, 15_000, true);
            mkdirSync(out, { recursive: true });
            await page.waitForTimeout(400); // the last move's animation
            await page.screenshot({ path: join(out, 'screenshot.png') });
            await page.setViewportSize({ width: 390, height: 844 });
            await page.screenshot({ path: join(out, 'phone.png'), fullPage: true });
            await page.setViewportSize({ width: 1280, height: 900 });
          }
        },
      });
      const before = await serverState(base, id);
      if (!before.outcome) {
        await byId(page, 'resign').click();
        await byId(page, 'resign-confirm').click();
      }
      const r = await waitResult(page);
      console.log(`      robot game: ${moves} moves by White, ${before.outcome ? `ended ${before.outcome.result} by ${before.outcome.reason}` : 'then White resigned'}`);
      if (!before.outcome) {
        assert(r.result === '0-1' && r.reason === 'resignation', `resigned as White: ${r.result} ${r.reason}`);
        assert(r.text.includes('5.1.2'), `the article of resignation is shown: ${r.text}`);
      }
      const pgn = await page.request.get(`${base}/api/games/${id}/pgn`);
      assert(pgn.ok(), 'the PGN downloads');
      assert((await byId(page, 'download-pgn').getAttribute('href')).endsWith(`/api/games/${id}/pgn`), 'the PGN link');
      await page.close();
    },
  },
  {
    name: 'a move on the start board starts a game against the robot, which grants a take-back; then White resigns',
    async run({ browser, base }) {
      const page = await browser.newPage();
      await page.goto(base);
      await page.waitForFunction(() => !document.querySelector('[data-testid="play"]')?.disabled);
      await page.locator('.cg-wrap.manipulable').waitFor();
      await clickMove(page, 'e2e4');
      await page.waitForURL(/\/g\//);
      await waitPly(page, 1, 15_000, true);
      const first = await byId(page, 'move').first().getAttribute('data-uci');
      assert(first === 'e2e4', `the game began with the move made on the start board: ${first}`);
      // A take-back (casual game): the robot agrees.
      await waitPly(page, 2, 30_000);
      await byId(page, 'takeback').click();
      await page.waitForFunction(() => Number(document.querySelector('[data-testid="status"]')?.getAttribute('data-ply')) < 2);
      // Resigning asks first.
      await byId(page, 'resign').click();
      await byId(page, 'resign-cancel').click();
      assert((await byId(page, 'result-box').isHidden()), 'a cancelled resignation changes nothing');
      await byId(page, 'resign').click();
      await byId(page, 'resign-confirm').click();
      const r = await waitResult(page);
      assert(r.result === '0-1' && r.reason === 'resignation' && r.text.includes('5.1.2'), `resigned: ${r.text}`);
      await page.close();
    },
  },
  {
    name: "fool's mate on one device ends 0-1, checkmate (5.1.1)",
    async run({ browser, base }) {
      const page = await browser.newPage({ viewport: { width: 1000, height: 800 } });
      await page.goto(base);
      await startGame(page, { opponent: 'local', control: '-' });
      await clickMove(page, 'f2f3');
      await waitPly(page, 1);
      const live = (await byId(page, 'live').textContent()) ?? '';
      assert(/pawn f3/.test(live), `the screen reader hears the move: "${live}"`);
      await dragMove(page, 'e7e5');
      await waitPly(page, 2);
      await typeMove(page, 'g4');
      await waitPly(page, 3);
      await clickMove(page, 'd8h4');
      await waitPly(page, 4);
      const r = await waitResult(page);
      assert(r.result === '0-1', `result ${r.result}`);
      assert(r.reason === 'checkmate', `reason ${r.reason}`);
      assert(r.text.includes('0-1') && r.text.includes('checkmate') && r.text.includes('5.1.1'), `result text: ${r.text}`);
      const sans = await byId(page, 'move').evaluateAll((els) => els.map((e) => e.textContent));
      assert(sans.join(' ') === 'f3 e5 g4 Qh4#', `move list: ${sans.join(' ')}`);
      await page.close();
    },
  },
  {
    name: 'the promotion picker: a pawn takes on a8 and becomes a knight',
    async run({ browser, base }) {
      const page = await browser.newPage();
      await page.goto(base);
      await startGame(page, { opponent: 'local', control: '-' });
      const moves = ['a2a4', 'b7b5', 'a4b5', 'a7a6', 'b5a6', 'c8b7', 'a6b7', 'b8c6'];
      for (const [i, uci] of moves.entries()) {
        await clickMove(page, uci);
        await waitPly(page, i + 1);
      }
      await dragMove(page, 'b7a8');
      await byId(page, 'promotion').waitFor();
      await byId(page, 'promote-n').click();
      await waitPly(page, moves.length + 1);
      const last = await byId(page, 'move').last().textContent();
      assert(last === 'bxa8=N', `the move list: ${last}`);
      await page.close();
    },
  },
  {
    name: 'a threefold claim naming the intended move ends the game ½-½ (9.2)',
    async run({ browser, base }) {
      const page = await browser.newPage();
      await page.goto(base);
      await startGame(page, { opponent: 'local', control: '-' });
      const shuffle = ['g1f3', 'g8f6', 'f3g1', 'f6g8', 'g1f3', 'g8f6', 'f3g1'];
      for (const [i, uci] of shuffle.entries()) {
        await clickMove(page, uci);
        await waitPly(page, i + 1);
      }
      assert(await byId(page, 'claim-threefold').isDisabled(), 'no claim before the position is about to repeat');
      await byId(page, 'claim-with-move').check();
      await byId(page, 'claim-threefold').click();
      await byId(page, 'claim-armed').waitFor();
      await clickMove(page, 'f6g8');
      const r = await waitResult(page);
      assert(r.result === '1/2-1/2' && r.reason === 'threefold_repetition', `${r.result} ${r.reason}`);
      assert(r.text.includes('9.2'), `the article: ${r.text}`);
      await page.close();
    },
  },
  {
    name: 'the move list and keyboard entry speak Slovak: Jf3',
    async run({ browser, base }) {
      const page = await browser.newPage();
      await page.goto(base);
      await byId(page, 'language').selectOption('sk');
      assert((await byId(page, 'play').textContent()) === 'Hrať', 'the Play button is in Slovak');
      await byId(page, 'time-control').selectOption('5+0');
      await page.waitForFunction(() => document.querySelector('[data-testid="category"]')?.textContent?.includes('Bleskový'));
      await startGame(page, { opponent: 'local', control: '-' });
      // Typed anywhere on the page, the move goes to the keyboard entry.
      await page.keyboard.type('Jf3');
      await page.keyboard.press('Enter');
      await waitPly(page, 1);
      const sans = await byId(page, 'move').evaluateAll((els) => els.map((e) => e.textContent));
      assert(sans.join(' ') === 'Jf3', `move list: ${sans.join(' ')}`);
      const live = (await byId(page, 'live').textContent()) ?? '';
      assert(live.includes('jazdec f3'), `announced in Slovak: "${live}"`);
      await byId(page, 'language').selectOption('en');
      await page.close();
    },
  },
  {
    name: 'two players by link: one offers a draw, the other accepts (9.1)',
    async run({ browser, base }) {
      const a = await browser.newContext();
      const b = await browser.newContext();
      const pa = await a.newPage();
      const pb = await b.newPage();
      await pa.goto(base);
      await startGame(pa, { opponent: 'friend', color: 'white', control: '10+5' });
      const link = await byId(pa, 'invite-any').inputValue();
      assert(/\/j\//.test(link), `the invitation link: ${link}`);
      // The friend not yet there is said in words, not only greyed (issue 19 point 8).
      await pa.waitForFunction(() => document.querySelector('[data-testid="bar-top"]')?.textContent?.includes('Black — Player (offline)'));
      await pb.goto(link);
      await pb.waitForURL(/\/g\//);
      // The status is written when the first state arrives over the socket.
      await waitPly(pb, 0);
      const status = (await byId(pb, 'status').textContent()) ?? '';
      assert(status.includes('Black'), `the invited friend plays Black: "${status}"`);
      // The creator's board opens for moves once the friend has come.
      await pa.waitForFunction(() => !document.querySelector('[data-testid="status"]')?.textContent?.includes('Waiting'));
      await pa.waitForFunction(() => document.querySelector('[data-testid="bar-top"]')?.textContent?.startsWith('Black — Player') && !document.querySelector('[data-testid="bar-top"]')?.textContent?.includes('offline'));
      await clickMove(pa, 'e2e4');
      await waitPly(pb, 1);
      await clickMove(pb, 'e7e5');
      await waitPly(pa, 2);
      // Each hears the other's move, naming who made it (issue 19 point 6).
      await pb.waitForFunction(() => document.querySelector('[data-testid="live"]')?.textContent?.includes('White: pawn e4'));
      await pa.waitForFunction(() => document.querySelector('[data-testid="live"]')?.textContent?.includes('Black: pawn e5'));
      await byId(pa, 'draw-offer-button').click();
      await pb.waitForFunction(() => document.querySelector('[data-testid="live"]')?.textContent?.includes('White offers a draw'));
      await byId(pb, 'draw-accept').click();
      for (const p of [pa, pb]) {
        const r = await waitResult(p);
        assert(r.result === '1/2-1/2' && r.reason === 'agreement', `drawn by agreement: ${r.result} ${r.reason}`);
      }
      // A rematch: colours swap, both pages follow to the new game.
      const first = new URL(pa.url()).pathname;
      await byId(pa, 'play-again').click();
      await byId(pb, 'rematch-accept').click();
      for (const p of [pa, pb]) {
        await p.waitForFunction((old) => location.pathname !== old, first);
        await waitPly(p, 0);
      }
      assert(new URL(pa.url()).pathname === new URL(pb.url()).pathname, 'both in the same new game');
      assert((await pb.locator('.board').getAttribute('data-orientation')) === 'white', 'the friend now plays White');
      await a.close();
      await b.close();
    },
  },
  {
    name: 'a 1+0 game runs out of time: 0-1 on time (6.9)',
    // A minute of waiting: runs alongside the others.
    background: true,
    async run({ browser, base }) {
      const page = await browser.newPage();
      await page.goto(base);
      await startGame(page, { opponent: 'local', control: '1+0' });
      await clickMove(page, 'e2e4');
      await waitPly(page, 1);
      await clickMove(page, 'e7e5');
      await waitPly(page, 2);
      const face = byId(page, 'clock-white');
      const first = await face.textContent();
      await page.waitForTimeout(1500);
      const second = await face.textContent();
      assert(first !== second, `White's clock runs: ${first} then ${second}`);
      const r = await waitResult(page, 75_000);
      assert(r.result === '0-1', `White lost on time: ${r.result}`);
      assert(r.reason === 'timeout', `reason ${r.reason}`);
      assert(r.text.includes('6.9'), `the article: ${r.text}`);
      assert((await face.textContent()) === '0.0', 'the flag fell at 0.0');
      const warned = (await byId(page, 'live-urgent').textContent()) ?? '';
      assert(/White: \d\.\d s left/.test(warned), `the low-time warning is announced at once: "${warned}"`);
      await page.close();
    },
  },
  {
    name: 'the settings panel: a custom control with delay, its category, a bad control, Chess960 by number',
    async run({ browser, base }) {
      const page = await browser.newPage();
      await page.goto(base);
      const category = byId(page, 'category');
      await byId(page, 'time-control').selectOption('90+30');
      await page.waitForFunction(() => document.querySelector('[data-testid="category"]')?.dataset.category === 'standard');
      await byId(page, 'time-control').selectOption('custom');
      await byId(page, 'custom-control').fill('5+x');
      await page.waitForFunction(() => document.querySelector('[data-testid="category"]')?.classList.contains('bad'));
      assert(await byId(page, 'play').isDisabled(), 'Play waits for a control the Laws can read');
      await byId(page, 'custom-control').fill('5 d3');
      await page.waitForFunction(() => document.querySelector('[data-testid="category"]')?.dataset.category === 'blitz');
      assert(!(await byId(page, 'play').isDisabled()), `Play is enabled: ${await category.textContent()}`);
      await byId(page, 'opponent').selectOption('local');
      await byId(page, 'chess960').selectOption('number');
      await byId(page, 'chess960-number').fill('0');
      await byId(page, 'play').click();
      await page.waitForURL(/\/g\//);
      await page.locator('.board[data-fen]').waitFor();
      const fen = await page.locator('.board').getAttribute('data-fen');
      assert(fen.startsWith('bbqnnrkr/pppppppp/'), `Chess960 position 0: ${fen}`);
      assert((await byId(page, 'game-control').textContent()).includes('5 d3'), 'the control is shown in the game');
      await page.close();
    },
  },
  {
    name: 'the sound and fullscreen toggles change state',
    async run({ browser, base }) {
      const page = await browser.newPage();
      await page.goto(base);
      const sound = byId(page, 'sound');
      const was = await sound.getAttribute('aria-pressed');
      await sound.click();
      const now = await sound.getAttribute('aria-pressed');
      assert(was !== now, `sound toggled: ${was} -> ${now}`);
      await page.reload();
      assert((await byId(page, 'sound').getAttribute('aria-pressed')) === now, 'the sound choice is remembered');
      const full = byId(page, 'fullscreen');
      assert((await full.getAttribute('aria-pressed')) === 'false', 'not fullscreen at first');
      await full.click();
      await page.waitForFunction(() => document.fullscreenElement !== null);
      assert((await full.getAttribute('aria-pressed')) === 'true', 'fullscreen on');
      await full.click();
      await page.waitForFunction(() => document.fullscreenElement === null);
      assert((await full.getAttribute('aria-pressed')) === 'false', 'fullscreen off');
      await page.close();
    },
  },
];

/** True when a pawn stands on `square` in `fen`. */
function pawnOn(fen, square) {
  const row = fen.split(' ')[0].split('/')[8 - Number(square[1])];
  let col = 0;
  for (const ch of row) {
    if (/\d/.test(ch)) col += Number(ch);
    else {
      if (col === square.charCodeAt(0) - 97) return ch === 'P' || ch === 'p';
      col += 1;
    }
  }
  return false;
}

