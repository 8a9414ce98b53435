// `npm run migrate`: apply pending migrations to the configured database and exit.
import "../load-env.js";
import { loadConfig } from "../config.js";
import { applyMigrations } from "./migrate.js";
import { onMigrationDatabase, openDatabase } from "./open-database.js";

const config = loadConfig(process.env);
const { database } = await openDatabase(config);
try {
  const { applied } = await onMigrationDatabase(config, database, applyMigrations);
  console.log(
    applied.length
      ? `Applied ${applied.join(", ")} to ${database.description}`
      : `${database.description} is up to date`,
  );
} finally {
  await database.close();
}
