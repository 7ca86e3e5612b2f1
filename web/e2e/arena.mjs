// The end-to-end test of an arena (issue 18 point 10), on a `rochade serve`
// of its own: the director makes an arena on /director (a wrong length
// refused in words, the field focused; the rounds, the break and the
// tie-breaks hidden); two players join on its page and the director starts
// it; each is taken to their game; one goes berserk with the game page's
// button (their clock halved, the button gone, the other sees it) and wins;
// the arena's page shows, live to the director, the time left, the ranking
// with the sheet and the game being played (the two meet again: they are
// all the arena has); axe in light and dark, the page walked and its game
// link reached with Tab; the page in Slovak and Czech.
import { axeBoth } from './access.mjs';
import { assert, byId, clickMove, waitPly } from './browser.mjs';
import { directorSetup } from './director.mjs';
import { tabTo, tabWalk } from './everyone.mjs';
import { focused, waitLive } from './lobby.mjs';

/** Waits until test id `id` on `page` says `part`. */
async function says(page, id, part) {
  await page
    .waitForFunction(([i, p]) => [...document.querySelectorAll(`[data-testid="${i}"]`)].some((e) => e.textContent?.includes(p)), [id, part], { timeout: 15_000 })
    .catch(async () => {
      throw new Error(`"${id}" never said "${part}": ${JSON.stringify(await byId(page, id).allTextContents())}`);
    });
}

/** Seconds shown by a clock ("4:59" → 299). */
const seconds = (text) => text.trim().split(':').reduce((acc, part) => acc * 60 + Number(part), 0);

