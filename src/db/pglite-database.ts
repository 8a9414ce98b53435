// A PGlite client (PostgreSQL compiled to WASM, in this process) as the Database the migrator and
// maintenance use. PGlite is one connection, so a "session" is the client itself.
import type { PGlite } from "@electric-sql/pglite";
import type { Database } from "./database.js";
import { timed } from "../statement-log.js";
import { parseUtcTimestamp, TIMESTAMP_OID } from "./utc-timestamps.js";

export function pgliteDatabase(client: PGlite, description: string): Database {
  return {
    kind: "pglite",
    description,
    withSession: (work) =>
      work({
        runScript: async (sql) => void (await client.exec(sql)),
        query: async <T>(sql: string, params?: unknown[]) => (await client.query<T>(sql, params)).rows,
      }),
    transaction: (work) =>
      client.transaction((tx) => {
        const query = <T>(sql: string, params?: unknown[]) =>
          timed(
            sql,
            async () => (await tx.query<T>(sql, params, { parsers: { [TIMESTAMP_OID]: parseUtcTimestamp } })).rows,
            params,
          );
        // In this process there is no round trip to save: the commit follows when `work` is done.
        return work({ runScript: async (sql) => void (await tx.exec(sql)), query, queryAndCommit: query });
      }),
    async query<T>(sql: string, params?: unknown[]) {
      return timed(
        sql,
        async () => (await client.query<T>(sql, params, { parsers: { [TIMESTAMP_OID]: parseUtcTimestamp } })).rows,
        params,
      );
    },
    close: () => client.close(),
  };
}
