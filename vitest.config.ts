import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // One migrated empty embedded database, made once, that every test database starts from.
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each test file gets its own database; two cores run two files at a time.
    maxWorkers: 2,
    // The files a worker runs share its loaded modules, rather than each loading the app anew (96 s of the embedded
    // run's 425 s went to imports). A test that changes something global (fake timers, a spy, an environment variable)
    // puts it back before its file ends (decision 0043).
    isolate: false,
  },
});
