#!/usr/bin/env node
// Fails when a migration that is already committed has been changed or removed, in a later commit or in the working
// tree. Drizzle applies a migration once and never again, so an edited migration leaves databases that ran the old
// text in another state than new ones: a change belongs in a new migration.
//
// A migration is frozen from the commit that added it to this branch's own line (first parents: on main, the merge
// that brought it; a branch may renumber a migration that never reached main). Migrations 0009 and 0010 were edited
// before this check
// existed; they are frozen as they stood at FROZEN_FROM (a later migration brings every database to that state).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';

const FROZEN_FROM = 'f6729d1b7d052d7675c564d6c642e10827c29d2f';
const DIR = 'src/db/migrations';
const JOURNAL = `${DIR}/meta/_journal.json`;

const root = execFileSync('git', ['rev-parse', '--show-toplevel'], { encoding: 'utf8' }).trim();
process.chdir(root);
const git = (...args) => execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
const tryGit = (...args) => {
  try {
    return git(...args);
  } catch {
    return undefined;
  }
};

if (tryGit('cat-file', '-e', `${FROZEN_FROM}^{commit}`) === undefined) {
  console.error(`check-migrations: commit ${FROZEN_FROM} is not in this clone (shallow?); fetch the full history`);
  process.exit(1);
}

const problems = [];
const isAncestor = (a, b) => tryGit('merge-base', '--is-ancestor', a, b) !== undefined;

/** The committed text a migration must still have: at FROZEN_FROM, or as the commit that added it left it. */
function frozenText(file) {
  const atBase = tryGit('show', `${FROZEN_FROM}:${file}`);
  if (atBase !== undefined) return { text: atBase, since: FROZEN_FROM.slice(0, 7) };
  const added = git('log', '--first-parent', '--diff-filter=A', '--format=%H', '--', file)
    .trim()
    .split('\n')
    .filter(Boolean)
    .pop();
  if (added === undefined) return undefined; // not committed yet: a new migration, free to change
  if (isAncestor(added, FROZEN_FROM)) return undefined; // removed before FROZEN_FROM and added again later: new
  return { text: git('show', `${added}:${file}`), since: added.slice(0, 7) };
}

const present = new Set(
  readdirSync(DIR)
    .filter((f) => f.endsWith('.sql'))
    .map((f) => `${DIR}/${f}`),
);
const committedEver = git('log', '--first-parent', '--format=', '--name-only', '--diff-filter=A', '--', `${DIR}/*.sql`)
  .split('\n')
  .filter((f) => f.endsWith('.sql'));
for (const file of new Set([...present, ...committedEver])) {
  const frozen = frozenText(file);
  if (frozen === undefined) continue;
  if (!existsSync(file)) {
    problems.push(`${file} was removed (committed since ${frozen.since})`);
  } else if (readFileSync(file, 'utf8') !== frozen.text) {
    problems.push(`${file} differs from its committed text (frozen since ${frozen.since})`);
  }
}

// The journal may only grow: each version of it, commit after commit and then the working tree, keeps every entry
// of the one before as it was (Drizzle decides what to apply from an entry's `when`).
const entries = (text) => JSON.parse(text).entries.map((e) => JSON.stringify(e));
const versions = git('log', '--first-parent', '--reverse', '--format=%H', `${FROZEN_FROM}..HEAD`, '--', JOURNAL)
  .split('\n')
  .filter(Boolean)
  .map((c) => ({ label: c.slice(0, 7), entries: entries(git('show', `${c}:${JOURNAL}`)) }));
versions.push({ label: 'the working tree', entries: entries(readFileSync(JOURNAL, 'utf8')) });
let previous = { label: FROZEN_FROM.slice(0, 7), entries: entries(git('show', `${FROZEN_FROM}:${JOURNAL}`)) };
for (const version of versions) {
  previous.entries.forEach((entry, i) => {
    if (version.entries[i] !== entry)
      problems.push(`${JOURNAL}: entry ${i} of ${previous.label} changed in ${version.label}`);
  });
  previous = version;
}

if (problems.length > 0) {
  console.error('Migrations already committed were changed. Put the change in a new migration instead:');
  for (const p of problems) console.error(`  - ${p}`);
  process.exit(1);
}
console.log(`check-migrations: ${present.size} migrations unchanged since committed`);
