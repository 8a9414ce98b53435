// Usage aggregates, kept by the write primitive in the same statement or transaction as the token
// counts they add up (docs/usage.md):
// - each response's `cost`, priced from the store's price book when its usage is written;
// - its segment's running sums (`inputTokensInSegment` …, like the event counts of "Context
//   addressing"), so a branch's usage is one row per segment of its context;
// - the dialog's totals (`Dialog.inputTokens` …), which follow its responses: a deleted response
//   takes its usage with it, a clear zeroes them;
// - the ledger "UsageDaily" per tenant, API key, model and UTC day, which follows what was spent:
//   deletes, clears and the retention sweep leave it alone, and fork copies add nothing to it.
import { Prisma } from "../generated/prisma/client.js";
import { metrics } from "../metrics.js";
import type { PriceBook, TokenCounts } from "../usage/prices.js";
import { run, type SqlRunner } from "./sql.js";

/** Token counts and cost, as the dialog totals and the ledger add them up. */
export interface UsageSums {
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
  reasoningTokens: number;
  cost: number;
}

export const usageKinds = ["inputTokens", "outputTokens", "cachedTokens", "reasoningTokens"] as const;

export const noUsage = (): UsageSums => ({
  inputTokens: 0,
  outputTokens: 0,
  cachedTokens: 0,
  reasoningTokens: 0,
  cost: 0,
});

export const isNoUsage = (sums: UsageSums) => usageKinds.every((kind) => sums[kind] === 0) && sums.cost === 0;

/** The sums of one response's usage, priced. */
export function pricedUsage(prices: PriceBook, model: string | null, usage: TokenCounts) {
  const { cost, unpricedTokens } = prices.costOf(model, usage);
  const sums: UsageSums = {
    inputTokens: usage.inputTokens ?? 0,
    outputTokens: usage.outputTokens ?? 0,
    cachedTokens: usage.cachedTokens ?? 0,
    reasoningTokens: usage.reasoningTokens ?? 0,
    cost,
  };
  return { sums, unpricedTokens };
}

export const addUsage = (a: UsageSums, b: UsageSums, sign = 1): UsageSums => ({
  inputTokens: a.inputTokens + sign * b.inputTokens,
  outputTokens: a.outputTokens + sign * b.outputTokens,
  cachedTokens: a.cachedTokens + sign * b.cachedTokens,
  reasoningTokens: a.reasoningTokens + sign * b.reasoningTokens,
  cost: a.cost + sign * b.cost,
});

/** The usage columns summed over a segment, in `usageKinds` order then cost. */
export const segmentUsageColumns = [...usageKinds.map((kind) => `${kind}InSegment`), "costInSegment"] as const;

/** Ledger shards per (tenant, key, model, day): writers to different dialogs rarely share a row. */
const LEDGER_SHARDS = 16;

/** The ledger shard of a dialog: writes to one dialog queue on its row lock anyway. */
export function ledgerShard(dialogId: string) {
  let hash = 0;
  for (let i = Math.max(0, dialogId.length - 8); i < dialogId.length; i++)
    hash = (hash * 31 + dialogId.charCodeAt(i)) | 0;
  return Math.abs(hash) % LEDGER_SHARDS;
}

/** The UTC day a write is charged to. */
export const ledgerDay = (now: Date) => now.toISOString().slice(0, 10);

export interface LedgerEntry {
  tenantId: string;
  apiKeyId: string | null;
  model: string | null;
  /** +1 for a response whose usage is written first, 0 for a change of it. */
  responses: number;
  sums: UsageSums;
  unpricedTokens: number;
}

const ledgerColumns = Prisma.raw(
  `"tenantId", "apiKeyId", model, day, shard, responses, "inputTokens", "outputTokens", "cachedTokens", "reasoningTokens", cost, "unpricedTokens"`,
);

/** ON CONFLICT clause adding a new ledger row's values to the existing one. */
export const ledgerUpsert = Prisma.raw(
  `ON CONFLICT ("tenantId", day, model, "apiKeyId", shard) DO UPDATE SET ` +
    ["responses", ...usageKinds, "cost", "unpricedTokens"]
      .map((column) => `"${column}" = "UsageDaily"."${column}" + EXCLUDED."${column}"`)
      .join(", "),
);

/** A ledger row's values besides its tenant: `entry` charged for a write to `dialogId` at `now`. */
export function ledgerRow(entry: Omit<LedgerEntry, "tenantId">, dialogId: string, now: Date) {
  return {
    apiKeyId: entry.apiKeyId ?? "",
    model: entry.model ?? "",
    day: ledgerDay(now),
    shard: ledgerShard(dialogId),
    responses: entry.responses,
    sums: entry.sums,
    unpricedTokens: entry.unpricedTokens,
  };
}

type LedgerRow = ReturnType<typeof ledgerRow>;

/** `INSERT … SELECT` head of a ledger row (its values, or their stand-ins); the caller adds the values' source. */
export function ledgerValues(
  row: { [K in keyof LedgerRow]: K extends "sums" ? Record<keyof UsageSums, unknown> : unknown },
  tenant: Prisma.Sql,
) {
  const { sums } = row;
  return Prisma.sql`INSERT INTO "UsageDaily" (${ledgerColumns})
    SELECT ${tenant}, ${row.apiKeyId}, ${row.model}, ${row.day}::date, ${row.shard}::smallint,
      ${row.responses}::int, ${sums.inputTokens}::bigint, ${sums.outputTokens}::bigint, ${sums.cachedTokens}::bigint,
      ${sums.reasoningTokens}::bigint, ${sums.cost}::float8, ${row.unpricedTokens}::bigint`;
}

