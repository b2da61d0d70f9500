// The storefront's initial JavaScript, gzipped, against its budget (SPEC section 12, issue #17: at most 100 kB).
// Initial: the entry chunk of web/index.html and every chunk it imports statically, as the build's manifest
// (dist/public/.vite/manifest.json) lists them; chunks loaded later (`lazy()`, dynamic imports) are not counted.
// Run after the build (`npm run test:browser` does); prints the figures, fails above the budget.
import { readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/** The storefront's budget for initial JavaScript, gzipped, in bytes (kB = 1000 bytes). */
export const STOREFRONT_BUDGET = 100_000;

/** Manifest keys of the two pages (relative to web/, vite's root). */
const PAGES = { storefront: 'index.html', dashboard: 'admin/index.html' };

/**
 * Files of the JavaScript a page loads before it runs: its entry chunk and, transitively, what it imports statically.
 */
export function initialChunks(manifest, entry) {
  const files = [];
  const seen = new Set();
  const visit = (key) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (chunk === undefined) throw new Error(`the manifest has no chunk ${key}`);
    if (chunk.file.endsWith('.js')) files.push(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(entry);
  return files;
}

/** Sizes of a page's initial JavaScript in `publicDir` (dist/public): raw and gzipped (level 9), in bytes. */
export function initialJavaScript(publicDir, page) {
  const manifest = JSON.parse(readFileSync(path.join(publicDir, '.vite', 'manifest.json'), 'utf8'));
  const files = initialChunks(manifest, PAGES[page]);
  let raw = 0;
  let gzipped = 0;
  for (const file of files) {
    const content = readFileSync(path.join(publicDir, file));
    raw += content.length;
    gzipped += gzipSync(content, { level: 9 }).length;
  }
  return { files, raw, gzipped };
}

const kB = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;

if (process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const publicDir = fileURLToPath(new URL('../dist/public/', import.meta.url));
  try {
    const storefront = initialJavaScript(publicDir, 'storefront');
    const dashboard = initialJavaScript(publicDir, 'dashboard');
    console.log(
      `storefront initial JavaScript: ${kB(storefront.gzipped)} gzipped (${kB(storefront.raw)} raw, `
        + `${storefront.files.length} file(s)); budget ${kB(STOREFRONT_BUDGET)}`,
    );
    console.log(
      `dashboard initial JavaScript: ${kB(dashboard.gzipped)} gzipped (${kB(dashboard.raw)} raw, `
        + `${dashboard.files.length} file(s)); no budget`,
    );
    if (storefront.gzipped > STOREFRONT_BUDGET) {
      console.error(`The storefront's initial JavaScript is over its budget: ${storefront.files.join(', ')}`);
      process.exitCode = 1;
    }
  } catch (err) {
    console.error(
      `Cannot measure the web apps (run \`npm run build\` first): ${err instanceof Error ? err.message : err}`,
    );
    process.exitCode = 1;
  }
}
