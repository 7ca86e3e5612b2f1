// Builds the page into dist/: index.html, assets/app.js and assets/app.css,
// minified. The output depends only on the sources and the pinned packages
// (no timestamps, no absolute paths), so CI can compare it with the committed
// bundle. The assets are referenced with a content hash for cache busting.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, 'dist');
// Raised from 300 KiB with the simul pages (web/src/simul.ts and its texts in three languages),
// and from 320 KiB with the live events' pages (issue 18 point 9: the list, the event page with
// its tables, the arbiter's controls, and their texts in three languages), and to 357 KiB with
// the board picture's highlights given shapes of 3:1 contrast (issue 19 point 8), and to 368 KiB
// with the arena's page, its berserk button and their texts in three languages (issue 18 point 10),
// and to 372 KiB with an event called off before its start (its form, its state and their texts
// in three languages), and to 374 KiB with the change of an event's settings before its start (the
// director's form, shared with the new event's, filled with the settings as they stand), and to
// 376 KiB with a tournament's default time (6.7.1: its setting, the game page's notice of the
// moment a first move is due, their texts in three languages).
const budget = 376 * 1024;

const result = await build({
  absWorkingDir: here,
  entryPoints: { app: 'src/main.ts', style: 'src/style.css' },
  bundle: true,
  minify: true,
  format: 'iife',
  target: 'es2020',
  legalComments: 'none',
  charset: 'utf8',
  write: false,
  outdir: 'dist/assets',
  loader: { '.svg': 'dataurl' },
  logLevel: 'warning',
});

const outputs = {};
for (const file of result.outputFiles) {
  const name = file.path.endsWith('.css') ? 'app.css' : 'app.js';
  outputs[name] = file.contents;
}
const total = Object.values(outputs).reduce((n, b) => n + b.length, 0);
if (total > budget) {
  console.error(`dist: JS + CSS is ${total} bytes, over the ${budget}-byte budget`);
  process.exit(1);
}

const hash = (bytes) => createHash('sha256').update(bytes).digest('hex').slice(0, 12);
const html = readFileSync(join(here, 'src/index.html'), 'utf8')
  .replace('{{js}}', `/assets/app.js?v=${hash(outputs['app.js'])}`)
  .replace('{{css}}', `/assets/app.css?v=${hash(outputs['app.css'])}`);

// Files are written only when their bytes change, so that an unchanged page
// does not make cargo rebuild the server that embeds it.
const files = { 'index.html': Buffer.from(html) };
for (const [name, bytes] of Object.entries(outputs)) files[`assets/${name}`] = Buffer.from(bytes);
for (const old of existing(dist)) if (!(old in files)) rmSync(join(dist, old));
for (const [name, bytes] of Object.entries(files)) {
  const path = join(dist, name);
  mkdirSync(dirname(path), { recursive: true });
  if (!existsSync(path) || !readFileSync(path).equals(bytes)) writeFileSync(path, bytes);
}
console.log(`dist: app.js ${outputs['app.js'].length} B, app.css ${outputs['app.css'].length} B, total ${total} B (budget ${budget} B)`);

/** The files below `dir`, as paths relative to it. */
function existing(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath ?? e.path, e.name)));
}
