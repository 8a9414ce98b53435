// `npm start`: read the configuration, open the store, apply pending migrations, then serve on
// PORT (default 4000). The one place the process's environment becomes a config and a store.
import "./load-env.js";
import { loadConfig } from "./config.js";
import { beginPreparingDataDir } from "./db/embedded-data-dir.js";
import { onMigrationDatabase } from "./db/open-database.js";
import { applyMigrations } from "./db/migrate.js";
import { logger } from "./logger.js";

// A new embedded database is copied from its template while the server's modules load, rather
// than after: they are the two halves of a first start's time, and the copy waits on the disk
// while loading needs the CPU. (openStore awaits the same copy.)
const config = loadConfig(process.env);
if (!config.DATABASE_URL) void beginPreparingDataDir(config.DATA_DIR, config.PGLITE_TEMPLATE_DIR);
const [store, { startServer }, { startSweeper }] = await Promise.all([
  import("./store/store.js").then(({ openStore }) => openStore(config)),
  import("./server/http-server.js"),
  import("./history-writes/retention-sweeper.js"),
]);
const { database } = store;

const { applied } = await onMigrationDatabase(config, database, applyMigrations);
if (applied.length) logger.info(`applied migrations: ${applied.join(", ")}`);

const server = await startServer({ store, config, port: config.PORT, host: config.HOST });
logger.info(`dialogql on ${database.description}`);
logger.info(
  `live history: ${config.REDIS_CLUSTER_NODES ? "through a Redis Cluster" : config.REDIS_URL ? "through Redis" : "in-process"}`,
);
// Says plainly whether the server is open (single-tenant development mode) or needs API keys.
const auth = await server.authenticator.describe();
logger[auth.level](auth.message);
const urls = servedUrls(config.HOST, server.port);
logger.info(`web viewer: ${urls.base}/`);
logger.info(
  config.GRAPHIQL
    ? `GraphQL and GraphiQL: ${urls.base}/graphql (WebSocket: ${urls.ws}/graphql)`
    : `GraphQL: ${urls.base}/graphql (WebSocket: ${urls.ws}/graphql); GraphiQL and introspection are off`,
);
logger.info(`health: ${urls.base}/health, readiness: ${urls.base}/ready, metrics: ${urls.base}/metrics`);
// One line a supervisor (or a test) can read the address from: what is bound, and how to reach it.
logger.info(`listening on ${urls.bound}${urls.bound === urls.base ? "" : ` (every interface; here: ${urls.base})`}`);

// With RETENTION set, expired dialogs are deleted in the background (null when kept forever).
const sweeper = startSweeper(server.writes, { intervalMs: config.RETENTION_SWEEP_INTERVAL });
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
  await store.close();
  logger.info("stopped");
  process.exit(0);
}
process.on("SIGINT", () => void shutdown("SIGINT"));
process.on("SIGTERM", () => void shutdown("SIGTERM"));

/** The address really bound, and the one to type on this machine (localhost for a wildcard). */
function servedUrls(host: string, port: number) {
  const bracketed = host.includes(":") ? `[${host}]` : host;
  const wildcard = host === "0.0.0.0" || host === "::";
  const base = `http://${wildcard ? "localhost" : bracketed}:${port}`;
  return { bound: `http://${bracketed}:${port}`, base, ws: base.replace(/^http/, "ws") };
}
