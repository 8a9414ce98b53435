// A PostgreSQL server through node-postgres: the pool Prisma's adapter uses, and the Database
// the migrator and maintenance use. Imported only when DATABASE_URL is set.
import { createHash } from "node:crypto";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { logger } from "../logger.js";
import type { Database, TransactionSession } from "./database.js";
import { timed } from "../statement-log.js";
import { connectInShare, onHeldConnection } from "./tenant-work.js";
import { parseUtcTimestamp, TIMESTAMP_OID } from "./utc-timestamps.js";

const utcTimestamps = {
  getTypeParser: (oid: number, format?: string) =>
    oid === TIMESTAMP_OID ? parseUtcTimestamp : pg.types.getTypeParser(oid, format as "text"),
};

// Statements outside Prisma are sent as named (prepared) statements: PostgreSQL parses and
// analyses one once per connection, and every later use only binds and executes it. A page of
// history, a root lookup and a turn's write are the same few texts over and over. The name is a
// hash of the text, so one name never stands for two texts; texts beyond the first
// MAX_NAMED_TEXTS (statements built with a varying shape) go unnamed, so no connection keeps an
// unbounded number of them.
//
// A migration that adds or drops a column changes what a prepared whole-row read (`r.*`) returns,
// and PostgreSQL then refuses to run it ("cached plan must not change result type"). Names carry
// a generation: on that refusal every name changes, so each connection prepares its statements
// afresh, and the statement is sent again once.
const MAX_NAMED_TEXTS = 1_000;
const statementNames = new Map<string, string>();
let generation = 0;

function statementName(sql: string) {
  let name = statementNames.get(sql);
  if (name === undefined && statementNames.size < MAX_NAMED_TEXTS) {
    name = `dq${generation}_${createHash("sha1").update(sql).digest("base64url")}`;
    statementNames.set(sql, name);
  }
  return name;
}

const statement = (sql: string, params: unknown[] | undefined, named: boolean) => ({
  name: named ? statementName(sql) : undefined,
  text: sql,
  values: params,
  types: utcTimestamps,
});

const isStalePlan = (error: unknown) =>
  (error as { code?: string }).code === "0A000" && /cached plan must not change result type/.test(String(error));

/**
 * Runs `sql`, as a named statement unless `named` is false (behind a transaction pooler, where the
 * next transaction may run on another server connection that never saw it prepared); prepared
 * statements made stale by a migration are renamed and it runs again.
 */
async function run<T>(
  sql: string,
  params: unknown[] | undefined,
  {
    named,
    send,
    sendAgain = true,
  }: { named: boolean; send: (query: pg.QueryConfig) => Promise<pg.QueryResult>; sendAgain?: boolean },
) {
  try {
    return (await send(statement(sql, params, named))).rows as T[];
  } catch (error) {
    if (!isStalePlan(error)) throw error;
    generation++;
    statementNames.clear();
    logger.info("[db] a migration changed a table's columns: statements are prepared again");
    if (!sendAgain) throw error;
    return (await send(statement(sql, params, named))).rows as T[];
  }
}

export interface PostgresOptions {
  poolSize: number;
  /**
   * Behind a transaction pooler (DATABASE_POOLER=transaction): every statement goes unnamed, and the
   * server-side time limits are not sent as connection parameters (PgBouncer refuses those; set
   * them on the database role or in the pooler instead, docs/scaling.md).
   */
  transactionPooler: boolean;
  connectTimeoutMs: number;
  queryTimeoutMs: number;
  /** The server's own limits on every connection of the pool (0 switches one off). */
  statementTimeoutMs: number;
  lockTimeoutMs: number;
  idleInTransactionTimeoutMs: number;
}

