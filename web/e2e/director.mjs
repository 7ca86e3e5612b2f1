// The end-to-end tests of tournaments and their directors (ICCF 14, issue 17
// point 11), on a `rochade serve` of their own (the director is appointed
// with `rochade user director NAME` on its database): the director creates
// a tournament on /director, adds two players and starts it; a player opens
// the game from the tournament's page; the director stops the clocks with a
// reason, and the player's page shows the stop and the decision with its
// reason, and takes no move; the player appeals; the director sees the
// appeal on /director and answers it, and the player is told; the director
// adjudicates a draw, and both players see "adjudicated draw"; the
// standings count it. axe-core on the director's page, the tournament's
// page and the stopped game with its decision, light and dark.
import { axeBoth } from './access.mjs';
import { assert, byId, clickMove, signedOutSees, waitResult } from './browser.mjs';
import { focused, waitLive } from './lobby.mjs';
import { freshName, ownServer, signUp } from './players.mjs';

/** A player signed up on the page of `base`, in a context of their own. */
export async function player(browser, base, prefix) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(base);
  const name = freshName(prefix);
  await signUp(page, name);
  return { context, page, name };
}

/**
 * A `rochade serve` of its own with Dee, Ann and Bob signed up on its page
 * and Dee appointed a director (`rochade user director`); `close()` ends
 * their pages and the server.
 */
export async function directorSetup(browser) {
  const server = await ownServer();
  const people = [];
  const close = async () => {
    for (const p of people) await p.context.close();
    server.stop();
  };
  try {
    for (const prefix of ['Dee', 'Ann', 'Bob']) people.push(await player(browser, server.base, prefix));
    server.cli('user', 'director', people[0].name);
  } catch (e) {
    await close();
    throw e;
  }
  const [dee, ann, bob] = people;
  return { base: server.base, dee, ann, bob, close };
}

/** Sends the open decision dialog with `act` (and its fields) and `reason`; waits until it closes. */
async function decideOn(page, act, reason, fields = {}) {
  await byId(page, 'decide-dialog').waitFor();
  await byId(page, 'decide-act').selectOption(act);
  if (fields.result) await byId(page, 'decide-result').selectOption(fields.result);
  await byId(page, 'decide-reason').fill(reason);
  await byId(page, 'decide-send').click();
  await byId(page, 'decide-dialog').waitFor({ state: 'detached' });
}

