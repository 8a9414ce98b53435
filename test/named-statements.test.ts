// Statements outside Prisma are prepared once per connection on PostgreSQL
// (src/db/postgres-database.ts). A migration that adds a column changes what a prepared whole-row
// read returns, which PostgreSQL refuses to run ("cached plan must not change result type"): the
// read must prepare afresh and answer, not fail until the connection is renewed.
import { describe, expect, it } from "vitest";
import { database } from "./support/database.js";

describe.skipIf(database.kind !== "postgres")("named statements on PostgreSQL", () => {
  it("keep answering on the same connection after a migration adds a column", async () => {
    await database.withSession(async (session) => {
      await session.runScript(
        `DROP TABLE IF EXISTS named_statement_check; CREATE TABLE named_statement_check (id int); INSERT INTO named_statement_check VALUES (1)`,
      );
      const read = () => session.query(`SELECT * FROM named_statement_check ORDER BY id`);
      expect(await read()).toEqual([{ id: 1 }]);
      await session.runScript(`ALTER TABLE named_statement_check ADD COLUMN note text`);
      expect(await read()).toEqual([{ id: 1, note: null }]);
      expect(await read()).toEqual([{ id: 1, note: null }]);
      await session.runScript(`DROP TABLE named_statement_check`);
    });
  });
});
