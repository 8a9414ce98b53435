// "Not yours" and "does not exist" take the same time, not only the same bytes (issue 13, finding
// 7): tenant B naming tenant A's ids runs the same lookup, with the same statements, as naming ids
// that do not exist. Timing is compared robustly: samples of the two cases are interleaved (so a
// burst of load hits both alike) and their medians must be within a generous ratio.
import { testApp } from "./support/graphql.js";
import { beforeAll, describe, expect, it } from "vitest";
import { countStatements } from "./support/query-counter.js";
import { tenantKey, unknownIds } from "./support/tenants.js";

const app = testApp({ limits: { rateLimitRequests: 0 } });
let keyB: string;
let a: { dialog: string; response: string };

const as = (key: string) => async (query: string, variables: Record<string, unknown>) => {
  const response = await app.fetch("http://localhost/graphql", {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as any;
};

beforeAll(async () => {
  const keyA = (await tenantKey("timing-a")).key;
  keyB = (await tenantKey("timing-b")).key;
  // A's ids are in this instance's memory: A just wrote them.
  const created = await as(keyA)(
    `mutation($input: CreateResponseInput!) { createResponse(input: $input) { ... on Response { id dialog { id } } } }`,
    { input: { input: [{ human: { content: "secret" } }] } },
  );
  a = { dialog: created.data.createResponse.dialog.id, response: created.data.createResponse.id };
});

const UPDATE = `mutation($d: ID!) { updateDialog(input: { id: $d, title: "x" }) { __typename ... on Error { message } } }`;
const APPEND = `mutation($r: ID!) { appendEvents(input: { responseId: $r, events: [{ ai: { content: "x" } }] }) { __typename ... on Error { message } } }`;

const cases = [
  {
    name: "updateDialog",
    query: UPDATE,
    variables: (ids: { dialog: string; response: string }) => ({ d: ids.dialog }),
  },
  {
    name: "appendEvents",
    query: APPEND,
    variables: (ids: { dialog: string; response: string }) => ({ r: ids.response }),
  },
];

const median = (values: number[]) => {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.floor(sorted.length / 2)]!;
};

describe.each(cases)("$name on another tenant's id and on an unknown id", ({ query, variables }) => {
  it("runs the same statements", async () => {
    const asB = as(keyB);
    await asB(query, variables(unknownIds())); // B's key is looked up once, then remembered
    const foreign = await countStatements(() => asB(query, variables(a)));
    const unknown = await countStatements(() => asB(query, variables(unknownIds())));
    expect(foreign.statements.length).toBeGreaterThan(0);
    expect(foreign.statements).toEqual(unknown.statements);
  });

  it("answers in the same time: in interleaved pairs, each is the faster about half the time", async () => {
    // A sign test rather than a ratio of means: a burst of load on a shared machine slows both
    // halves of a pair alike, and outliers count once. Before the fix "not yours" answered from
    // memory and was the faster in nearly every pair.
    const asB = as(keyB);
    const timeOf = async (ids: { dialog: string; response: string }) => {
      const started = performance.now();
      await asB(query, variables(ids));
      return performance.now() - started;
    };
    for (let i = 0; i < 10; i++) await Promise.all([timeOf(a), timeOf(unknownIds())]);
    const PAIRS = 200;
    let foreignFaster = 0;
    const foreign: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < PAIRS; i++) {
      // Alternate which goes first, so neither always follows the other.
      const [f, u] =
        i % 2 ? [await timeOf(a), await timeOf(unknownIds())] : [await timeOf(unknownIds()), await timeOf(a)].reverse();
      foreign.push(f!);
      unknown.push(u!);
      if (f! < u!) foreignFaster++;
    }
    const summary = `not yours faster in ${foreignFaster}/${PAIRS} pairs; medians ${median(foreign).toFixed(2)} ms vs ${median(unknown).toFixed(2)} ms`;
    // For a fair coin, outside 60..140 of 200 has a probability of about 10^-8.
    expect(foreignFaster, summary).toBeGreaterThan(PAIRS * 0.3);
    expect(foreignFaster, summary).toBeLessThan(PAIRS * 0.7);
  });
});
