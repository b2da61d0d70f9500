import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { actionModules, conditionModules } from './registry.js';

/** The modules the files of a folder export: objects with a `type` and the rule `rule` (`check` or `take`). */
async function modulesIn(folder: string, rule: 'check' | 'take'): Promise<{ type: string }[]> {
  const files = readdirSync(new URL(folder, import.meta.url)).filter(
    (f) => f.endsWith('.ts') && !f.endsWith('.test.ts'),
  );
  const exported = await Promise.all(files.map((f) => import(`${folder}/${f.replace(/\.ts$/, '.js')}`)));
  return exported
    .flatMap((m: Record<string, unknown>) => Object.values(m))
    .filter((v): v is { type: string } => typeof v === 'object' && v !== null && 'type' in v && rule in v);
}

describe('the registry of promotion rules', () => {
  it('files every condition and action module under its own kind', () => {
    for (const [type, module] of Object.entries(conditionModules)) expect(module.type).toBe(type);
    for (const [type, module] of Object.entries(actionModules)) expect(module.type).toBe(type);
  });

  it('lists every module of conditions/ and actions/, and nothing else', async () => {
    const conditions = await modulesIn('./conditions', 'check');
    const actions = await modulesIn('./actions', 'take');
    expect(new Set(Object.values(conditionModules))).toEqual(new Set(conditions));
    expect(new Set(Object.values(actionModules))).toEqual(new Set(actions));
  });
});
