// Builds dist/ from src/ (tsc, then the non-TypeScript files the service reads at run time) and the web apps from web/
// into dist/public (vite), unless
// dist/ was built from exactly the files there are now: then `npm start` and `npm run cli` skip
// the compiler's several seconds. `node scripts/build.mjs --force` builds regardless.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** Files besides src/ whose content changes what the build emits (compiler options and version, this script). */
const BUILD_INPUTS = ['package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json', 'scripts/build.mjs'];
/** The web apps' sources (storefront and dashboard), built by vite into dist/public when the folder has its config. */
const WEB = 'web';
const WEB_CONFIG = 'web/vite.config.ts';
/** Folders of src/ the compiled service reads as they are (SQL migrations), copied to dist/. */
const ASSETS = ['db/migrations'];
/** The web apps' hashed assets, sent precompressed (src/webapp/webapp.routes.ts): these kinds get a .br and a .gz. */
const ASSETS_DIR = 'public/assets';
const COMPRESSIBLE = /\.(js|css|json|svg|txt|map)$/;
/** Written last, so a build that failed or was interrupted is not taken for a finished one. */
const STAMP = '.build-stamp.json';

/** Paths of every file under `dir` (relative to it, with `/`), sorted. */
function filesUnder(dir) {
  if (!existsSync(dir)) return [];
  return (
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      // parentPath is Node ≥ 20.12; `path` is its earlier name.
      .map((entry) =>
        path
          .relative(dir, path.join(entry.parentPath ?? entry.path, entry.name))
          .split(path.sep)
          .join('/'),
      )
      .sort()
  );
}

/**
 * A digest of what the build reads: every file's path and content under src/ (so an added,
 * changed or deleted file changes it) and the build's own inputs. Content, not modification
 * times: a checkout or an editor may leave times that say nothing about content.
 */
export function sourceDigest(root) {
  const files = [
    ...filesUnder(path.join(root, 'src')).map((rel) => `src/${rel}`),
    ...filesUnder(path.join(root, WEB)).map((rel) => `${WEB}/${rel}`),
    ...BUILD_INPUTS.filter((rel) => existsSync(path.join(root, rel))),
  ];
  const hash = createHash('sha256');
  for (const rel of files) {
    const content = readFileSync(path.join(root, rel));
    hash.update(`${rel}\0${content.length}\0`).update(content);
  }
  return hash.digest('hex');
}

/** Whether dist/ was built from sources with this digest and still holds everything that build wrote. */
export function isUpToDate(root, digest = sourceDigest(root)) {
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(path.join(root, 'dist', STAMP), 'utf8'));
  } catch {
    return false;
  }
  return (
    stamp?.digest === digest
    && Array.isArray(stamp.outputs)
    && stamp.outputs.every((rel) => existsSync(path.join(root, 'dist', rel)))
  );
}

/**
 * Writes `<file>.br` (brotli, best) and `<file>.gz` (gzip, level 9) next to each compressible asset in `dir`, when
 * smaller: the service sends them as they are (@fastify/static's `preCompressed`), so no request costs compression.
 */
export function precompress(dir) {
  for (const rel of filesUnder(dir).filter((f) => COMPRESSIBLE.test(f))) {
    const file = path.join(dir, rel);
    const content = readFileSync(file);
    const br = brotliCompressSync(content, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: content.length },
    });
    const gz = gzipSync(content, { level: 9 });
    if (br.length < content.length) writeFileSync(`${file}.br`, br);
    if (gz.length < content.length) writeFileSync(`${file}.gz`, gz);
  }
}

/**
 * Builds `root`'s dist/ if it is not up to date; returns what it did, or throws if the compiler failed. `options.say`
 * is told each step (the script prints them: a first build takes a minute or more on a small machine).
 */
export function build(root, options = {}) {
  const say = options.say ?? (() => {});
  const digest = sourceDigest(root);
  if (!options.force && isUpToDate(root, digest)) return 'up-to-date';
  const started = Date.now();
  say('Building the service (tsc)…');
  const dist = path.join(root, 'dist');
  // From scratch: the output of a source file deleted since the last build must not linger and be loaded.
  rmSync(dist, { recursive: true, force: true });
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  // The compiler's report is kept and carried by the error, so the caller decides whether it is shown.
  const compiled = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: root, encoding: 'utf8' });
  if (compiled.status !== 0) {
    const report = `${compiled.stdout ?? ''}${compiled.stderr ?? ''}`.trim();
    throw new Error(`tsc failed (exit ${compiled.status ?? compiled.signal})${report ? `:\n${report}` : ''}`);
  }
  for (const rel of ASSETS) {
    const from = path.join(root, 'src', rel);
    if (existsSync(from)) cpSync(from, path.join(dist, rel), { recursive: true });
  }
  if (existsSync(path.join(root, WEB_CONFIG))) {
    const vite = path.join(
      path.dirname(createRequire(path.join(root, 'package.json')).resolve('vite/package.json')),
      'bin/vite.js',
    );
    say('Building the shop and the dashboard (vite)…');
    const web = spawnSync(process.execPath, [vite, 'build', '--config', WEB_CONFIG, '--logLevel', 'warn'], {
      cwd: root,
      stdio: 'inherit',
    });
    if (web.status !== 0) throw new Error(`vite build failed (exit ${web.status ?? web.signal})`);
    precompress(path.join(dist, ASSETS_DIR));
  }
  writeFileSync(path.join(dist, STAMP), JSON.stringify({ digest, outputs: filesUnder(dist) }));
  say(`Built dist/ in ${Math.round((Date.now() - started) / 1000)} s.`);
  return 'built';
}

// Run as a script (not imported by the tests). Node gives this module its real path, so compare
// real paths: through a symlinked checkout the two spellings differ.
if (process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    build(fileURLToPath(new URL('..', import.meta.url)), {
      force: process.argv.includes('--force'),
      say: (text) => console.log(text),
    });
  } catch (err) {
    console.error(`Build failed: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 1;
  }
}
