// The game page when its server dies (issue 20, point 5): the socket
// breaks and the page says so; once the server is back it reconnects on
// its own and the game goes on, the clocks stopped for the outage (6.12).
import { ownServer } from './players.mjs';
import { assert, byId, clickMove, serverState, startGame, waitPly } from './browser.mjs';

/** How long the server stays down. */
const OUTAGE_MS = 6000;

export const recoveryTests = [
  {
    name: 'the page reconnects on its own after its server is killed, and the outage costs no clock time (6.12)',
    async run({ browser }) {
      const server = await ownServer();
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      try {
        await page.goto(server.base);
        const id = await startGame(page, { opponent: 'local', control: '10+5' });
        await clickMove(page, 'e2e4');
        await waitPly(page, 1);
        const began = Date.now();
        const before = await serverState(server.base, id);
        assert(before.clock.running === 'black', `Black's clock runs after 1. e4: ${JSON.stringify(before.clock)}`);

        await server.crash();
        const crashed = Date.now();
        const connection = byId(page, 'connection');
        await page.waitForSelector('[data-testid="connection"][data-state="down"]', { timeout: 10_000 });
        assert(((await connection.textContent()) ?? '').trim() !== '', 'the page says it lost the server');
        await page.waitForTimeout(Math.max(0, OUTAGE_MS - (Date.now() - crashed)));
        await server.restart();
        const down = Date.now() - crashed;

        // No reload, no click: the page's own socket comes back.
        await page.waitForSelector('[data-testid="connection"][data-state="up"]', { state: 'attached', timeout: 20_000 });
        await clickMove(page, 'e7e5');
        await waitPly(page, 2);
        const wall = Date.now() - began;
        const after = await serverState(server.base, id);
        assert(after.ply === 2, `the game went on: ply ${after.ply}`);
        // Black's clock ran from 1. e4 to 1... e5 but for the outage, and
        // gained the 5 s increment (6.2.1). Up to a second more is given
        // back: the server records that it is alive once a second.
        const used = before.clock.black + 5000 - after.clock.black;
        console.log(`      down ${(down / 1000).toFixed(1)} s; Black thought ${(wall / 1000).toFixed(1)} s and was charged ${(used / 1000).toFixed(1)} s`);
        assert(used <= wall - down + 1500, `the outage was charged to Black: ${used} ms of ${wall} ms, ${down} ms of them down`);
        assert(used >= 0, `Black's clock went back: ${used} ms`);
      } finally {
        await page.close();
        server.stop();
      }
    },
  },
];
