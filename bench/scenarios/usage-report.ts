// Usage report: `usage(groupBy: [MODEL, DAY])` for one tenant whose ledger holds 1,000,000 turns,
// timed over HTTP from a client in another process. The ledger rows are seeded directly (sending a
// million turns through the API would take longer than the whole bench): 1,000,000 responses
// spread over 90 days, 8 models and 20 API keys, each (key, model, day) on all 16 shards, as
// concurrent writers to many dialogs leave it — 230,400 rows, plus another tenant of the same size
// that the query must not read. The server folds the shards of days that are over into one row
// each (compactLedger, every 15 minutes), so the 89 past days are folded as it would have, and
// today keeps its 16 shards: 25,120 rows per tenant.
import { database } from "../lib/store.js";
import { compactLedger } from "../../src/store/usage.js";
import { emit, smoke } from "../lib/report.js";
import { startInProcessServer } from "../lib/server.js";
import { summarize } from "../lib/stats.js";
import { runLoads } from "../lib/timed-query.js";

const TURNS = 1_000_000;
const DAYS = smoke ? 10 : 90;
const MODELS = 8;
const KEYS = 20;
const SHARDS = 16;
const ROWS = DAYS * MODELS * KEYS * SHARDS;
const ITERATIONS = smoke ? 5 : 40;

const server = await startInProcessServer();
const seeded = Date.now();
await database.withSession(async (s) => {
  // Each row holds an equal part of the turns (the remainder on the first rows), with made-up tokens.
  await s.runScript(`
    INSERT INTO "UsageDaily" ("tenantId", "apiKeyId", model, day, shard, responses, "inputTokens", "outputTokens",
      "cachedTokens", "reasoningTokens", cost, "unpricedTokens")
    SELECT t.tenant, 'key_' || k, 'model-' || m, current_date - d, sh,
      ${Math.floor(TURNS / ROWS)} + CASE WHEN n < ${TURNS % ROWS} THEN 1 ELSE 0 END,
      1000 * (m + 1), 100 * (k + 1), 10 * d, 5 * sh, 0.001 * (m + 1), 0
    FROM (VALUES ('default'), ('other-tenant')) t(tenant),
      LATERAL (
        SELECT d, m, k, sh, row_number() OVER () - 1 AS n
        FROM generate_series(0, ${DAYS - 1}) d, generate_series(0, ${MODELS - 1}) m,
          generate_series(0, ${KEYS - 1}) k, generate_series(0, ${SHARDS - 1}) sh
      ) g;
    ANALYZE "UsageDaily";
  `);
});
await compactLedger(database);
await database.query(`ANALYZE "UsageDaily"`);
const seedSeconds = (Date.now() - seeded) / 1000;
const [{ rows: ledgerRows }] = (await database.query<{ rows: number }>(
  `SELECT count(*)::int AS rows FROM "UsageDaily" WHERE "tenantId" = 'default'`,
)) as [{ rows: number }];
const [check] = await database.query<{ turns: number }>(
  `SELECT sum(responses)::int AS turns FROM "UsageDaily" WHERE "tenantId" = 'default'`,
);
if (check!.turns !== TURNS) throw new Error(`seeded ${check!.turns} turns, not ${TURNS}`);

const QUERY = `{ usage(groupBy: [MODEL, DAY]) { rows { model day responses usage { totalTokens cost } } total { cost } } }`;
const [result] = await runLoads([{ url: server.url, query: QUERY, variables: {}, iterations: ITERATIONS }]);
const figures = summarize(result!.samples);
await server.close();

emit([
  {
    scenario: "usage-report",
    metric: `usage(groupBy: [MODEL, DAY]) over ${TURNS.toLocaleString("en")} turns (${ledgerRows.toLocaleString("en")} ledger rows after compaction) p50`,
    value: round(figures.p50),
    unit: "ms",
    target: "≤ 50 ms",
    met: figures.p50 <= 50,
    note: `p99 ${round(figures.p99)} ms; ${DAYS * MODELS} rows answered; ${ROWS.toLocaleString("en")} ledger rows seeded directly and compacted in ${round(seedSeconds, 1)} s`,
  },
]);

function round(n: number, digits = 2) {
  return Number(n.toFixed(digits));
}
