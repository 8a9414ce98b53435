// Issue 29, finding 4: database time is bounded on the server's side too. Every pooled connection
// carries `statement_timeout`, `lock_timeout` and `idle_in_transaction_session_timeout`; writers to
// one locked dialog fail as UNAVAILABLE within the lock timeout while holding at most
// DIALOG_WRITERS_AT_ONCE connections, so other tenants' requests on the instance go on as before; a
// transaction left idle holding a dialog's lock (an instance cut off mid-write) is ended by the
// server, and the dialog's writers proceed. PostgreSQL only (PGlite has one connection and no locks
// to wait for).
import { describe, expect, it } from "vitest";
import { graphql } from "../src/client/generated/index.js";
import { lockDialog } from "../src/store/locked-dialog.js";
import { startTestServer } from "./support/live.js";
import { createdDialogId, ownPoolPerFile } from "./support/own-pool.js";
import { asCaller, tenantKey } from "./support/tenants.js";

const runs = Boolean(process.env.TEST_DATABASE_URL);
const title = runs ? "database time" : "database time (skipped: needs TEST_DATABASE_URL)";

const WRITE = graphql(`
  mutation DatabaseTimeWrite($input: CreateResponseInput!) {
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

const LOCK_TIMEOUT_MS = 1_000;
const POOL_SIZE = 6;
const APP = "dialogql-database-time";

describe.runIf(runs)(title, () => {
  const pool = ownPoolPerFile(APP, {
    DATABASE_POOL_SIZE: String(POOL_SIZE),
    DATABASE_LOCK_TIMEOUT_MS: String(LOCK_TIMEOUT_MS),
    DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: "1000",
    DATABASE_STATEMENT_TIMEOUT_MS: "20000",
    DIALOG_WRITERS_AT_ONCE: "2",
  });

  it("every pooled connection carries the server-side time limits", async () => {
    const shown = await pool.store.database.query<Record<string, string>>(
      `SELECT current_setting('statement_timeout') AS statement, current_setting('lock_timeout') AS lock,
              current_setting('idle_in_transaction_session_timeout') AS idle`,
    );
    expect(shown).toEqual([{ statement: "20s", lock: "1s", idle: "1s" }]);
  });

  it("a locked dialog: its writers fail UNAVAILABLE within the bound, hold at most 2 connections, and other tenants do not wait", async () => {
    const server = await startTestServer({ store: pool.store, limits: { rateLimitRequests: 0 } });
    const owner = asCaller(server, (await tenantKey("locked-owner")).key);
    const neighbour = asCaller(server, (await tenantKey("locked-neighbour")).key);
    const created = await owner(WRITE, { input: { input: [{ human: { content: "first" } }] } });
    const dialogId = createdDialogId(created);
    const mine = await neighbour(WRITE, { input: { input: [{ human: { content: "mine" } }] } });
    const myDialog = createdDialogId(mine);

    // Someone holds the dialog's row lock for longer than any writer may wait.
    await pool.admin.query("BEGIN");
    await pool.admin.query(`SELECT id FROM "Dialog" WHERE id = $1 FOR UPDATE`, [dialogId]);
    try {
      const began = Date.now();
      const writers = Array.from({ length: 12 }, (_, i) =>
        owner(WRITE, { input: { dialogId, input: [{ human: { content: `w${i}` } }] } }).then((answer) => ({
          ...answer,
          ms: Date.now() - began,
        })),
      );
      // While they wait: how many of this store's connections wait for a lock, and how the neighbour fares.
      let mostWaiting = 0;
      const neighbourMs: number[] = [];
      const watching = (async () => {
        while (Date.now() - began < LOCK_TIMEOUT_MS * 2) {
          mostWaiting = Math.max(mostWaiting, await pool.waitingOnLock());
          const started = Date.now();
          const read = await neighbour(`{ dialog(id: "${myDialog}") { id } }`);
          const write = await neighbour(WRITE, { input: { dialogId: myDialog, input: [{ human: { content: "n" } }] } });
          neighbourMs.push(Date.now() - started);
          expect(read.status).toBe(200);
          expect(write.body.data!.createResponse.__typename).toBe("Response");
        }
      })();
      const answers = await Promise.all(writers);
      await watching;

      for (const answer of answers) {
        expect(answer.body.errors?.map((error) => error.extensions?.code)).toEqual(["UNAVAILABLE"]);
        // Each fails within a few lock timeouts (two at a time reach the lock), never the 30 s query timeout.
        expect(answer.ms).toBeLessThan(LOCK_TIMEOUT_MS * 4 + 2_000);
      }
      expect(mostWaiting).toBeLessThanOrEqual(2);
      // The neighbour's read and write each took well under a lock timeout throughout.
      expect(Math.max(...neighbourMs)).toBeLessThan(LOCK_TIMEOUT_MS);
    } finally {
      await pool.admin.query("ROLLBACK");
    }
    // Unlocked, the dialog takes writes again.
    const after = await owner(WRITE, { input: { dialogId, input: [{ human: { content: "after" } }] } });
    expect(after.body.data!.createResponse.__typename).toBe("Response");
  });

  it("a transaction left idle holding a dialog's lock is ended by the server, and the dialog's next writer proceeds", async () => {
    const server = await startTestServer({ store: pool.store, limits: { rateLimitRequests: 0 } });
    const owner = asCaller(server, (await tenantKey("idle-owner")).key);
    const created = await owner(WRITE, { input: { input: [{ human: { content: "first" } }] } });
    const dialogId = createdDialogId(created);

    // A write that locks the dialog and then hangs (its instance cut off mid-transaction).
    let wakeUp!: () => void;
    const hung = new Promise<void>((resolve) => (wakeUp = resolve));
    let locked!: () => void;
    const lockHeld = new Promise<void>((resolve) => (locked = resolve));
    const stalled = pool.store.database
      .transaction(async (session) => {
        await lockDialog(session, { id: dialogId }, new Date(), null);
        locked();
        await hung;
        await session.query("SELECT 1");
      })
      .catch((error: Error) => error);
    await lockHeld;

    const began = Date.now();
    let answer = await owner(WRITE, { input: { dialogId, input: [{ human: { content: "next" } }] } });
    // The first try may meet the lock before the server has ended the idle transaction.
    while (answer.body.data?.createResponse?.__typename !== "Response" && Date.now() - began < 10_000)
      answer = await owner(WRITE, { input: { dialogId, input: [{ human: { content: "next" } }] } });
    expect(answer.body.data!.createResponse.__typename).toBe("Response");
    expect(Date.now() - began).toBeLessThan(5_000);
    wakeUp();
    // The hung write learns its transaction is gone; nothing of it was stored.
    expect(await stalled).toBeInstanceOf(Error);
  });
});
