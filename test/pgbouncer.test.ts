// PgBouncer in transaction mode (Debian's 1.18, which keeps no prepared statement from one
// transaction to the next) between dialogql and PostgreSQL. Without DATABASE_POOLER=transaction a
// named statement prepared on one server connection is missing on the next; with it, writes,
// reads, a subscription's reads and a generated turn all work through the pooler, and migrations
// take their lock per transaction.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import pg from "pg";
import { applyMigrations } from "../src/db/migrate.js";
import { onMigrationDatabase } from "../src/db/open-database.js";
import { openStore, type Store } from "../src/store/store.js";
import { configWith } from "./support/database.js";
import { writer } from "./support/dialogs.js";
import { startGeneratingServer } from "./support/generating-server.js";
import { HISTORY_DELTA, httpExecutor, startTestServer, subscribe, take, wsClient } from "./support/live.js";
import { pgbouncerUnavailable, startPgbouncer } from "./support/pgbouncer.js";

const unavailable = pgbouncerUnavailable();
const title = unavailable ? `PgBouncer in transaction mode (skipped: ${unavailable})` : "PgBouncer in transaction mode";

describe.skipIf(unavailable)(title, () => {
  let bouncerUrl: string;
  const stores: Store[] = [];
  const storeThroughBouncer = async (pooler: "none" | "transaction", poolSize = 1) => {
    const config = configWith({
      DATABASE_URL: bouncerUrl,
      DATABASE_POOLER: pooler,
      DATABASE_POOL_SIZE: String(poolSize),
      // Without the setting these would be sent as connection parameters, which PgBouncer refuses:
      // off here, so that the named statements alone are what the first test shows failing.
      ...(pooler === "none" && {
        DATABASE_STATEMENT_TIMEOUT_MS: "0",
        DATABASE_LOCK_TIMEOUT_MS: "0",
        DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: "0",
      }),
    });
    const opened = await openStore(config);
    stores.push(opened);
    return { store: opened, config };
  };

  beforeAll(async () => {
    // This worker's database (test/support/database.ts), reached through the pooler.
    ({ url: bouncerUrl } = await startPgbouncer(process.env.DATABASE_URL!));
  });
  afterAll(() => Promise.all(stores.map((opened) => opened.close())));

  /**
   * Runs `read` on the store's one connection twice; between the two, another client holds the
   * server connection the first ran on (PgBouncer hands out the last released one first), so the
   * second runs on another server connection.
   */
  async function acrossServerConnections(read: () => Promise<unknown>) {
    await read();
    const other = new pg.Client({ connectionString: bouncerUrl });
    await other.connect();
    try {
      await other.query("BEGIN");
      await other.query("SELECT 1");
      return await read();
    } finally {
      await other.query("COMMIT");
      await other.end();
    }
  }

  it("needs DATABASE_POOLER=transaction: a named statement is gone on the next server connection", async () => {
    const { store } = await storeThroughBouncer("none");
    const read = () => store.database.query(`SELECT count(*)::int AS n FROM "Dialog"`);
    await expect(acrossServerConnections(read)).rejects.toThrow(/prepared statement .* does not exist/);

    const { store: pooled } = await storeThroughBouncer("transaction");
    const readPooled = () => pooled.database.query(`SELECT count(*)::int AS n FROM "Dialog"`);
    expect(await acrossServerConnections(readPooled)).toEqual([{ n: expect.any(Number) }]);
  });

  it("applies migrations through it (the lock is per transaction), or past it with DATABASE_DIRECT_URL", async () => {
    const { store } = await storeThroughBouncer("transaction", 4);
    const direct = configWith({ DATABASE_URL: bouncerUrl, DATABASE_DIRECT_URL: process.env.DATABASE_URL! });
    const port = new URL(process.env.DATABASE_URL!).port || "5432";
    expect(await onMigrationDatabase(direct, store.database, async (database) => database.description)).toContain(
      `:${port}/`,
    );
    expect(store.database.description).toContain(`:${new URL(bouncerUrl).port}/`);
    // All applied already by the worker: two instances starting at once each find nothing to do.
    expect(await Promise.all([applyMigrations(store.database), applyMigrations(store.database)])).toEqual([
      { applied: [] },
      { applied: [] },
    ]);
  });

  it("serves writes, reads, a subscription and a generated turn through it", async () => {
    const { store, config } = await storeThroughBouncer("transaction", 4);
    const server = await startTestServer({ store, config, redisUrl: null });
    const via = writer(httpExecutor(server));
    const started = await via.createResponse({ input: [{ human: { content: "q" } }] });
    const dialogId = started.dialog.id;
    const deltas = subscribe(wsClient(server), HISTORY_DELTA, { dialogId, afterSeq: 0 });
    expect((await take(deltas, 1))[0]!.historyDelta.seq).toBe(1);
    for (let i = 0; i < 5; i++) {
      expect(
        (await via.appendEvents({ responseId: started.id, events: [{ ai: { content: `a${i}` } }] })).__typename,
      ).toBe("Response");
    }
    await via.completeResponse({ responseId: started.id });
    const live = await take(deltas, 6);
    expect(live.map(({ historyDelta: d }) => [d.previousSeq, d.seq])).toEqual([
      [1, 2],
      [2, 3],
      [3, 4],
      [4, 5],
      [5, 6],
      [6, 6],
    ]);
    await deltas.return?.();

    // A generated turn (it makes an API key, so it comes last), through the same pooled store.
    const g = await startGeneratingServer({}, "tenant-a", { store, config, redisUrl: null });
    g.upstream.script({ output: [{ text: "Hello through the pooler" }] });
    const response = await g.openai.responses.create({ model: "stand-in-1", input: "Hi" });
    expect(response.output_text).toBe("Hello through the pooler");
    const again = await g.openai.responses.retrieve(response.id);
    expect(again.status).toBe("completed");
  });
});
