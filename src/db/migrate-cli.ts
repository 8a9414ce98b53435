// `npm run migrate`: apply pending migrations to the configured database and exit.
import "../load-env.js";
import { loadConfig } from "../config.js";
import { applyMigrations } from "./migrate.js";
import { openDatabase } from "./open-database.js";

const { database } = await openDatabase(loadConfig(process.env));
try {
  const { applied } = await applyMigrations(database);
  console.log(
    applied.length
      ? `Applied ${applied.join(", ")} to ${database.description}`
      : `${database.description} is up to date`,
  );
} finally {
  await database.close();
}
