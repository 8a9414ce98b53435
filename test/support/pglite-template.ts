// Vitest global setup: every test file's in-memory database starts from the PGlite template
// (src/db/pglite-template.ts) instead of running initdb and the migrations, which took most of
// the suite's time. npm install made the template; after a migration changes, this makes the new
// one, once for the run.
import { loadConfig } from "../../src/config.js";
import { makeTemplate } from "../../src/db/make-pglite-template.js";

export default async function setup() {
  await makeTemplate(loadConfig(process.env).PGLITE_TEMPLATE_DIR);
}
