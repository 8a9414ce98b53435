// Budgets: a limit on what an API key or a tenant may spend per UTC day or month, in tokens (input
// plus output) or money. A call that would generate is checked before any model is called: once
// the period's spend, read from the daily ledger (src/store/usage.ts) in one statement, has reached
// a budget, the call is refused with a BudgetExceededError. A turn's cost is known only once the
// model has answered, so the turn that crosses a budget completes and the next one is refused.
import { Prisma } from "../generated/prisma/client.js";
import type { BudgetPeriod, BudgetScope, BudgetUnit } from "../generated/prisma/enums.js";
import { BudgetExceededError, ValidationError } from "../errors.js";
import { newBudgetId } from "../ids.js";
import { run } from "../store/sql.js";
import type { Store } from "../store/store.js";

export interface BudgetInput {
  scope: BudgetScope;
  /** The key's id (scope KEY) or the tenant's (scope TENANT). */
  subject: string;
  unit: BudgetUnit;
  period: BudgetPeriod;
  amount: number;
}

export interface Caller {
  tenantId: string;
  keyId: string | null;
}

/** Sets (or replaces) the budget of `input.subject` for that unit and period; `tenantId` owns it. */
export async function setBudget(store: Store, input: BudgetInput, tenantId: string) {
  if (!Number.isFinite(input.amount) || input.amount < 0) {
    throw ValidationError.at(["input", "amount"], "must be a non-negative number");
  }
  const { scope, subject, unit, period, amount } = input;
  return store.prisma.budget.upsert({
    where: { scope_subject_unit_period: { scope, subject, unit, period } },
    create: { id: newBudgetId(), tenantId, scope, subject, unit, period, amount },
    update: { amount },
  });
}

/** Removes a budget of `tenantId`'s and returns it; null when it has none by that id. */
export async function removeBudget(store: Store, id: string, tenantId: string) {
  const budget = await store.prisma.budget.findFirst({ where: { id, tenantId } });
  if (!budget) return null;
  await store.prisma.budget.deleteMany({ where: { id, tenantId } });
  return budget;
}

export function listBudgets(store: Store, tenantId?: string) {
  return store.prisma.budget.findMany({ where: tenantId ? { tenantId } : {}, orderBy: { createdAt: "asc" } });
}

interface BudgetSpend {
  scope: BudgetScope;
  unit: BudgetUnit;
  period: BudgetPeriod;
  amount: number;
  spent: number;
}

/** Each budget of the caller's key and tenant with what was spent against it this period. */
export async function budgetSpend(store: Store, caller: Caller, now = new Date()): Promise<BudgetSpend[]> {
  const today = now.toISOString().slice(0, 10);
  return run<BudgetSpend>(
    Prisma.sql`
    SELECT b.scope, b.unit, b.period, b.amount, (
      SELECT COALESCE(sum(CASE WHEN b.unit = 'TOKENS' THEN u."inputTokens" + u."outputTokens" ELSE 0 END), 0)::float8
        + COALESCE(sum(CASE WHEN b.unit = 'COST' THEN u.cost ELSE 0 END), 0)::float8
      FROM "UsageDaily" u
      WHERE u."tenantId" = ${caller.tenantId} AND (b.scope = 'TENANT' OR u."apiKeyId" = b.subject)
        AND u.day >= CASE WHEN b.period = 'DAY' THEN ${today}::date ELSE date_trunc('month', ${today}::date)::date END
        AND u.day <= ${today}::date
    ) AS spent
    FROM "Budget" b
    WHERE (b.scope = 'TENANT' AND b.subject = ${caller.tenantId})
      OR (b.scope = 'KEY' AND b.subject = ${caller.keyId ?? ""} AND b."tenantId" = ${caller.tenantId})`,
    store.database,
  );
}

/** Throws a BudgetExceededError when the caller's key or tenant has spent a budget of its for this period. */
export async function checkBudgets(store: Store, caller: Caller, now = new Date()) {
  for (const budget of await budgetSpend(store, caller, now)) {
    if (budget.spent >= budget.amount) {
      throw new BudgetExceededError(budget.scope, budget.unit, budget.period, budget.amount, budget.spent);
    }
  }
}
