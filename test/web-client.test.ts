import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generatedSchema, SCHEMA_FILE } from '../scripts/generate-client.js';

describe("the web apps' API client", () => {
  it('matches the API: web/api/schema.d.ts is what `npm run client:generate` writes from /openapi.json', async () => {
    const fresh = await generatedSchema();
    // On a mismatch: run `npm run client:generate`, check the apps still typecheck, and commit web/api/schema.d.ts.
    expect(readFileSync(SCHEMA_FILE, 'utf8') === fresh, 'web/api/schema.d.ts is out of date').toBe(true);
    // Building the app and generating the types takes ~10 s alone, several times that on a loaded machine.
  }, 120_000);
});
