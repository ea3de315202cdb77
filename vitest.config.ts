import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// vitest's default is one worker fewer than the machine has cores: on a 2-core machine one file at a
// time, though most integration files spend their time waiting on sockets, timers and child
// processes, not on the CPU. So the projects run one after another (sequence.groupOrder), each with
// its own number of files at once: unit files are CPU-bound, one per core (with nothing else running in
// their phase, one fewer left a core idle; their timeouts allow for a busy machine), integration files
// one more than the cores (at least 3), browser files one more than the cores too (a browser file's
// worker waits on Chromium and Chromium on the worker's app: with one per core a core sat idle about
// half the time). CAIRN_TEST_WORKERS overrides all three (e.g. 1 to run one file at a time when chasing a flaky test).
const cores = os.availableParallelism();
const override = Number(process.env.CAIRN_TEST_WORKERS) || 0;

// Three projects: unit (pure functions), integration (HTTP against a real app on a real database:
// SQLite by default, PostgreSQL when DATABASE_URL is set) and e2e (Debian's Chromium via playwright-core).
export default defineConfig({
  test: {
    projects: [
      {
        // The Electron main process and preload are tested with Electron stubbed at the module boundary:
        // `electron` is one module for the tests and the code under test, whether or not the desktop
        // tools (desktop/package.json) are installed.
        resolve: { alias: { electron: fileURLToPath(new URL('tests/helpers/electron-outside-electron.ts', import.meta.url)) } },
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.{ts,tsx}'],
          environment: 'node',
          // Building a sandbox chain or linting a probe file takes seconds of CPU: on a slow or busy
          // machine vitest's 5 s default times them out without anything being wrong.
          testTimeout: 30_000,
          sequence: { groupOrder: 0 },
          maxWorkers: override || cores,
          // A worker keeps the modules it imported (CSL, the sandbox chain) for its next file, as the other
          // projects do: importing them again per file was half of the project's CPU time. A file's
          // vi.mock (tests/unit/desktop mocks electron) is undone before the worker's next file.
          isolate: false,
          // No unit test reaches a database: they run without DATABASE_URL, so their answer is the same
          // on both engines and `npm test` runs them once per tree (tests/helpers/run-scripts.mjs).
          env: { DATABASE_URL: '' },
          // On a busy machine what a test polls for may take more than expect.poll's default second.
          expect: { poll: { timeout: 10_000 } },
        },
      },
      {
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/helpers/global-setup.ts', 'tests/helpers/server-build-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          sequence: { groupOrder: 1 },
          maxWorkers: override || Math.max(3, cores + 1),
          // Each file starts its own app on its own database and none mocks modules, so a worker keeps
          // the modules it imported (the server, CSL, the sandbox) for its next file: about a fifth of
          // the project's time went to importing them again per file.
          isolate: false,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/helpers/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          sequence: { groupOrder: 2 },
          maxWorkers: override || cores + 1,
          // A file's pages wait for what they show; with two files at once that can take longer than
          // expect.poll's default second.
          expect: { poll: { timeout: 15_000 } },
          // The files share their workers' modules (the server, playwright-core): each file starts its own
          // app and browser, and none mocks modules, so importing everything again per file only cost time.
          isolate: false,
        },
      },
    ],
  },
});
