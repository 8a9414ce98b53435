// Work per request is bounded by what it would read, whatever its variables say (issue 13, finding
// 1): the cost limit prices the coerced page sizes, a request stops at its row, byte and time
// budget, and one tenant's reads queue behind each other instead of taking the whole pool.
import { type GraphQLResult, testApp } from "./support/graphql.js";
import { describe, expect, it, vi } from "vitest";
import { logger } from "../src/logger.js";
import type { Limits } from "../src/limits.js";
import { createRequestBudget, createTenantReads } from "../src/schema/request-budget.js";

function appWith(limits: Partial<Limits> = {}) {
  const app = testApp({ limits });
  return async (query: string, variables?: Record<string, unknown>) => {
    const response = await app.fetch("http://localhost/graphql", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query, variables }),
    });
    return (await response.json()) as GraphQLResult;
  };
}

const THE_QUERY = `query($d: ID!, $n: Int, $m: Int) { dialog(id: $d) { responses(last: $n) { edges {
  node { context(first: $m) { edges { node { ... on AiEvent { content } } } } } } } } }`;

/** What the write in dialogOf selects, as it reads it. */
interface Written {
  createResponse: { dialog: { id: string } };
}

async function dialogOf(send: ReturnType<typeof appWith>, responses: number, eventBytes: number) {
  let dialogId: string | undefined;
  for (let i = 0; i < responses; i++) {
    const answer = await send(
      `mutation($input: CreateResponseInput!) { createResponse(input: $input) { ... on Response { dialog { id } } } }`,
      {
        input: {
          dialogId,
          input: [{ human: { content: `q${i}` } }],
          output: [{ ai: { content: "a".repeat(eventBytes) } }],
        },
      },
    );
    dialogId = (answer.data as Written).createResponse.dialog.id;
  }
  return dialogId!;
}

describe("cost on the coerced arguments", () => {
  const send = appWith();
  const refusedForCost = (answer: Awaited<ReturnType<typeof send>>) => {
    expect(answer.data).toBeUndefined();
    expect(answer.errors?.[0]).toMatchObject({ extensions: { code: "QUERY_TOO_COMPLEX", limit: "cost" } });
    expect(answer.errors?.[0]?.message).toMatch(/^Query Cost limit of 5000000 exceeded, found \d+/);
  };

  it("the issue's query with {n: 100, m: 10000} is refused like its literal twin", async () => {
    const d = "dlg_unknown";
    refusedForCost(await send(THE_QUERY, { d, n: 100, m: 10_000 }));
    refusedForCost(
      await send(
        `{ dialog(id: "${d}") { responses(last: 100) { edges { node { context(first: 10000) { edges { node { ... on AiEvent { content } } } } } } } } }`,
      ),
    );
    // The same document with small pages is within the limit (and answers: no such dialog).
    expect((await send(THE_QUERY, { d, n: 2, m: 10 })).data).toEqual({ dialog: null });
  });

  it("relatives: variables inside fragments, aliases of a moderate page, connections without first", async () => {
    const d = "dlg_unknown";
    refusedForCost(
      await send(
        `query($d: ID!, $n: Int, $m: Int) { dialog(id: $d) { ...R } }
         fragment R on Dialog { responses(last: $n) { edges { node { ...C } } } }
         fragment C on Response { context(first: $m) { edges { node { ... on HumanEvent { content } } } } }`,
        { d, n: 100, m: 10_000 },
      ),
    );
    // Each alias alone is within the limit; together they are not.
    const alias = (i: number) =>
      `a${i}: responses(last: $n) { edges { node { context(first: $m) { edges { node { __typename } } } } } }`;
    const aliased = (n: number) =>
      `query($d: ID!, $n: Int, $m: Int) { dialog(id: $d) { ${Array.from({ length: n }, (_, i) => alias(i)).join(" ")} } }`;
    expect((await send(aliased(1), { d, n: 20, m: 1_000 })).errors?.[0]?.message).toBe("Dialog dlg_unknown not found");
    refusedForCost(await send(aliased(8), { d, n: 20, m: 1_000 }));
    // A connection without first/last costs the page it will really read (100 events, 20 responses).
    const nested = `query($d: ID!) { dialog(id: $d) { ${[0, 1, 2, 3, 4].map((i) => `r${i}: responses { edges { node { context { edges { node { __typename } } } } } }`).join(" ")} } }`;
    expect((await appWith({ queryCost: 100_000 })(nested, { d })).errors?.[0]).toMatchObject({
      extensions: { limit: "cost" },
    });
  });

  it("a document priced once is priced again for other page sizes (the cache keys on them)", async () => {
    const d = "dlg_unknown";
    const notFound = { dialog: null };
    // Accepted first, so its page sizes are remembered; the same text with larger pages must
    // still be refused, each time, and the small pages keep answering.
    for (let round = 0; round < 2; round++) {
      expect((await send(THE_QUERY, { d, n: 2, m: 10 })).data).toEqual(notFound);
      refusedForCost(await send(THE_QUERY, { d, n: 100, m: 10_000 }));
      // Absent variables read the default pages (20 responses, 100 events): within the limit.
      expect((await send(THE_QUERY, { d })).data).toEqual(notFound);
      // Beyond the maximum a page is capped like the resolver caps it: 100 × 10,000 again.
      refusedForCost(await send(THE_QUERY, { d, n: 1_000, m: 1_000_000 }));
    }
    // Another operation of the same document text is priced on its own.
    const two = `query Small($d: ID!) { dialog(id: $d) { responses(last: 2) { edges { node { id } } } } }
      query Big($d: ID!, $n: Int, $m: Int) { dialog(id: $d) { responses(last: $n) { edges { node { context(first: $m) { edges { node { __typename } } } } } } } }`;
    const app = testApp({});
    const named = async (operationName: string) => {
      const response = await app.fetch("http://localhost/graphql", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query: two, variables: { d, n: 100, m: 10_000 }, operationName }),
      });
      return (await response.json()) as GraphQLResult;
    };
    expect((await named("Small")).data).toEqual(notFound);
    refusedForCost(await named("Big"));
    expect((await named("Small")).data).toEqual(notFound);
  });
});

