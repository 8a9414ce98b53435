// Budgets per API key and per tenant (docs/usage.md): listed by the tenant's callers, set and
// removed with an admin key of the tenant (or in development mode, which has no keys). A tenant's
// own budget and its keys' are the only ones it can name: any other subject is not found.
import { BudgetPeriod, BudgetScope, BudgetUnit } from "../generated/prisma/enums.js";
import { BudgetExceededError, ForbiddenError, NotFoundError, ValidationError } from "../errors.js";
import { budgetSpend, listBudgets, removeBudget, setBudget } from "../services/budgets.js";
import { builder } from "./builder.js";
import { ErrorInterface } from "./errors.js";
import type { Context } from "./context.js";

const BudgetScopeEnum = builder.enumType(BudgetScope, { name: "BudgetScope" });
const BudgetUnitEnum = builder.enumType(BudgetUnit, {
  name: "BudgetUnit",
  description: "TOKENS: input + output tokens; COST: money in the price book's currency.",
});
const BudgetPeriodEnum = builder.enumType(BudgetPeriod, { name: "BudgetPeriod", description: "A UTC day or month." });

builder.objectType(BudgetExceededError, {
  name: "BudgetExceededError",
  description: "The caller's API key or tenant has spent its budget for the period: nothing was generated.",
  interfaces: [ErrorInterface],
  isTypeOf: (value) => value instanceof BudgetExceededError,
  fields: (t) => ({
    scope: t.field({ type: BudgetScopeEnum, resolve: (error) => error.scope }),
    unit: t.field({ type: BudgetUnitEnum, resolve: (error) => error.unit }),
    period: t.field({ type: BudgetPeriodEnum, resolve: (error) => error.period }),
    amount: t.exposeFloat("amount"),
    spent: t.exposeFloat("spent"),
  }),
});

builder.objectType(ForbiddenError, {
  name: "ForbiddenError",
  interfaces: [ErrorInterface],
  isTypeOf: (value) => value instanceof ForbiddenError,
});

const Budget = builder.prismaObject("Budget", {
  fields: (t) => ({
    id: t.exposeID("id"),
    scope: t.expose("scope", { type: BudgetScopeEnum }),
    subject: t.exposeString("subject", { description: "The API key's id (KEY) or the tenant's (TENANT)." }),
    unit: t.expose("unit", { type: BudgetUnitEnum }),
    period: t.expose("period", { type: BudgetPeriodEnum }),
    amount: t.exposeFloat("amount"),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
  }),
});

builder.queryField("budgets", (t) =>
  t.prismaField({
    type: [Budget],
    description: "The budgets of the caller's tenant and of its API keys.",
    tenant: "caller",
    resolve: (_query, _root, _args, ctx) => listBudgets(ctx.store, ctx.scope.tenantId),
  }),
);

const SetBudgetInput = builder.inputType("SetBudgetInput", {
  fields: (t) => ({
    scope: t.field({ type: BudgetScopeEnum, required: true }),
    subject: t.string({
      description: "An API key of the caller's tenant (KEY); the caller's tenant (TENANT, the default).",
    }),
    unit: t.field({ type: BudgetUnitEnum, required: true }),
    period: t.field({ type: BudgetPeriodEnum, required: true }),
    amount: t.float({ required: true }),
  }),
});

const BudgetSpendRef = builder
  .objectRef<{ scope: BudgetScope; unit: BudgetUnit; period: BudgetPeriod; amount: number; spent: number }>(
    "BudgetSpend",
  )
  .implement({
    description: "A budget that applies to the caller, with what was spent against it this period.",
    fields: (t) => ({
      scope: t.field({ type: BudgetScopeEnum, resolve: (b) => b.scope }),
      unit: t.field({ type: BudgetUnitEnum, resolve: (b) => b.unit }),
      period: t.field({ type: BudgetPeriodEnum, resolve: (b) => b.period }),
      amount: t.exposeFloat("amount"),
      spent: t.exposeFloat("spent"),
    }),
  });

builder.queryField("budgetSpend", (t) =>
  t.field({
    type: [BudgetSpendRef],
    description: "The budgets the caller's key and tenant are held to, and this period's spend against each.",
    tenant: "caller",
    resolve: (_root, _args, ctx) => budgetSpend(ctx.store, { tenantId: ctx.scope.tenantId, keyId: ctx.viewer.keyId }),
  }),
);

async function checkAdminOf(ctx: Context, scope: BudgetScope, subject: string) {
  if (!ctx.viewer.admin)
    throw new ForbiddenError("Budgets are managed with an admin key (npm run keys -- create --admin)");
  if (scope === "TENANT" && subject !== ctx.scope.tenantId) throw new NotFoundError(`Tenant ${subject} not found`);
  if (scope === "KEY") {
    const key = await ctx.store.prisma.apiKey.findFirst({ where: { id: subject, tenantId: ctx.scope.tenantId } });
    if (!key) throw new NotFoundError(`API key ${subject} not found`);
  }
}

builder.mutationField("setBudget", (t) =>
  t.prismaField({
    type: Budget,
    errors: { types: [ValidationError, NotFoundError, ForbiddenError] },
    description: "Set the budget of the caller's tenant or of one of its keys for a unit and period (replacing it).",
    args: { input: t.arg({ type: SetBudgetInput, required: true }) },
    // The subject is checked against the caller's tenant in the resolver (its own tenant, or its own key).
    tenant: "caller",
    resolve: async (_query, _root, { input }, ctx) => {
      const subject = input.subject ?? ctx.scope.tenantId;
      await checkAdminOf(ctx, input.scope, subject);
      return setBudget(ctx.store, { ...input, subject }, ctx.scope.tenantId);
    },
  }),
);

builder.mutationField("removeBudget", (t) =>
  t.prismaField({
    type: Budget,
    description: "Remove a budget of the caller's tenant; answers the budget as it was.",
    errors: { types: [NotFoundError, ForbiddenError] },
    args: { id: t.arg.id({ required: true }) },
    // Deletes only a budget of the caller's tenant: another tenant's id is not found.
    tenant: "caller",
    resolve: async (_query, _root, { id }, ctx) => {
      if (!ctx.viewer.admin) throw new ForbiddenError("Budgets are managed with an admin key");
      const removed = await removeBudget(ctx.store, String(id), ctx.scope.tenantId);
      if (!removed) throw new NotFoundError(`Budget ${id} not found`);
      return removed;
    },
  }),
);
