// `npm run migrate`: apply pending migrations to the configured database and exit.
import "../load-env.js";
import { applyMigrations } from "./migrate.js";
import { closeDatabase, database } from "./prisma.js";

try {
  const { applied } = await applyMigrations(database);
  console.log(
    applied.length
      ? `Applied ${applied.join(", ")} to ${database.description}`
      : `${database.description} is up to date`,
  );
} finally {
  await closeDatabase();
}