describe("budget while executing", () => {
  it("rows: a request stops before a read that would pass MAX_REQUEST_ROWS", async () => {
    const send = appWith({ requestRows: 150 });
    const d = await dialogOf(send, 3, 10);
    const query = `query($d: ID!) { dialog(id: $d) { responses { edges { node { context(first: 100) { edges { node { __typename } } } } } } } }`;
    const answer = await send(query, { d });
    expect(answer.errors?.[0]).toMatchObject({ extensions: { code: "QUERY_TOO_COMPLEX", limit: "rows" } });
    expect(answer.errors?.[0]?.message).toMatch(/^Request row limit of 150 exceeded/);
    // Within the budget the same request answers.
    expect((await appWith({ requestRows: 400 })(query, { d })).errors).toBeUndefined();
  });

  it("bytes: large events within every shape limit stop at MAX_REQUEST_BYTES, and another client keeps answering", async () => {
    const send = appWith({ requestBytes: 200_000 });
    const d = await dialogOf(send, 8, 20_000);
    // 8 contexts of up to 8 answers of 20 KB: 720 KB to read, more than the budget.
    const heavy = send(
      `query($d: ID!) { dialog(id: $d) { responses { edges { node { context { edges { node { ... on AiEvent { content } } } } } } } } }`,
      { d },
    );
    const small = await send(`query($d: ID!) { dialog(id: $d) { id } }`, { d });
    expect(small).toEqual({ data: { dialog: { id: d } } });
    const answer = await heavy;
    expect(answer.errors?.[0]).toMatchObject({ extensions: { code: "QUERY_TOO_COMPLEX", limit: "bytes" } });
    expect(answer.errors?.[0]?.message).toMatch(/^Request size limit of 200000 bytes exceeded/);
    // The output list of a response is counted too.
    const outputs = await send(
      `query($d: ID!) { dialog(id: $d) { responses { edges { node { output { ... on AiEvent { content } } } } } } }`,
      { d },
    );
    expect(outputs.errors).toBeUndefined();
    const tight = await appWith({ requestBytes: 50_000 })(
      `query($d: ID!) { dialog(id: $d) { responses { edges { node { output { __typename } } } } } }`,
      { d },
    );
    expect(tight.errors?.[0]).toMatchObject({ extensions: { limit: "bytes" } });
  });

  it("a field's error stays that field's: answering again after it does not spend the rows twice", async () => {
    // A query whose answer has an error is answered a second time (src/server/compiled-queries.ts);
    // 80 rows fit a budget of 150, and would not if the first answer's reads still counted.
    const send = appWith({ requestRows: 150 });
    const d = await dialogOf(send, 40, 10);
    const answer = await send(
      `query($d: ID!) { known: dialog(id: $d) { history(first: 100) { edges { node { __typename } } } }
        unknown: dialog(id: "dlg_unknown") { id } }`,
      { d },
    );
    expect(answer.errors?.map((error) => error.message)).toEqual(["Dialog dlg_unknown not found"]);
    expect((answer.data as { known: { history: { edges: unknown[] } } }).known.history.edges).toHaveLength(80);
  });

  it("time: a read that would start after MAX_REQUEST_MS does not (injected clock)", async () => {
    let now = 0;
    const budget = createRequestBudget({ requestRows: 100, requestBytes: 1_000, requestMs: 50 }, { now: () => now });
    expect(await budget.read(1, async () => ["x"])).toEqual(["x"]);
    now = 51;
    let ran = false;
    await expect(budget.read(1, async () => ((ran = true), ["y"]))).rejects.toMatchObject({
      message: "Request time limit of 50 ms exceeded.",
      extensions: { code: "QUERY_TOO_COMPLEX", limit: "time" },
    });
    expect(ran).toBe(false);
  });

  it("one tenant's calls share TENANT_DB_CONCURRENCY connections; another tenant's call does not wait for them", async () => {
    const tenantReads = createTenantReads(); // one app's
    // Another app in this process has slots of its own for the same tenant.
    const otherApp = createTenantReads();
    const release: (() => void)[] = [];
    let running = 0;
    let mostAtOnce = 0;
    const slowRead = () =>
      new Promise<string[]>((resolve) => {
        running++;
        mostAtOnce = Math.max(mostAtOnce, running);
        release.push(() => {
          running--;
          resolve(["row"]);
        });
      });
    const hogReads = Array.from({ length: 10 }, () => tenantReads.run("hog", 2, slowRead));
    await new Promise((resolve) => setImmediate(resolve));
    expect(running).toBe(2);
    // The other tenant's call runs at once although the hog has 8 more queued.
    expect(await tenantReads.run("other", 2, async () => ["mine"])).toEqual(["mine"]);
    expect(await otherApp.run("hog", 2, async () => ["its own"])).toEqual(["its own"]);
    while (release.length) {
      release.shift()!();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(hogReads);
    expect(mostAtOnce).toBe(2);
  });

  it("a tenant whose own queue is full (TENANT_DB_QUEUE) is refused with TENANT_BUSY and one log line; another tenant is not", async () => {
    const tenantReads = createTenantReads({ maxWaiting: 2 });
    const warned = vi.spyOn(logger, "warn");
    try {
      const release: (() => void)[] = [];
      const heldRead = () => new Promise<string[]>((resolve) => release.push(() => resolve(["row"])));
      // One running (its share), two waiting (its queue).
      const admitted = [1, 2, 3].map(() => tenantReads.run("hog", 1, heldRead));
      await new Promise((resolve) => setImmediate(resolve));
      expect([tenantReads.active("hog"), tenantReads.waiting("hog")]).toEqual([1, 2]);
      const refusals = await Promise.allSettled([
        tenantReads.run("hog", 1, heldRead),
        tenantReads.run("hog", 1, heldRead),
      ]);
      for (const refusal of refusals) {
        expect(refusal).toMatchObject({ status: "rejected", reason: { extensions: { code: "TENANT_BUSY" } } });
        const { retryAfterMs } = (refusal as PromiseRejectedResult).reason.extensions as { retryAfterMs: number };
        expect(retryAfterMs).toBeGreaterThanOrEqual(500);
        expect(retryAfterMs).toBeLessThanOrEqual(2_000);
      }
      expect(warned.mock.calls.filter(([line]) => String(line).includes("tenant hog"))).toHaveLength(1);
      expect(String(warned.mock.calls.find(([line]) => String(line).includes("tenant hog"))![0])).toContain(
        "TENANT_BUSY",
      );
      // The other tenant's call is neither queued nor refused.
      expect(await tenantReads.run("other", 1, async () => ["mine"])).toEqual(["mine"]);
      while (release.length || tenantReads.active("hog")) {
        release.shift()?.();
        await new Promise((resolve) => setImmediate(resolve));
      }
      expect(await Promise.all(admitted)).toEqual([["row"], ["row"], ["row"]]);
      expect([tenantReads.active("hog"), tenantReads.waiting("hog")]).toEqual([0, 0]);
    } finally {
      warned.mockRestore();
    }
  });
});
