// A store of the test file's own on PostgreSQL (TEST_DATABASE_URL) whose connections carry an
// application_name, so the test can find them in pg_stat_activity, and an admin connection beside
// it that takes the locks they wait on. Opened before the file's tests, closed after them.
import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import { openStore, type Store } from "../../src/store/store.js";
import { configWith } from "./database.js";

export interface OwnPool {
  store: Store;
  admin: pg.Client;
  /** How many of the store's connections wait on a lock in PostgreSQL: its database work that is held. */
  waitingOnLock(): Promise<number>;
}

/** `app`: the store's application_name; `settings`: its configuration beside DATABASE_URL. */
export function ownPoolPerFile(app: string, settings: Record<string, string>): OwnPool {
  const pool = {
    waitingOnLock: async () => {
      // Read from the admin session, which may be inside its transaction (holding the lock), where
      // PostgreSQL keeps showing the first snapshot of the activity it took: a fresh one each time.
      await pool.admin.query("SELECT pg_stat_clear_snapshot()");
      const { rows } = await pool.admin.query<{ waiting: number }>(
        `SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'`,
        [app],
      );
      return rows[0]!.waiting;
    },
  } as OwnPool;
  beforeAll(async () => {
    const url = new URL(process.env.DATABASE_URL!);
    url.searchParams.set("application_name", app);
    pool.store = await openStore(configWith({ DATABASE_URL: url.toString(), ...settings }));
    pool.admin = new pg.Client({ connectionString: process.env.DATABASE_URL, application_name: `${app}-admin` });
    await pool.admin.connect();
  });
  afterAll(async () => {
    await pool.admin?.query("ROLLBACK").catch(() => undefined);
    await pool.admin?.end();
    await pool.store?.close();
  });
  return pool;
}

/** The new dialog's id in a createResponse answer (`... on Response { dialog { id } }`). */
export const createdDialogId = (answer: { body: { data?: unknown } }) =>
  (answer.body.data as { createResponse: { dialog: { id: string } } }).createResponse.dialog.id;
