// `npm run db:template` (and `npm install`): makes the PGlite template new embedded databases
// start from, for the migrations as they are now. A failure is reported but does not fail the
// install: without a template the server still starts, running initdb as before.
import { loadConfig } from "../config.js";
import { makeTemplate } from "./make-pglite-template.js";

try {
  const started = performance.now();
  const template = await makeTemplate(loadConfig(process.env).PGLITE_TEMPLATE_DIR);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`PGlite template with ${template.manifest.migrations.length} migrations: ${template.dir} (${seconds} s)`);
} catch (error) {
  console.warn(`Could not make the PGlite template; new embedded databases will run initdb: ${(error as Error).stack}`);
}
