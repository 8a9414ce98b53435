// `npm run keys -- budget …` (src/auth/keys-cli.ts): budgets per API key or tenant (docs/usage.md).
//
//   budget set (--key <key id> | --tenant <tenant>) (--tokens <n> | --cost <amount>) --per day|month
//   budget list [--tenant <tenant>]
//   budget remove <budget id>
import type { BudgetPeriod } from "../generated/prisma/enums.js";
import { listBudgets, setBudget } from "../services/budgets.js";
import type { Store } from "../store/store.js";

export const budgetUsage = `       npm run keys -- budget set (--key <key id> | --tenant <tenant>) (--tokens <n> | --cost <amount>) --per day|month
       npm run keys -- budget list [--tenant <tenant>]
       npm run keys -- budget remove <budget id>`;

export interface BudgetArgs {
  key?: string;
  tenant?: string;
  tokens?: string;
  cost?: string;
  per?: string;
}

/** Runs one budget command; returns an error message, or null when it succeeded. */
export async function runBudgetCommand(
  store: Store,
  command: string | undefined,
  target: string | undefined,
  args: BudgetArgs,
) {
  switch (command) {
    case "set": {
      if (Boolean(args.key) === Boolean(args.tenant)) return "budget set needs --key <key id> or --tenant <tenant>";
      if (Boolean(args.tokens) === Boolean(args.cost)) return "budget set needs --tokens <n> or --cost <amount>";
      const period = args.per?.toUpperCase();
      if (period !== "DAY" && period !== "MONTH") return "budget set needs --per day or --per month";
      const amount = Number(args.tokens ?? args.cost);
      if (!Number.isFinite(amount) || amount < 0) return `not an amount: ${args.tokens ?? args.cost}`;
      let tenantId = args.tenant;
      if (args.key) {
        const key = await store.prisma.apiKey.findUnique({ where: { id: args.key } });
        if (!key) return `no API key ${args.key}`;
        tenantId = key.tenantId;
      }
      const budget = await setBudget(
        store,
        {
          scope: args.key ? "KEY" : "TENANT",
          subject: (args.key ?? args.tenant)!,
          unit: args.tokens ? "TOKENS" : "COST",
          period: period as BudgetPeriod,
          amount,
        },
        tenantId!,
      );
      console.log(`Set ${budget.id}: ${describe(budget)}.`);
      return null;
    }
    case "list": {
      const budgets = await listBudgets(store, args.tenant);
      if (!budgets.length) console.log("No budgets.");
      for (const budget of budgets) console.log(`${budget.id}  ${budget.tenantId}  ${describe(budget)}`);
      return null;
    }
    case "remove": {
      if (!target) return "budget remove needs a budget id";
      const { count } = await store.prisma.budget.deleteMany({ where: { id: target } });
      if (!count) return `no budget ${target}`;
      console.log(`Removed ${target}.`);
      return null;
    }
    default:
      return command ? `unknown budget command ${command}` : "budget needs set, list or remove";
  }
}

function describe(budget: { scope: string; subject: string; unit: string; period: string; amount: number }) {
  const what = budget.unit === "TOKENS" ? `${budget.amount} tokens` : `${budget.amount} (cost)`;
  return `${budget.scope === "KEY" ? "key" : "tenant"} ${budget.subject}: ${what} per ${budget.period.toLowerCase()}`;
}
