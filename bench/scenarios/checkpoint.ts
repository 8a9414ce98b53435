// In-flight checkpoints (issue 29, finding 9): an agent streams a 100 KB answer (or
// CHECKPOINT_ANSWER_CHARS characters) in 500-character deltas through the history writes (no
// HTTP: the checkpoint is what is measured), checkpointed every IN_FLIGHT_CHECKPOINT_CHARS (2,000)
// characters on a clock that stands still. Figures: the bytes sent to the database (statement
// text and parameters) by the deltas that checkpointed, first ten and last ten, and their time,
// so a checkpoint whose cost grows with the text so far shows as a last-ten figure far above the
// first-ten one; and how much the tables holding the checkpoints grew on disk while the answer
// streamed (every version a checkpoint wrote, none yet vacuumed: about what the database wrote).
import { applyMigrations } from "../../src/db/migrate.js";
import { DEVELOPMENT_TENANT } from "../../src/auth/authenticator.js";
import { createHistoryWrites } from "../../src/history-writes/history-writes.js";
import { createLiveBus } from "../../src/live/live-bus.js";
import { onStatement, statementBytes } from "../../src/statement-log.js";
import { closeDatabase, database, store } from "../lib/store.js";
import { emit, smoke, type Figure } from "../lib/report.js";
import { percentile } from "../lib/stats.js";

const ANSWER_CHARS = Number(process.env.CHECKPOINT_ANSWER_CHARS ?? (smoke ? 20_000 : 100_000));
const DELTA_CHARS = 500;
const CHECKPOINT_CHARS = 2_000;

await applyMigrations(database);
const live = createLiveBus();
const writes = createHistoryWrites(store, live, {
  clock: () => 1_000_000,
  checkpointMs: 3_600_000,
  checkpointChars: CHECKPOINT_CHARS,
  idleTimeoutMs: 3_600_000,
  sweepIntervalMs: 3_600_000,
  maxDeltaChars: DELTA_CHARS,
});
const turn = await writes.createResponse(
  { input: [{ human: { content: "Tell me a long story" } }] },
  DEVELOPMENT_TENANT,
);
const { responseId } = turn;

// The Response table (and its TOAST and indexes), with InFlightChunk where it exists.
const checkpointTablesBytes = async () => {
  const [row] = await database.query<{ bytes: string }>(
    `SELECT sum(pg_total_relation_size(oid))::text AS bytes FROM pg_class WHERE relname IN ('Response', 'InFlightChunk')`,
  );
  return Number(row!.bytes);
};
const tablesBefore = await checkpointTablesBytes();

let sent = { bytes: 0, statements: 0 };
onStatement((sql, _ms, params) => {
  sent.bytes += statementBytes(sql, params);
  sent.statements++;
});

interface Checkpoint {
  textChars: number;
  bytes: number;
  ms: number;
}
const checkpoints: Checkpoint[] = [];
// Text that does not compress (as a model's answer hardly does at PostgreSQL's pglz), so the
// tables' growth is what was written, not what repeated text shrinks to.
let seed = 42;
const letter = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return "etaoin shrdlu"[seed % 13]!;
};
const nextDelta = () => Array.from({ length: DELTA_CHARS }, letter).join("");
for (let offset = 0, sinceCheckpoint = 0; offset < ANSWER_CHARS; offset += DELTA_CHARS) {
  sent = { bytes: 0, statements: 0 };
  const delta = nextDelta();
  const started = performance.now();
  await writes.streamText({ responseId, type: "AI", delta, offset });
  const ms = performance.now() - started;
  // The first delta opens the text (and checkpoints at once); later ones each CHECKPOINT_CHARS.
  sinceCheckpoint += DELTA_CHARS;
  if (offset === 0 || sinceCheckpoint >= CHECKPOINT_CHARS) {
    checkpoints.push({ textChars: offset + DELTA_CHARS, bytes: sent.bytes, ms });
    sinceCheckpoint = 0;
  }
}
const tablesGrowth = (await checkpointTablesBytes()) - tablesBefore;
const committed = await writes.commitText(responseId);
if (!committed) throw new Error("the streamed text was not committed");
writes.close();
await live.close();
await closeDatabase();

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
const first = checkpoints.slice(1, 11);
const last = checkpoints.slice(-10);
const r = (n: number) => Number(n.toFixed(2));
const figures: Figure[] = [
  {
    scenario: "checkpoint",
    metric: `bytes sent per checkpoint, first 10 (of ${checkpoints.length})`,
    value: Math.round(mean(first.map((c) => c.bytes))),
    unit: "B",
    note: `${DELTA_CHARS}-char deltas, every ${CHECKPOINT_CHARS} chars`,
  },
  {
    scenario: "checkpoint",
    metric: `bytes sent per checkpoint, last 10 (text ~${Math.round(ANSWER_CHARS / 1000)} KB)`,
    value: Math.round(mean(last.map((c) => c.bytes))),
    unit: "B",
    target: "≤ first 10 + 10%",
    met: mean(last.map((c) => c.bytes)) <= 1.1 * mean(first.map((c) => c.bytes)),
  },
  {
    scenario: "checkpoint",
    metric: "time of a checkpointing delta, median of first 10",
    value: r(
      percentile(
        first.map((c) => c.ms),
        50,
      ),
    ),
    unit: "ms",
  },
  {
    scenario: "checkpoint",
    metric: `time of a checkpointing delta, median of last 10 (text ~${Math.round(ANSWER_CHARS / 1000)} KB)`,
    value: r(
      percentile(
        last.map((c) => c.ms),
        50,
      ),
    ),
    note: "mostly the commit: noisy on a loaded machine",
    unit: "ms",
  },
  {
    scenario: "checkpoint",
    metric: `growth of the tables holding checkpoints, ${Math.round(ANSWER_CHARS / 1000)} KB answer`,
    value: Math.round(tablesGrowth / 1024),
    unit: "KiB",
  },
  {
    scenario: "checkpoint",
    metric: `bytes sent by all ${checkpoints.length} checkpoints`,
    value: checkpoints.reduce((a, c) => a + c.bytes, 0),
    unit: "B",
  },
];
emit(figures);
process.exit(0);