export const arenaTests = [
  {
    name: 'arena: made on /director (a wrong length refused), joined, started; a player goes berserk on the game page (clock halved) and wins; the ranking, the sheet and the games live on the arena page; axe light and dark, keyboard; Slovak and Czech',
    async run({ browser }) {
      const { base, dee, ann, bob, close } = await directorSetup(browser);
      try {
        // 1. The arena on /director: only its own fields; a wrong length refused beside the form.
        await dee.page.goto(`${base}/director`);
        await byId(dee.page, 'director-state').and(dee.page.locator('[data-state="ready"]')).waitFor();
        await byId(dee.page, 'tn-name').fill('Evening Arena');
        await byId(dee.page, 'tn-control').fill('10+5');
        await byId(dee.page, 'tn-system-choice').selectOption('arena');
        for (const hidden of ['tn-rounds', 'tn-break', 'tn-tiebreaks', 'tn-max-byes']) assert(await byId(dee.page, hidden).isHidden(), `an arena has no ${hidden}`);
        await byId(dee.page, 'tn-minutes').fill('2');
        await byId(dee.page, 'tn-open').check();
        await byId(dee.page, 'tn-create').click();
        await says(dee.page, 'tn-error', 'An arena lasts 5 to 720 minutes.');
        assert((await focused(dee.page)) === 'tn-minutes', `the length is focused: ${await focused(dee.page)}`);
        await byId(dee.page, 'tn-minutes').fill('30');
        await byId(dee.page, 'tn-create').click();
        await dee.page.waitForURL(/\/tournaments\/[^/]+$/);
        const id = new URL(dee.page.url()).pathname.split('/')[2];
        await says(dee.page, 'tn-system', 'arena, 30 minutes');
        await says(dee.page, 'arena-left', 'The arena has not started.');

        // 2. Two players join on its page; the director starts it; each is taken to the game.
        // Ann joins with the keyboard, Bob with the mouse.
        await Promise.all([ann, bob].map((p) => p.page.goto(`${base}/tournaments/${id}`)));
        await byId(ann.page, 'tn-join').waitFor();
        await tabTo(ann.page, 'tn-join');
        await ann.page.keyboard.press('Enter');
        await byId(bob.page, 'tn-join').click();
        for (const p of [ann, bob]) await waitLive(p.page, 'You have joined Evening Arena.');
        await byId(ann.page, 'tn-quit').waitFor();
        await byId(dee.page, 'tn-start-send').click();
        const api = async () => (await fetch(`${base}/api/tournaments/${id}`)).json();
        let state = await api();
        for (let i = 0; i < 50 && !state.arena?.playing?.length; i++) {
          await new Promise((r) => setTimeout(r, 100));
          state = await api();
        }
        const game = state.arena.playing[0];
        const byName = (n) => [ann, bob].find((p) => p.name === n);
        const white = byName(game.white.name);
        const black = byName(game.black.name);
        for (const p of [white, black]) {
          await p.page.waitForURL(new RegExp(`/g/${game.game}#.+`));
          await waitLive(p.page, 'Your next arena game has begun.');
          await p.page.waitForFunction(() => document.querySelector('[data-testid="status"]')?.hasAttribute('data-ply'));
        }

        // 3. Black goes berserk before their first move: ten minutes become five; the button goes.
        await byId(black.page, 'berserk').click();
        await byId(black.page, 'berserk').waitFor({ state: 'detached' });
        const left = seconds(await byId(black.page, 'clock-black').textContent());
        assert(left <= 300 && left > 280, `Black's clock is halved: ${left} s`);
        await dee.page.locator('[data-testid="arena-game"]').filter({ hasText: 'berserk' }).waitFor();
        // White moves; Black answers; White resigns.
        await clickMove(white.page, 'e2e4');
        await waitPly(black.page, 1);
        assert(!(await byId(white.page, 'berserk').count()), 'after their first move, White may not go berserk');
        await clickMove(black.page, 'e7e5');
        await waitPly(white.page, 2);
        await byId(white.page, 'resign').click();
        await byId(white.page, 'resign-confirm').click();

        // 4. The director's page, live: the win in the sheet and the points; the two meet again.
        const row = (name) => dee.page.locator(`[data-testid="arena-row"][data-player="${name}"]`);
        await row(black.name).locator('[data-testid="arena-sheet"][data-digits="2"]').waitFor();
        assert((await row(black.name).locator('[data-testid="arena-points"]').textContent()) === '2', 'two points for the win');
        await row(white.name).locator('[data-testid="arena-sheet"][data-digits="0"]').waitFor();
        await dee.page.waitForFunction((g) => [...document.querySelectorAll('[data-testid="arena-game"]')].some((e) => e.getAttribute('data-game') !== g), game.game);
        await says(dee.page, 'arena-left', 'Time left: ');
        await says(dee.page, 'arena-sheet', 'Points of each game: 2');
        assert(!(await byId(dee.page, 'tn-dl-trf').count()), 'no TRF for an arena');
        await byId(dee.page, 'tn-dl-pgn').waitFor();

        // 5. Axe in light and dark; the keyboard reaches the game being played.
        await axeBoth(dee.page, 'an arena\'s page for its director');
        await axeBoth(black.page, 'an arena game with berserk');
        const stops = await tabWalk(dee.page, 'an arena\'s page');
        assert(stops.some((st) => st.id === 'arena-game-link'), `the game being played is reached with Tab: ${stops.map((st) => st.id).join(', ')}`);
        await dee.page.evaluate(() => document.activeElement instanceof HTMLElement && document.activeElement.blur());
        await tabTo(dee.page, 'arena-game-link');
        const ranking = await byId(dee.page, 'arena-ranking').ariaSnapshot();
        assert(/table "Ranking"/.test(ranking) && ranking.includes('columnheader "Points"'), `the ranking is a named table:\n${ranking}`);

        // 6. In Slovak and Czech.
        const languages = {
          sk: { 'tn-system': 'aréna, 30 minút', 'arena-left': 'Zostáva: ', 'arena-sheet': 'Body za každú partiu: 2' },
          cs: { 'tn-system': 'aréna, 30 minut', 'arena-left': 'Zbývá: ', 'arena-sheet': 'Body za každou partii: 2' },
          en: { 'tn-system': 'arena, 30 minutes' },
        };
        for (const [lang, texts] of Object.entries(languages)) {
          await byId(dee.page, 'language').selectOption(lang);
          for (const [testid, text] of Object.entries(texts)) await says(dee.page, testid, text);
        }
      } finally {
        await close();
      }
    },
  },
];
