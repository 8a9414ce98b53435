// Test files share a worker process (vitest's `isolate: false`): the support modules load once per
// worker and outlive each file, while what a file starts — servers, clients, child processes — must
// end with it. They register what to do at the end of every file here; test/support/database.ts
// (the setup file, run before every file) runs it after each file, clients before servers.
const endHooks: (() => unknown)[] = [];

/** Runs `hook` at the end of every test file from now on (for module-level lists of resources). */
export function atEveryFileEnd(hook: () => unknown) {
  endHooks.push(hook);
}

/** The hooks, last registered first. */
export async function endFile() {
  for (const hook of [...endHooks].reverse()) await hook();
}
