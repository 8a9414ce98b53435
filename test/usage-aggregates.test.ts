// Usage aggregates are kept at write time (src/store/usage.ts); whatever path wrote the turns —
// one-statement turns, checked turns, completions, continued in-progress responses, imports,
// forks, concurrent writers — they equal a scan of the turns: a dialog's totals the sum of its
// responses, a branch's the sum of its chain, the ledger the sum of every turn written. Deletes,
// clears and retention take a dialog's totals with its turns and leave the ledger as it was.
import { describe, expect, it } from "vitest";
import { DEVELOPMENT_TENANT } from "../src/auth/authenticator.js";
import { clearDialog, deleteDialog } from "../src/services/dialogs.js";
import { forkDialog } from "../src/services/fork.js";
import { importMessages } from "../src/services/import-messages.js";
import { appendEvents, completeResponse } from "../src/services/response-lifecycle.js";
import { createResponse } from "../src/services/responses.js";
import { sweepExpired } from "../src/services/retention.js";
import { contextUsage, usageReport } from "../src/services/usage.js";
import { deleteResponse } from "../src/services/delete-response.js";
import { compactLedger } from "../src/store/usage.js";
import { database, storeWith } from "./support/database.js";

const HOUR = 3_600_000;
const store = storeWith({ retentionMs: HOUR });
const KEY = "key_usage_test";
type Sums = { inputTokens: number; outputTokens: number; cachedTokens: number; reasoningTokens: number; cost: number };

const sumsOf = (table: string) => `COALESCE(sum(COALESCE(${table}."inputTokens", 0)), 0)::float8 AS "inputTokens",
  COALESCE(sum(COALESCE(${table}."outputTokens", 0)), 0)::float8 AS "outputTokens",
  COALESCE(sum(COALESCE(${table}."cachedTokens", 0)), 0)::float8 AS "cachedTokens",
  COALESCE(sum(COALESCE(${table}."reasoningTokens", 0)), 0)::float8 AS "reasoningTokens",
  COALESCE(sum(${table}.cost), 0)::float8 AS cost`;

function expectSums(actual: Sums, expected: Sums, what: string) {
  for (const key of ["inputTokens", "outputTokens", "cachedTokens", "reasoningTokens"] as const) {
    expect(actual[key], `${what}: ${key}`).toBe(expected[key]);
  }
  expect(actual.cost, `${what}: cost`).toBeCloseTo(expected.cost, 9);
}

/** Every dialog's totals against a scan of its responses, and every response's context usage against a walk of its chain. */
async function expectTotalsTrue() {
  const dialogs = await database.query<Sums & { id: string; scanned: Sums }>(
    `SELECT d.id, d."inputTokens", d."outputTokens", d."cachedTokens", d."reasoningTokens", d.cost,
       (SELECT to_jsonb(s) FROM (SELECT ${sumsOf("r")} FROM "Response" r WHERE r."dialogId" = d.id) s) AS scanned
     FROM "Dialog" d`,
  );
  for (const dialog of dialogs) expectSums(dialog, dialog.scanned, `dialog ${dialog.id}`);
  const responses = await database.query<{ id: string }>(`SELECT id FROM "Response"`);
  for (const { id } of responses) {
    const [walked] = await database.query<Sums>(
      `WITH RECURSIVE chain AS (SELECT * FROM "Response" WHERE id = $1
         UNION ALL SELECT r.* FROM "Response" r JOIN chain c ON r.id = c."previousResponseId")
       SELECT ${sumsOf("chain")} FROM chain`,
      [id],
    );
    expectSums(await contextUsage(id, database), walked!, `context of ${id}`);
  }
}

/** The ledger per model and key, against the turns written (fork copies are not new spend). */
async function ledger() {
  return database.query<Sums & { model: string; apiKeyId: string; responses: number }>(
    `SELECT model, "apiKeyId", sum(responses)::int AS responses, sum("inputTokens")::float8 AS "inputTokens",
       sum("outputTokens")::float8 AS "outputTokens", sum("cachedTokens")::float8 AS "cachedTokens",
       sum("reasoningTokens")::float8 AS "reasoningTokens", sum(cost)::float8 AS cost
     FROM "UsageDaily" GROUP BY 1, 2 ORDER BY 1, 2`,
  );
}

