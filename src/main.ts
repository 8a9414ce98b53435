// `npm start`: apply pending migrations, then serve on PORT (default 4000).
import { config } from "./config.js";
import { beginPreparingDataDir } from "./db/embedded-data-dir.js";
import { applyMigrations } from "./db/migrate.js";
import { logger } from "./server/logger.js";

// A new embedded database is copied from its template while the server's modules load, rather
// than after: they are the two halves of a first start's time, and the copy waits on the disk
// while loading needs the CPU. (src/db/prisma.ts awaits the same copy.)
if (!config.DATABASE_URL) void beginPreparingDataDir(config.DATA_DIR, config.PGLITE_TEMPLATE_DIR);
const [{ closeDatabase, database }, { startServer }, { startSweeper }] = await Promise.all([
  import("./db/prisma.js"),
  import("./server/http-server.js"),
  import("./services/retention.js"),
]);

const { applied } = await applyMigrations(database);
if (applied.length) logger.info(`applied migrations: ${applied.join(", ")}`);

const server = await startServer({ port: config.PORT, host: config.HOST, redisUrl: config.REDIS_URL });
logger.info(`dialogql on ${database.description}`);
logger.info(`live history: ${config.REDIS_URL ? "through Redis" : "in-process"}`);
logger.info(
  config.GRAPHIQL
    ? `GraphQL and GraphiQL: http://localhost:${server.port}/graphql (WebSocket: ws://localhost:${server.port}/graphql)`
    : `GraphQL: http://localhost:${server.port}/graphql (WebSocket too); GraphiQL and introspection are off`,
);
// Says plainly whether the server is open (single-tenant development mode) or needs API keys.
const auth = await server.authenticator.describe();
logger[auth.level](auth.message);
// One line a supervisor (or a test) can read the address from.
logger.info(`listening on ${server.url}`);

// With RETENTION set, expired dialogs are deleted in the background (null when kept forever).
const sweeper = startSweeper();
if (sweeper) logger.info(`retention: dialogs idle for ${process.env.RETENTION} are deleted`);

// Graceful (src/server/shutdown.ts): new requests are refused, subscriptions end, requests in
// flight get SHUTDOWN_DRAIN_MS to finish; whatever still holds the process after that and a few
// seconds more (a database call that never returns) does not keep it from exiting.
let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info(`${signal}: draining (at most ${config.SHUTDOWN_DRAIN_MS} ms), then exiting`);
  setTimeout(() => {
    logger.warn("shutdown did not finish in time; exiting");
    process.exit(1);
  }, config.SHUTDOWN_DRAIN_MS + 5_000).unref();
  await server.close();
  await sweeper?.stop();
  await closeDatabase();
  logger.info("stopped");
  process.exit(0);
}
process.on("SIGINT", () => void shutdown("SIGINT"));
process.on("SIGTERM", () => void shutdown("SIGTERM"));
