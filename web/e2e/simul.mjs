// The end-to-end test of simultaneous exhibitions (issue 18 point 11): a
// host opens /simuls from the home page's link and creates a simul there
// with extra time, two players apply on its
// page, the host accepts both and starts it; the host's page shows both
// boards waiting and says so in the live region; the N key opens the next
// board waiting, where the host moves; each player reaches their board from
// the simul's page and resigns; the host's page shows every result and the
// PGN link. axe-core on the list, the applicants and the boards, light and
// dark.
import { axeBoth } from './access.mjs';
import { assert, byId, clickMove, signedOutSees, waitPly, waitResult } from './browser.mjs';
import { player } from './director.mjs';
import { waitLive } from './lobby.mjs';

/** Waits until the simul's page shows `n` elements with test id `id`. */
async function waitCount(page, id, n) {
  await page.waitForFunction(([i, k]) => document.querySelectorAll(`[data-testid="${i}"]`).length === k, [id, n], { timeout: 15_000 });
}

/** The player opens their board from the simul's page and resigns it. */
async function resignFromSimul(p, base, simul) {
  await p.page.goto(`${base}/simuls/${simul}`);
  await byId(p.page, 'sim-board-link').filter({ hasText: 'Play board' }).click();
  await p.page.waitForURL(/\/g\/[^/#]+#/);
  await byId(p.page, 'resign').click();
  await byId(p.page, 'resign-confirm').click();
  await waitResult(p.page);
}

export const simulTests = [
  {
    name: 'simul: created on /simuls with extra time, two applicants accepted, started; the host\'s page shows both boards waiting (announced), N opens the next one, the host moves; the players resign from their boards; every result and the PGN link; axe on the list, the applicants and the boards',
    async run({ browser, base }) {
      const people = [];
      try {
        for (const prefix of ['Host', 'Ann', 'Bob']) people.push(await player(browser, base, prefix));
        const [host, ann, bob] = people;

        // 0. A visitor not signed in is asked to sign in, not shown the form.
        await signedOutSees(browser, base, '/simuls', 'sim-sign-in', 'sim-form');

        // 1. The host's form on /simuls, reached from the home page's link
        //    (and named in the account's menu).
        assert((await byId(host.page, 'simuls-open').getAttribute('href')) === '/simuls', 'the account menu names the simuls');
        await byId(host.page, 'simuls-link').click();
        await host.page.waitForURL(/\/simuls$/);
        await byId(host.page, 'sim-list-title').waitFor();
        await axeBoth(host.page, 'the list of simuls and the host\'s form');
        await byId(host.page, 'sim-name').fill('Friday simul');
        await byId(host.page, 'sim-control').fill('5+3');
        await byId(host.page, 'sim-extra').fill('1');
        await byId(host.page, 'sim-create').click();
        await host.page.waitForURL(/\/simuls\/[^/]+$/);
        const simul = new URL(host.page.url()).pathname.split('/')[2];
        await host.page.waitForFunction(() => document.querySelector('[data-testid="sim-title"]')?.textContent === 'Friday simul');
        assert((await byId(host.page, 'sim-extra-shown').textContent()) === '60 s', 'one minute of extra time for the host');

        // 2. Two players apply on the simul's page.
        for (const p of [ann, bob]) {
          await p.page.goto(`${base}/simuls/${simul}`);
          await byId(p.page, 'sim-apply').click();
          await byId(p.page, 'sim-withdraw').waitFor();
        }

        // 3. The host accepts both (each button named with the player) and starts.
        await waitCount(host.page, 'sim-applicant', 2);
        await axeBoth(host.page, 'the simul\'s applicants for its host');
        for (const p of [ann, bob]) {
          await host.page.getByRole('button', { name: `Accept ${p.name}` }).click();
          await host.page.locator(`[data-testid="sim-applicant"][data-accepted="true"]`).filter({ hasText: p.name }).waitFor();
        }
        await byId(host.page, 'sim-start-button').click();
        await waitCount(host.page, 'sim-board', 2);
        await waitLive(host.page, 'Your move on board 1.');
        await waitLive(host.page, 'Your move on board 2.');
        assert((await byId(host.page, 'sim-next').textContent()) === 'Next board waiting (2)', 'both boards wait');
        assert((await host.page.locator('[data-testid="sim-board"][data-waiting="true"]').count()) === 2, 'both marked waiting');
        await axeBoth(host.page, 'the host\'s boards');

        // 4. N opens the first board waiting; the host (White) moves there.
        await host.page.keyboard.press('n');
        await host.page.waitForURL(/\/g\/[^/#]+#/);
        await waitPly(host.page, 0);
        await byId(host.page, 'simul-next-board').waitFor();
        await byId(host.page, 'board').scrollIntoViewIfNeeded();
        await clickMove(host.page, 'e2e4');
        await waitPly(host.page, 1);
        await host.page.goto(`${base}/simuls/${simul}`);
        await waitCount(host.page, 'sim-board', 2);
        await host.page.waitForFunction(() => document.querySelector('[data-testid="sim-next"]')?.textContent === 'Next board waiting (1)');
        await waitLive(host.page, 'Your move on board 2.');

        // 5. The players resign from their boards: the host wins both.
        for (const p of [ann, bob]) await resignFromSimul(p, base, simul);
        await host.page.waitForFunction(() => document.querySelector('[data-testid="sim-state"]')?.dataset.state === 'finished', undefined, { timeout: 15_000 });
        const results = await host.page.locator('[data-testid="sim-board"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-result')));
        assert(JSON.stringify(results) === '["1-0","1-0"]', `every result: ${results}`);
        assert((await byId(host.page, 'sim-pgn').textContent()) === 'PGN of every board', 'the PGN of every board');
        const pgn = await host.page.evaluate(async (id) => (await fetch(`/api/simuls/${id}/pgn`)).text(), simul);
        assert((pgn.match(/\[Event "Friday simul"\]/g) ?? []).length === 2, `two games in the PGN: ${pgn}`);
        await axeBoth(host.page, 'the finished simul');
      } finally {
        for (const p of people) await p.context.close();
      }
    },
  },
];