async function expectLedgerEqualsTurns() {
  const scanned = await database.query<Sums & { model: string; apiKeyId: string; responses: number }>(
    `SELECT COALESCE(r.model, '') AS model, COALESCE(r."apiKeyId", '') AS "apiKeyId", count(*)::int AS responses, ${sumsOf("r")}
     FROM "Response" r JOIN "Dialog" d ON d.id = r."dialogId"
     WHERE d."forkedFromId" IS NULL
       AND (r."inputTokens" IS NOT NULL OR r."outputTokens" IS NOT NULL OR r."cachedTokens" IS NOT NULL OR r."reasoningTokens" IS NOT NULL)
     GROUP BY 1, 2 ORDER BY 1, 2`,
  );
  const kept = await ledger();
  expect(kept.map((row) => [row.model, row.apiKeyId, row.responses])).toEqual(
    scanned.map((row) => [row.model, row.apiKeyId, row.responses]),
  );
  kept.forEach((row, i) => expectSums(row, scanned[i]!, `ledger ${row.model}/${row.apiKeyId}`));
}

const turn = (dialogId: string | null, previousResponseId: string | null, model: string, tokens: number[]) => ({
  dialogId,
  previousResponseId,
  model,
  input: [{ human: { content: `ask ${tokens.join(" ")}` } }],
  output: [{ ai: { content: "answer" } }],
  usage: {
    inputTokens: tokens[0],
    outputTokens: tokens[1],
    cachedTokens: tokens[2] ?? null,
    reasoningTokens: tokens[3] ?? null,
  },
});

