// The store: the Prisma client and the raw driver of one database, with the settings that decide
// what a write may do (retention). `openStore(config)` makes one; main.ts and the CLIs open theirs,
// tests open one per file, and buildApp({ store, config }) hands it to every resolver through the
// context. There is no module-level client: two stores (or two views of one store with different
// settings) can live in one process.
//
// With DATABASE_URL it talks to PostgreSQL through node-postgres; without it, to PGlite
// (PostgreSQL compiled to WASM) in this process, so a fresh clone runs with no database server at
// all (src/db/open-database.ts). Both speak the same SQL dialect, so there is one schema and one
// migration history. The database opens while Prisma's client loads: opening an embedded one is
// most of a first start's time, so it begins as early as it can.
import type { Config } from "../config.js";
import type { Database } from "../db/database.js";
import { type DatabaseConfig, openDatabase } from "../db/open-database.js";
import { observed } from "../statement-log.js";
import type { PrismaClient } from "../generated/prisma/client.js";
import { loadPriceBook, type PriceBook } from "../usage/prices.js";
import { createDialogWriters, type DialogWriters } from "./dialog-writers.js";

export type { Database, Session } from "../db/database.js";

export interface Store {
  /** Prisma, for reads shaped by a GraphQL selection and for the small tables (API keys). */
  prisma: PrismaClient;
  /** The raw driver: every history write and the hot reads (src/store/sql.ts). */
  database: Database;
  /** Milliseconds a dialog is kept after its last write (RETENTION); null keeps dialogs forever. */
  retentionMs: number | null;
  /** What one write may hold (MAX_EVENTS_PER_WRITE, MAX_EVENT_BYTES). */
  writeLimits: WriteLimits;
  /** What tokens cost per model (MODEL_PRICES): a write prices its usage with it (src/store/usage.ts). */
  prices: PriceBook;
  /** How many writes of one dialog may hold a connection at once (DIALOG_WRITERS_AT_ONCE). */
  dialogWriters: DialogWriters;
  /** Disconnects Prisma and closes the database. */
  close(): Promise<void>;
}

export interface WriteLimits {
  eventsPerWrite: number;
  /** Bytes one event may serialize to. */
  eventBytes: number;
}

export type StoreConfig = DatabaseConfig &
  Pick<Config, "RETENTION" | "MAX_EVENTS_PER_WRITE" | "MAX_EVENT_BYTES" | "DIALOG_WRITERS_AT_ONCE"> &
  Partial<Pick<Config, "MODEL_PRICES">>;

export async function openStore(config: StoreConfig): Promise<Store> {
  const prices = loadPriceBook(config.MODEL_PRICES);
  const [opened, { PrismaClient }] = await Promise.all([openDatabase(config), import("../generated/prisma/client.js")]);
  const prisma = new PrismaClient({
    adapter: opened.adapter,
    // Query events are cheap and let tests and benchmarks count the statements a request costs.
    log: [{ emit: "event", level: "query" }],
  });
  prisma.$on("query", (event) => observed(event.query, event.duration));
  return {
    prisma,
    database: opened.database,
    retentionMs: config.RETENTION ?? null,
    writeLimits: { eventsPerWrite: config.MAX_EVENTS_PER_WRITE, eventBytes: config.MAX_EVENT_BYTES },
    prices,
    dialogWriters: createDialogWriters({
      atOnce: config.DIALOG_WRITERS_AT_ONCE,
      waitMs: config.DATABASE_LOCK_TIMEOUT_MS,
    }),
    async close() {
      await prisma.$disconnect();
      await opened.database.close();
    },
  };
}
