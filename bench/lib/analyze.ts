// Fresh planner statistics after a scenario writes its rows. A long-running database has them
// (autovacuum on PostgreSQL); a bench database just written has none (PGlite runs no autovacuum),
// and without them PostgreSQL plans the peer's plain `ORDER BY seq LIMIT 100` as a scan of every
// event of the dialog. dialogql's statements are written not to depend on statistics; the peer's,
// like most hand-written SQL, do.
import { database } from "./store.js";

export const analyze = () => database.query(`ANALYZE "Dialog", "Response", "Event"`);
