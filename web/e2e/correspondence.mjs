// The end-to-end tests of issue 17 (correspondence chess by the ICCF
// rules), the page's part: two players, a 3d/move challenge accepted; the
// clocks in days and hours and the deadline as a date; a move confirmed
// before it is sent (Cancel sends nothing, Send does; the setting turns it
// off); a draw offered with a move reaches the opponent and is marked (=);
// no take-backs; leave booked in the account menu's dialog and an
// overlapping booking refused there; the header's games with time left and
// the deadline. axe-core on these states, light and dark, runs from
// access.mjs with `correspondenceGame`. The dashboard (point 14): one's
// games "your move" first, then by deadline; notes kept on the server
// (across a reload, on a second device, old localStorage notes uploaded);
// the analysis board sends nothing; conditional moves entered on the page
// and played by the server when the opponent's move matches; axe on the
// dashboard, light and dark. The notifications dialog of the account menu:
// an address, the language of the e-mails and thresholds in hours or days
// kept across a reload, bad input refused on the page, the default again.
import { axe } from './access.mjs';
import { assert, byId, clickMove, serverState, waitPly } from './browser.mjs';
import { focused, gameOf, twoPlayers, waitLive } from './lobby.mjs';
import { freshName, PASSWORD, signUp } from './players.mjs';

/** The text of a test id, trimmed. */
const text = async (page, id) => ((await byId(page, id).first().textContent()) ?? '').trim();

