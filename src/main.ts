// `npm start`: apply pending migrations, then serve on PORT (default 4000).
import { createServer } from "node:http";
import { config } from "./config.js";
import { applyMigrations } from "./db/migrate.js";
import { closeDatabase, database } from "./db/prisma.js";
import { buildApp } from "./server/app.js";
import { logger } from "./server/logger.js";
import { startSweeper } from "./services/retention.js";

const { applied } = await applyMigrations(database);
if (applied.length) logger.info(`applied migrations: ${applied.join(", ")}`);

const app = buildApp();
const server = createServer(app);
server.listen(config.PORT, config.HOST, () => {
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : config.PORT;
  logger.info(`dialogql on ${database.description}`);
  logger.info(`GraphQL and GraphiQL: http://localhost:${port}/graphql`);
});

// With RETENTION set, expired dialogs are deleted in the background (null when kept forever).
const sweeper = startSweeper();
if (sweeper) logger.info(`retention: dialogs idle for ${process.env.RETENTION} are deleted`);

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info(`${signal}: closing`);
  server.closeIdleConnections?.();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await sweeper?.stop();
  await closeDatabase();
  process.exit(0);
}
process.on("SIGINT", () => void shutdown("SIGINT"));
process.on("SIGTERM", () => void shutdown("SIGTERM"));
