import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Tests that spawn `npm start` run dist/: rebuilt first when the sources are newer. The
    // PostgreSQL tests share one private server, started here and stopped at the end.
    globalSetup: ['test/setup/build.ts', 'test/setup/postgres.ts'],
    // SQLite and loopback servers: tests are I/O-bound and isolated by temp dirs.
    pool: 'forks',
    testTimeout: 20_000,
  },
});