/** A day `n` days after today (UTC), as `YYYY-MM-DD`. */
export function dayFromToday(n) {
  const d = new Date();
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

/**
 * Two players signed up on the page; Ann challenges Bob from his profile to
 * a `3d/move` game with White, Bob accepts from the notification; both on
 * the game's page. Returns `{ann, bob, id}` (Ann plays White).
 */
export async function correspondenceGame(browser, base) {
  const [ann, bob] = await twoPlayers(browser, base);
  await ann.page.goto(`${base}/@/${bob.name}`);
  await byId(ann.page, 'challenge-button').click();
  await byId(ann.page, 'challenge-control').selectOption('3d/move');
  await byId(ann.page, 'challenge-color').selectOption('white');
  await byId(ann.page, 'challenge-send').click();
  await byId(ann.page, 'challenge-out').waitFor();
  const notice = byId(bob.page, 'challenge-notice');
  await notice.waitFor({ timeout: 10_000 });
  assert((await notice.textContent()).includes('3 days per move'), `the challenge says its control: ${await notice.textContent()}`);
  await notice.locator('[data-testid="challenge-accept"]').click();
  const [a, b] = await Promise.all([gameOf(ann.page), gameOf(bob.page)]);
  assert(a === b, `both in the same game: ${a} and ${b}`);
  return { ann, bob, id: a };
}

/** Opens the leave dialog from the account menu. */
export async function openLeave(page) {
  await byId(page, 'account-button').click();
  await byId(page, 'leave-open').click();
  await byId(page, 'form-leave').waitFor();
  await byId(page, 'leave-year').first().waitFor();
}

/** Opens the notifications dialog from the account menu with the keyboard and waits for the settings read. */
export async function openNotify(page) {
  await byId(page, 'account-button').focus();
  await page.keyboard.press('Enter');
  await byId(page, 'notify-open').focus();
  await page.keyboard.press('Enter');
  await byId(page, 'form-notify').and(page.locator(':not([aria-busy])')).waitFor();
}

/** Books leave from `from` to `to` in the open dialog. */
export async function bookLeave(page, from, to) {
  await byId(page, 'leave-from').fill(from);
  await byId(page, 'leave-to').fill(to);
  await byId(page, 'leave-book').click();
}

export const correspondenceTests = [
  {
    name: 'correspondence: a 3d/move challenge; days on the clocks and a deadline; a move confirmed before sending (cancel sends nothing); a draw offered with a move (=); no take-backs; leave booked and an overlap refused',
    async run({ browser, base }) {
      const { ann, bob, id } = await correspondenceGame(browser, base);
      try {
        const state = await serverState(base, id);
        assert(state.rules === 'iccf' && state.clock?.category === 'correspondence', `an ICCF game in days: ${state.rules} ${JSON.stringify(state.clock)}`);
        assert((await ann.page.locator('.board').getAttribute('data-orientation')) === 'white', 'Ann plays White');

        // 1. The clocks in days and hours, the deadline as a date, the rules named.
        for (const p of [ann.page, bob.page]) {
          await p.waitForFunction(() => /^\d+ d \d+ h$/.test(document.querySelector('[data-testid="clock-white"]')?.textContent ?? ''));
        }
        const clock = await ann.page.locator('[data-testid="bar-bottom"] .time').textContent();
        assert(clock === '2 d 23 h', `White's clock in days and hours: ${clock}`);
        const blackClock = await ann.page.locator('[data-testid="bar-top"] .time').textContent();
        assert(blackClock === '3 d 0 h', `Black's clock, not running: ${blackClock}`);
        const deadline = await text(ann.page, 'deadline');
        const year = new Date(Date.now() + 3 * 86_400_000).getFullYear();
        assert(deadline.startsWith('Your move by') && deadline.includes(String(year)), `the deadline as a date: ${deadline}`);
        const theirs = await text(bob.page, 'deadline');
        assert(theirs.startsWith('White to move by'), `the opponent's deadline: ${theirs}`);
        assert((await text(ann.page, 'game-control')).includes('ICCF rules'), `the rules named: ${await text(ann.page, 'game-control')}`);

        // 3. No take-backs under ICCF; the draw offer is a toggle for the next move.
        for (const p of [ann.page, bob.page]) {
          assert((await byId(p, 'takeback').count()) === 0, 'no Take back button');
          assert((await byId(p, 'draw-offer-button').count()) === 0, 'no standalone Offer draw');
          assert((await byId(p, 'draw-with-move').count()) === 1, 'the draw offer goes with a move');
        }

        // 2. A move waits for confirmation: Cancel sends nothing and puts the board back.
        const start = await ann.page.locator('.board').getAttribute('data-fen');
        await clickMove(ann.page, 'e2e4');
        await byId(ann.page, 'move-confirm-box').waitFor();
        assert((await text(ann.page, 'move-confirm-text')) === 'Send 1. e4?', `the move in SAN: ${await text(ann.page, 'move-confirm-text')}`);
        assert((await focused(ann.page)) === 'move-confirm', `focus on Send: ${await focused(ann.page)}`);
        await waitLive(ann.page, 'Send 1. e4?');
        assert((await serverState(base, id)).ply === 0, 'nothing is sent while the question waits');
        await byId(ann.page, 'move-cancel').click();
        await byId(ann.page, 'move-confirm-box').waitFor({ state: 'detached' });
        await waitLive(ann.page, 'Move cancelled');
        assert((await serverState(base, id)).ply === 0, 'Cancel sent nothing');
        assert((await ann.page.locator('.board').getAttribute('data-fen')) === start, 'the board is back where it was');
        // Escape cancels too; then Send with the keyboard.
        await clickMove(ann.page, 'e2e4');
        await byId(ann.page, 'move-confirm-box').waitFor();
        await ann.page.keyboard.press('Escape');
        await byId(ann.page, 'move-confirm-box').waitFor({ state: 'detached' });
        assert((await serverState(base, id)).ply === 0, 'Escape sent nothing');
        await clickMove(ann.page, 'e2e4');
        await byId(ann.page, 'move-confirm-box').waitFor();
        await ann.page.keyboard.press('Enter');
        await waitPly(ann.page, 1);
        await waitPly(bob.page, 1);
        assert((await serverState(base, id)).moves[0].san === 'e4', 'Send sent e4');

        // Bob offers a draw with his move: the confirmation says so, Ann is asked, both lists mark (=).
        assert((await text(bob.page, 'deadline')).startsWith('Your move by'), 'now Black has a deadline');
        await byId(bob.page, 'draw-with-move').check();
        await waitLive(bob.page, 'Your next move will carry a draw offer');
        await clickMove(bob.page, 'e7e5');
        await byId(bob.page, 'move-confirm-box').waitFor();
        assert((await text(bob.page, 'move-confirm-text')) === 'Send 1… e5 with a draw offer (=)?', `the offer in the question: ${await text(bob.page, 'move-confirm-text')}`);
        await byId(bob.page, 'move-confirm').click();
        await waitPly(ann.page, 2);
        await byId(ann.page, 'draw-offer').waitFor();
        assert((await text(ann.page, 'draw-offer')).includes('Black offers a draw'), `Ann is offered a draw: ${await text(ann.page, 'draw-offer')}`);
        assert((await serverState(base, id)).offers.draw === 'black', 'the server holds the offer');
        for (const p of [ann.page, bob.page]) {
          await p.locator('[data-testid="move"][data-san="e5"][data-offer="draw"]').waitFor();
          assert((await p.locator('[data-testid="move"][data-san="e5"]').textContent()).includes('(=)'), 'e5 is marked (=)');
        }
        assert((await byId(bob.page, 'draw-with-move').count()) === 0, 'no second offer while his stands');
        await waitLive(ann.page, 'Black offers a draw');

        // The offer stands past Ann's reply (ICCF 9.1.2.1); she turns confirmation off and moves at once.
        await byId(ann.page, 'confirm-moves').uncheck();
        assert((await ann.page.evaluate(() => localStorage.getItem('rochade.confirmMoves'))) === 'off', 'the setting is remembered');
        await clickMove(ann.page, 'g1f3');
        await waitPly(ann.page, 3);
        assert((await byId(ann.page, 'move-confirm-box').count()) === 0, 'no confirmation once turned off');
        const after = await serverState(base, id);
        assert(after.offers.draw === 'black', `the offer stands past the reply: ${JSON.stringify(after.offers)}`);
        await byId(ann.page, 'draw-decline').click();
        await ann.page.waitForFunction(() => !document.querySelector('[data-testid="draw-offer"]'));

        // The header's list: the game with time left and Black's deadline.
        await bob.page.waitForFunction((g) => document.querySelector(`[data-testid="open-game"][data-game="${g}"]`)?.getAttribute('data-my-turn') === 'true', id);
        const line = await bob.page.locator(`[data-testid="open-game"][data-game="${id}"] [data-testid="open-game-deadline"]`).textContent();
        assert(/^\d+ d \d+ h left · move by .*\d{4}/.test(line ?? ''), `the header's line for the game: ${line}`);

        // 4. Leave: the allowance, a booking, an overlapping one refused in words.
        await openLeave(ann.page);
        const years = await ann.page.locator('[data-testid="leave-year"]').allTextContents();
        assert(years.length === 2 && years[0].includes('45'), `this year and next, 45 days each: ${years}`);
        assert((await text(ann.page, 'leave-list')).includes('No leave booked'), 'no leave yet');
        const [from, to] = [dayFromToday(2), dayFromToday(4)];
        await bookLeave(ann.page, from, to);
        await ann.page.waitForFunction(() => document.querySelector('[data-testid="leave-status"]')?.textContent?.startsWith('Leave booked'));
        const booked = await text(ann.page, 'leave-status');
        assert(booked.includes('3 days') && booked.includes('games whose clocks stop: 1'), `the booking answered: ${booked}`);
        await ann.page.locator(`[data-testid="leave-item"][data-from="${from}"]`).waitFor();
        await bookLeave(ann.page, dayFromToday(3), dayFromToday(5));
        await ann.page.waitForFunction(() => document.querySelector('[data-testid="leave-error"]')?.textContent?.includes('overlaps'));
        const refused = await text(ann.page, 'leave-error');
        assert(refused.startsWith('It overlaps your leave from'), `the refusal in words: ${refused}`);
        assert((await byId(ann.page, 'leave-error').getAttribute('role')) === 'alert', 'the refusal is announced');
        assert((await ann.page.locator('[data-testid="leave-item"]').count()) === 1, 'nothing more stored');
        await bookLeave(ann.page, dayFromToday(0), dayFromToday(0));
        await ann.page.waitForFunction(() => document.querySelector('[data-testid="leave-error"]')?.textContent?.includes('ahead'));
        await byId(ann.page, 'leave-close').click();
        // The dialog's close event (a task after the click) gives the focus back.
        await ann.page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'account-button').catch(async () => {
          throw new Error(`focus back on the account button, not ${await focused(ann.page)}`);
        });

        // The game knows the booked leave: "Leave booked from … until …" (read again from the server).
        await ann.page.reload();
        await byId(ann.page, 'leave-note').waitFor();
        await ann.page.waitForFunction(() => document.querySelector('[data-testid="leave-note"]')?.textContent?.startsWith('Leave booked from'));
        const st = await serverState(base, id);
        assert(st.clock.pauses.length === 1, `the server stops both clocks over the leave: ${JSON.stringify(st.clock.pauses)}`);

        // In Slovak: the deadline and days.
        await byId(bob.page, 'language').selectOption('sk');
        await bob.page.waitForFunction(() => document.querySelector('[data-testid="deadline"]')?.textContent?.startsWith('Váš ťah do'));
        await byId(bob.page, 'language').selectOption('en');
      } finally {
        await ann.context.close();
        await bob.context.close();
      }
    },
  },
  {
    name: 'correspondence dashboard: your move first then by deadline; notes on the server across reloads and devices; the analysis board sends nothing; conditional moves played by the server',
    async run({ browser, base }) {
      const [ann, bob] = await twoPlayers(browser, base);
      const contexts = [ann.context, bob.context];
      try {
        // Three games: A (10/60d) and B (3d/move) with Ann White and on move, C with Bob White.
        const a = await accountGame(base, ann, bob, '10/60d');
        const b = await accountGame(base, ann, bob, '3d/move');
        const c = await accountGame(base, bob, ann, '3d/move');
        // Notes an older page kept in this browser, for A.
        await ann.page.evaluate((id) => localStorage.setItem(`rochade.notes.${id}`, 'Old note from this browser'), a.id);

        // 1. The account menu leads to the dashboard: B (nearer deadline) before A, C (their move) last.
        await byId(ann.page, 'account-button').click();
        await byId(ann.page, 'dash-open').click();
        await ann.page.waitForURL(/\/correspondence$/);
        await ann.page.waitForFunction(() => document.querySelectorAll('[data-testid="dash-game"]').length === 3);
        const order = await ann.page.locator('[data-testid="dash-game"]').evaluateAll((els) => els.map((e) => [e.getAttribute('data-game'), e.getAttribute('data-my-turn')]));
        assert(JSON.stringify(order) === JSON.stringify([[b.id, 'true'], [a.id, 'true'], [c.id, 'false']]), `your move first, then by deadline: ${JSON.stringify(order)} (A ${a.id}, B ${b.id}, C ${c.id})`);
        assert((await focused(ann.page)) === 'dash-title', `focus on the dashboard's heading: ${await focused(ann.page)}`);
        const card = (id) => ann.page.locator(`[data-testid="dash-game"][data-game="${id}"]`);
        const times = (await card(b.id).locator('[data-testid="dash-times"]').textContent()) ?? '';
        const year = new Date(Date.now() + 3 * 86_400_000).getFullYear();
        assert(/ICCF rules · 2 d 23 h left · Your move by .*/.test(times) && times.includes(String(year)), `B's time left and deadline: ${times}`);
        const theirs = (await card(c.id).locator('[data-testid="dash-times"]').textContent()) ?? '';
        assert(theirs.includes('White to move by'), `C's deadline is the opponent's: ${theirs}`);

        // 2. Notes: the old browser note of A is uploaded once; B's notes are saved on the server.
        await card(a.id).locator('[data-testid="notes-state"][data-state="saved"]').waitFor();
        assert((await card(a.id).locator('[data-testid="game-notes"]').inputValue()) === 'Old note from this browser', 'the old note is read');
        assert((await ann.page.evaluate((id) => localStorage.getItem(`rochade.notes.${id}`), a.id)) === null, 'and gone from localStorage');
        assert((await notesOf(ann, base, a.id)).text === 'Old note from this browser', 'and kept on the server');
        await card(b.id).locator('[data-testid="notes-box"] summary').click();
        await card(b.id).locator('[data-testid="game-notes"]').fill('Plan: Nf3, then c4.');
        await card(b.id).locator('[data-testid="notes-state"][data-state="saved"]').waitFor();
        assert((await card(b.id).locator('[data-testid="notes-state"]').textContent()) === 'Saved', 'the saved state is shown');
        assert((await notesOf(ann, base, b.id)).text === 'Plan: Nf3, then c4.', 'saved on the server');
        assert((await notesOf(bob, base, b.id)).text === '', 'Bob does not see them');
        await ann.page.reload();
        await card(b.id).locator('[data-testid="notes-state"][data-state="saved"]').waitFor();
        assert((await card(b.id).locator('[data-testid="game-notes"]').inputValue()) === 'Plan: Nf3, then c4.', 'kept across a reload');
        // Typed and the page left at once, before the pause: the text goes out as the page unloads.
        await card(a.id).locator('[data-testid="game-notes"]').fill('Old note from this browser. Left at once.');
        await ann.page.reload();
        for (let i = 0; (await notesOf(ann, base, a.id)).text !== 'Old note from this browser. Left at once.'; i++) {
          assert(i < 50, `the notes typed just before leaving reach the server: ${(await notesOf(ann, base, a.id)).text}`);
          await ann.page.waitForTimeout(100);
        }
        // A second device: a new context, signed in as Ann.
        const other = await browser.newContext();
        contexts.push(other);
        const signed = await other.request.post(`${base}/api/auth/signin`, { data: { name: ann.name, password: PASSWORD } });
        assert(signed.ok(), `signed in on a second device: ${signed.status()}`);
        const second = await other.newPage();
        await second.goto(`${base}/correspondence`);
        const there = second.locator(`[data-testid="dash-game"][data-game="${b.id}"] [data-testid="game-notes"]`);
        await second.locator(`[data-testid="dash-game"][data-game="${b.id}"] [data-testid="notes-state"][data-state="saved"]`).waitFor();
        assert((await there.inputValue()) === 'Plan: Nf3, then c4.', 'the notes on the second device');
        await there.fill('Plan: Nf3, then c4. Second device: or d4?');
        await there.press('Tab');
        for (let i = 0; (await notesOf(ann, base, b.id)).text !== 'Plan: Nf3, then c4. Second device: or d4?'; i++) {
          assert(i < 50, 'the second device’s notes reach the server');
          await second.waitForTimeout(100);
        }
        await ann.page.reload();
        await card(b.id).locator('[data-testid="notes-state"][data-state="saved"]').waitFor();
        assert((await card(b.id).locator('[data-testid="game-notes"]').inputValue()).endsWith('or d4?'), 'the second device’s change reaches the first');

        // 3. The analysis board: labelled, moves tried by typing and by clicking, undone, reset; the game unchanged.
        await card(b.id).locator('[data-testid="analysis-open"]').click();
        const board = card(b.id).locator('[data-testid="analysis"]');
        await board.waitFor();
        assert((await board.locator('h3').textContent()) === 'Analysis — moves here are not sent', `the label: ${await board.locator('h3').textContent()}`);
        const region = await board.ariaSnapshot();
        assert(region.includes('region "Analysis — moves here are not sent"'), `a named region:\n${region}`);
        for (const move of ['e4', 'e5', 'Nf3']) {
          await board.locator('[data-testid="analysis-input"]').fill(move);
          await board.locator('[data-testid="analysis-input"]').press('Enter');
        }
        await waitLive(ann.page, 'Analysis: Nf3.');
        await analysisClick(ann.page, board, 'b8c6');
        await board.locator('[data-testid="analysis-move"][data-uci="b8c6"]').waitFor();
        await board.locator('[data-testid="analysis-input"]').fill('Ke3');
        await board.locator('[data-testid="analysis-input"]').press('Enter');
        await board.locator('[data-testid="analysis-error"]:not(:empty)').waitFor();
        assert((await board.locator('[data-testid="analysis-move"]').count()) === 4, 'an illegal move is refused on the page');
        await board.locator('[data-testid="analysis-undo"]').click();
        assert((await board.locator('[data-testid="analysis-move"]').count()) === 3, 'undo');
        const st = await serverState(base, b.id);
        assert(st.ply === 0 && st.moves.length === 0, `nothing reached the game: ply ${st.ply}`);
        await board.locator('[data-testid="analysis-reset"]').click();
        assert((await board.locator('[data-testid="analysis-move"]').count()) === 0, 'reset');
        assert((await board.getAttribute('data-fen')) === st.fen, 'back at the game’s position');
        // A pawn clicked onto the last rank asks which piece it becomes.
        for (const move of ['e4', 'd5', 'exd5', 'c6', 'dxc6', 'Nf6', 'cxb7', 'Nbd7']) {
          await board.locator('[data-testid="analysis-input"]').fill(move);
          await board.locator('[data-testid="analysis-input"]').press('Enter');
        }
        await analysisClick(ann.page, board, 'b7a8');
        await board.locator('[data-testid="analysis-promote-n"]').click();
        await board.locator('[data-testid="analysis-move"][data-uci="b7a8n"]').waitFor();
        assert((await board.locator('[data-testid="analysis-move"]').last().textContent()) === '5. bxa8=N', `the promotion in SAN: ${await board.locator('[data-testid="analysis-move"]').last().textContent()}`);
        assert((await serverState(base, b.id)).ply === 0, 'still nothing sent');
        await board.locator('[data-testid="analysis-reset"]').click();

        // axe on the dashboard with notes and an analysis board open, light and dark.
        for (const colorScheme of ['light', 'dark']) {
          await ann.page.emulateMedia({ colorScheme });
          await axe(ann.page, `the correspondence dashboard with notes and an analysis board (${colorScheme})`);
        }
        await ann.page.emulateMedia({ colorScheme: 'light' });

        // 4. Conditional moves on C, where Bob (White) is to move: entered, seen, one deleted.
        await card(c.id).locator('[data-testid="dash-link"]').click();
        await ann.page.waitForURL(new RegExp(`/g/${c.id}#`));
        await byId(ann.page, 'cond-box').locator('summary').click();
        await enterLine(ann.page, '1. e4 e5 2. Nf3 Nc6');
        await enterLine(ann.page, 'd4 d5');
        await ann.page.locator('[data-testid="cond-line"]').nth(1).waitFor();
        const lines = await ann.page.locator('[data-testid="cond-line"] span').allTextContents();
        assert(JSON.stringify(lines) === JSON.stringify(['1. e4 e5 2. Nf3 Nc6', '1. d4 d5']), `the lines in the reader's notation: ${JSON.stringify(lines)}`);
        await enterLine(ann.page, 'e4 d5');
        await byId(ann.page, 'cond-error').and(ann.page.locator(':not(:empty)')).waitFor();
        assert((await byId(ann.page, 'cond-error').textContent()).includes('differently'), `a conflicting answer refused: ${await byId(ann.page, 'cond-error').textContent()}`);
        await ann.page.locator('[data-testid="cond-line"][data-uci="d2d4 d7d5"] [data-testid="cond-delete"]').click();
        await ann.page.waitForFunction(() => document.querySelectorAll('[data-testid="cond-line"]').length === 1);
        await waitLive(ann.page, 'Conditional line deleted: 1. d4 d5');
        // Bob opens C and plays 1. e4: the server answers 1… e5 at once.
        await bob.page.goto(`${base}${c.url}`);
        await byId(bob.page, 'status').waitFor();
        await waitPly(bob.page, 0);
        await byId(bob.page, 'cond-box').waitFor();
        assert((await bob.page.locator('[data-testid="cond-line"]').count()) === 0, 'Bob does not see Ann’s lines');
        await clickMove(bob.page, 'e2e4');
        await byId(bob.page, 'move-confirm').click();
        await waitPly(bob.page, 2);
        const after = await serverState(base, c.id);
        assert(after.moves.map((m) => m.san).join(' ') === 'e4 e5', `the answer played by the server: ${after.moves.map((m) => m.san).join(' ')}`);
        await ann.page.waitForFunction(() => document.querySelector('[data-testid="cond-line"] span')?.textContent === '2. Nf3 Nc6');
        // 2. d4 was not foreseen: the rest is dropped.
        await clickMove(bob.page, 'd2d4');
        await byId(bob.page, 'move-confirm').click();
        await waitPly(ann.page, 3);
        await ann.page.waitForFunction(() => document.querySelectorAll('[data-testid="cond-line"]').length === 0);
        await waitLive(ann.page, 'did not foresee');
      } finally {
        for (const context of contexts) await context.close();
      }
    },
  },
  {
    name: "notifications: the account menu's dialog sets an address, Slovak e-mails and thresholds of 3 days and 12 hours (kept across a reload); bad input refused on the page without a request; a server refusal by its code; back to the server's default; axe light and dark",
    async run({ browser, base }) {
      const context = await browser.newContext();
      const page = await context.newPage();
      const settings = async () => (await page.request.get(`${base}/api/account/notifications`)).json();
      let posts = 0;
      page.on('request', (r) => {
        if (r.method() === 'POST' && r.url().endsWith('/api/account/notifications')) posts += 1;
      });
      try {
        await page.goto(base);
        await signUp(page, freshName('Nia'));
        const before = await settings();
        assert(before.email === null && before.own_low_time === false, `nothing set yet: ${JSON.stringify(before)}`);

        // Opened with the keyboard: focus on the address; the server's default chosen, its entries hidden.
        await openNotify(page);
        assert((await focused(page)) === 'notify-email', `focus on the address: ${await focused(page)}`);
        assert(await byId(page, 'notify-default').isChecked(), "the server's default is chosen");
        assert(await byId(page, 'notify-entries').isHidden(), 'its entries are hidden');
        const tree = await byId(page, 'form-notify').ariaSnapshot();
        for (const want of ['textbox "E-mail address"', 'combobox "Language of the e-mails"', 'group "Tell me my time runs low"', `checkbox "Use the server’s default"`]) {
          assert(tree.includes(want), `the form names "${want}":\n${tree}`);
        }

        // An address, Slovak, 3 days and 12 hours; typed and sent with the keyboard.
        await page.keyboard.type('nia@example.com');
        await byId(page, 'notify-lang').selectOption('sk');
        await byId(page, 'notify-default').focus();
        await page.keyboard.press('Space');
        await byId(page, 'notify-count-1').waitFor();
        const entries = await byId(page, 'notify-entries').ariaSnapshot();
        assert(entries.includes('spinbutton "Threshold 1"') && entries.includes('combobox "Unit of threshold 2"'), `the entries are labelled:\n${entries}`);
        await byId(page, 'notify-count-1').fill('3');
        await byId(page, 'notify-unit-1').selectOption('24');
        await byId(page, 'notify-count-2').fill('12');
        await byId(page, 'notify-unit-2').selectOption('1');
        await byId(page, 'notify-count-3').fill('');
        await byId(page, 'notify-count-3').press('Enter');
        await waitLive(page, 'Notification settings saved');
        assert((await focused(page)) === 'account-button', `focus back on the account button: ${await focused(page)}`);
        const saved = await settings();
        assert(JSON.stringify(saved) === JSON.stringify({ email: 'nia@example.com', lang: 'sk', low_time_hours: [72, 12], own_low_time: true }), `the server keeps them: ${JSON.stringify(saved)}`);

        // Kept across a reload: the dialog shows 3 days and 12 hours.
        await page.reload();
        await openNotify(page);
        const values = await Promise.all(['notify-email', 'notify-lang', 'notify-count-1', 'notify-unit-1', 'notify-count-2', 'notify-unit-2', 'notify-count-3'].map((id) => byId(page, id).inputValue()));
        assert(JSON.stringify(values) === JSON.stringify(['nia@example.com', 'sk', '3', '24', '12', '1', '']), `the dialog shows what was saved: ${values}`);
        assert(!(await byId(page, 'notify-default').isChecked()), 'own thresholds, not the default');

        // Refused on the page, in words next to the field, and nothing sent.
        const sent = posts;
        await byId(page, 'notify-count-2').fill('0');
        await byId(page, 'notify-save').click();
        await page.waitForFunction(() => document.querySelector('[data-testid="notify-low-error"]')?.textContent?.includes('1 hour to 30 days'));
        assert((await focused(page)) === 'notify-count-2', `focus on the threshold at fault: ${await focused(page)}`);
        assert((await byId(page, 'notify-count-2').getAttribute('aria-invalid')) === 'true', 'the threshold is marked invalid');
        await byId(page, 'notify-count-2').fill('31');
        await byId(page, 'notify-unit-2').selectOption('24');
        await byId(page, 'notify-save').click();
        await page.waitForFunction(() => document.querySelector('[data-testid="notify-low-error"]')?.textContent?.includes('720 hours'));
        await byId(page, 'notify-count-2').fill('12');
        await byId(page, 'notify-unit-2').selectOption('1');
        await byId(page, 'notify-email').fill('no at sign');
        await byId(page, 'notify-save').click();
        await page.waitForFunction(() => document.querySelector('[data-testid="notify-email-error"]')?.textContent?.includes('not an e-mail address'));
        assert((await byId(page, 'notify-low-error').textContent()) === '', 'the threshold error is gone');
        assert((await focused(page)) === 'notify-email', `focus on the address: ${await focused(page)}`);
        assert(posts === sent, `nothing sent for bad input: ${posts - sent} request(s)`);
        for (const colorScheme of ['light', 'dark']) {
          await page.emulateMedia({ colorScheme });
          await axe(page, `the notifications dialog with a refusal (${colorScheme})`);
        }
        await page.emulateMedia({ colorScheme: 'light' });

        // A refusal of the server: its code in words, its message as detail, next to the field it names.
        await byId(page, 'notify-email').fill('nia@example.com');
        await page.route('**/api/account/notifications', (route) =>
          route.request().method() === 'POST'
            ? route.fulfill({ status: 400, contentType: 'application/json', body: JSON.stringify({ error: { code: 'bad_request', message: 'low_time_hours: 4 thresholds, at most 3' } }) })
            : route.continue(),
        );
        await byId(page, 'notify-save').click();
        await byId(page, 'notify-low-error').locator('[data-testid="error-detail"]').waitFor();
        const refused = await byId(page, 'notify-low-error').textContent();
        assert(refused === 'The server could not accept that (low_time_hours: 4 thresholds, at most 3)', `the refusal in words with its detail: ${refused}`);
        await page.unroute('**/api/account/notifications');

        // Back to the server's default, in Slovak on the page.
        await page.evaluate(() => localStorage.setItem('rochade.lang', 'sk'));
        await page.reload();
        await openNotify(page);
        assert((await byId(page, 'notify-save').textContent()) === 'Uložiť', 'the dialog in Slovak');
        await byId(page, 'notify-default').check();
        await byId(page, 'notify-save').click();
        await waitLive(page, 'Nastavenie upozornení je uložené');
        const reset = await settings();
        assert(reset.own_low_time === false && reset.email === 'nia@example.com' && reset.lang === 'sk', `back to the default: ${JSON.stringify(reset)}`);
      } finally {
        await context.close();
      }
    },
  },
];