export function openPostgres(url: string, options: PostgresOptions) {
  const pool = new pg.Pool({
    connectionString: url,
    // A statement sent while an earlier one on the same connection is unanswered goes out at once
    // rather than after its answer: a transaction's BEGIN and COMMIT travel with its statements
    // (pipelinedTransaction). Everything else awaits each answer before the next statement, as before.
    pipeline: true,
    max: options.poolSize,
    // While PostgreSQL is unreachable a call fails after this instead of waiting on the network
    // (src/db/unavailable.ts turns that into UNAVAILABLE); the pool reconnects by itself later.
    connectionTimeoutMillis: options.connectTimeoutMs,
    // A server that stops answering on an open connection (a partition) fails a query after this,
    // as UNAVAILABLE, instead of holding the request; the pool discards that connection.
    query_timeout: options.queryTimeoutMs,
    // The same bounds on the server's side, set on each connection as it opens: a statement runs at
    // most this long, waits at most this long for a lock (a locked dialog fails its writers with
    // UNAVAILABLE instead of holding them and their connections), and a transaction left idle by a
    // client that was cut off is ended by the server, releasing its locks.
    ...(!options.transactionPooler && {
      statement_timeout: options.statementTimeoutMs || undefined,
      lock_timeout: options.lockTimeoutMs || undefined,
      idle_in_transaction_session_timeout: options.idleInTransactionTimeoutMs || undefined,
    }),
  });
  // An idle client losing its server (restart, pg_terminate_backend) must not crash the process;
  // the pool drops it and opens a new connection when one is needed.
  pool.on("error", (error) => logger.warn(`[db] idle PostgreSQL connection lost: ${error.message}`));
  // So must one lost while checked out (the server ending a transaction left idle past
  // idle_in_transaction_session_timeout, an administrator's terminate): its user's next query fails
  // as UNAVAILABLE, and the pool discards the connection when it is released.
  pool.on("connect", (client) =>
    client.on("error", (error) => logger.warn(`[db] PostgreSQL connection lost while in use: ${error.message}`)),
  );
  // The one door to the pool: a connection taken on behalf of a tenant is taken in its share
  // (src/db/tenant-work.ts); Prisma's queries and transactions and the raw ones all come here.
  const checkout = pool.connect.bind(pool) as () => Promise<pg.PoolClient>;
  pool.connect = ((callback?: (error: Error | undefined, client?: pg.PoolClient, done?: () => void) => void) => {
    const taken = connectInShare(checkout);
    if (!callback) return taken;
    taken.then(
      (client) => callback(undefined, client, client.release),
      (error: Error) => callback(error),
    );
  }) as typeof pool.connect;
  const host = new URL(url);
  const named = !options.transactionPooler;
  // Inside a transaction a refused statement has aborted it, so it is not sent again (the names
  // still change: the caller's next attempt prepares afresh).
  const send =
    (client: pg.PoolClient, { inTransaction }: { inTransaction: boolean }) =>
    <T>(sql: string, params?: unknown[]) =>
      run<T>(sql, params, { named, send: (query) => client.query(query), sendAgain: !inTransaction });
  const sessionOn = (client: pg.PoolClient) => ({
    runScript: async (sql: string) => void (await client.query(sql)),
    query: <T>(sql: string, params?: unknown[]) =>
      timed(sql, () => send(client, { inTransaction: false })<T>(sql, params), params),
  });
  const database: Database = {
    kind: "postgres",
    description: `PostgreSQL ${host.hostname}:${host.port || 5432}${host.pathname}`,
    async withSession(work) {
      const client = await pool.connect();
      try {
        return await onHeldConnection(() => work(sessionOn(client)));
      } finally {
        client.release();
      }
    },
    async transaction(work) {
      const client = await pool.connect();
      try {
        return await onHeldConnection(() => pipelinedTransaction(client, send(client, { inTransaction: true }), work));
      } finally {
        client.release();
      }
    },
    async query<T>(sql: string, params?: unknown[]) {
      return timed(sql, () => run<T>(sql, params, { named, send: (query) => pool.query(query) }), params);
    },
    close: () => pool.end(),
  };
  return { database, adapter: new PrismaPg(pool) };
}

/**
 * A parameter node-postgres cannot refuse before sending: a scalar, a buffer, or an array of them
 * (written out element by element). An object is converted by JSON.stringify or its own
 * toPostgres, either of which may throw.
 */
const sentAsIs = (value: unknown): boolean =>
  value == null ||
  ["string", "number", "boolean", "bigint"].includes(typeof value) ||
  Buffer.isBuffer(value) ||
  (Array.isArray(value) && value.every(sentAsIs));

/**
 * A transaction whose BEGIN goes out with its first statement and whose COMMIT goes out with its
 * last (`queryAndCommit`): the pool's clients pipeline (a statement is sent without waiting for the
 * answer to the one before), so a write of two statements waits for the server twice, not four
 * times. Answers come back in the order sent, so none of the work's statements is answered before
 * its BEGIN was; the work still waits for each answer before it sends its next statement.
 */
async function pipelinedTransaction<T>(
  client: pg.PoolClient,
  send: <R>(sql: string, params?: unknown[]) => Promise<R[]>,
  work: (session: TransactionSession) => Promise<T>,
): Promise<T> {
  let begin: Promise<unknown> | null = client.query("BEGIN");
  // Its failure is the first statement's (below); it is not left unhandled meanwhile.
  begin.catch(() => {});
  let ended = false;
  // BEGIN's answer comes before the first statement's; a BEGIN that failed fails that statement.
  const withBegin = async <R>(answers: Promise<unknown>[], rows: Promise<R[]>) => {
    const pending = begin;
    begin = null;
    const settled = await Promise.allSettled([pending, rows, ...answers]);
    const failed = settled.find((outcome) => outcome.status === "rejected");
    if (failed) throw failed.reason;
    return (settled[1] as PromiseFulfilledResult<R[]>).value;
  };
  const script = (sql: string) =>
    withBegin(
      [],
      client.query(sql).then(() => []),
    );
  const session: TransactionSession = {
    runScript: async (sql) => void (await script(sql)),
    query: <R>(sql: string, params?: unknown[]) => timed(sql, () => withBegin([], send<R>(sql, params)), params),
    queryAndCommit: <R>(sql: string, params?: unknown[]) => {
      // A parameter node-postgres must convert (an object, or an array holding one) can be refused
      // before the statement leaves, and the COMMIT behind it would then commit the transaction
      // without it: such a statement is sent alone, and the transaction commits after its answer.
      if (params && !params.every(sentAsIs)) return session.query<R>(sql, params);
      ended = true;
      // Sent one behind the other (the statement first): COMMIT does not wait for its answer.
      const sent = () => {
        const rows = send<R>(sql, params);
        return withBegin([client.query("COMMIT")], rows);
      };
      return timed(sql, sent, params);
    },
  };
  try {
    const result = await work(session);
    if (!ended) await script("COMMIT");
    return result;
  } catch (error) {
    // After a queryAndCommit that failed, its COMMIT has already ended the transaction (rolled back).
    // A ROLLBACK that fails too (the connection is gone: pg destroys it on a query timeout) does not
    // hide the statement's own error; pg-pool drops a connection that is no longer queryable.
    if (!ended) await script("ROLLBACK").catch(() => {});
    throw error;
  }
}
