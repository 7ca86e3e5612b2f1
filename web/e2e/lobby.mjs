// The end-to-end tests of the issue "Players" (points 6, 7 and 8): the
// lobby (a seek opened by a quick pairing button and accepted by another
// player, both on the game's page with opposite colours), a challenge from
// a profile with Chess960 declined with a reason and then accepted, the
// notifications on another page, what a visitor sees; axe-core on the
// lobby and on a challenge notification, light and dark; and (issue 20) a
// seek opened again when its socket breaks.
import { axe, axeBoth } from './access.mjs';
import { assert, byId, clickMove, serverState, waitPly } from './browser.mjs';
import { tabTo, tabWalk } from './everyone.mjs';
import { freshName, signUp } from './players.mjs';

/** The test id of the focused element. */
export const focused = (page) => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName);

/** Waits until the live region `region` contains `text`. */
export async function waitLive(page, text, region = 'live', timeout = 10_000) {
  await page
    .waitForFunction(([t, r]) => document.querySelector(`[data-testid="${r}"]`)?.textContent?.includes(t), [text, region], { timeout })
    .catch(async () => {
      throw new Error(`the live region "${region}" never said "${text}": "${await byId(page, region).textContent()}"`);
    });
}

/** Two players, each signed up on the page in a context of their own; their pages and names. */
export async function twoPlayers(browser, base) {
  const players = [];
  for (const prefix of ['Ann', 'Bob']) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(base);
    const name = freshName(prefix);
    await signUp(page, name);
    players.push({ context, page, name });
  }
  return players;
}

