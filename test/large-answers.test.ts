// Large answers take turns and are serialised in slices (src/server/large-answers.ts), so a small
// query is answered while large ones are in production (issue 20: "large results must not block
// the event loop for everyone else"); the answers stay byte for byte what they were.
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import type { Limits } from "../src/limits.js";
import type { App } from "../src/server/app.js";
import { stringifyInSlices } from "../src/server/sliced-json.js";
import { turn } from "./support/dialogs.js";
import { testApp } from "./support/graphql.js";

describe("JSON in slices", () => {
  it("is JSON.stringify's text, whatever the value", async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), async (value) => {
        expect(await stringifyInSlices(value, { sliceMs: 0 })).toBe(JSON.stringify(value));
      }),
      { numRuns: 300 },
    );
  });

  it("writes what JSON.stringify writes for undefined, functions, toJSON, null prototypes and long arrays", async () => {
    const bare = Object.assign(Object.create(null), { a: 1, b: undefined, c: [undefined, () => 1, Symbol("s")] });
    const value = {
      data: {
        when: new Date(0),
        bare,
        skipped: undefined,
        fn: () => 1,
        boxed: [new String("s"), new Number(2), new Boolean(false)],
        edges: Array.from({ length: 5_000 }, (_, i) => ({
          cursor: `c${i}`,
          node: { seq: i, text: `é "quoted" \n ${i}`, args: { list: [1, 2, [3, { deep: Array(20).fill(i) }]] } },
        })),
        nested: [[Array(50).fill("x")], { inner: [{ more: Array(30).fill(null) }] }],
      },
    };
    expect(await stringifyInSlices(value, { sliceMs: 0 })).toBe(JSON.stringify(value));
    expect(await stringifyInSlices(undefined)).toBe(JSON.stringify(undefined));
    expect(await stringifyInSlices("text")).toBe(JSON.stringify("text"));
  });

  it("stops at the next slice once its signal is aborted", async () => {
    const controller = new AbortController();
    const made = stringifyInSlices(Array(100_000).fill({ a: "b" }), { sliceMs: 0, signal: controller.signal });
    controller.abort(new Error("the client went away"));
    await expect(made).rejects.toThrow("the client went away");
  });
});

describe("large answers take turns", () => {
  const EVENTS = 300;
  let dialogId: string;
  beforeAll(async () => {
    let previous: string | undefined;
    for (let i = 0; i < EVENTS / 3; i++) {
      const written = await turn({
        dialogId: previous,
        input: [{ human: { content: `question ${i}` } }],
        output: [{ reasoning: { content: `thinking ${i}` } }, { ai: { content: `answer ${i}` } }],
      });
      previous = written.dialogId;
    }
    dialogId = previous!;
  });

  const HISTORY = `query($id: ID!, $n: Int) { dialog(id: $id) { history(first: $n) { totalMessages
    edges { cursor node { __typename ... on BaseHistoryEvent { id seq type createdAt }
    ... on HumanEvent { content } ... on AiEvent { content } ... on ReasoningEvent { content } } } } } }`;
  const ask = async (app: App, first: number, init: RequestInit = {}) =>
    await app.fetch("http://localhost/graphql", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: HISTORY, variables: { id: dialogId, n: first } }),
      ...init,
    });
  // A whole history is large from 100 rows here; one large answer at a time, two reads per tenant.
  const limits = (more: Partial<Limits> = {}): Partial<Limits> => ({
    largeAnswerRows: 100,
    largeAnswersAtOnce: 1,
    tenantDbConcurrency: 2,
    ...more,
  });

  it("a first page is answered before the large answers queued ahead of it", async () => {
    const app = testApp({ limits: limits() });
    const finished: string[] = [];
    const large = Array.from({ length: 8 }, (_, i) =>
      ask(app, EVENTS)
        .then((response) => response.json())
        .then(() => finished.push(`large ${i}`)),
    );
    const small = ask(app, 10)
      .then((response) => response.json())
      .then((answer) => (finished.push("small"), answer));
    expect((await small).data.dialog.history.edges).toHaveLength(10);
    await Promise.all(large);
    // Without turns the page's read queued behind the tenant's eight large reads and answered
    // last; with them, it overtakes every large answer but the one or two in production.
    expect(finished.indexOf("small")).toBeLessThanOrEqual(2);
  });

  it("answers byte for byte as without turns, in both JSON media types", async () => {
    const sliced = testApp({ limits: limits() });
    const whole = testApp({ limits: limits({ largeAnswerRows: 1_000_000 }) });
    for (const accept of ["application/json", "application/graphql-response+json"]) {
      const [a, b] = await Promise.all(
        [sliced, whole].map((app) => ask(app, EVENTS, { headers: { accept, "content-type": "application/json" } })),
      );
      expect(a!.status).toBe(b!.status);
      expect(a!.headers.get("content-type")).toBe(b!.headers.get("content-type"));
      const [textA, textB] = await Promise.all([a!.text(), b!.text()]);
      expect(JSON.parse(textA).data.dialog.history.edges).toHaveLength(EVENTS);
      expect(textA).toBe(textB);
    }
  });

  it("a request refused by its budget still gives its turn back", async () => {
    const app = testApp({ limits: limits({ requestRows: 150 }) });
    const refused = await (await ask(app, EVENTS)).json();
    expect(refused.errors[0].extensions).toMatchObject({ code: "QUERY_TOO_COMPLEX", limit: "rows" });
    const next = await (await ask(app, 120)).json();
    expect(next.data.dialog.history.edges).toHaveLength(120);
  });

  it("a client that goes away gives its turn back, queued or in production", async () => {
    const app = testApp({ limits: limits() });
    const first = new AbortController();
    const queued = new AbortController();
    const inProduction = ask(app, EVENTS, { signal: first.signal }).catch((error: Error) => error);
    const waiting = ask(app, EVENTS, { signal: queued.signal }).catch((error: Error) => error);
    queued.abort();
    first.abort();
    expect(await inProduction).toBeInstanceOf(Error);
    expect(await waiting).toBeInstanceOf(Error);
    // The one turn is free again: a third large answer is made.
    const after = await (await ask(app, EVENTS)).json();
    expect(after.data.dialog.history.edges).toHaveLength(EVENTS);
  });

  it("a subscription over SSE replaying a long history never keeps the turn", async () => {
    const app = testApp({ limits: limits() });
    const stream = new AbortController();
    const subscription = await app.fetch("http://localhost/graphql", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "text/event-stream" },
      body: JSON.stringify({
        query: `subscription($d: ID!) { historyDelta(dialogId: $d, afterSeq: 0) { seq } }`,
        variables: { d: dialogId },
      }),
      signal: stream.signal,
    });
    const reader = subscription.body!.getReader();
    let received = "";
    while (!received.includes("data:")) received += new TextDecoder().decode((await reader.read()).value);
    // The replay has been read and is being delivered; a large answer still gets the one turn.
    const whole = await (await ask(app, EVENTS)).json();
    expect(whole.data.dialog.history.edges).toHaveLength(EVENTS);
    stream.abort();
    await reader.cancel().catch(() => {});
  });
});
