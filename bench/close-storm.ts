// `npx tsx bench/close-storm.ts`: SUBSCRIBERS graphql-ws subscribers (bench/load/ws-storm.ts, a
// process of its own) over DIALOGS dialogs on one server in this process; once all are live, every
// socket is closed at once. Prints how long until the last subscription was released and the
// longest the event loop was held meanwhile. CPU_PROFILE=dir writes a .cpuprofile of the close.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { Session } from "node:inspector/promises";
import { applyMigrations } from "../src/db/migrate.js";
import { startServer } from "../src/server/http-server.js";
import { config, database, store } from "./lib/store.js";
import { spawnIpcChild } from "./lib/ipc-child.js";
import { graphql } from "./lib/server.js";

const SUBSCRIBERS = Number(process.env.SUBSCRIBERS ?? 10_000);
const DIALOGS = Number(process.env.DIALOGS ?? 100);
const here = path.dirname(new URL(import.meta.url).pathname);
const now = () => performance.now();

await applyMigrations(database);
const server = await startServer({
  store,
  config,
  port: Number(process.env.PORT ?? 0),
  redisUrl: process.env.REDIS_URL || null,
});
const url = `${server.url}/graphql`;
const dialogIds: string[] = [];
for (let i = 0; i < DIALOGS; i++) {
  const data = await graphql(
    url,
    `
      mutation {
        createResponse(input: { input: [{ human: { content: "q" } }] }) {
          ... on Response {
            dialog {
              id
            }
          }
        }
      }
    `,
  );
  dialogIds.push(data.createResponse.dialog.id);
}
const listeners = () => dialogIds.reduce((sum, id) => sum + server.live.listenerCount("historyDelta", id), 0);

const storm = spawnIpcChild(path.join(here, "load/ws-storm.ts"), {
  WS_URLS: url.replace(/^http/, "ws"),
  SUBSCRIBERS: String(SUBSCRIBERS),
  DIALOG_IDS: dialogIds.join(","),
  AFTER_SEQ: "0",
});
await storm.next("started");
storm.send({ type: "storm" });
const ready = await storm.next<{ stormMs: number }>("ready");
console.log(`${SUBSCRIBERS} live in ${Math.round(ready.stormMs)} ms; listeners ${listeners()}`);
await new Promise((resolve) => setTimeout(resolve, 2_000));

// The longest the loop was held: a timer every 5 ms measures how late it fires.
let worstLag = 0;
let last = now();
const ticker = setInterval(() => {
  const at = now();
  worstLag = Math.max(worstLag, at - last - 5);
  last = at;
}, 5);
let session: Session | null = null;
if (process.env.CPU_PROFILE) {
  session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.start");
}
const cpuBefore = process.cpuUsage();
const closedAt = now();
last = now();
storm.send({ type: "finish", committedAt: [] });
await new Promise<void>((resolve) => {
  const check = setInterval(() => {
    if (listeners() === 0) {
      clearInterval(check);
      resolve();
    }
  }, 5);
});
const releasedMs = now() - closedAt;
const cpu = process.cpuUsage(cpuBefore);
clearInterval(ticker);
if (session) {
  const { profile } = await session.post("Profiler.stop");
  const file = path.join(process.env.CPU_PROFILE!, `close-storm-${Date.now()}.cpuprofile`);
  writeFileSync(file, JSON.stringify(profile));
  console.log(`profile: ${file}`);
}
console.log(
  `closed ${SUBSCRIBERS}: all released in ${Math.round(releasedMs)} ms, loop held up to ${Math.round(worstLag)} ms, CPU ${Math.round((cpu.user + cpu.system) / 1000)} ms`,
);
await server.close();
await store.close();
process.exit(0);
