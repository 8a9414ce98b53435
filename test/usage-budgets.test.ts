// Usage and budgets as a client sees them, over a real server whose model is the upstream
// stand-in: what a dialog, a branch and a key cost; reports and CSV for the caller's tenant only;
// a key or tenant that has spent its budget is refused before the upstream is called — 429
// insufficient_quota to the `openai` SDK, a typed BudgetExceededError in GraphQL — and /metrics
// counts tokens and cost by model.
import OpenAI from "openai";
import { beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "../src/auth/api-keys.js";
import { startGeneratingServer, type GeneratingServer } from "./support/generating-server.js";
import { asCaller, tenantKey } from "./support/tenants.js";

let g: GeneratingServer;
let adminA: string;
let otherKeyA: { key: string; id: string };
let keyB: string;
let adminB: string;
let keyIdA: string;
beforeAll(async () => {
  g = await startGeneratingServer({}, "tenant-a");
  adminA = (await createApiKey((await import("./support/database.js")).store, "tenant-a", "admin", true)).key;
  otherKeyA = await tenantKey("tenant-a");
  keyB = (await tenantKey("tenant-b")).key;
  adminB = (await createApiKey((await import("./support/database.js")).store, "tenant-b", "admin", true)).key;
  const answer = await asCaller(g.server, g.key)(`{ budgetSpend { scope } }`);
  expect(answer.status).toBe(200);
  keyIdA = (
    await (
      await import("./support/database.js")
    ).prisma.apiKey.findFirstOrThrow({
      where: { tenantId: "tenant-a", admin: false, id: { not: otherKeyA.id } },
    })
  ).id;
});

const answerText = async (client: OpenAI, input: string, previous?: string) =>
  client.responses.create({ model: "gpt-4o-mini", input, previous_response_id: previous });

const USAGE_FIELDS = "inputTokens outputTokens cachedTokens reasoningTokens totalTokens cost";

describe("usage", () => {
  it("answers what a dialog, a branch and a key cost, and only to the tenant that spent it", async () => {
    g.upstream.script(
      { output: [{ text: "one" }], usage: { input: 1000, output: 100 } },
      { output: [{ text: "two" }], usage: { input: 2000, output: 200 } },
      { output: [{ text: "three" }], usage: { input: 1500, output: 10 } },
    );
    const first = await answerText(g.openai, "hello");
    const second = await answerText(g.openai, "more", first.id);
    const branch = await answerText(g.openai, "other", first.id);
    const asA = asCaller(g.server, g.key);
    const read = await asA(
      `query($d: ID!, $r: ID!, $b: ID!) {
        dialog(id: $d) { usage { ${USAGE_FIELDS} } }
        second: response(id: $r) { contextUsage { ${USAGE_FIELDS} } }
        branch: response(id: $b) { contextUsage { inputTokens outputTokens } }
        usage(groupBy: [MODEL, KEY]) { rows { model apiKeyId responses usage { inputTokens outputTokens cost } } currency }
      }`,
      { d: first.conversation?.id ?? (await dialogOf(first.id)), r: second.id, b: branch.id },
    );
    expect(read.body.errors).toBeUndefined();
    const data = read.body.data as {
      dialog: { usage: Record<string, number> };
      second: { contextUsage: Record<string, number> };
      branch: { contextUsage: Record<string, number> };
      usage: {
        rows: { model: string; apiKeyId: string; responses: number; usage: Record<string, number> }[];
        currency: string;
      };
    };
    const price = (input: number, output: number) => (input * 0.15 + output * 0.6) / 1e6;
    expect(data.dialog.usage).toMatchObject({
      inputTokens: 4500,
      outputTokens: 310,
      reasoningTokens: 0,
      totalTokens: 4810,
    });
    expect(data.dialog.usage.cost).toBeCloseTo(price(4500, 310), 12);
    expect(data.second.contextUsage).toMatchObject({ inputTokens: 3000, outputTokens: 300, reasoningTokens: 0 });
    expect(data.branch.contextUsage).toEqual({ inputTokens: 2500, outputTokens: 110 });
    expect(data.usage.currency).toBe("USD");
    expect(data.usage.rows).toEqual([
      {
        model: "gpt-4o-mini",
        apiKeyId: keyIdA,
        responses: 3,
        usage: { inputTokens: 4500, outputTokens: 310, cost: price(4500, 310) },
      },
    ]);

    // Tenant B sees none of it, grouped by tenant or not, in GraphQL or CSV.
    const asB = asCaller(g.server, keyB);
    const ofB = await asB(`{ usage(groupBy: [TENANT, MODEL]) { rows { tenantId model } total { inputTokens } } }`);
    expect(ofB.body).toEqual({ data: { usage: { rows: [], total: { inputTokens: 0 } } } });
    const csvB = await fetch(`${g.server.url}/api/usage.csv?groupBy=tenant`, {
      headers: { authorization: `Bearer ${keyB}` },
    });
    expect(await csvB.text()).toBe(
      "tenant_id,api_key_id,model,day,responses,input_tokens,output_tokens,cached_tokens,reasoning_tokens,cost,unpriced_tokens\r\n",
    );
    const today = new Date().toISOString().slice(0, 10);
    const csvA = await fetch(`${g.server.url}/api/usage.csv?groupBy=model,day&from=${today}&to=${today}`, {
      headers: { authorization: `Bearer ${g.key}` },
    });
    expect(csvA.headers.get("content-type")).toMatch(/^text\/csv/);
    expect((await csvA.text()).split("\r\n")[1]).toBe(`,,gpt-4o-mini,${today},3,4500,310,0,0,${price(4500, 310)},0`);
    const badCsv = await fetch(`${g.server.url}/api/usage.csv?groupBy=week`, {
      headers: { authorization: `Bearer ${g.key}` },
    });
    expect(badCsv.status).toBe(400);

    const metrics = await (await fetch(`${g.server.url}/metrics`)).text();
    expect(metrics).toMatch(/dialogql_usage_tokens_total\{model="gpt-4o-mini\*",kind="input"\} \d+/);
    expect(metrics).toMatch(/dialogql_usage_cost_total\{model="gpt-4o-mini\*"\} [\d.e-]+/);
  });

  it("refuses a key over its budget before calling the upstream: 429 insufficient_quota, and a typed GraphQL error", async () => {
    const asAdmin = asCaller(g.server, adminA);
    // Only an admin key manages budgets.
    const denied = await asCaller(g.server, g.key)(
      `mutation($k: String!) { setBudget(input: { scope: KEY, subject: $k, unit: TOKENS, period: DAY, amount: 1 }) { __typename ... on Error { code } } }`,
      { k: keyIdA },
    );
    expect(denied.body.data).toEqual({ setBudget: { __typename: "ForbiddenError", code: "FORBIDDEN" } });
    // The key has spent 4,810 tokens today (the test before); its budget is set just above that.
    const set = await asAdmin(
      `mutation($k: String!) { setBudget(input: { scope: KEY, subject: $k, unit: TOKENS, period: DAY, amount: 4900 }) { __typename ... on Budget { id amount } } }`,
      { k: keyIdA },
    );
    expect(set.body.data).toMatchObject({ setBudget: { __typename: "Budget", amount: 4900 } });

    // Below the budget: answered; this turn crosses it (its cost is known only once it is answered).
    g.upstream.script({ output: [{ text: "crossing" }], usage: { input: 80, output: 20 } });
    const crossing = await answerText(g.openai, "one more");
    expect(crossing.status).toBe("completed");
    const calls = g.upstream.requests.length;

    const refused = await answerText(g.openai, "and another").catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.RateLimitError);
    const apiError = refused as InstanceType<typeof OpenAI.RateLimitError>;
    expect([apiError.status, apiError.code, apiError.type]).toEqual([429, "insufficient_quota", "insufficient_quota"]);
    const streamed = await g.openai.responses
      .create({ model: "gpt-4o-mini", input: "streamed", stream: true })
      .catch((error: unknown) => error);
    expect((streamed as { status?: number }).status).toBe(429);
    const generated = await asCaller(
      g.server,
      g.key,
    )(
      `mutation { generateResponse(input: { model: "gpt-4o-mini", input: [{ human: { content: "x" } }] }) {
        __typename ... on BudgetExceededError { code scope unit period amount spent } } }`,
    );
    expect(generated.body.data).toEqual({
      generateResponse: {
        __typename: "BudgetExceededError",
        code: "INSUFFICIENT_QUOTA",
        scope: "KEY",
        unit: "TOKENS",
        period: "DAY",
        amount: 4900,
        spent: 4910,
      },
    });
    expect(g.upstream.requests.length).toBe(calls);

    // Another key of the tenant still works, until the tenant has a budget of its own.
    g.upstream.script({ output: [{ text: "other key" }], usage: { input: 1, output: 1 } });
    expect((await answerText(g.clientFor(otherKeyA.key), "hi")).status).toBe("completed");
    await asAdmin(
      `mutation { setBudget(input: { scope: TENANT, unit: COST, period: MONTH, amount: 0.000001 }) { __typename } }`,
    );
    const tenantRefused = await answerText(g.clientFor(otherKeyA.key), "hi").catch((error: unknown) => error);
    expect((tenantRefused as { code?: string }).code).toBe("insufficient_quota");
    expect(g.upstream.requests.length).toBe(calls + 1);

    // Budgets are listed to the tenant's callers; removing them lets the key through again.
    const listed = await asAdmin(`{ budgets { id scope unit period amount } }`);
    const budgets = (listed.body.data as { budgets: { id: string }[] }).budgets;
    expect(budgets).toHaveLength(2);
    const ofB = await asCaller(g.server, keyB)(`{ budgets { id } }`);
    expect(ofB.body.data).toEqual({ budgets: [] });
    // Another tenant's admin can name neither A's key nor A's budgets: not found, as if they did not exist.
    const setByB = await asCaller(g.server, adminB)(
      `mutation($k: String!) { setBudget(input: { scope: KEY, subject: $k, unit: TOKENS, period: DAY, amount: 1 }) { __typename ... on Error { message } } }`,
      { k: keyIdA },
    );
    expect(setByB.body.data).toEqual({
      setBudget: { __typename: "NotFoundError", message: `API key ${keyIdA} not found` },
    });
    const tenantByB = await asCaller(
      g.server,
      adminB,
    )(
      `mutation { setBudget(input: { scope: TENANT, subject: "tenant-a", unit: TOKENS, period: DAY, amount: 1 }) { __typename } }`,
    );
    expect(tenantByB.body.data).toEqual({ setBudget: { __typename: "NotFoundError" } });
    const removedByB = await asCaller(g.server, adminB)(`mutation($id: ID!) { removeBudget(id: $id) { __typename } }`, {
      id: budgets[0]!.id,
    });
    expect(removedByB.body.data).toEqual({ removeBudget: { __typename: "NotFoundError" } });
    expect(
      (
        await asCaller(g.server, keyB)(`mutation($id: ID!) { removeBudget(id: $id) { __typename } }`, {
          id: budgets[0]!.id,
        })
      ).body.data,
    ).toEqual({ removeBudget: { __typename: "ForbiddenError" } });
    for (const { id } of budgets) {
      await asAdmin(`mutation($id: ID!) { removeBudget(id: $id) { __typename } }`, { id });
    }
    g.upstream.script({ output: [{ text: "again" }], usage: { input: 1, output: 1 } });
    expect((await answerText(g.openai, "again")).status).toBe("completed");
  });
});

