// What the code outside Prisma (migrations, maintenance) needs from a database, whichever one
// runs: PostgreSQL (src/db/postgres-database.ts) or embedded PGlite (src/db/embedded-database.ts).

/** One database connection used outside Prisma (migrations, maintenance). */
export interface Session {
  /** Runs a multi-statement SQL script. */
  runScript(sql: string): Promise<void>;
  /** Runs one parameterised statement and returns its rows. */
  query<T>(sql: string, params?: unknown[]): Promise<T[]>;
}

/** A transaction's session (Database.transaction). */
export interface TransactionSession extends Session {
  /**
   * Runs the transaction's last statement and commits it, answering the statement's rows once the
   * commit is done. On PostgreSQL COMMIT goes out right behind the statement, not after its answer:
   * one round trip for both (a statement the server refuses aborts the transaction, and the COMMIT
   * behind it then rolls it back; one with a parameter the driver must convert, which it could
   * refuse before sending, goes alone and the commit follows its answer). Nothing may be sent on
   * the session after it.
   */
  queryAndCommit<T>(sql: string, params?: unknown[]): Promise<T[]>;
}

export interface Database {
  kind: "postgres" | "pglite";
  /** Human-readable location for logs (no credentials). */
  description: string;
  /** Runs `work` on one dedicated connection (session-level locks stay with it). */
  withSession<T>(work: (session: Session) => Promise<T>): Promise<T>;
  /** Runs `work` in one transaction on one connection, outside Prisma. */
  transaction<T>(work: (session: TransactionSession) => Promise<T>): Promise<T>;
  /**
   * Runs one parameterised statement on any free connection, outside Prisma: for the hot paths,
   * where Prisma's own cost per statement (about a millisecond of CPU, more than the SQL) would
   * dominate. Timestamps are read as UTC, as Prisma stores them.
   */
  query<T>(sql: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}
