// Embedded PGlite under DATA_DIR (or in memory), so a fresh clone runs with no database server.
// Imported only when DATABASE_URL is unset. A data directory with no database in it yet starts
// from the PGlite template (src/db/embedded-data-dir.ts) rather than from initdb, which is most
// of a first start's time; without a usable template PGlite runs initdb as it always did.
import { mkdirSync } from "node:fs";
import { rm } from "node:fs/promises";
import { PGlite } from "@electric-sql/pglite";
import type { PrismaPg } from "@prisma/adapter-pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { logger } from "../logger.js";
import { lockDataDir } from "./data-dir-lock.js";
import { type EmbeddedDataDir, takePreparedDataDir } from "./embedded-data-dir.js";
import { pgliteDatabase } from "./pglite-database.js";
import { templateTarball } from "./pglite-template.js";

export async function openEmbedded(dataDir: string, templateRoot: string) {
  // Before anything touches the directory: another process may be using it (src/db/data-dir-lock.ts).
  const lock = dataDir.startsWith("memory://") ? null : lockDataDir(dataDir);
  const prepared = await takePreparedDataDir(dataDir, templateRoot);
  const client = await startPGlite(prepared);
  const { location, inMemory } = prepared;
  const description = inMemory ? "embedded PGlite (in memory)" : `embedded PGlite at ${location}`;
  const database = pgliteDatabase(client, description);
  return {
    database: {
      ...database,
      close: async () => {
        await database.close();
        lock?.release();
      },
    },
    // pglite-prisma-adapter 0.6 (the last line for Prisma 6) is typed against an older
    // driver-adapter-utils; the runtime protocol is the one Prisma 6.19 speaks.
    adapter: new PrismaPGlite(client) as unknown as PrismaPg,
  };
}

async function startPGlite({ location, inMemory, template }: EmbeddedDataDir): Promise<PGlite> {
  if (template) {
    try {
      const client = inMemory
        ? await PGlite.create(location, { loadDataDir: await templateTarball(template) })
        : await PGlite.create(location);
      logger.info(`new database from the PGlite template with ${template.manifest.migrations.length} migrations`);
      return client;
    } catch (error) {
      // A damaged template costs the start-up time it was meant to save, never the database.
      logger.warn(`[db] PGlite did not start from the template (${(error as Error).message}); running initdb`);
      if (!inMemory) await rm(location, { recursive: true, force: true });
    }
  }
  if (!inMemory) mkdirSync(location, { recursive: true });
  return PGlite.create(location);
}
