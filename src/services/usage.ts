// Reading usage: every figure comes from an aggregate kept at write time (src/store/usage.ts),
// never from the turns — a dialog's totals from its row, a branch's from the segment sums of its
// context (one row per segment), and reports from the daily ledger.
import { Prisma } from "../generated/prisma/client.js";
import { run, type SqlRunner } from "../store/sql.js";
import { segmentUsageColumns } from "../store/usage.js";
import { ValidationError } from "../errors.js";
import { segmentsOf } from "./context.js";

export interface UsageTotals {
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
  reasoningTokens: number;
  cost: number;
}

export const usageGroups = ["MODEL", "DAY", "KEY", "TENANT"] as const;
export type UsageGroup = (typeof usageGroups)[number];

export interface UsageQuery {
  tenantId: string;
  groupBy: readonly UsageGroup[];
  /** First and last UTC day included (YYYY-MM-DD); open when absent. */
  from?: string | null;
  to?: string | null;
  models?: readonly string[] | null;
  apiKeyIds?: readonly string[] | null;
}

export interface UsageRow extends UsageTotals {
  model: string | null;
  day: string | null;
  apiKeyId: string | null;
  tenantId: string | null;
  responses: number;
  unpricedTokens: number;
}

/** The usage of a branch: the context of `responseId`, from the segment sums at each of its segments' ends. */
export async function contextUsage(responseId: string, db: SqlRunner): Promise<UsageTotals> {
  const [row] = await run<UsageTotals>(
    Prisma.sql`${segmentsOf(responseId, segmentUsageColumns)}
      SELECT COALESCE(sum("inputTokensInSegment"), 0)::float8 AS "inputTokens",
        COALESCE(sum("outputTokensInSegment"), 0)::float8 AS "outputTokens",
        COALESCE(sum("cachedTokensInSegment"), 0)::float8 AS "cachedTokens",
        COALESCE(sum("reasoningTokensInSegment"), 0)::float8 AS "reasoningTokens",
        COALESCE(sum("costInSegment"), 0)::float8 AS cost
      FROM segments`,
    db,
  );
  return row!;
}

const groupColumns: Record<UsageGroup, { column: string; as: keyof UsageRow }> = {
  MODEL: { column: `NULLIF(model, '')`, as: "model" },
  DAY: { column: `to_char(day, 'YYYY-MM-DD')`, as: "day" },
  KEY: { column: `NULLIF("apiKeyId", '')`, as: "apiKeyId" },
  TENANT: { column: `"tenantId"`, as: "tenantId" },
};

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The ledger's rows of one tenant, summed per group (one row in all without `groupBy`), ordered by the groups. */
export async function usageReport(db: SqlRunner, query: UsageQuery): Promise<UsageRow[]> {
  for (const [field, value] of [
    ["from", query.from],
    ["to", query.to],
  ] as const) {
    if (value != null && (!DAY.test(value) || Number.isNaN(Date.parse(value)))) {
      throw ValidationError.at([field], "must be a day, YYYY-MM-DD");
    }
  }
  const groups = [...new Set(query.groupBy)];
  const where = [Prisma.sql`"tenantId" = ${query.tenantId}`];
  if (query.from) where.push(Prisma.sql`day >= ${query.from}::date`);
  if (query.to) where.push(Prisma.sql`day <= ${query.to}::date`);
  if (query.models?.length) where.push(Prisma.sql`model = ANY(${[...query.models]}::text[])`);
  if (query.apiKeyIds?.length) where.push(Prisma.sql`"apiKeyId" = ANY(${[...query.apiKeyIds]}::text[])`);
  const selected = groups.map((group) => `${groupColumns[group].column} AS "${groupColumns[group].as}"`);
  const grouping = groups.length ? Prisma.raw(`GROUP BY ${groups.map((_, i) => i + 1).join(", ")}`) : Prisma.empty;
  const ordering = groups.length ? Prisma.raw(`ORDER BY ${groups.map((_, i) => i + 1).join(", ")}`) : Prisma.empty;
  const rows = await run<UsageTotals & Partial<UsageRow>>(
    Prisma.sql`SELECT ${Prisma.raw(selected.map((column) => `${column}, `).join(""))}
        COALESCE(sum(responses), 0)::float8 AS responses,
        COALESCE(sum("inputTokens"), 0)::float8 AS "inputTokens", COALESCE(sum("outputTokens"), 0)::float8 AS "outputTokens",
        COALESCE(sum("cachedTokens"), 0)::float8 AS "cachedTokens",
        COALESCE(sum("reasoningTokens"), 0)::float8 AS "reasoningTokens", COALESCE(sum(cost), 0)::float8 AS cost,
        COALESCE(sum("unpricedTokens"), 0)::float8 AS "unpricedTokens"
      FROM "UsageDaily" WHERE ${Prisma.join(where, " AND ")} ${grouping} ${ordering}`,
    db,
  );
  return rows.map((row) => ({
    model: null,
    day: null,
    apiKeyId: null,
    tenantId: null,
    responses: 0,
    unpricedTokens: 0,
    ...row,
  }));
}

const csvColumns = [
  "tenant_id",
  "api_key_id",
  "model",
  "day",
  "responses",
  "input_tokens",
  "output_tokens",
  "cached_tokens",
  "reasoning_tokens",
  "cost",
  "unpriced_tokens",
] as const;

/** A report as CSV (RFC 4180), with a header line; empty cells for the groups not asked for. */
export function usageCsv(rows: UsageRow[]): string {
  const cell = (value: string | number | null) => {
    if (value == null) return "";
    const text = String(value);
    return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  };
  const lines = rows.map((row) =>
    [
      row.tenantId,
      row.apiKeyId,
      row.model,
      row.day,
      row.responses,
      row.inputTokens,
      row.outputTokens,
      row.cachedTokens,
      row.reasoningTokens,
      row.cost,
      row.unpricedTokens,
    ]
      .map(cell)
      .join(","),
  );
  return [csvColumns.join(","), ...lines].join("\r\n") + "\r\n";
}
