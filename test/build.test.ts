import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { build, isUpToDate, sourceDigest } from '../scripts/build.mjs';

/** A project shaped like this one, small enough for tsc to compile in a moment. */
function project(): string {
  const root = mkdtempSync(path.join(os.tmpdir(), 'sf-build-'));
  roots.push(root);
  const files: Record<string, string> = {
    'package.json': '{ "type": "module" }',
    'package-lock.json': '{ "lockfileVersion": 3 }',
    'tsconfig.json': '{}',
    'tsconfig.build.json': JSON.stringify({
      // The smallest library and no @types: tsc is quick on this.
      compilerOptions: {
        target: 'ES2022',
        lib: ['ES5'],
        types: [],
        skipLibCheck: true,
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        rootDir: 'src',
        outDir: 'dist',
      },
      include: ['src'],
    }),
    'src/main.ts': "import { greeting } from './greeting.js';\nexport const message = greeting;\n",
    'src/greeting.ts': "export const greeting = 'hello';\n",
    'src/old.ts': 'export const old = 1;\n',
    'src/db/migrations/0000_init.sql': 'create table t (id int);\n',
  };
  for (const [rel, content] of Object.entries(files)) write(root, rel, content);
  return root;
}

function write(root: string, rel: string, content: string): void {
  mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  writeFileSync(path.join(root, rel), content);
}

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe('the up-to-date decision', () => {
  it('changes the digest when a source file is changed, added or deleted, or the lock file or tsconfig changes', () => {
    const root = project();
    const seen = new Set([sourceDigest(root)]);
    const changes = [
      () => write(root, 'src/greeting.ts', "export const greeting = 'hi';\n"),
      () => write(root, 'src/extra.ts', 'export {};\n'),
      () => rmSync(path.join(root, 'src/old.ts')),
      () => write(root, 'src/db/migrations/0001_more.sql', 'select 1;\n'),
      () => write(root, 'package-lock.json', '{ "lockfileVersion": 3, "packages": {} }'),
      () => {
        const tsconfig = readFileSync(path.join(root, 'tsconfig.build.json'), 'utf8');
        write(root, 'tsconfig.build.json', tsconfig.replace('ES2022', 'ES2023'));
      },
    ];
    for (const change of changes) {
      change();
      const digest = sourceDigest(root);
      expect(seen.has(digest)).toBe(false);
      seen.add(digest);
    }
  });

  it('keeps the digest when only modification times change', () => {
    const root = project();
    const before = sourceDigest(root);
    utimesSync(path.join(root, 'src/greeting.ts'), new Date(2001, 0, 1), new Date(2001, 0, 1));
    expect(sourceDigest(root)).toBe(before);
  });
});

describe('building dist/', () => {
  it('compiles and copies the migrations once, then skips until a source changes', () => {
    const root = project();
    expect(isUpToDate(root)).toBe(false);
    expect(build(root)).toBe('built');
    expect(isUpToDate(root)).toBe(true);
    expect(readFileSync(path.join(root, 'dist/greeting.js'), 'utf8')).toContain("'hello'");
    expect(existsSync(path.join(root, 'dist/db/migrations/0000_init.sql'))).toBe(true);
    expect(build(root)).toBe('up-to-date');

    write(root, 'src/greeting.ts', "export const greeting = 'changed';\n");
    expect(build(root)).toBe('built');
    expect(readFileSync(path.join(root, 'dist/greeting.js'), 'utf8')).toContain("'changed'");
    expect(build(root)).toBe('up-to-date');
  }, 60_000);

  it('leaves nothing in dist/ of a source file that was deleted, and rebuilds when an output is missing', () => {
    const root = project();
    build(root);
    expect(existsSync(path.join(root, 'dist/old.js'))).toBe(true);
    rmSync(path.join(root, 'src/old.ts'));
    expect(build(root)).toBe('built');
    expect(existsSync(path.join(root, 'dist/old.js'))).toBe(false);
    expect(existsSync(path.join(root, 'dist/main.js'))).toBe(true);
    expect(isUpToDate(root)).toBe(true);
    // Nor may a file the build wrote be missing (someone cleaned part of dist/).
    rmSync(path.join(root, 'dist/greeting.js'));
    expect(isUpToDate(root)).toBe(false);
  }, 60_000);

  it('fails on a type error and tries again next time rather than taking the failed build as done', () => {
    const root = project();
    write(root, 'src/greeting.ts', 'export const greeting: number = "not a number";\n');
    expect(() => build(root)).toThrow(/tsc failed[\s\S]*src\/greeting\.ts\(1,14\): error TS2322/);
    expect(isUpToDate(root)).toBe(false);
    write(root, 'src/greeting.ts', 'export const greeting: number = 1;\n');
    expect(build(root)).toBe('built');
  }, 60_000);
});
