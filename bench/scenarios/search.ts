// Search: full-text search over 1,000,000 events (10,000 dialogs of 100 events; 200,000 on PGlite;
// smoke: 20,000),
// timed over HTTP from a client in another process, first page of 20 hits with snippets. The
// data is made by bulk INSERT … SELECT generate_series, the search index rebuilt after it.
//
// Words of known frequency are planted in the text: `r<n>` in 20 events each (a rare word, like
// an error code or a file name), `m<n>` in 1,000, `c<n>` in 15,000 (a common word: in the text of three events of four, never in arguments). The target is
// judged on what people look a conversation up by — rare and medium words, and two words together
// — and the common word is reported beside it: ranking every one of its matches costs more.
import { readFileSync } from "node:fs";
import path from "node:path";
import { database } from "../lib/store.js";
import { emit, smoke } from "../lib/report.js";
import { startInProcessServer } from "../lib/server.js";
import { summarize } from "../lib/stats.js";
import { runLoads } from "../lib/timed-query.js";

// Embedded PGlite (PostgreSQL in WASM, one process) builds a million-event index for many minutes;
// it is measured at a fifth of the size, and the target is judged on PostgreSQL.
const DIALOGS = smoke ? 200 : database.kind === "pglite" ? 2_000 : 10_000;
const PER_DIALOG = 100;
const EVENTS = DIALOGS * PER_DIALOG;
const ITERATIONS = smoke ? 5 : 30;
const here = path.dirname(new URL(import.meta.url).pathname);

const server = await startInProcessServer();

const migration = readFileSync(
  path.join(here, "../../prisma/migrations/20261122235500_event_search/migration.sql"),
  "utf8",
);
const seeded = Date.now();
await database.withSession(async (s) => {
  await s.runScript(`
    DROP INDEX "Event_search_idx";
    INSERT INTO "Dialog" (id, title, "updatedAt", "lastSeq")
      SELECT 'dlg_' || lpad(d::text, 8, '0'), 'Bench dialog ' || d, now(), ${PER_DIALOG} FROM generate_series(1, ${DIALOGS}) d;
    INSERT INTO "Response" (id, "dialogId", depth, model, status, "segmentId")
      SELECT 'resp_' || lpad(d::text, 8, '0'), 'dlg_' || lpad(d::text, 8, '0'), 0, 'bench-model', 'COMPLETED',
        'resp_' || lpad(d::text, 8, '0')
      FROM generate_series(1, ${DIALOGS}) d;
    INSERT INTO "Event" (id, "dialogId", "responseId", "segmentId", depth, seq, phase, type, content, "toolName", "callId", args)
      SELECT 'evt_' || lpad(i::text, 9, '0'),
        'dlg_' || lpad((i / ${PER_DIALOG} + 1)::text, 8, '0'),
        'resp_' || lpad((i / ${PER_DIALOG} + 1)::text, 8, '0'),
        'resp_' || lpad((i / ${PER_DIALOG} + 1)::text, 8, '0'), 0,
        i % ${PER_DIALOG} + 1,
        (CASE WHEN i % ${PER_DIALOG} = 0 THEN 'INPUT' ELSE 'OUTPUT' END)::"EventPhase",
        (CASE i % 4 WHEN 0 THEN 'HUMAN' WHEN 1 THEN 'AI' WHEN 2 THEN 'TOOL_CALL' ELSE 'TOOL_RESULT' END)::"HistoryEventType",
        CASE WHEN i % 4 = 2 THEN NULL ELSE
          'The run of step ' || i || ' read r' || (i % ${EVENTS / 20}) || ' then m' || (i % ${EVENTS / 1000}) ||
          ' and c' || (i % ${EVENTS / 20_000}) || ' before the weather report came back with numbers' END,
        CASE WHEN i % 4 IN (2, 3) THEN 'tool_' || (i % 7) END,
        CASE WHEN i % 4 IN (2, 3) THEN 'call_' || i END,
        CASE WHEN i % 4 = 2 THEN jsonb_build_object('path', 'src/r' || (i % ${EVENTS / 20}) || '.py', 'flag', 'm' || (i % ${EVENTS / 1000})) END
      FROM generate_series(0, ${EVENTS - 1}) i;
    UPDATE "Dialog" SET "headId" = 'resp_' || substr(id, 5);
  `);
  await s.runScript(migration);
  await s.runScript(`ANALYZE "Dialog"; ANALYZE "Response"; ANALYZE "Event";`);
});
const seedSeconds = (Date.now() - seeded) / 1000;

const QUERY = `query($q: String!) { search(query: $q, first: 20) { edges { node { dialogId responseId seq rank snippet } } } }`;
// Latencies as a client in another process sees them (bench/load/http-load.ts, as timeQuery uses).
async function time(q: string) {
  const [result] = await runLoads([{ url: server.url, query: QUERY, variables: { q }, iterations: ITERATIONS }]);
  return { ...summarize(result!.samples), samples: result!.samples };
}

// Different words each time would be fairer to caches, but one word per class keeps runs comparable.
const rare = await time(`r${Math.floor(EVENTS / 40) + 7}`);
const medium = await time(`m${Math.floor(EVENTS / 2000) + 3}`);
const pair = await time(`m${Math.floor(EVENTS / 2000) + 3} weather`);
const common = await time("c0");
const typical = summarize([...rare.samples, ...medium.samples, ...pair.samples]);
await server.close();

emit([
  {
    scenario: "search",
    metric: `search ${EVENTS.toLocaleString("en")} events, first 20 hits (rare, medium, two words) p50`,
    value: round(typical.p50),
    unit: "ms",
    target: "≤ 50 ms",
    met: database.kind === "pglite" ? undefined : typical.p50 <= 50,
    note: `rare (20 hits) ${round(rare.p50)} ms, medium (1,000) ${round(medium.p50)} ms, two words ${round(pair.p50)} ms; data made in ${round(seedSeconds, 1)} s`,
  },
  {
    scenario: "search",
    metric: `common word (${((EVENTS / (EVENTS / 20_000)) * 0.75).toLocaleString("en")} hits) p50`,
    value: round(common.p50),
    unit: "ms",
    note: "the newest 300 matches are ranked (RANKED_CANDIDATES)",
  },
]);

function round(n: number, digits = 2) {
  return Number(n.toFixed(digits));
}
