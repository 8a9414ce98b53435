// `npx tsx bench/open-storm.ts`: SUBSCRIBERS graphql-ws subscribers (bench/load/ws-storm.ts, a
// process of its own) open at once over DIALOGS dialogs of one write each on one server in this
// process, each resuming at `afterSeq: 0` (so each reads a catch-up: that write). Raise
// MAX_CONNECTIONS_PER_TENANT and _PER_KEY for thousands (as bench:cluster does). Prints
// the time until all are live, this process's CPU over the storm per subscription start, and the
// database statements it ran. CPU_PROFILE=dir writes a .cpuprofile of the storm. ROUNDS=n repeats
// the storm (closing every socket between rounds) and prints each.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { Session } from "node:inspector/promises";
import { applyMigrations } from "../src/db/migrate.js";
import { startServer } from "../src/server/http-server.js";
import { config, database, store } from "./lib/store.js";
import { spawnIpcChild } from "./lib/ipc-child.js";
import { graphql } from "./lib/server.js";

const SUBSCRIBERS = Number(process.env.SUBSCRIBERS ?? 2_000);
const DIALOGS = Number(process.env.DIALOGS ?? 100);
const ROUNDS = Number(process.env.ROUNDS ?? 1);
const here = path.dirname(new URL(import.meta.url).pathname);

await applyMigrations(database);
const server = await startServer({ store, config, port: 0, redisUrl: process.env.REDIS_URL || null });
const url = `${server.url}/graphql`;
const create = `mutation($dialogId: ID) {
  createResponse(input: { dialogId: $dialogId, input: [{ human: { content: "q" } }] }) {
    ... on Response { dialog { id } }
  }
}`;
const dialogIds: string[] = [];
for (let i = 0; i < DIALOGS; i++) {
  const data = await graphql(url, create, {});
  dialogIds.push(data.createResponse.dialog.id);
}
const listeners = () => dialogIds.reduce((sum, id) => sum + server.live.listenerCount("historyDelta", id), 0);
const statements = async () => {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  return [...text.matchAll(/^dialogql_db_statement_duration_seconds_count(?:\{[^}]*\})? (\d+)/gm)].reduce(
    (sum, match) => sum + Number(match[1]),
    0,
  );
};

for (let round = 1; round <= ROUNDS; round++) {
  const storm = spawnIpcChild(path.join(here, "load/ws-storm.ts"), {
    WS_URLS: url.replace(/^http/, "ws"),
    SUBSCRIBERS: String(SUBSCRIBERS),
    DIALOG_IDS: dialogIds.join(","),
    AFTER_SEQ: "0",
  });
  await storm.next("started");
  let session: Session | null = null;
  if (process.env.CPU_PROFILE) {
    session = new Session();
    session.connect();
    await session.post("Profiler.enable");
    await session.post("Profiler.start");
  }
  const statementsBefore = await statements();
  const cpuBefore = process.cpuUsage();
  storm.send({ type: "storm" });
  const ready = await storm.next<{ stormMs: number }>("ready");
  const cpu = process.cpuUsage(cpuBefore);
  const ran = (await statements()) - statementsBefore - 1;
  if (session) {
    const { profile } = await session.post("Profiler.stop");
    const file = path.join(process.env.CPU_PROFILE!, `open-storm-${Date.now()}.cpuprofile`);
    writeFileSync(file, JSON.stringify(profile));
    console.log(`profile: ${file}`);
  }
  const cpuMs = (cpu.user + cpu.system) / 1000;
  console.log(
    `round ${round}: ${SUBSCRIBERS} live in ${Math.round(ready.stormMs)} ms; server CPU ${Math.round(cpuMs)} ms = ${(cpuMs / SUBSCRIBERS).toFixed(2)} ms per start; statements ${ran} = ${(ran / SUBSCRIBERS).toFixed(2)} per start; listeners ${listeners()}`,
  );
  storm.send({ type: "finish", committedAt: [] });
  await new Promise<void>((resolve) => {
    const check = setInterval(() => listeners() === 0 && (clearInterval(check), resolve()), 20);
  });
}
await server.close();
await store.close();
process.exit(0);
