// Issue 29, the soak's finding: one tenant's flood of SSE subscriptions took the instance's database
// pool with its start-up reads, and another tenant's queries waited behind it. A tenant's start-up
// reads now run in its share of the pool (TENANT_DB_CONCURRENCY, the request budget's one door):
// with the reads of tenant A's flood held (the event table locked by another session), A holds
// exactly its share of the connections and its other subscriptions wait in A's own queue, while
// tenant B's query answers at once. Released, every one of A's subscriptions starts with its
// history. And the same for its writes, which went around the share: GraphQL writes over HTTP and
// graphql-ws and /v1 turns (the pool's checkout is the one door, src/db/tenant-work.ts), so eight
// writes of tenant A held on a table lock hold two connections of six, not the whole pool, and
// tenant B's read answers. PostgreSQL + Redis through real clients (PGlite has one connection and
// no locks).
import { print } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { graphql } from "../src/client/generated/index.js";
import { createModelCatalog } from "../src/generation/providers.js";
import { HISTORY_DELTA, type DeltaData, startTestServer, subscribe, take } from "./support/live.js";
import { createdDialogId, ownPoolPerFile } from "./support/own-pool.js";
import { asCaller, sseAs, tenantKey, wsAs } from "./support/tenants.js";
import { startUpstreamStandIn, type UpstreamStandIn } from "./support/upstream-stand-in.js";
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

const HISTORY = `query PoolShareHistory($id: ID!) {
  dialog(id: $id) { history(first: 20) { edges { node { ... on BaseHistoryEvent { seq } } } } }
}`;

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
  let upstream: UpstreamStandIn;
  beforeAll(async () => {
    upstream = await startUpstreamStandIn();
  });
  afterAll(async () => {
    await upstream?.close();
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
  it("tenant A's writes — GraphQL over HTTP and graphql-ws, /v1 turns — held on a lock hold its share, not the pool; tenant B's read answers", async () => {
    const models = createModelCatalog({
      OPENAI_BASE_URL: upstream.url,
      OPENAI_API_KEY: "sk-stand-in",
      UPSTREAM_API: "chat",
      UPSTREAM_MAX_RETRIES: 0,
      DEFAULT_MODEL: "stand-in-1",
    });
    const server = await startTestServer({
      store: pool.store,
      models,
      limits: { rateLimitRequests: 0, tenantDbConcurrency: SHARE },
    });
    const keyA = (await tenantKey("writing-a")).key;
    const keyB = (await tenantKey("reading-b")).key;
    const write = (content: string, dialogId?: string) => ({
      input: { ...(dialogId && { dialogId }), input: [{ human: { content } }], output: [{ ai: { content: "ok" } }] },
    });
    const dialogsA: string[] = [];
    for (let i = 0; i < 3; i++) {
      const created = await asCaller(server, keyA)(WRITE, write(`A ${i}`));
      dialogsA.push(createdDialogId(created));
    }
    const created = await asCaller(server, keyB)(WRITE, write("B"));
    const dialogB = createdDialogId(created);

    // Another session holds the event table against writes (reads still pass): every write of A
    // waits on it in PostgreSQL, in its transaction, on the connection it took.
    await pool.admin.query("BEGIN");
    await pool.admin.query(`LOCK TABLE "Event" IN EXCLUSIVE MODE`);
    let released = false;
    try {
      const overHttp = dialogsA.map((dialogId) => asCaller(server, keyA)(WRITE, write("held", dialogId)));
      const ws = wsAs(server, keyA);
      const overWs = [0, 1].map(async () => {
        for await (const result of ws.iterate({ query: print(WRITE), variables: write("held over ws") })) return result;
      });
      const turns = [0, 1, 2].map(() =>
        fetch(`${server.url}/v1/responses`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${keyA}` },
          body: JSON.stringify({ model: "stand-in-1", input: "Go on." }),
        }),
      );
      const writes = overHttp.length + overWs.length + turns.length; // 8, more than the pool's 6
      await until(async () => (await pool.waitingOnLock()) >= SHARE, "tenant A's writes holding its share");
      await until(
        async () => server.tenantReads.waiting("writing-a") === writes - SHARE || (await pool.waitingOnLock()) > SHARE,
        "the rest of tenant A's writes waiting",
      );
      // Before, A's writes took every connection of the pool and B's read failed as UNAVAILABLE
      // after the connect timeout.
      const answer = await asCaller(server, keyB)(HISTORY, { id: dialogB });
      expect(answer.body.errors).toBeUndefined();
      const { dialog } = answer.body.data as { dialog: { history: { edges: unknown[] } } };
      expect(dialog.history.edges).toHaveLength(2);
      expect(await pool.waitingOnLock()).toBe(SHARE);
      expect(server.tenantReads.active("writing-a")).toBe(SHARE);
      expect(server.tenantReads.waiting("writing-a")).toBe(writes - SHARE);

      await pool.admin.query("COMMIT");
      released = true;
      // Released, every write of A is stored.
      for (const written of await Promise.all(overHttp)) {
        expect(written.body.errors).toBeUndefined();
        expect(written.body.data!.createResponse.__typename).toBe("Response");
      }
      for (const written of await Promise.all(overWs))
        expect(written).toMatchObject({ data: { createResponse: { __typename: "Response" } } });
      for (const turn of await Promise.all(turns)) {
        expect(turn.status).toBe(200);
        expect(((await turn.json()) as { status: string }).status).toBe("completed");
      }
      // What the turns do after answering (their usage, the dialog's title) drains too.
      await until(
        () => server.tenantReads.waiting("writing-a") + server.tenantReads.active("writing-a") === 0,
        "tenant A's queue emptied",
      );
    } finally {
      if (!released) await pool.admin.query("ROLLBACK");
    }
  });
});
