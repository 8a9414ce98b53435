// dialogql in a process of its own for the generate scenario, so its CPU per turn is its own:
// applies migrations, seeds CONVERSATIONS chains at each of DEPTHS, starts the server on a free
// port with the upstream stand-in (UPSTREAM_URL) as its model, and answers the parent over IPC:
// `ready` with the URL and the chain tips, `cpu` with its CPU time and statements so far. With GENERATE_CPU_PROF
// set to a file name, a CPU profile of the time it serves turns goes there when it stops; with
// GENERATE_STATEMENT_LOG, the text of every database statement it sends is appended to that file.
import { appendFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { Session } from "node:inspector/promises";
import { PerformanceObserver } from "node:perf_hooks";
import { DEVELOPMENT_TENANT } from "../../src/auth/authenticator.js";
import { applyMigrations } from "../../src/db/migrate.js";
import { createModelCatalog } from "../../src/generation/providers.js";
import { startServer } from "../../src/server/http-server.js";
import { importMessages } from "../../src/services/import-messages.js";
import { onStatement } from "../../src/statement-log.js";
import { closeDatabase, config, database, store } from "../lib/store.js";
import { chainHistory } from "./generate-history.js";

const CONVERSATIONS = Number(process.env.CONVERSATIONS);
const DEPTHS = process.env.DEPTHS!.split(",").map(Number);
const IMPORT_TURNS = 400; // 800 messages an import: under MAX_EVENTS_PER_WRITE

await applyMigrations(database);

/** The tip of a new chain of `depth` turns (null for depth 0: the turn starts a dialog). */
async function seedChain(depth: number, chat: number): Promise<string | null> {
  let tip: string | null = null;
  for (let from = 0; from < depth; from += IMPORT_TURNS) {
    const result: { responseIds: string[] } = await importMessages(store, {
      format: "OPENAI_RESPONSES",
      messages: chainHistory(from, Math.min(IMPORT_TURNS, depth - from), chat),
      previousResponseId: tip,
      tenantId: DEVELOPMENT_TENANT,
    });
    tip = result.responseIds.at(-1)!;
  }
  return tip;
}

const tips: Record<number, (string | null)[]> = {};
for (const depth of DEPTHS) {
  tips[depth] = [];
  for (let c = 0; c < CONVERSATIONS; c++) tips[depth].push(await seedChain(depth, c));
}

let statements = 0;
// Time the main thread spent in garbage collection (pauses; V8's helper threads' share is in the CPU time only).
let gcMs = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcMs += entry.duration;
}).observe({ entryTypes: ["gc"] });
onStatement((sql) => {
  statements++;
  if (process.env.GENERATE_STATEMENT_LOG)
    appendFileSync(process.env.GENERATE_STATEMENT_LOG, `${sql.replace(/\s+/g, " ").slice(0, 300)}\n`);
});

const server = await startServer({
  store,
  config,
  port: 0,
  models: createModelCatalog({
    OPENAI_BASE_URL: process.env.UPSTREAM_URL!,
    UPSTREAM_API: "chat",
    UPSTREAM_MAX_RETRIES: 0,
  }),
});

const profileFile = process.env.GENERATE_CPU_PROF;
const profiler = profileFile ? new Session() : null;
if (profiler) {
  profiler.connect();
  await profiler.post("Profiler.enable");
  await profiler.post("Profiler.start");
}

process.on("message", async (message: { type: string }) => {
  if (message.type === "cpu") {
    const { user, system } = process.cpuUsage();
    // The kernel's share and the pages first touched: on this kind of VM a fresh page costs ~15 µs,
    // so a large transient allocation (a request's 320 KB body as one string) shows here.
    const faults = process.resourceUsage().minorPageFault;
    process.send!({ type: "cpu", ms: (user + system) / 1000, systemMs: system / 1000, faults, statements, gcMs });
  } else if (message.type === "stop") {
    if (profiler) {
      const { profile } = await profiler.post("Profiler.stop");
      await writeFile(profileFile!, JSON.stringify(profile));
    }
    await server.close();
    await closeDatabase();
    process.send!({ type: "stopped" });
    process.exit(0);
  }
});
process.send!({ type: "ready", url: server.url, tips });
