// Usage and cost: a dialog's totals, a branch's (a response's whole context), and reports from the
// daily ledger grouped by model, day, key or tenant (docs/usage.md). Every figure is an aggregate
// kept at write time; nothing here counts turns.
import {
  type UsageGroup,
  usageGroups,
  contextUsage,
  type UsageRow,
  type UsageTotals,
  usageReport,
} from "../services/usage.js";
import { builder } from "./builder.js";

const tokenFields = {
  inputTokens: "Input tokens, cached ones included.",
  outputTokens: "Output tokens, reasoning ones included.",
  cachedTokens: "Input tokens the provider read from its prompt cache.",
  reasoningTokens: "Output tokens spent on reasoning.",
} as const;

export const UsageTotalsRef = builder.objectRef<UsageTotals>("UsageTotals").implement({
  description: "Tokens and what they cost, priced when they were written (MODEL_PRICES; docs/usage.md).",
  fields: (t) => ({
    ...Object.fromEntries(
      Object.entries(tokenFields).map(([name, description]) => [
        name,
        t.field({ type: "SafeInt", description, resolve: (u) => u[name as keyof typeof tokenFields] }),
      ]),
    ),
    totalTokens: t.field({
      type: "SafeInt",
      description: "inputTokens + outputTokens.",
      resolve: (u) => u.inputTokens + u.outputTokens,
    }),
    cost: t.float({ description: "In the price book's currency (USD by default).", resolve: (u) => u.cost }),
  }),
});

builder.prismaObjectField("Dialog", "usage", (t) =>
  t.field({
    type: UsageTotalsRef,
    description:
      "What the dialog's responses used and cost. A deleted response takes its usage with it; clearDialog zeroes it.",
    select: { inputTokens: true, outputTokens: true, cachedTokens: true, reasoningTokens: true, cost: true },
    resolve: (dialog) => dialog,
  }),
);

builder.prismaObjectField("Response", "contextUsage", (t) =>
  t.field({
    type: UsageTotalsRef,
    description: "What the whole branch up to this response used and cost: its context's responses, itself included.",
    resolve: (response, _args, ctx) => contextUsage(response.id, ctx.store.database),
  }),
);

const UsageGroupEnum = builder.enumType("UsageGroup", {
  values: usageGroups,
  description: "What Query.usage groups its rows by.",
});

const UsageFilter = builder.inputType("UsageFilter", {
  fields: (t) => ({
    models: t.stringList({ description: "Only these models." }),
    apiKeyIds: t.idList({ description: "Only what these API keys spent." }),
  }),
});

const UsageRowRef = builder.objectRef<UsageRow>("UsageRow").implement({
  description: "One group of Query.usage; the fields it is not grouped by are null.",
  fields: (t) => ({
    model: t.exposeString("model", { nullable: true }),
    day: t.exposeString("day", { nullable: true, description: "UTC day, YYYY-MM-DD." }),
    apiKeyId: t.exposeID("apiKeyId", { nullable: true }),
    tenantId: t.exposeID("tenantId", { nullable: true }),
    responses: t.field({ type: "SafeInt", description: "Responses with usage.", resolve: (r) => r.responses }),
    usage: t.field({ type: UsageTotalsRef, resolve: (r) => r }),
    unpricedTokens: t.field({
      type: "SafeInt",
      description: "Tokens of models the price book did not list when they were written: counted at 0 in cost.",
      resolve: (r) => r.unpricedTokens,
    }),
  }),
});

const UsageReport = builder.objectRef<{ rows: UsageRow[]; currency: string }>("UsageReport").implement({
  fields: (t) => ({
    rows: t.field({ type: [UsageRowRef], resolve: (report) => report.rows }),
    total: t.field({
      type: UsageTotalsRef,
      description: "All the rows added up.",
      resolve: ({ rows }) =>
        rows.reduce(
          (sum, row) => ({
            inputTokens: sum.inputTokens + row.inputTokens,
            outputTokens: sum.outputTokens + row.outputTokens,
            cachedTokens: sum.cachedTokens + row.cachedTokens,
            reasoningTokens: sum.reasoningTokens + row.reasoningTokens,
            cost: sum.cost + row.cost,
          }),
          { inputTokens: 0, outputTokens: 0, cachedTokens: 0, reasoningTokens: 0, cost: 0 },
        ),
    }),
    currency: t.exposeString("currency"),
  }),
});

builder.queryField("usage", (t) =>
  t.field({
    type: UsageReport,
    description:
      "The caller's tenant's spend from the daily ledger, grouped (one row in all without groupBy). Kept when dialogs are deleted, cleared or swept: the tokens were spent.",
    args: {
      filter: t.arg({ type: UsageFilter }),
      groupBy: t.arg({ type: [UsageGroupEnum] }),
      from: t.arg({ type: "Date", description: "First UTC day included, YYYY-MM-DD." }),
      to: t.arg({ type: "Date", description: "Last UTC day included, YYYY-MM-DD." }),
    },
    // Reads the ledger with the caller's tenant in the query: no id names another tenant's rows.
    tenant: "caller",
    resolve: async (_root, args, ctx) => ({
      currency: ctx.store.prices.currency,
      rows: await usageReport(ctx.store.database, {
        tenantId: ctx.scope.tenantId,
        groupBy: (args.groupBy ?? []) as UsageGroup[],
        from: dayOf(args.from),
        to: dayOf(args.to),
        models: args.filter?.models,
        apiKeyIds: args.filter?.apiKeyIds?.map(String),
      }),
    }),
  }),
);

/** A Date scalar's value as the ledger's day (YYYY-MM-DD, UTC). */
const dayOf = (date: Date | null | undefined) => (date ? date.toISOString().slice(0, 10) : null);
