// The end-to-end tests of the issue "Players" (points 5 and 8): signing up,
// out and in on the page, a new password; a profile with a finished game
// between two accounts, its replay stepped with the keyboard, its PGN; and
// axe-core on the sign-in form, the profile and the replay (light and dark).
//
// Games between accounts are made through the lichess-compatible API with
// personal tokens, which only `rochade token create` makes, on the database
// file: so the profile test starts its own `rochade serve` (the binary of
// `scripts/e2e`, or $ROCHADE) on a temporary database.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { axe, axeBoth } from './access.mjs';
import { assert, byId } from './browser.mjs';

export const PASSWORD = 'correct horse 1';
const START = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

/** A user name not used before in this server's life (2–20 of [A-Za-z0-9_-]). */
export const freshName = (prefix) => `${prefix}_${Math.random().toString(36).slice(2, 10)}`;

/** The text of the polite live region. */
const liveText = async (page) => (await byId(page, 'live').textContent()) ?? '';

/** The test id of the focused element. */
const focused = (page) => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.id ?? document.activeElement?.tagName);

/** Opens the Sign up or Sign in dialog from the header and sends `name` and `password`. */
async function accountForm(page, which, name, password) {
  await byId(page, which === 'signup' ? 'sign-up' : 'sign-in').click();
  await byId(page, `form-${which}`).waitFor();
  await byId(page, 'field-name').fill(name);
  await byId(page, 'field-password').fill(password);
  await byId(page, 'account-submit').click();
}

/** Signs up `name` through the page and waits for the name in the header. */
export async function signUp(page, name) {
  await byId(page, 'account').and(page.locator('[data-state="anonymous"]')).waitFor();
  await accountForm(page, 'signup', name, PASSWORD);
  await page.waitForFunction((n) => document.querySelector('[data-testid="account-name"]')?.textContent === n, name);
}

/** The rochade binary scripts/e2e built. */
function rochadeBinary() {
  if (process.env.ROCHADE) return process.env.ROCHADE;
  const here = dirname(fileURLToPath(import.meta.url));
  const target = process.env.CARGO_TARGET_DIR ?? join(here, '../../target');
  for (const kind of ['release', 'debug']) {
    const bin = join(target, kind, 'rochade');
    if (existsSync(bin)) return bin;
  }
  throw new Error(`no rochade binary under ${target}; run scripts/e2e (or set ROCHADE)`);
}

/** A free TCP port. */
function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/**
 * Starts `rochade serve` on a temporary database; returns its base URL, a
 * CLI runner, `stop`, and `crash` and `restart`: SIGKILL, then the same
 * server again on the same port and database.
 */