/** The statement adding `entry` to the ledger; null when it adds nothing. */
export function ledgerStatement(entry: LedgerEntry, dialogId: string, now: Date): Prisma.Sql | null {
  if (isNoUsage(entry.sums) && !entry.responses) return null;
  return Prisma.sql`${ledgerValues(ledgerRow(entry, dialogId, now), Prisma.sql`${entry.tenantId}`)} ${ledgerUpsert}`;
}

/** Adds `entries` to the ledger (inside a write's transaction, or alone for a turn that stores no history). */
export async function addToLedger(session: SqlRunner, entries: LedgerEntry[], dialogId: string, now: Date) {
  for (const entry of entries) {
    const statement = ledgerStatement(entry, dialogId, now);
    if (statement) await run(statement, session);
  }
}

/** `SET` items adding `sums` to a dialog row's totals (or setting them, after a clear). */
export function dialogUsageSets(sums: Record<keyof UsageSums, unknown>, reset: boolean) {
  return Prisma.join(
    [...usageKinds, "cost" as const].map((column) => {
      const cast = Prisma.raw(column === "cost" ? "float8" : "int");
      const name = Prisma.raw(`"${column}"`);
      // Qualified: the statement may join a table with columns of the same names.
      const current = Prisma.raw(`"Dialog"."${column}"`);
      return reset
        ? Prisma.sql`${name} = ${sums[column]}::${cast}`
        : Prisma.sql`${name} = ${current} + ${sums[column]}::${cast}`;
    }),
  );
}

/** Charges the ledger for a turn that stores no history (`store: false`): it was spent all the same. */
export const chargeUnstoredTurn = (
  store: { database: SqlRunner; prices: PriceBook },
  turn: { id: string; tenantId: string; apiKeyId: string | null; model: string | null; usage: TokenCounts },
  now = new Date(),
) => chargeModelCall(store, { ...turn, responses: 1 }, now);

/**
 * Charges the ledger for model calls no stored response carries (an unstored turn, a dialog's
 * title); `id` picks the ledger shard (the dialog or response it was for).
 */
export async function chargeModelCall(
  store: { database: SqlRunner; prices: PriceBook },
  call: {
    id: string;
    tenantId: string;
    apiKeyId: string | null;
    model: string | null;
    usage: TokenCounts;
    responses: number;
  },
  now = new Date(),
) {
  const priced = pricedUsage(store.prices, call.model, call.usage);
  const entry = {
    tenantId: call.tenantId,
    apiKeyId: call.apiKeyId,
    model: call.model,
    responses: call.responses,
    ...priced,
  };
  if (isNoUsage(priced.sums)) return;
  await addToLedger(store.database, [entry], call.id, now);
  countCharges(store.prices, [entry]);
}

/** Counts committed charges in /metrics (after the commit: a rolled-back write spent nothing here). */
export function countCharges(prices: PriceBook, entries: readonly Omit<LedgerEntry, "tenantId" | "apiKeyId">[]) {
  for (const { model, sums } of entries) {
    const label = prices.entryOf(model) ?? "unlisted";
    const kinds = {
      input: sums.inputTokens,
      output: sums.outputTokens,
      cached: sums.cachedTokens,
      reasoning: sums.reasoningTokens,
    };
    for (const [kind, tokens] of Object.entries(kinds))
      if (tokens > 0) metrics.usageTokens.inc({ model: label, kind }, tokens);
    if (sums.cost > 0) metrics.usageCost.inc({ model: label }, sums.cost);
  }
}

/**
 * Folds the ledger's shards of every day before `today` (UTC) into shard 0. A day's rows change
 * only on that day (a write is charged to the day it is made), so once it is over its shards are
 * no longer needed against contention, and reports read one row per tenant, key, model and day
 * instead of up to sixteen. One statement: the sums are unchanged at every moment.
 */
export async function compactLedger(database: SqlRunner, today = new Date()) {
  const columns = ["responses", ...usageKinds, "cost", "unpricedTokens"].map((column) => `"${column}"`).join(", ");
  const sums = ["responses", ...usageKinds, "cost", "unpricedTokens"].map((column) => `sum("${column}")`).join(", ");
  const [row] = await run<{ folded: number }>(
    Prisma.sql`WITH gone AS (
        DELETE FROM "UsageDaily" WHERE day < ${ledgerDay(today)}::date AND shard <> 0 RETURNING *),
      kept AS (
        INSERT INTO "UsageDaily" ("tenantId", "apiKeyId", model, day, shard, ${Prisma.raw(columns)})
        SELECT "tenantId", "apiKeyId", model, day, 0, ${Prisma.raw(sums)} FROM gone GROUP BY 1, 2, 3, 4
        ${ledgerUpsert} RETURNING 1)
      SELECT (SELECT count(*) FROM gone)::int AS folded`,
    database,
  );
  return row?.folded ?? 0;
}
