// Prisma CLI configuration. The "js" engine with a driver adapter keeps every CLI command on
// Prisma's WASM engines, so nothing is downloaded (see README, "Database").
import { PGlite } from "@electric-sql/pglite";
import type { PrismaPg } from "@prisma/adapter-pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { defineConfig } from "prisma/config";

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  engine: "js",
  experimental: { adapter: true },
  // An in-memory database: the CLI is only used for `generate` and `migrate diff` here;
  // migrations are applied by `npm run migrate` (src/db/migrate.ts).
  // (pglite-prisma-adapter is typed against an older driver-adapter-utils; see src/db/prisma.ts.)
  adapter: async () => new PrismaPGlite(new PGlite()) as unknown as PrismaPg,
});