/** A game between accounts: `white` challenges `black` with `control`, who accepts (both through the API, with their sessions); `{id, url}` of White's seat. */
async function accountGame(base, white, black, control) {
  const made = await white.context.request.post(`${base}/api/account/challenge/${black.name}`, { data: { time_control: control, color: 'white' } });
  assert(made.status() === 201, `challenge: ${made.status()} ${await made.text()}`);
  const id = (await made.json()).id;
  const took = await black.context.request.post(`${base}/api/account/challenge/${id}/accept`, { data: {} });
  assert(took.ok(), `accept: ${took.status()} ${await took.text()}`);
  const game = (await took.json()).game;
  const games = await (await white.context.request.get(`${base}/api/account/games`)).json();
  const mine = games.games.find((g) => g.gameId === game);
  return { id: game, url: mine.url };
}

/** The notes of the player of `who`'s context on game `id`, from the server. */
async function notesOf(who, base, id) {
  const res = await who.context.request.get(`${base}/api/account/notes/${id}`);
  assert(res.ok(), `notes: ${res.status()}`);
  return res.json();
}

/** Clicks the move `uci` on the analysis board `board` (White at the bottom). */
async function analysisClick(page, board, uci) {
  await board.locator('[data-testid="analysis-board"]').scrollIntoViewIfNeeded();
  const box = await board.locator('[data-testid="analysis-board"]').boundingBox();
  const at = (sq) => ({ x: box.x + ((sq.charCodeAt(0) - 97 + 0.5) * box.width) / 8, y: box.y + ((8 - Number(sq[1]) + 0.5) * box.height) / 8 });
  for (const sq of [uci.slice(0, 2), uci.slice(2, 4)]) {
    const p = at(sq);
    await page.mouse.click(p.x, p.y);
  }
}

/** Types a conditional line and adds it. */
async function enterLine(page, text) {
  await byId(page, 'cond-input').fill(text);
  await byId(page, 'cond-add').click();
}
