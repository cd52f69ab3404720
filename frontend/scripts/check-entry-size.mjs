// The entry chunk's budget (issue 36): what a browser must download before the first page can
// render — the entry chunk and every chunk it imports statically, gzipped — stays within
// 150 kB whatever the language, as each language's messages are a chunk of their own, fetched
// on demand. Reads the Vite manifest of the last build (dist/.vite/manifest.json); prints the
// sizes; exits 1 over the budget. Run by `npm run build`.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

const BUDGET = 150_000;
const dist = new URL('../dist/', import.meta.url);
const manifest = JSON.parse(readFileSync(new URL('.vite/manifest.json', dist), 'utf8'));

const gzipped = (file) => gzipSync(readFileSync(new URL(file, dist)), { level: 9 }).length;
const kB = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;

const entries = Object.entries(manifest).filter(([, chunk]) => chunk.isEntry);
if (entries.length !== 1) {
  console.error(`Expected one entry chunk in the manifest, found ${entries.length}.`);
  process.exit(1);
}

/** The entry and the chunks it imports statically, each once. */
const loaded = new Map();
const visit = (key) => {
  const chunk = manifest[key];
  if (!chunk || loaded.has(chunk.file)) return;
  loaded.set(chunk.file, gzipped(chunk.file));
  for (const imported of chunk.imports ?? []) visit(imported);
};
visit(entries[0][0]);

const total = [...loaded.values()].reduce((sum, size) => sum + size, 0);
for (const [file, size] of loaded) console.log(`  ${file}  ${kB(size)} gzipped`);
for (const [source, chunk] of Object.entries(manifest)) {
  const language = /^src\/locales\/([^/]+)\//.exec(source)?.[1];
  if (language)
    console.log(`  ${language}: ${chunk.file}  ${kB(gzipped(chunk.file))} gzipped (on demand)`);
}
const verdict = total <= BUDGET ? 'within' : 'OVER';
console.log(
  `Entry chunk and its static imports: ${kB(total)} gzipped, ${verdict} the ${kB(BUDGET)} budget.`,
);
if (total > BUDGET) process.exit(1);