/** The game id of the game page `page` shows, once both players are there. */
export async function gameOf(page) {
  await page.waitForURL(/\/g\/[^/]+#/, { timeout: 10_000 });
  await byId(page, 'status').waitFor();
  // Until the other player's page has joined, the server does not start the game and the board does not move.
  await page.waitForFunction(() => {
    const status = document.querySelector('[data-testid="status"]');
    return status?.hasAttribute('data-ply') && !status.textContent?.includes('Waiting for the opponent');
  });
  return new URL(page.url()).pathname.split('/')[2];
}

/** Sends a challenge from the profile `page` shows, with `control` and Chess960. */
async function challengeFromProfile(page, control) {
  await byId(page, 'challenge-button').click();
  assert((await focused(page)) === 'challenge-control', `the form opens on its first field: ${await focused(page)}`);
  await byId(page, 'challenge-control').selectOption(control);
  await byId(page, 'challenge-chess960').setChecked(true);
  await byId(page, 'challenge-send').click();
  await page.waitForFunction(() => document.querySelector('[data-testid="challenge-status"]')?.textContent?.startsWith('Challenge sent'));
  assert((await focused(page)) === 'challenge-button', `focus back on Challenge once sent: ${await focused(page)}`);
  await byId(page, 'challenge-out').waitFor();
}

export const lobbyTests = [
  {
    name: 'lobby: a quick pairing seek taken by another player; both on the same game, opposite colours; a move seen by the other; the games in the header',
    async run({ browser, base }) {
      const [ann, bob] = await twoPlayers(browser, base);
      try {
        // The keyboard alone (19.6, 19.8): the quick pairing button reached with Tab and pressed with Enter.
        await ann.page.evaluate(() => document.activeElement?.blur());
        await tabTo(ann.page, 'quick-5+3');
        await ann.page.keyboard.press('Enter');
        await ann.page.waitForFunction(() => document.querySelector('[data-testid="quick-5+3"]')?.getAttribute('aria-pressed') === 'true');
        await byId(ann.page, 'seek-waiting').locator('li').waitFor();
        assert((await byId(ann.page, 'seek-waiting').textContent()).includes('Waiting for an opponent: 5+3'), 'Ann waits');
        await waitLive(ann.page, 'Your 5+3 seek is open.');
        const own = ann.page.locator(`[data-testid="seek-row"][data-owner="${ann.name}"]`);
        await own.waitFor();
        assert((await own.locator('[data-testid="seek-accept"]').count()) === 0 && (await own.locator('[data-testid="seek-row-cancel"]').count()) === 1, 'her own seek has Cancel, not Accept');

        const row = bob.page.locator(`[data-testid="seek-row"][data-owner="${ann.name}"]`);
        await row.waitFor({ timeout: 10_000 });
        const text = (await row.textContent()) ?? '';
        assert(text.includes('1500') && text.includes('5+3') && text.includes('rated') && text.includes('Blitz'), `the seek in Bob's lobby: ${text}`);
        const tree = await byId(bob.page, 'seeks').ariaSnapshot();
        assert(tree.includes(`button "Accept the 5+3 seek of ${ann.name}"`) && tree.includes('columnheader "Player"'), `the seeks are a table with named buttons:\n${tree}`);
        // Bob's lobby walked with Tab (a visible focus on every stop), the seek accepted with Enter.
        const stops = await tabWalk(bob.page, 'the lobby with a seek');
        assert(stops.some((st) => st.id === 'seek-accept'), `Accept is reached with Tab: ${stops.map((st) => st.id).join(', ')}`);
        await bob.page.evaluate(() => document.activeElement?.blur());
        await tabTo(bob.page, 'seek-accept');
        assert(await bob.page.evaluate((n) => document.activeElement?.closest('[data-testid="seek-row"]')?.getAttribute('data-owner') === n, ann.name), 'the focus is on Ann\'s seek');
        await bob.page.keyboard.press('Enter');

        const [a, b] = await Promise.all([gameOf(ann.page), gameOf(bob.page)]);
        assert(a === b, `both on the same game: ${a} and ${b}`);
        const sides = [await ann.page.locator('.board').getAttribute('data-orientation'), await bob.page.locator('.board').getAttribute('data-orientation')];
        assert(sides[0] !== sides[1], `opposite colours: ${sides}`);
        const state = await serverState(base, a);
        assert(state.clock?.control === '5+3' || JSON.stringify(state).includes('5+3'), `a 5+3 game: ${JSON.stringify(state.clock)}`);
        const [white, black] = sides[0] === 'white' ? [ann, bob] : [bob, ann];
        // The seat is in the header's list, "your move" for White.
        await white.page.waitForFunction((id) => document.querySelector(`[data-testid="open-game"][data-game="${id}"]`)?.getAttribute('data-my-turn') === 'true', a);
        await clickMove(white.page, 'e2e4');
        await waitPly(black.page, 1);
        await waitPly(white.page, 1);
        await waitLive(black.page, 'White: pawn e4');
        await black.page.waitForFunction((id) => document.querySelector(`[data-testid="open-game"][data-game="${id}"]`)?.getAttribute('data-my-turn') === 'true', a);
        assert((await byId(black.page, 'games-badge').textContent()) === '1', 'Black sees one game waiting for a move');
        await byId(black.page, 'games-button').click();
        assert((await byId(black.page, 'games-button').getAttribute('aria-expanded')) === 'true', 'the games list opens');
        const list = await byId(black.page, 'my-games-list').ariaSnapshot();
        assert(list.includes(`Your move vs ${white.name}`), `the list of games:\n${list}`);
        await black.page.keyboard.press('Escape');
        assert((await focused(black.page)) === 'games-button', 'Escape closes the list, focus on its button');
        // No seek is left in the lobby.
        const left = (await (await fetch(`${base}/api/lobby`)).json()).seeks.filter((s) => s.user.name === ann.name);
        assert(left.length === 0, `the seek is gone: ${JSON.stringify(left)}`);
      } finally {
        await ann.context.close();
        await bob.context.close();
      }
    },
  },
  {
    name: 'challenges: from a profile with Chess960, declined "later" on another page (the reason shown to the challenger), then accepted; both in the game',
    async run({ browser, base }) {
      const [ann, bob] = await twoPlayers(browser, base);
      try {
        // Bob is on his own profile: no Challenge button there.
        await bob.page.goto(`${base}/@/${bob.name}`);
        await byId(bob.page, 'profile-name').waitFor();
        assert(await byId(bob.page, 'challenge-button').isHidden(), 'no Challenge on one’s own profile');
        await ann.page.goto(`${base}/@/${bob.name}`);
        await byId(ann.page, 'challenge-button').waitFor();
        assert((await byId(ann.page, 'challenge-button').textContent()) === `Challenge ${bob.name}`, 'the button names the player');
        await challengeFromProfile(ann.page, '10+0');
        const out = (await byId(ann.page, 'challenge-out').textContent()) ?? '';
        assert(out.includes(`Your challenge to ${bob.name}`) && out.includes('Chess960') && out.includes('10+0'), `the challenge waits with Cancel: ${out}`);

        // Bob, on another page, is told at once and answers from the notification.
        const notice = byId(bob.page, 'challenge-notice');
        await notice.waitFor({ timeout: 10_000 });
        await waitLive(bob.page, `${ann.name} (1500?) challenges you: 10+0`, 'live-urgent');
        assert((await notice.textContent()).includes('Chess960'), 'the notification says Chess960');
        const group = await notice.ariaSnapshot();
        assert(group.includes(`button "Accept the challenge of ${ann.name}"`) && group.includes('combobox "Reason"') && group.includes(`button "Decline the challenge of ${ann.name}"`), `the notification's controls are named:\n${group}`);
        // With the keyboard: the reason, then Decline.
        await notice.locator('[data-testid="decline-reason"]').focus();
        await notice.locator('[data-testid="decline-reason"]').selectOption('later');
        await bob.page.keyboard.press('Tab');
        assert((await focused(bob.page)) === 'challenge-decline', 'Tab reaches Decline');
        await bob.page.keyboard.press('Enter');
        await notice.waitFor({ state: 'detached' });
        await waitLive(bob.page, 'Challenge declined.');

        const declined = byId(ann.page, 'declined-notice');
        await declined.waitFor({ timeout: 10_000 });
        const said = (await declined.textContent()) ?? '';
        assert(said.includes(`${bob.name} declined your challenge: This is not the right time for me, please ask again later.`), `the reason in words: ${said}`);
        assert((await declined.getAttribute('data-reason')) === 'later', 'the reason key');
        await waitLive(ann.page, 'please ask again later', 'live-urgent');
        assert((await byId(ann.page, 'challenge-out').count()) === 0, 'no challenge waits any more');
        // In Slovak, the same reason.
        await byId(ann.page, 'language').selectOption('sk');
        assert((await declined.textContent()).includes('Teraz sa mi to nehodí'), `the reason in Slovak: ${await declined.textContent()}`);
        await byId(ann.page, 'language').selectOption('en');
        await byId(ann.page, 'declined-dismiss').click();
        await declined.waitFor({ state: 'detached' });

        // Again: accepted; both go to their seats.
        await challengeFromProfile(ann.page, '10+0');
        await notice.waitFor({ timeout: 10_000 });
        // The page with a challenge walked with Tab; Accept reached and pressed with the keyboard.
        const stops = await tabWalk(bob.page, 'a page with a challenge to answer');
        assert(stops.some((st) => st.id === 'challenge-accept'), `Accept is reached with Tab: ${stops.map((st) => st.id).join(', ')}`);
        await bob.page.evaluate(() => document.activeElement?.blur());
        await tabTo(bob.page, 'challenge-accept');
        await bob.page.keyboard.press('Enter');
        const [a, b] = await Promise.all([gameOf(ann.page), gameOf(bob.page)]);
        assert(a === b, `both in the same game: ${a} and ${b}`);
        const state = await serverState(base, a);
        assert(typeof state.chess960 === 'number', `a Chess960 game: ${state.chess960}`);
        const sides = [await ann.page.locator('.board').getAttribute('data-orientation'), await bob.page.locator('.board').getAttribute('data-orientation')];
        assert(sides[0] !== sides[1], `opposite colours: ${sides}`);
      } finally {
        await ann.context.close();
        await bob.context.close();
      }
    },
  },
  {
    name: 'lobby: a visitor sees the seeks without Accept and no 401 in the console; a custom seek; axe on the lobby and a challenge notification (light and dark)',
    async run({ browser, base }) {
      const [ann, bob] = await twoPlayers(browser, base);
      const visitor = await browser.newContext();
      try {
        // A custom seek: 3+2, casual, White, Chess960, 1000–2000.
        await ann.page.locator('[data-testid="custom-seek"] summary').click();
        await byId(ann.page, 'seek-control').selectOption('3+2');
        await byId(ann.page, 'seek-mode').selectOption('casual');
        await byId(ann.page, 'seek-color').selectOption('white');
        await byId(ann.page, 'seek-chess960').check();
        await byId(ann.page, 'seek-min').fill('2000');
        await byId(ann.page, 'seek-max').fill('1000');
        await byId(ann.page, 'seek-create').click();
        assert((await byId(ann.page, 'lobby-error').textContent()).includes('lowest rating'), 'a range upside down is explained');
        assert((await focused(ann.page)) === 'seek-min', 'focus on the lowest rating');
        await byId(ann.page, 'seek-min').fill('1000');
        await byId(ann.page, 'seek-max').fill('2000');
        await byId(ann.page, 'seek-create').click();
        await byId(ann.page, 'seek-waiting').locator('li').waitFor();

        const page = await visitor.newPage();
        const errors = [];
        page.on('console', (m) => {
          if (m.type() === 'error') errors.push(m.text());
        });
        await page.goto(base);
        await byId(page, 'account').and(page.locator('[data-state="anonymous"]')).waitFor();
        const row = page.locator(`[data-testid="seek-row"][data-owner="${ann.name}"]`);
        await row.waitFor({ timeout: 10_000 });
        const text = (await row.textContent()) ?? '';
        assert(text.includes('3+2') && text.includes('casual') && text.includes('Chess960') && text.includes('1000–2000') && text.includes('White'), `the custom seek: ${text}`);
        assert((await byId(page, 'seek-accept').count()) === 0, 'a visitor has no Accept');
        assert((await byId(page, 'lobby-visitor').textContent()).includes('Sign in to play people'), 'a visitor is asked to sign in');
        assert(errors.length === 0, `no error in a visitor's console: ${errors}`);
        await byId(page, 'lobby-sign-in').click();
        await byId(page, 'form-signin').waitFor();
        await page.keyboard.press('Escape');
        assert((await focused(page)) === 'lobby-sign-in', 'focus back on the lobby’s Sign in');

        // A challenge to Bob on the start page: the notification.
        await ann.page.goto(`${base}/@/${bob.name}`);
        await challengeFromProfile(ann.page, '15+10');
        await byId(bob.page, 'challenge-notice').waitFor({ timeout: 10_000 });
        // Ann's seek went when she left the page.
        await row.waitFor({ state: 'detached', timeout: 10_000 });
        await byId(bob.page, 'quick-3+0').click();
        await bob.page.locator(`[data-testid="seek-row"][data-owner="${bob.name}"]`).waitFor();
        for (const colorScheme of ['light', 'dark']) {
          await page.emulateMedia({ colorScheme });
          await bob.page.emulateMedia({ colorScheme });
          await page.locator(`[data-testid="seek-row"][data-owner="${bob.name}"]`).waitFor();
          await axe(page, `the lobby seen by a visitor (${colorScheme})`);
          await axe(bob.page, `the lobby with one's own seek and a challenge notification (${colorScheme})`);
        }
        await axeBoth(ann.page, 'a profile with a challenge waiting');
        // Cancel both: the seek from the quick button, the challenge from Ann.
        await byId(bob.page, 'quick-3+0').click();
        await bob.page.locator(`[data-testid="seek-row"][data-owner="${bob.name}"]`).waitFor({ state: 'detached' });
        await byId(ann.page, 'challenge-cancel').click();
        await byId(bob.page, 'challenge-notice').waitFor({ state: 'detached', timeout: 10_000 });
        await waitLive(bob.page, `${ann.name} withdrew the challenge.`);
      } finally {
        await visitor.close();
        await ann.context.close();
        await bob.context.close();
      }
    },
  },
  {
    name: 'lobby: a seek outlives its socket: when the lobby socket breaks (its node went away, taking the seek) the page opens it again on the next socket, and it is taken',
    async run({ browser, base }) {
      const [ann, bob] = await twoPlayers(browser, base);
      try {
        // Ann's lobby socket passes through the test, which breaks it as a node that dies would.
        const sockets = [];
        await ann.context.routeWebSocket(/\/ws\/lobby$/, (ws) => {
          sockets.push({ ws, server: ws.connectToServer() });
        });
        await ann.page.reload();
        await byId(ann.page, 'quick-5+3').click();
        await byId(ann.page, 'seek-waiting').locator('li').waitFor();
        const row = bob.page.locator(`[data-testid="seek-row"][data-owner="${ann.name}"]`);
        await row.waitFor({ timeout: 10_000 });
        const first = await row.getAttribute('data-seek');
        assert(sockets.length === 1, `one lobby socket: ${sockets.length}`);
        await sockets[0].server.close();
        await sockets[0].ws.close();
        // The server closed the seek with its socket; the page opened it again on the next one.
        await bob.page.waitForFunction(
          ([owner, old]) => {
            const rows = [...document.querySelectorAll(`[data-testid="seek-row"][data-owner="${owner}"]`)];
            return rows.length === 1 && rows[0].getAttribute('data-seek') !== old;
          },
          [ann.name, first],
          { timeout: 15_000 },
        );
        assert(sockets.length === 2, `the page opened a second socket: ${sockets.length}`);
        const seeks = (await (await fetch(`${base}/api/lobby`)).json()).seeks.filter((seek) => seek.user.name === ann.name);
        assert(seeks.length === 1 && seeks[0].time_control === '5+3' && seeks[0].rated, `the same terms, once: ${JSON.stringify(seeks)}`);
        await byId(ann.page, 'seek-waiting').locator('li').waitFor();
        await row.locator('[data-testid="seek-accept"]').click();
        const [a, b] = await Promise.all([gameOf(ann.page), gameOf(bob.page)]);
        assert(a === b, `both on the same game: ${a} and ${b}`);
      } finally {
        await ann.context.close();
        await bob.context.close();
      }
    },
  },
];
