import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  // graphql@16 ships CJS (main) and ESM (module) builds. Node loads the CJS one for every
  // package; Vite would pick the ESM one for our files, and two copies of graphql refuse to mix.
  resolve: { alias: { graphql: "graphql/index.js" } },
  test: {
    // Each worker has a database and store, emptied before each file (test/support/database.ts);
    // embedded ones are copied from the PGlite template that test/support/pglite-template.ts keeps
    // current. Settings come from configs built in the test (configWith), never from a project's
    // environment.
    setupFiles: ["test/support/database.ts"],
    // The browser tests serve web/dist: rebuilt first when the viewer's sources are newer.
    globalSetup: ["test/support/build-viewer.ts", "test/support/pglite-template.ts", "test/support/test-run.ts"],
    // Files run one after another in a worker that keeps its modules and its database (emptied
    // before each file; see test/support/database.ts and file-scope.ts).
    isolate: false,
    // vitest's default is one worker fewer than the cores: one worker on a 2-core machine. The
    // files spend much of their time waiting on sockets and child processes, so one per core.
    maxWorkers: Math.max(2, availableParallelism()),
    testTimeout: 60_000,
    hookTimeout: 60_000,
    env: { LOG_LEVEL: process.env.LOG_LEVEL ?? "silent" },
    include: ["test/**/*.test.ts"],
  },
});
