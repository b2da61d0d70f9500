import { defineConfig } from 'vitest/config';

// Browser tests (`npm run test:browser`): the built service in a real process, driven by Debian's Chromium through
// playwright-core. Separate from `npm test`, which needs no browser; CI runs both (.ci/run installs chromium).
export default defineConfig({
  test: {
    root: new URL('../..', import.meta.url).pathname,
    include: ['test/browser/**/*.e2e.ts'],
    pool: 'forks',
    // One file at a time: each starts a service and a browser, and the machine has two cores.
    maxWorkers: 1,
    testTimeout: 60_000,
    hookTimeout: 180_000,
    // A page reads the API and renders: on a busy machine that takes more than expect.poll's default second.
    expect: { poll: { timeout: 10_000 } },
  },
});
