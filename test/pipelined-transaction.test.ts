// A transaction's COMMIT goes out right behind its last statement (src/db/postgres-database.ts,
// pipelinedTransaction, queryAndCommit): it must commit only what that statement completes. A
// statement the server refuses aborts the transaction, so the COMMIT behind it rolls back; one
// that node-postgres refuses before it leaves (a parameter it cannot convert) never reaches the
// server, so it is not sent with a COMMIT behind it at all.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { database } from "./support/database.js";

const table = "pipelined_transaction_check";
const rows = () => database.query<{ v: number }>(`SELECT v FROM ${table} ORDER BY v`);

describe.skipIf(database.kind !== "postgres")("a transaction committed with its last statement", () => {
  beforeAll(() => database.query(`CREATE TABLE IF NOT EXISTS ${table} (v int)`));
  afterAll(() => database.query(`DROP TABLE IF EXISTS ${table}`));

  it("commits everything once the last statement is answered", async () => {
    await database.query(`DELETE FROM ${table}`);
    const answered = await database.transaction(async (session) => {
      await session.query(`INSERT INTO ${table} VALUES (1)`);
      return session.queryAndCommit<{ v: number }>(`INSERT INTO ${table} VALUES ($1::int) RETURNING v`, [2]);
    });
    expect(answered).toEqual([{ v: 2 }]);
    expect(await rows()).toEqual([{ v: 1 }, { v: 2 }]);
  });

  it("rolls back when the server refuses the last statement, which fails with its own error", async () => {
    await database.query(`DELETE FROM ${table}`);
    const write = database.transaction(async (session) => {
      await session.query(`INSERT INTO ${table} VALUES (1)`);
      return session.queryAndCommit(`SELECT 1 / $1::int`, [0]);
    });
    await expect(write).rejects.toThrow(/division by zero/);
    expect(await rows()).toEqual([]);
  });

  it("commits nothing when the last statement is refused before it leaves", async () => {
    await database.query(`DELETE FROM ${table}`);
    const refused = {
      toPostgres: () => {
        throw new Error("refused before sending");
      },
    };
    const write = database.transaction(async (session) => {
      await session.query(`INSERT INTO ${table} VALUES (1)`);
      return session.queryAndCommit(`INSERT INTO ${table} VALUES ($1::int)`, [refused]);
    });
    await expect(write).rejects.toThrow(/refused before sending/);
    expect(await rows()).toEqual([]);
    // No connection of the pool was left inside the transaction.
    const [idle] = await database.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_stat_activity
        WHERE datname = current_database() AND state LIKE 'idle in transaction%'`,
    );
    expect(idle!.n).toBe(0);
  });
});
