// The end-to-end tests of issue 17 (correspondence chess by the ICCF
// rules), the page's part: two players, a 3d/move challenge accepted; the
// clocks in days and hours and the deadline as a date; a move confirmed
// before it is sent (Cancel sends nothing, Send does; the setting turns it
// off); a draw offered with a move reaches the opponent and is marked (=);
// no take-backs; leave booked in the account menu's dialog and an
// overlapping booking refused there; the header's games with time left and
// the deadline. axe-core on these states, light and dark, runs from
// access.mjs with `correspondenceGame`.
import { assert, byId, clickMove, serverState, waitPly } from './browser.mjs';
import { focused, gameOf, twoPlayers, waitLive } from './lobby.mjs';

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
];
