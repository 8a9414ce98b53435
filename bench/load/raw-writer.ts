// Child process: the raw write baseline against DATABASE_URL (its own pool, same size as dialogql's).
import { closeDatabase, database } from "../lib/store.js";
import { emit } from "../lib/report.js";
import { summarize } from "../lib/stats.js";
import { runRawWriters } from "./raw-turn.js";

const result = await runRawWriters(database, Number(process.env.CONCURRENCY), Number(process.env.DURATION_MS));
emit([{ ...summarize(result.latencies), turns: result.turns, elapsedMs: result.elapsedMs } as any]);
await closeDatabase();
