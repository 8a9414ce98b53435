// Issue 29, the soak's finding: one tenant's flood of SSE subscriptions took the instance's database
// pool with its start-up reads, and another tenant's queries waited behind it. A tenant's start-up
// reads now run in its share of the pool (TENANT_DB_CONCURRENCY, the request budget's one door):
// with the reads of tenant A's flood held (the event table locked by another session), A holds
// exactly its share of the connections and its other subscriptions wait in A's own queue, while
// tenant B's query answers at once. Released, every one of A's subscriptions starts with its
// history. PostgreSQL + Redis through a real SSE client (PGlite has one connection and no locks).
import { describe, expect, it } from "vitest";
import { graphql } from "../src/client/generated/index.js";
import { HISTORY_DELTA, type DeltaData, startTestServer, subscribe, take } from "./support/live.js";
import { createdDialogId, ownPoolPerFile } from "./support/own-pool.js";
import { asCaller, sseAs, tenantKey } from "./support/tenants.js";
import { until } from "./support/until.js";

const runs = Boolean(process.env.TEST_DATABASE_URL);
const title = runs ? "a tenant's share of the pool" : "a tenant's share of the pool (skipped: needs TEST_DATABASE_URL)";

const WRITE = graphql(`
  mutation PoolShareWrite($input: CreateResponseInput!) {
    createResponse(input: $input) {
      __typename
      ... on Response {
        dialog {
          id
        }
      }
    }
  }
`);

const DIALOG = graphql(`
  query PoolShareDialog($id: ID!) {
    dialog(id: $id) {
      id
    }
  }
`);

const POOL_SIZE = 6;
const SHARE = 2;
const FLOOD = 8; // more subscriptions than the pool has connections

describe.runIf(runs)(title, () => {
  const pool = ownPoolPerFile("dialogql-pool-share", {
    DATABASE_POOL_SIZE: String(POOL_SIZE),
    // The flood's reads wait on the test's lock for as long as the test holds it.
    DATABASE_LOCK_TIMEOUT_MS: "0",
    DATABASE_CONNECT_TIMEOUT_MS: "3000",
  });

  it("tenant A's SSE flood waits in A's own queue holding TENANT_DB_CONCURRENCY connections; tenant B's query answers meanwhile", async () => {
    const server = await startTestServer({
      store: pool.store,
      limits: { rateLimitRequests: 0, tenantDbConcurrency: SHARE },
    });
    const keyA = (await tenantKey("flooding-a")).key;
    const keyB = (await tenantKey("quiet-b")).key;
    const dialogsA: string[] = [];
    for (let i = 0; i < FLOOD; i++) {
      const created = await asCaller(server, keyA)(WRITE, { input: { input: [{ human: { content: `A ${i}` } }] } });
      dialogsA.push(createdDialogId(created));
    }
    const created = await asCaller(server, keyB)(WRITE, { input: { input: [{ human: { content: "B" } }] } });
    const dialogB = createdDialogId(created);

    // Another session holds the event table: A's catch-up reads (afterSeq 0) wait on it in
    // PostgreSQL, each on the connection it took; B's query reads only its dialog row.
    await pool.admin.query("BEGIN");
    await pool.admin.query(`LOCK TABLE "Event" IN ACCESS EXCLUSIVE MODE`);
    let released = false;
    try {
      const sse = sseAs(server, keyA);
      const flood = dialogsA.map((dialogId) => subscribe(sse, HISTORY_DELTA, { dialogId, afterSeq: 0 }));
      const firsts = flood.map((results) => take<DeltaData>(results, 1));
      // A's flood has arrived: its reads hold its share of the pool in PostgreSQL, and the rest of
      // its subscriptions wait in A's own queue (before, they went on taking connections: more than
      // its share held, up to the whole pool).
      await until(async () => (await pool.waitingOnLock()) >= SHARE, "tenant A's reads holding its share");
      await until(
        async () => server.tenantReads.waiting("flooding-a") === FLOOD - SHARE || (await pool.waitingOnLock()) > SHARE,
        "the rest of tenant A's flood waiting",
      );
      const answer = await asCaller(server, keyB)(DIALOG, { id: dialogB });
      expect(answer.body.errors).toBeUndefined();
      expect(answer.body.data!.dialog).toEqual({ id: dialogB });
      // While B was answered, A's reads still held exactly its share and the rest still waited.
      expect(await pool.waitingOnLock()).toBe(SHARE);
      expect(server.tenantReads.active("flooding-a")).toBe(SHARE);
      expect(server.tenantReads.waiting("flooding-a")).toBe(FLOOD - SHARE);

      await pool.admin.query("COMMIT");
      released = true;
      // Released, each of A's subscriptions starts with its dialog's first write.
      const started = await Promise.all(firsts);
      expect(started.map(([first]) => first!.historyDelta.seq)).toEqual(dialogsA.map(() => 1));
      expect(server.tenantReads.waiting("flooding-a")).toBe(0);
      for (const results of flood) void results.return?.();
    } finally {
      if (!released) await pool.admin.query("ROLLBACK");
    }
  });
});
