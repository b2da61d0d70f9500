// Copies the non-TypeScript files the compiled service reads at run time (SQL migrations, plugin
// assets) from src/ into dist/, keeping their relative paths.
import { cpSync, existsSync } from 'node:fs';

const assets = ['db/migrations'];
for (const rel of assets) {
  const from = new URL(`../src/${rel}`, import.meta.url);
  if (existsSync(from)) cpSync(from, new URL(`../dist/${rel}`, import.meta.url), { recursive: true });
}
