// The server restarts while an agent is writing and a frontend is watching: the watcher loses its
// connection, resumes from the last seq it holds once the server is back, and ends with exactly
// the server's history — nothing missing, nothing twice. The server runs as `npm start` does, in a
// child process, on the same port and database before and after the restart: the test's
// PostgreSQL database when TEST_DATABASE_URL is set, otherwise an embedded PGlite data directory.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  AppendEventsDocument,
  CreateResponseDocument,
  type DialogqlClient,
  type HistoryEventInput,
  type WatchStatus,
} from "../src/client/index.js";
import { type ChildServer, freePort, startChildServer } from "./support/child-server.js";
import { closeAfterAll, settledOnServerHistory, testClient, transports } from "./support/client.js";
import { executeOk } from "./support/graphql.js";

// The test setup gave this file its own PostgreSQL database (DATABASE_URL) when there is one.
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const dataDirs: string[] = [];
const running = new Set<ChildServer>();
afterAll(async () => {
  for (const server of running) await server.stop();
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

function serverEnv() {
  if (onPostgres) return { DATABASE_URL: process.env.DATABASE_URL, REDIS_URL: process.env.TEST_REDIS_URL };
  const dataDir = mkdtempSync(path.join(tmpdir(), "dialogql-restart-"));
  dataDirs.push(dataDir);
  return { DATABASE_URL: undefined, REDIS_URL: undefined, DATA_DIR: dataDir };
}

async function start(port: number, env: Record<string, string | undefined>) {
  const server = await startChildServer(port, env);
  running.add(server);
  return server;
}

async function stop(server: ChildServer) {
  await server.stop();
  running.delete(server);
}

async function appendStep(client: DialogqlClient, responseId: string, step: number) {
  const events: HistoryEventInput[] = [{ ai: { content: `step ${step}` } }];
  const { appendEvents } = await client.request(AppendEventsDocument, { input: { responseId, events } });
  expect(appendEvents.__typename).toBe("Response");
}

describe.each(transports)("watchHistory over %s across a server restart", (transport) => {
  it("ends with exactly the server's history", async () => {
    const port = await freePort();
    const env = serverEnv();
    const first = await start(port, env);
    const client = testClient(first.url, transport);
    const statuses: WatchStatus[] = [];

    const { createResponse: turn } = await client.request(CreateResponseDocument, {
      input: { model: "agent", input: [{ human: { content: "Count to twenty" } }] },
    });
    if (turn.__typename !== "Response") throw new Error(JSON.stringify(turn));
    const dialogId = turn.dialog.id;
    const watcher = closeAfterAll(
      client.watchHistory(dialogId, {
        retryDelay: () => 200,
        onChange: (state) => statuses.at(-1) !== state.status && statuses.push(state.status),
      }),
    );
    await watcher.until((s) => s.status === "live" && s.events.length === 1);

    // Writes go on right up to the stop, so deltas are still on their way when the server goes.
    for (let step = 1; step <= 10; step++) await appendStep(client, turn.id, step);
    await stop(first);

    // While it is down, another instance (here: this process, on the same database) keeps
    // writing; the watcher can only learn of these from the replay after its afterSeq.
    if (onPostgres) {
      for (let step = 11; step <= 13; step++) {
        await executeOk(AppendEventsDocument, {
          input: { responseId: turn.id, events: [{ ai: { content: `step ${step}` } }] },
        });
      }
    }

    await start(port, env);
    for (let step = 14; step <= 20; step++) await appendStep(client, turn.id, step);
    await client.request(CreateResponseDocument, {
      input: { dialogId, input: [{ human: { content: "Thanks" } }], output: [{ ai: { content: "You're welcome" } }] },
    });

    const { expected, actual, state } = await settledOnServerHistory(watcher, client, dialogId);
    expect(actual).toEqual(expected);
    expect(actual).toHaveLength(1 + (onPostgres ? 20 : 17) + 2);
    expect(new Set(state.events.map((e) => e.id)).size).toBe(state.events.length);
    const seqs = state.events.map((e) => e.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    // It did lose the connection, and came back to live.
    expect(statuses).toContain("reconnecting");
    expect(statuses.at(-1)).toBe("live");
  });
});
