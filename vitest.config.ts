import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

/**
 * Three projects: the API against a real database (PGlite, or PostgreSQL when TEST_DATABASE_URL is set),
 * the web providers and screens under jsdom, and the browser suite (real Chromium against the built server).
 */
export default defineConfig({
  test: {
    // Vitest's default on a 2-core machine is one worker: every file in turn, the second core idle while a
    // test waits on Chromium or PostgreSQL. Each file has its own database and ports, so two run side by side.
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'server',
          environment: 'node',
          include: ['tests/server/**/*.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'web',
          environment: 'jsdom',
          include: ['tests/providers/**/*.test.{ts,tsx}', 'tests/resources/**/*.test.{ts,tsx}', 'tests/web/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/helpers/jsdom-setup.ts'],
          server: { deps: { inline: [/@refinedev\//] } },
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['tests/e2e/**/*.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          // Each browser file starts its own server on a free port with its own data folder: two run side by side.
        },
      },
    ],
  },
});
