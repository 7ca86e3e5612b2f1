// Runs the end-to-end tests against a running `rochade serve`:
//   node e2e/run.mjs --base http://127.0.0.1:PORT [--out DIR] [--only TEXT]
// Prints one line per test and exits non-zero if any failed.
import { parseArgs } from 'node:util';
import { launch } from './browser.mjs';
import { tests } from './tests.mjs';

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
for (const test of tests) {
  if (values.only && !test.name.includes(values.only)) continue;
  const started = Date.now();
  try {
    await test.run({ browser, base: values.base, out: values.out });
    console.log(`ok    ${test.name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  } catch (e) {
    failed += 1;
    console.log(`FAIL  ${test.name} (${((Date.now() - started) / 1000).toFixed(1)} s)\n      ${e.stack ?? e}`);
  }
}
await browser.close();
console.log(failed ? `${failed} end-to-end test(s) failed` : 'all end-to-end tests passed');
process.exit(failed ? 1 : 0);