describe("a dialog's title", () => {
  it("is metered like any model call: charged to the caller's key, held to its budget", async () => {
    const asB = asCaller(g.server, keyB);
    const spentByB = async () => {
      const read = await asB(`{ usage(groupBy: [KEY]) { rows { responses usage { inputTokens outputTokens } } } }`);
      return (read.body.data as { usage: { rows: { responses: number; usage: Record<string, number> }[] } }).usage
        .rows[0];
    };
    const title = async (responseId: string) => {
      const answer = await asB(`mutation($d: ID!) { titleDialog(dialogId: $d) { ... on Dialog { title } } }`, {
        d: await dialogOf(responseId),
      });
      return (answer.body.data as { titleDialog: { title: string } }).titleDialog.title;
    };
    g.upstream.script({ output: [{ text: "Paris." }], usage: { input: 100, output: 10 } });
    const first = await answerText(g.clientFor(keyB), "What is the capital of France, please?");
    expect(await spentByB()).toEqual({ responses: 1, usage: { inputTokens: 100, outputTokens: 10 } });

    g.upstream.script({ output: [{ text: "The capital of France" }], usage: { input: 40, output: 6 } });
    expect(await title(first.id)).toBe("The capital of France");
    // The title's tokens are the key's spend (a model call, not a response).
    expect(await spentByB()).toEqual({ responses: 1, usage: { inputTokens: 140, outputTokens: 16 } });

    // Over its budget, the key's next title is not asked of the model: the first words stand in.
    g.upstream.script({ output: [{ text: "Rome." }], usage: { input: 100, output: 10 } });
    const second = await answerText(g.clientFor(keyB), "And the capital of Italy?");
    const set = await asCaller(
      g.server,
      adminB,
    )(`mutation { setBudget(input: { scope: TENANT, unit: TOKENS, period: DAY, amount: 200 }) { __typename } }`);
    expect(set.body.data).toEqual({ setBudget: { __typename: "Budget" } });
    const calls = g.upstream.requests.length;
    expect(await title(second.id)).toBe("And the capital of Italy?");
    expect(g.upstream.requests.length).toBe(calls);
  });
});

async function dialogOf(responseId: string) {
  const { prisma } = await import("./support/database.js");
  return (await prisma.response.findUniqueOrThrow({ where: { id: responseId } })).dialogId;
}
