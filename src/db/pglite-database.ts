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
      client.transaction((tx) =>
        work({
          runScript: async (sql) => void (await tx.exec(sql)),
          query: <T>(sql: string, params?: unknown[]) =>
            timed(
              sql,
              async () => (await tx.query<T>(sql, params, { parsers: { [TIMESTAMP_OID]: parseUtcTimestamp } })).rows,
              params,
            ),
        }),
      ),
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
