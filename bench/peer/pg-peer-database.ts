// The yoga + `pg` peer's database: a `pg` pool of `max` connections, with transactions as a
// hand-written server does them (BEGIN, the work, COMMIT or ROLLBACK on one checked-out client).
import pg from "pg";
import type { PeerDatabase } from "./yoga-pg.js";

// "timestamp without time zone" holds UTC wall-clock time, as Prisma stores it.
pg.types.setTypeParser(1114, (text) => new Date(`${text.replace(" ", "T")}Z`));

export function pgPeerDatabase(connectionString: string | undefined, max: number): { db: PeerDatabase; pool: pg.Pool } {
  const pool = new pg.Pool({ connectionString, max });
  const db: PeerDatabase = {
    query: async (sql, params) => (await pool.query(sql, params)).rows,
    async transaction(work) {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        const result = await work({ query: async (sql, params) => (await client.query(sql, params)).rows });
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK");
        throw error;
      } finally {
        client.release();
      }
    },
  };
  return { db, pool };
}