describe("usage aggregates", () => {
  it("price a turn from the price book when it is written, and flag a model it does not list", async () => {
    const priced = await createResponse(
      store,
      turn(null, null, "gpt-4o-2024-08-06", [1000, 500, 200, 0]),
      DEVELOPMENT_TENANT,
      KEY,
    );
    // (800 × 2.50 + 200 × 1.25 + 500 × 10) / 1,000,000
    expect(priced.written!.response.cost).toBeCloseTo(0.00725, 12);
    expect(priced.written!.dialog.cost).toBeCloseTo(0.00725, 12);
    const unknown = await createResponse(store, turn(null, null, "mystery-model", [40, 2]), DEVELOPMENT_TENANT, KEY);
    expect(unknown.written!.response.cost).toBe(0);
    const [row] = await usageReport(database, {
      tenantId: DEVELOPMENT_TENANT,
      groupBy: ["MODEL"],
      models: ["mystery-model"],
    });
    expect(row).toMatchObject({
      model: "mystery-model",
      inputTokens: 40,
      outputTokens: 2,
      cost: 0,
      unpricedTokens: 42,
    });
    await expectTotalsTrue();
    await expectLedgerEqualsTurns();
  });

  it("equal the turns after chained, branched, checked, completed, continued, imported and forked writes", async () => {
    const root = await createResponse(
      store,
      turn(null, null, "gpt-4o-mini", [100, 20, 10, 0]),
      DEVELOPMENT_TENANT,
      KEY,
    );
    const second = await createResponse(
      store,
      turn(null, root.responseId, "gpt-4.1", [300, 40, 0, 5]),
      DEVELOPMENT_TENANT,
      KEY,
    );
    // A branch from the root, and a turn whose tool result is checked under the lock (the transactional path).
    const branch = await createResponse(store, turn(null, root.responseId, "o3", [150, 60, 0, 30]), DEVELOPMENT_TENANT);
    const call = await createResponse(
      store,
      {
        previousResponseId: second.responseId,
        model: "claude-sonnet-4-5",
        input: [{ human: { content: "read it" } }],
        output: [{ toolCall: { callId: "c1", toolName: "read", args: {} } }],
        usage: { inputTokens: 500, outputTokens: 10 },
      },
      DEVELOPMENT_TENANT,
      KEY,
    );
    const checked = await createResponse(
      store,
      {
        previousResponseId: call.responseId,
        model: "claude-sonnet-4-5",
        input: [{ toolResult: { callId: "c1", content: "text" } }],
        output: [{ ai: { content: "done" } }],
        usage: { inputTokens: 520, outputTokens: 30, cachedTokens: 500 },
      },
      DEVELOPMENT_TENANT,
      KEY,
    );
    await expectTotalsTrue();
    await expectLedgerEqualsTurns();

    // An in-progress response continued before it finished, then completed with its usage: the
    // responses after it in its segment carry its usage in their sums.
    const open = await createResponse(
      store,
      { previousResponseId: checked.responseId, model: "gpt-4o", input: [{ human: { content: "go" } }] },
      DEVELOPMENT_TENANT,
      KEY,
    );
    const after = await createResponse(store, turn(null, open.responseId, "gpt-4o", [50, 5]), DEVELOPMENT_TENANT, KEY);
    await appendEvents(store, { responseId: open.responseId, events: [{ ai: { content: "late" } }] });
    await completeResponse(store, {
      responseId: open.responseId,
      status: "COMPLETED",
      usage: { inputTokens: 900, outputTokens: 70, cachedTokens: 100, reasoningTokens: 20 },
    });
    expectSums(
      await contextUsage(after.responseId, database),
      {
        inputTokens: 100 + 300 + 500 + 520 + 900 + 50,
        outputTokens: 20 + 40 + 10 + 30 + 70 + 5,
        cachedTokens: 10 + 500 + 100,
        reasoningTokens: 5 + 20,
        cost: (await contextUsage(after.responseId, database)).cost,
      },
      "context after the continued response",
    );
    await expectTotalsTrue();
    await expectLedgerEqualsTurns();

    // An import continues the branch (no usage of its own); a fork copies a context without charging it again.
    await importMessages(store, {
      previousResponseId: branch.responseId,
      format: "OPENAI_CHAT",
      messages: [
        { role: "user", content: "more" },
        { role: "assistant", content: "sure" },
      ],
      tenantId: DEVELOPMENT_TENANT,
    });
    const fork = await forkDialog(store, { responseId: after.responseId });
    await expectTotalsTrue();
    await expectLedgerEqualsTurns();
    const [forkRow] = await database.query<Sums>(`SELECT * FROM "Dialog" WHERE id = $1`, [fork.dialogId]);
    expect(forkRow!.inputTokens).toBe(100 + 300 + 500 + 520 + 900 + 50);
  });

  it("equal the turns after concurrent writers to the same and different dialogs", async () => {
    const dialogs = await Promise.all(
      [0, 1, 2].map((i) => createResponse(store, turn(null, null, "gpt-4o", [10 + i, 1]), DEVELOPMENT_TENANT, KEY)),
    );
    await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        createResponse(
          store,
          turn(dialogs[i % 3]!.dialogId, null, i % 2 ? "gpt-4o" : "o4-mini", [i + 1, i, i % 4, i % 3]),
          DEVELOPMENT_TENANT,
          i % 3 ? KEY : null,
        ),
      ),
    );
    await expectTotalsTrue();
    await expectLedgerEqualsTurns();
    // Once the day is over its shards are folded into one row per key and model: the sums stay.
    const shards = await database.query(`SELECT DISTINCT shard FROM "UsageDaily"`);
    expect(shards.length).toBeGreaterThan(1);
    expect(await compactLedger(database, new Date(Date.now() + 86_400_000))).toBeGreaterThan(0);
    expect(await database.query(`SELECT DISTINCT shard FROM "UsageDaily"`)).toEqual([{ shard: 0 }]);
    await expectLedgerEqualsTurns();
  });

  it("follow deletes, clears and the retention sweep for dialogs; the ledger keeps what was spent", async () => {
    const spent = await ledger();
    const a = await createResponse(store, turn(null, null, "gpt-4o", [70, 7]), DEVELOPMENT_TENANT, KEY);
    const leaf = await createResponse(store, turn(null, a.responseId, "gpt-4o", [30, 3]), DEVELOPMENT_TENANT, KEY);
    const withTurns = await ledger();
    await deleteResponse(store, leaf.responseId, a.dialogId);
    const [afterDelete] = await database.query<Sums>(`SELECT * FROM "Dialog" WHERE id = $1`, [a.dialogId]);
    expect([afterDelete!.inputTokens, afterDelete!.outputTokens]).toEqual([70, 7]);
    await expectTotalsTrue();

    const b = await createResponse(store, turn(null, null, "gpt-4o", [5, 5]), DEVELOPMENT_TENANT, KEY);
    await clearDialog(store, b.dialogId);
    const [cleared] = await database.query<Sums>(`SELECT * FROM "Dialog" WHERE id = $1`, [b.dialogId]);
    expect([cleared!.inputTokens, cleared!.cost]).toEqual([0, 0]);
    await createResponse(store, turn(b.dialogId, null, "gpt-4o", [9, 1]), DEVELOPMENT_TENANT, KEY);
    await expectTotalsTrue();

    await deleteDialog(store, a.dialogId);
    await sweepExpired(store, { now: new Date(Date.now() + 2 * HOUR) });
    expect(await database.query(`SELECT id FROM "Dialog"`)).toEqual([]);
    const gpt4o = (rows: Awaited<ReturnType<typeof ledger>>) =>
      rows.find((row) => row.model === "gpt-4o" && row.apiKeyId === KEY)!;
    const final = await ledger();
    expect(gpt4o(final).inputTokens).toBe(gpt4o(withTurns).inputTokens + 5 + 9);
    expect(gpt4o(final).inputTokens).toBe(gpt4o(spent).inputTokens + 70 + 30 + 5 + 9);
  });
});
