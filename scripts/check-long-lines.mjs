// Fails when the code has more than MAX_LONG_LINES lines over 120 characters (part of `npm test`). The formatter
// wraps code at 120 columns, but a string, a template or a comment it cannot break can stay longer: wrap those by
// hand (split the string, reflow the comment). A few may stay where wrapping would hurt (an HTML row, a URL).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const MAX_WIDTH = 120;
const MAX_LONG_LINES = 5;
const ROOTS = ['src', 'test', 'web', 'bench', 'scripts'];
const EXTENSIONS = /\.(ts|tsx|mts|js|mjs|cjs)$/;
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'data', 'coverage', 'results']);
/** Generated: not written by hand. */
const GENERATED = new Set(['web/api/schema.d.ts']);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function* sourceFiles(dir) {
  for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const relative = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry.name)) yield* sourceFiles(relative);
    } else if (EXTENSIONS.test(entry.name) && !GENERATED.has(relative)) {
      yield relative;
    }
  }
}

const long = [];
for (const file of ROOTS.flatMap((dir) => [...sourceFiles(dir)])) {
  const lines = readFileSync(path.join(root, file), 'utf8').split('\n');
  lines.forEach((line, i) => {
    // Characters as a reader counts them (code points), not UTF-16 units or bytes.
    const width = [...line].length;
    if (width <= MAX_WIDTH) return;
    long.push(`${file}:${i + 1}: ${width} characters`);
  });
}

if (long.length > MAX_LONG_LINES) {
  console.error(`${long.length} lines over ${MAX_WIDTH} characters, at most ${MAX_LONG_LINES} allowed:`);
  for (const line of long) console.error(`  ${line}`);
  console.error('Wrap them: split the string or the template, reflow the comment.');
  process.exit(1);
}
console.log(`${long.length} lines over ${MAX_WIDTH} characters (at most ${MAX_LONG_LINES}).`);
