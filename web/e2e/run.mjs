// Runs the end-to-end tests against a running `rochade serve`:
//   node e2e/run.mjs --base http://127.0.0.1:PORT [--out DIR] [--only TEXT]
// Prints one line per test and exits non-zero if any failed.
import { parseArgs } from 'node:util';
import { launch } from './browser.mjs';
import { accessTests } from './access.mjs';
import { arenaTests } from './arena.mjs';
import { correspondenceTests } from './correspondence.mjs';
import { directorTests } from './director.mjs';
import { everyoneTests } from './everyone.mjs';
import { lobbyTests } from './lobby.mjs';
import { playerTests } from './players.mjs';
import { recoveryTests } from './recovery.mjs';
import { simulTests } from './simul.mjs';
import { swissTests } from './swiss.mjs';
import { tests as baseTests } from './tests.mjs';

const tests = [...baseTests, ...accessTests, ...playerTests, ...lobbyTests, ...correspondenceTests, ...directorTests, ...everyoneTests, ...simulTests, ...swissTests, ...arenaTests, ...recoveryTests];

const { values } = parseArgs({
  options: {
    base: { type: 'string' },
    out: { type: 'string', default: 'target/e2e' },
    only: { type: 'string' },
  },
});
if (!values.base) {
  console.error('usage: node e2e/run.mjs --base http://127.0.0.1:PORT [--out DIR] [--only TEXT]');
  process.exit(2);
}

const browser = await launch();
let failed = 0;

/** Runs one test and prints its line. */
async function runOne(test) {
  const started = Date.now();
  const took = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
  try {
    await test.run({ browser, base: values.base, out: values.out });
    console.log(`ok    ${test.name} (${took()})`);
  } catch (e) {
    failed += 1;
    console.log(`FAIL  ${test.name} (${took()})\n      ${e.stack ?? e}`);
  }
}

const chosen = tests.filter((t) => !values.only || t.name.includes(values.only));
// Tests that mostly wait (a clock running down) start first and run alongside.
const background = chosen.filter((t) => t.background).map(runOne);
for (const test of chosen.filter((t) => !t.background)) await runOne(test);
await Promise.all(background);
await browser.close();
console.log(failed ? `${failed} end-to-end test(s) failed` : 'all end-to-end tests passed');
process.exit(failed ? 1 : 0);
