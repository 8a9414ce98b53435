// The one Prisma client of the process. With DATABASE_URL it talks to PostgreSQL through
// node-postgres; without it, to PGlite (PostgreSQL compiled to WASM) in this process, so a
// fresh clone runs with no database server at all. Both speak the same SQL dialect, so there
// is one schema and one migration history.
// Only the chosen driver is loaded, and the database opens while Prisma's client loads: opening
// an embedded one is most of a first start's time, so it begins as early as it can.
import { config } from "../config.js";
import type { Database } from "./database.js";
import { observed } from "./statement-log.js";

export type { Database, Session } from "./database.js";
export { onStatement } from "./statement-log.js";
export { parseUtcTimestamp } from "./utc-timestamps.js";

const [opened, { PrismaClient }] = await Promise.all([
  config.DATABASE_URL
    ? import("./postgres-database.js").then(({ openPostgres }) => openPostgres(config.DATABASE_URL!))
    : import("./embedded-database.js").then(({ openEmbedded }) =>
        openEmbedded(config.DATA_DIR, config.PGLITE_TEMPLATE_DIR),
      ),
  import("../generated/prisma/client.js"),
]);

export const database: Database = opened.database;

export const prisma = new PrismaClient({
  adapter: opened.adapter,
  // Query events are cheap and let tests and benchmarks count the statements a request costs.
  log: [{ emit: "event", level: "query" }],
});
prisma.$on("query", (event) => observed(event.query, event.duration));

export async function closeDatabase() {
  await prisma.$disconnect();
  await database.close();
}