export async function ownServer() {
  const bin = rochadeBinary();
  const dir = mkdtempSync(join(tmpdir(), 'rochade-players-'));
  const db = join(dir, 'players.sqlite');
  const port = await freePort();
  // The test makes more than a page of games from one address in seconds.
  const limits = ['--limit', 'games_per_minute=1000'];
  const base = `http://127.0.0.1:${port}`;
  let server = null;
  let log = '';
  const stop = () => {
    server.kill();
    rmSync(dir, { recursive: true, force: true });
  };
  const start = async () => {
    server = spawn(bin, ['serve', '--addr', `127.0.0.1:${port}`, '--db', db, ...limits], { stdio: ['ignore', 'ignore', 'pipe'] });
    server.stderr.on('data', (d) => {
      log = (log + d).slice(-4000);
    });
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`${base}/healthz`)).ok) break;
      } catch {
        // not listening yet
      }
      if (i > 200 || server.exitCode !== null) {
        stop();
        throw new Error(`rochade serve did not start:\n${log}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  await start();
  const crash = async () => {
    const exited = new Promise((r) => server.once('exit', r));
    server.kill('SIGKILL');
    await exited;
  };
  const cli = (...args) => execFileSync(bin, [...args, '--db', db], { encoding: 'utf8' }).trim();
  return { base, cli, stop, crash, restart: start };
}

/** A call of the lichess-compatible API with a bearer token; returns the JSON answer. */
async function api(base, token, method, path, form = null) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
    body: form ? new URLSearchParams(form).toString() : undefined,
  });
  const text = await res.text();
  assert(res.ok, `${method} ${path} answered ${res.status}: ${text}`);
  return text ? JSON.parse(text) : null;
}

/** A rated 5+3 game between `white` and `black` (their tokens) through the API: challenged, accepted; returns its id. */
async function newGame(base, white, black, blackName) {
  const challenge = await api(base, white, 'POST', `/api/challenge/${blackName}`, { rated: 'true', 'clock.limit': '300', 'clock.increment': '3', color: 'white' });
  await api(base, black, 'POST', `/api/challenge/${challenge.id}/accept`);
  for (let i = 0; i < 100; i++) {
    const game = (await api(base, white, 'GET', '/api/account/playing')).nowPlaying?.[0]?.gameId;
    if (game) return game;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the accepted challenge never became a game');
}

/** Fool's mate between `white` and `black` through the Board API; returns the game id. */
async function foolsMate(base, white, black, blackName) {
  const game = await newGame(base, white, black, blackName);
  for (const [token, uci] of [[white, 'f2f3'], [black, 'e7e5'], [white, 'g2g4'], [black, 'd8h4']]) {
    await api(base, token, 'POST', `/api/board/game/${game}/move/${uci}`);
  }
  return game;
}

/** Waits until the replay shows `ply` half-moves played; returns the board's FEN. */
async function replayAt(page, ply) {
  await page.waitForFunction((n) => document.querySelector('[data-testid="replay"]')?.getAttribute('data-ply') === String(n), ply, { timeout: 5000 }).catch(async () => {
    throw new Error(`the replay never showed ply ${ply}: it shows ${await byId(page, 'replay').getAttribute('data-ply')}`);
  });
  return page.locator('.board').getAttribute('data-fen');
}

export const playerTests = [
  {
    name: 'accounts: sign up on the page, sign out, a wrong password refused, sign in, the name in the header, a new password',
    async run({ browser, base }) {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(base);
      const name = freshName('Ada');
      // The page checks the rules before sending anything.
      await byId(page, 'account').and(page.locator('[data-state="anonymous"]')).waitFor();
      await accountForm(page, 'signup', 'x', PASSWORD);
      const rule = (await byId(page, 'account-error').textContent()) ?? '';
      assert(rule.includes('2 to 20'), `a one-letter name is explained: "${rule}"`);
      assert((await focused(page)) === 'field-name', 'focus on the name that is wrong');
      assert((await byId(page, 'field-name').getAttribute('aria-invalid')) === 'true', 'the name is marked invalid');
      await byId(page, 'account-cancel').click();
      assert((await focused(page)) === 'sign-up', `focus back on Sign up after Cancel: ${await focused(page)}`);

      await signUp(page, name);
      assert((await focused(page)) === 'account-button', 'focus on the name after signing up');
      assert((await liveText(page)).includes(`Signed in as ${name}`), 'signing up is announced');
      const me = await (await page.request.get(`${base}/api/auth/me`)).json();
      assert(me.name === name && me.bot === false, `the server knows the session: ${JSON.stringify(me)}`);

      // Sign out from the menu.
      await byId(page, 'account-button').click();
      assert((await byId(page, 'account-button').getAttribute('aria-expanded')) === 'true', 'the menu is open');
      assert((await byId(page, 'my-profile').getAttribute('href')) === `/@/${name}`, 'the menu links to the profile');
      await byId(page, 'sign-out').click();
      await byId(page, 'sign-in').waitFor();
      assert((await focused(page)) === 'sign-in', 'focus on Sign in after signing out');
      assert((await page.request.get(`${base}/api/auth/me`)).status() === 401, 'the session ended');

      // A taken name, then a wrong password, each said from the server's code.
      await accountForm(page, 'signup', name.toUpperCase(), PASSWORD);
      await page.waitForFunction(() => document.querySelector('[data-testid="account-error"]')?.textContent?.includes('taken'));
      await byId(page, 'account-cancel').click();
      await accountForm(page, 'signin', name, 'not the password');
      await page.waitForFunction(() => document.querySelector('[data-testid="account-error"]')?.textContent === 'Wrong user name or password');
      assert((await focused(page)) === 'field-password', 'focus on the password after a refusal');
      await byId(page, 'field-password').fill(PASSWORD);
      await byId(page, 'account-submit').click();
      await page.waitForFunction((n) => document.querySelector('[data-testid="account-name"]')?.textContent === n, name);

      // The name stays in the header on another page, in Slovak too.
      await page.evaluate(() => localStorage.setItem('rochade.lang', 'sk'));
      await page.goto(`${base}/@/${name}`);
      await page.waitForFunction((n) => document.querySelector('[data-testid="account-name"]')?.textContent === n, name);
      const tree = await byId(page, 'account').ariaSnapshot();
      assert(tree.includes(`button "Prihlásený používateľ ${name}"`), `the header says who is signed in, in Slovak:\n${tree}`);

      // A new password: the current one is checked; then it works.
      await byId(page, 'account-button').click();
      await byId(page, 'change-password').click();
      await byId(page, 'field-current').fill('not the password');
      await byId(page, 'field-new').fill('a new password 2');
      await byId(page, 'account-submit').click();
      await page.waitForFunction(() => document.querySelector('[data-testid="account-error"]')?.textContent === 'Súčasné heslo nie je správne');
      await byId(page, 'field-current').fill(PASSWORD);
      await byId(page, 'account-submit').click();
      await page.waitForFunction(() => document.querySelector('[data-testid="live"]')?.textContent?.includes('Heslo bolo zmenené'));
      const again = await page.request.post(`${base}/api/auth/signin`, { data: { name, password: 'a new password 2' } });
      assert(again.ok(), `the new password signs in: ${again.status()}`);
      await context.close();
    },
  },
  {
    name: 'profile: two players signed up on the page, a rated game between them over the API; the list, the replay stepped with the keyboard, the PGN; axe',
    async run({ browser }) {
      const server = await ownServer();
      try {
        const { base, cli } = server;
        const white = freshName('Wh');
        const black = freshName('Bl');
        const contexts = [];
        for (const name of [white, black]) {
          const context = await browser.newContext();
          contexts.push(context);
          const page = await context.newPage();
          await page.goto(base);
          await signUp(page, name);
        }
        const token = (name) => cli('token', 'create', name, '--scopes', 'board:play,challenge:write').split(/\s+/).find((w) => w.startsWith('rop_'));
        const tokens = [token(white), token(black)];
        const game = await foolsMate(base, ...tokens, black);
        // A page and more of later games, each resigned by Black at once: fool's mate is on the second page.
        for (let i = 0; i < 20; i++) await api(base, tokens[1], 'POST', `/api/board/game/${await newGame(base, ...tokens, black)}/resign`);

        const page = await contexts[0].newPage();
        await page.goto(base);
        await byId(page, 'account-button').click();
        await byId(page, 'my-profile').click();
        await page.waitForURL(`${base}/@/${white}`);
        await byId(page, 'profile-name').waitFor();
        assert((await byId(page, 'profile-name').textContent()) === white, 'the profile names the player');
        assert((await byId(page, 'member-since').textContent()).startsWith('Member since'), 'member since');
        const item = page.locator(`[data-testid="game-item"][data-game="${game}"]`);
        await page.waitForFunction(() => document.querySelector('[data-testid="games-status"]')?.textContent === 'Games shown: 20');
        assert((await item.count()) === 0 && (await byId(page, 'more-games').isVisible()), 'the oldest game waits for More');
        await byId(page, 'more-games').click();
        await item.waitFor({ timeout: 10_000 });
        assert((await byId(page, 'game-item').count()) === 21, 'More added the last game');
        assert((await page.evaluate(() => document.activeElement?.getAttribute('data-game'))) === game, 'focus on the first game More added');
        assert(await byId(page, 'more-games').isHidden(), 'no More after the last page');
        assert((await item.getAttribute('data-result')) === 'loss', `White lost by fool's mate: ${await item.getAttribute('data-result')}`);
        const text = (await item.textContent()) ?? '';
        assert(text.includes(`vs ${black}`) && text.includes('checkmate') && text.includes('5+3'), `the game in the list: ${text}`);
        const perfs = await byId(page, 'perf').allTextContents();
        assert(perfs.some((p) => p.includes('Blitz') && p.includes('21 games') && p.includes('FIDE: blitz/rapid')), `the blitz rating with both categories: ${perfs}`);
        await axeBoth(page, 'the profile');

        // Filters: the one loss under "Losses"; no rapid games.
        await byId(page, 'filter-result').selectOption('loss');
        await page.waitForFunction(() => document.querySelector('[data-testid="games-status"]')?.textContent === 'Games shown: 1');
        await item.waitFor();
        await byId(page, 'filter-perf').selectOption('rapid');
        await page.waitForFunction(() => document.querySelector('[data-testid="games-status"]')?.textContent === 'No games.');
        await byId(page, 'filter-perf').selectOption('blitz');
        await item.waitFor();

        // The replay: at the end first, then the keyboard.
        await item.click();
        await page.waitForURL(`${base}/@/${white}?game=${game}`);
        assert((await replayAt(page, 4)).startsWith('rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w'), 'the replay opens at the mate');
        assert((await focused(page)) === 'replay-title', 'focus on the replay heading');
        const result = (await byId(page, 'replay-result').textContent()) ?? '';
        assert(result.includes('0-1') && result.includes('checkmate'), `the result and why: ${result}`);
        await page.keyboard.press('Home');
        assert((await replayAt(page, 0)) === START, 'Home: the start position');
        await page.keyboard.press('ArrowRight');
        assert((await replayAt(page, 1)).startsWith('rnbqkbnr/pppppppp/8/8/8/5P2/PPPPP1PP/RNBQKBNR b'), 'Right: after 1. f3');
        await page.keyboard.press('ArrowRight');
        await page.keyboard.press('ArrowLeft');
        await replayAt(page, 1);
        await page.waitForFunction(() => document.querySelector('[data-testid="live"]')?.textContent?.endsWith('1. White: pawn f3'));
        await page.keyboard.press('End');
        await replayAt(page, 4);
        await byId(page, 'replay-move').nth(2).click();
        assert((await replayAt(page, 3)).includes('6P1/5P2'), 'a click on 2. g4 shows the position after it');
        assert((await byId(page, 'replay-move').nth(2).getAttribute('aria-current')) === 'step', 'the move shown is marked current');
        const moves = await byId(page, 'replay-moves').ariaSnapshot();
        assert(moves.includes('button "1. f3"') && moves.includes('button "2… Qh4#"'), `the moves are a list of buttons:\n${moves}`);
        await page.keyboard.press('ArrowLeft');
        await replayAt(page, 2);
        assert((await focused(page)) === 'replay-move', 'the arrows in the list keep focus on the move shown');
        await axeBoth(page, 'the replay');

        const href = await byId(page, 'replay-pgn').getAttribute('href');
        assert(href === `/game/export/${game}`, `the PGN link: ${href}`);
        const pgn = await page.request.get(`${base}${href}`);
        const record = await pgn.text();
        assert(pgn.ok() && record.includes('Qh4#') && record.includes('0-1') && record.includes(`[White "${white}"]`), `the PGN downloads:\n${record.slice(0, 300)}`);

        await byId(page, 'replay-back').click();
        await page.waitForURL(`${base}/@/${white}`);
        assert((await page.evaluate(() => document.activeElement?.getAttribute('data-game'))) === game, 'back in the list, focus on the game');

        // Another player's profile, from the address alone; a name nobody has.
        await page.goto(`${base}/@/${black}?game=${game}`);
        assert((await replayAt(page, 4)).startsWith('rnb1kbnr'), 'a replay opened by its address');
        assert((await page.locator('.board').getAttribute('data-orientation')) === 'black', "Black's profile shows the board from Black's side");
        await page.goto(`${base}/@/nobody_here`);
        await byId(page, 'profile-error').waitFor();
        assert((await byId(page, 'profile-error').textContent()) === 'No such player.', 'a name nobody has');
        for (const c of contexts) await c.close();
      } finally {
        server.stop();
      }
    },
  },
  {
    name: 'a11y: axe on the sign-in and sign-up forms (with an error shown), in the light and dark themes',
    async run({ browser, base }) {
      for (const colorScheme of ['light', 'dark']) {
        const context = await browser.newContext({ colorScheme });
        const page = await context.newPage();
        await page.goto(base);
        await byId(page, 'sign-in').click();
        await byId(page, 'form-signin').waitFor();
        assert((await focused(page)) === 'field-name', 'the dialog opens on the name');
        const tree = await byId(page, 'account-dialog').ariaSnapshot();
        assert(tree.includes('dialog "Sign in"') && tree.includes('textbox "User name"') && tree.includes('textbox "Password"'), `the form's fields are labelled:\n${tree}`);
        await axe(page, `the sign-in form (${colorScheme})`);
        await byId(page, 'account-submit').click();
        await byId(page, 'account-error').and(page.locator(':not(:empty)')).waitFor();
        await axe(page, `the sign-in form with an error (${colorScheme})`);
        await byId(page, 'switch-signup').click();
        await byId(page, 'form-signup').waitFor();
        await axe(page, `the sign-up form (${colorScheme})`);
        await page.keyboard.press('Escape');
        assert((await focused(page)) === 'sign-in', 'Escape closes the dialog, focus back where it was');
        await context.close();
      }
    },
  },
];