export const directorTests = [
  {
    name: 'director: a tournament created on /director, two players added, started; clocks stopped with a reason (the player sees it, no move), an appeal answered on /director, a draw adjudicated; axe on the director\'s and the tournament\'s pages',
    async run({ browser }) {
      const { base, dee, ann, bob, close } = await directorSetup(browser);
      try {
        // 1. The tournament, made on /director from the account menu.
        await byId(dee.page, 'account-button').click();
        await byId(dee.page, 'director-open').click();
        await byId(dee.page, 'director-state').and(dee.page.locator('[data-state="ready"]')).waitFor();
        assert((await focused(dee.page)) === 'director-title', `the page opens on its heading: ${await focused(dee.page)}`);
        await byId(dee.page, 'tn-create').click();
        await dee.page.waitForFunction(() => document.querySelector('[data-testid="tn-error"]')?.textContent === 'Give the tournament a name.');
        assert((await focused(dee.page)) === 'tn-name', 'a missing name is said and focused');
        await byId(dee.page, 'tn-name').fill('Section 1');
        await byId(dee.page, 'tn-control').fill('10/40d');
        await byId(dee.page, 'tn-draws').fill('20');
        await byId(dee.page, 'tn-create').click();
        await dee.page.waitForURL(/\/tournaments\/[^/]+$/);
        const tournament = new URL(dee.page.url()).pathname.split('/')[2];
        await dee.page.waitForFunction(() => document.querySelector('[data-testid="tn-title"]')?.textContent === 'Section 1');
        await waitLive(dee.page, 'Tournament Section 1 created.');
        assert((await byId(dee.page, 'tn-draws-shown').textContent()) === 'from move 20', 'draws from move 20');
        assert((await byId(dee.page, 'tn-director-name').textContent()) === dee.name, 'the creator directs it');

        // 2. Two players, a name nobody has refused in words, then the start.
        await byId(dee.page, 'tn-add-name').fill('Nobody_here');
        await byId(dee.page, 'tn-add-send').click();
        await dee.page.waitForFunction(() => document.querySelector('[data-testid="tn-add-error"]')?.textContent?.startsWith('No such player'));
        assert((await byId(dee.page, 'error-detail').textContent()).includes('Nobody_here'), 'the server\'s message as detail');
        for (const p of [ann, bob]) {
          await byId(dee.page, 'tn-add-name').fill(p.name);
          await byId(dee.page, 'tn-add-send').click();
          await waitLive(dee.page, `${p.name} added.`);
        }
        assert((await focused(dee.page)) === 'tn-add-name', `focus back on the name: ${await focused(dee.page)}`);
        assert((await byId(dee.page, 'tn-player-item').count()) === 2, 'two players listed');
        await byId(dee.page, 'tn-start-send').click();
        await waitLive(dee.page, 'The tournament has started');
        await byId(dee.page, 'tn-game').first().waitFor();
        const game = await byId(dee.page, 'tn-game').first().getAttribute('data-game');
        assert((await byId(dee.page, 'tn-add-form').isHidden()) && (await byId(dee.page, 'tn-start-form').isHidden()), 'no adding or starting after the start');
        await axeBoth(dee.page, 'a tournament\'s page for its director');

        // 3. Each player opens the game from the tournament's page (their own seat).
        for (const p of [ann, bob]) {
          await p.page.goto(`${base}/tournaments/${tournament}`);
          const link = p.page.locator(`[data-testid="tn-game"][data-game="${game}"] [data-testid="tn-game-link"]`);
          await p.page.waitForFunction((g) => document.querySelector(`[data-testid="tn-game"][data-game="${g}"] [data-testid="tn-game-link"]`)?.textContent === 'Play your game', game);
          await link.click();
          await p.page.waitForURL(/\/g\/[^/]+#/);
          await p.page.waitForFunction(() => document.querySelector('[data-testid="status"]')?.hasAttribute('data-ply'));
          await byId(p.page, 'decisions-box').waitFor();
        }
        const white = (await ann.page.locator('.board').getAttribute('data-orientation')) === 'white' ? ann : bob;

        // 4. The director stops the clocks with a reason; the players see it and no move is taken.
        await dee.page.locator(`[data-testid="tn-game"][data-game="${game}"] [data-testid="decide-open"]`).click();
        await byId(dee.page, 'decide-dialog').waitFor();
        assert((await focused(dee.page)) === 'decide-act', `the dialog opens on its first field: ${await focused(dee.page)}`);
        await axeBoth(dee.page, 'the decision dialog');
        await byId(dee.page, 'decide-send').click();
        await dee.page.waitForFunction(() => document.querySelector('[data-testid="decide-error"]')?.textContent?.startsWith('Write the reason'));
        const reason = 'Ann is in hospital: the clocks stand until she is back';
        await decideOn(dee.page, 'stop_clocks', reason);
        await waitLive(dee.page, 'Decided: clocks stopped (6.10).');
        for (const p of [ann, bob]) {
          await byId(p.page, 'halted').waitFor();
          assert((await byId(p.page, 'halted').textContent()).includes('The director has stopped the clocks (6.10)'), 'the stop in words');
          await waitLive(p.page, 'The director has stopped the clocks', 'live-urgent');
          const decision = await byId(p.page, 'decision').first().textContent();
          assert(decision.includes(`${dee.name}: clocks stopped (6.10). Reason: ${reason}`), `the decision with who and why: ${decision}`);
          await waitLive(p.page, 'The director decided');
          await p.page.locator('[data-testid="director-notice"][data-kind="decision"]').waitFor();
          assert(await byId(p.page, 'move-input').isDisabled(), 'the move input is off');
        }
        await clickMove(white.page, 'e2e4');
        await white.page.waitForTimeout(500);
        const state = await (await fetch(`${base}/api/games/${game}`)).json();
        assert(state.ply === 0 && state.halted === true, `no move while the clocks stand: ply ${state.ply}, halted ${state.halted}`);
        await axeBoth(ann.page, 'a stopped game with the director\'s decision');

        // 5. Ann appeals from the game's page.
        await byId(ann.page, 'appeal-open').click();
        await byId(ann.page, 'request-dialog').waitFor();
        assert((await focused(ann.page)) === 'request-message', 'the dialog opens on its text');
        assert((await byId(ann.page, 'request-about').textContent()).includes(reason), 'the dialog names the decision');
        await axeBoth(ann.page, 'the appeal dialog');
        const appeal = 'I am well again: please start the clocks.';
        await byId(ann.page, 'request-message').fill(appeal);
        await byId(ann.page, 'request-send').click();
        await byId(ann.page, 'request-dialog').waitFor({ state: 'detached' });
        await waitLive(ann.page, 'Your appeal was sent to the director.');
        assert((await focused(ann.page)) === 'appeal-open', `focus back on Appeal: ${await focused(ann.page)}`);
        await ann.page.locator('[data-testid="my-request"][data-answered="false"]').waitFor();

        // 6. The director answers it on /director (where a visitor not
        //    signed in is only asked to sign in).
        await signedOutSees(browser, base, '/director', 'director-sign-in', 'director-work');
        //    A player who is not one of the site's directors is told who
        //    creates tournaments instead of a form that would be refused.
        const bobs = await bob.context.newPage();
        await bobs.goto(`${base}/director`);
        await byId(bobs, 'director-state').and(bobs.locator('[data-state="ready"]')).waitFor();
        await byId(bobs, 'tn-directors-only').waitFor();
        assert(await byId(bobs, 'tn-form').isHidden(), 'no tournament form for a player who is not a site director');
        await bobs.close();
        await dee.page.goto(`${base}/director`);
        await byId(dee.page, 'director-state').and(dee.page.locator('[data-state="ready"]')).waitFor();
        assert(await byId(dee.page, 'director-work').isVisible(), 'the director\'s work when signed in');
        assert((await byId(dee.page, 'tn-form').isVisible()) && (await byId(dee.page, 'tn-directors-only').isHidden()), 'the form, and no hint, for the site director');
        const listed = dee.page.locator(`[data-testid="attention-game"][data-game="${game}"]`);
        assert((await listed.getAttribute('data-why')) === 'stopped', 'the stopped game needs attention');
        const request = byId(dee.page, 'open-request').first();
        const text = await request.textContent();
        assert(text.includes(`Appeal from ${ann.name}`) && text.includes(appeal) && text.includes(reason), `the appeal, who and against what: ${text}`);
        await axeBoth(dee.page, 'the director\'s page with an appeal');
        await request.locator('[data-testid="answer-text"]').fill('Noted: the clocks start again on Monday.');
        await request.locator('[data-testid="answer-send"]').click();
        await waitLive(dee.page, `Answer sent to ${ann.name}.`);
        await dee.page.waitForFunction(() => document.querySelectorAll('[data-testid="open-request"]').length === 0);
        await ann.page.locator('[data-testid="director-notice"][data-kind="answered"]').waitFor();
        assert((await ann.page.locator('[data-testid="director-notice"][data-kind="answered"]').textContent()).includes('Noted: the clocks start again on Monday.'), 'the answer told');
        await ann.page.locator('[data-testid="my-request"][data-answered="true"]').waitFor();

        // 7. The director adjudicates a draw; both see it.
        await listed.locator('[data-testid="decide-open"]').click();
        await decideOn(dee.page, 'adjudicate', 'Adjudicated on the position (11.1)', { result: '1/2-1/2' });
        for (const p of [ann, bob]) {
          const r = await waitResult(p.page);
          assert(r.result === '1/2-1/2' && r.reason === 'adjudicated_draw' && r.text.includes('adjudicated draw'), `the adjudicated draw: ${JSON.stringify(r)}`);
        }
        // In Slovak: the result's reason and the decisions' words.
        await byId(ann.page, 'language').selectOption('sk');
        await ann.page.waitForFunction(() => document.querySelector('[data-testid="result"]')?.textContent?.includes('remíza rozhodnutím riaditeľa'));
        const slovak = await byId(ann.page, 'decisions-box').textContent();
        assert(slovak.includes('Rozhodnutia riaditeľa') && slovak.includes('hodiny zastavené (6.10)') && slovak.includes('Dôvod: '), `the decisions in Slovak: ${slovak}`);
        await dee.page.goto(`${base}/tournaments/${tournament}`);
        await dee.page.locator(`[data-testid="tn-game"][data-result="1/2-1/2"]`).waitFor();
        const points = await byId(dee.page, 'tn-points').allTextContents();
        assert(points.join(' ') === '½ ½', `half a point each: ${points}`);
        assert((await byId(dee.page, 'tn-decision').count()) === 2, 'both decisions in the log');
      } finally {
        await close();
      }
    },
  },
];
