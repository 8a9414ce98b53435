// Every abuse limit trips at its configured value with its documented error, and a request just
// within it passes. Limits are set small here (buildApp/startServer take them as options; in
// production they come from the MAX_* and RATE_LIMIT_* variables).
import { testApp } from "./support/graphql.js";
import { store, testConfig, testConfig as config } from "./support/database.js";
import { createClient as createWsClient } from "graphql-ws";
import http from "node:http";
import { describe, expect, it } from "vitest";
import WebSocket from "ws";
import type { Limits } from "../src/limits.js";
import { startServer } from "../src/server/http-server.js";
import { tenantKey } from "./support/tenants.js";
import { writer } from "./support/dialogs.js";
import { until } from "./support/until.js";
import { httpExecutor } from "./support/live.js";
import { limitsOf } from "../src/auth/rate-limit.js";

function appWith(limits: Partial<Limits>) {
  const app = testApp({ limits });
  return async (body: string | object, headers: Record<string, string> = {}) => {
    const response = await app.fetch("http://localhost/graphql", {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
    return { status: response.status, headers: response.headers, body: (await response.json()) as Answer };
  };
}

/**
 * An answer as these checks read it: the limits are tripped by documents built to size (aliases,
 * depth, batches), so results are read by the fields each check names.
 */
interface Answer {
  data?: { createResponse: { __typename: string } & Record<string, unknown>; createDialog: { id: string } };
  errors?: { message: string; extensions?: Record<string, unknown> }[];
}

const codeOf = (answer: { body: Answer }) => answer.body.errors?.[0]?.extensions?.code;

describe("query limits (graphql-armor)", () => {
  it("depth: MAX_QUERY_DEPTH levels pass, one more is QUERY_TOO_COMPLEX", async () => {
    const send = appWith({ queryDepth: 4 });
    expect(codeOf(await send({ query: "{ dialogs { edges { node { id } } } }" }))).toBeUndefined();
    const refused = await send({ query: "{ dialogs { edges { node { head { id } } } } }" });
    expect(refused.body.errors![0]).toMatchObject({
      message: "Query depth limit of 4 exceeded, found 5.",
      extensions: { code: "QUERY_TOO_COMPLEX", limit: "depth" },
    });
  });

  it("aliases: MAX_QUERY_ALIASES pass, one more is QUERY_TOO_COMPLEX", async () => {
    const send = appWith({ queryAliases: 2 });
    const aliased = (n: number) =>
      `{ ${Array.from({ length: n }, (_, i) => `a${i}: dialogs(first: 1) { pageInfo { hasNextPage } }`).join(" ")} }`;
    expect(codeOf(await send({ query: aliased(2) }))).toBeUndefined();
    expect((await send({ query: aliased(3) })).body.errors![0]).toMatchObject({
      message: "Aliases limit of 2 exceeded, found 3.",
      extensions: { code: "QUERY_TOO_COMPLEX", limit: "aliases" },
    });
  });

  it("tokens: MAX_QUERY_TOKENS pass, one more is QUERY_TOO_COMPLEX before anything else is done", async () => {
    const send = appWith({ queryTokens: 3 });
    expect((await send({ query: "{ __typename }" })).body).toEqual({ data: { __typename: "Query" } });
    expect((await send({ query: "{ __typename __typename }" })).body.errors![0]).toMatchObject({
      message: "Token limit of 3 exceeded.",
      extensions: { code: "QUERY_TOO_COMPLEX", limit: "tokens" },
    });
  });

  it("cost: within MAX_QUERY_COST passes, beyond is QUERY_TOO_COMPLEX (a literal `first` multiplies)", async () => {
    const send = appWith({ queryCost: 26 });
    // Cost 25.75: 2 × (2 + 1.5 × (2 + 1.5 × (2 + 1.5 × 1))).
    expect(codeOf(await send({ query: "{ dialogs(first: 2) { edges { node { id } } } }" }))).toBeUndefined();
    expect((await send({ query: "{ dialogs(first: 3) { edges { node { id } } } }" })).body.errors![0]).toMatchObject({
      message: "Query Cost limit of 26 exceeded, found 38.625.",
      extensions: { code: "QUERY_TOO_COMPLEX", limit: "cost" },
    });
  });
});

describe("request body size", () => {
  const sized = (bytes: number) => {
    const frame = JSON.stringify({ query: "{ __typename }" });
    return frame.replace("{ __typename }", `{ __typename }${" ".repeat(bytes - frame.length)}`);
  };

  it("MAX_BODY_BYTES pass; one byte more is 413 REQUEST_ENTITY_TOO_LARGE", async () => {
    const send = appWith({ bodyBytes: 300 });
    expect(sized(300)).toHaveLength(300);
    expect((await send(sized(300))).body).toEqual({ data: { __typename: "Query" } });
    const refused = await send(sized(301));
    expect(refused.status).toBe(413);
    expect(codeOf(refused)).toBe("REQUEST_ENTITY_TOO_LARGE");
  });

  it("is enforced on a streamed body without Content-Length too", async () => {
    const app = testApp({ limits: { bodyBytes: 300 } });
    const chunks = [sized(301).slice(0, 150), sized(301).slice(150)];
    const stream = new ReadableStream({
      pull(controller) {
        const chunk = chunks.shift();
        if (chunk) controller.enqueue(new TextEncoder().encode(chunk));
        else controller.close();
      },
    });
    const response = await app.fetch("http://localhost/graphql", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: stream,
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(413);
  });

  it("over a socket too: at the limit with Content-Length it passes, beyond it 413, and a chunked body is counted", async () => {
    const server = await startServer({ store, config: testConfig, port: 0, limits: { bodyBytes: 300 } });
    // node:http sends a body written in pieces without Content-Length, as chunks.
    const post = (body: string, chunked: boolean) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const headers = {
          "content-type": "application/json",
          ...(!chunked && { "content-length": String(body.length) }),
        };
        const request = http.request(`${server.url}/graphql`, { method: "POST", headers }, (response) => {
          let text = "";
          response.on("data", (chunk: Buffer) => (text += chunk.toString()));
          response.on("end", () => resolve({ status: response.statusCode!, body: text }));
        });
        request.on("error", reject);
        if (chunked) request.write(body.slice(0, 150));
        request.end(chunked ? body.slice(150) : body);
      });
    try {
      const at = await post(sized(300), false);
      expect(JSON.parse(at.body)).toEqual({ data: { __typename: "Query" } });
      expect(await post(sized(300), true)).toMatchObject({ status: 200 });
      for (const chunked of [false, true]) {
        const refused = await post(sized(301), chunked);
        expect(refused.status).toBe(413);
        expect(JSON.parse(refused.body).errors[0].extensions.code).toBe("REQUEST_ENTITY_TOO_LARGE");
      }
    } finally {
      await server.close();
    }
  });

  it("limits a WebSocket message the same way (closed with 1009, message too big)", async () => {
    const server = await startServer({ store, config: testConfig, port: 0, limits: { bodyBytes: 1_000 } });
    try {
      const socket = new WebSocket(`${server.url.replace(/^http/, "ws")}/graphql`, "graphql-transport-ws");
      await new Promise((resolve) => socket.once("open", resolve));
      const closed = new Promise<number>((resolve) => socket.once("close", resolve));
      socket.send(JSON.stringify({ type: "connection_init", payload: { pad: "x".repeat(2_000) } }));
      expect(await closed).toBe(1009);
    } finally {
      await server.close();
    }
  });
});

describe("per write (MAX_EVENTS_PER_WRITE, MAX_EVENT_BYTES)", () => {
  const send = appWith({});
  const write = (input: unknown[]) =>
    send({
      query: `mutation($input: CreateResponseInput!) { createResponse(input: $input) { __typename ... on ValidationError { fieldErrors { path message } } } }`,
      variables: { input: { input } },
    });

  it(`${config.MAX_EVENTS_PER_WRITE} events pass; one more is a ValidationError`, async () => {
    const events = (n: number) => Array.from({ length: n }, (_, i) => ({ human: { content: `m${i}` } }));
    expect((await write(events(config.MAX_EVENTS_PER_WRITE))).body.data!.createResponse.__typename).toBe("Response");
    expect((await write(events(config.MAX_EVENTS_PER_WRITE + 1))).body.data!.createResponse).toEqual({
      __typename: "ValidationError",
      fieldErrors: [
        {
          path: ["input"],
          message: `at most ${config.MAX_EVENTS_PER_WRITE} events per write (got ${config.MAX_EVENTS_PER_WRITE + 1})`,
        },
      ],
    });
  });

  it(`an event of ${config.MAX_EVENT_BYTES} bytes passes; one byte more is a ValidationError`, async () => {
    // The size is the event's JSON: {"content":"…"} is 14 bytes around the text.
    const event = (bytes: number) => ({ human: { content: "x".repeat(bytes - 14) } });
    expect((await write([event(config.MAX_EVENT_BYTES)])).body.data!.createResponse.__typename).toBe("Response");
    expect((await write([event(config.MAX_EVENT_BYTES + 1)])).body.data!.createResponse).toEqual({
      __typename: "ValidationError",
      fieldErrors: [
        {
          path: ["input", "0", "human"],
          message: `event is ${config.MAX_EVENT_BYTES + 1} bytes; the limit is ${config.MAX_EVENT_BYTES}`,
        },
      ],
    });
  });
});

describe("subscriptions per connection", () => {
  it("MAX_SUBSCRIPTIONS_PER_CONNECTION run at once; one more is TOO_MANY_SUBSCRIPTIONS until one ends", async () => {
    const server = await startServer({ store, config: testConfig, port: 0, limits: { subscriptionsPerConnection: 2 } });
    const client = createWsClient({
      url: `${server.url.replace(/^http/, "ws")}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
    });
    try {
      const created = await appWith({})({ query: `mutation { createDialog(input: {}) { ... on Dialog { id } } }` });
      const dialogId = created.body.data!.createDialog.id;
      const open = () =>
        client.iterate({
          query: `subscription($d: ID!) { historyDelta(dialogId: $d) { seq } }`,
          variables: { d: dialogId },
        });
      const first = open();
      const second = open();
      // Both are running once a third is refused: the refusal comes back on the third alone.
      void first.next();
      void second.next();
      const third = await open()
        .next()
        .catch((errors) => errors);
      expect(third[0]).toMatchObject({
        message: "At most 2 operations may run at once on one connection",
        extensions: { code: "TOO_MANY_SUBSCRIPTIONS" },
      });
      await first.return?.();
      // Started subscriptions hold no turn (src/connections/subscription-pacing.ts): with the first
      // gone and none starting, only the second listens.
      const settled = (listening: number) => () =>
        server.live.listenerCount("historyDelta", dialogId) === listening && server.subscriptionStarts.starting === 0;
      await until(settled(1), "the first to stop listening");
      const fourth = open();
      const pending = fourth.next();
      // Admitted: it listens beside the second, and the next write reaches it.
      await until(settled(2), "the fourth to listen");
      await writer(httpExecutor(server)).createResponse({ dialogId, input: [{ human: { content: "hi" } }] });
      expect(await pending).toEqual({ done: false, value: { data: { historyDelta: { seq: 1 } } } });
      await Promise.all([second.return?.(), fourth.return?.()]);
    } finally {
      await client.dispose();
      await server.close();
    }
  });
});

// Last in this file: it creates an API key, after which calls without one are refused.
describe("rate limit per API key", () => {
  it("RATE_LIMIT_REQUESTS in a window pass; the next is 429 RATE_LIMITED with the window's Retry-After", async () => {
    const send = appWith({ rateLimitRequests: 3, rateLimitWindowSeconds: 60, rateLimitBurstSeconds: 0 });
    const { authorization } = await tenantKey("limited");
    const other = await tenantKey("unlimited");
    for (let i = 0; i < 3; i++) expect((await send({ query: "{ __typename }" }, { authorization })).status).toBe(200);
    const refused = await send({ query: "{ __typename }" }, { authorization });
    expect(refused.status).toBe(429);
    // The window's wait: it started with the first request, moments ago.
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(30);
    expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(60);
    expect(refused.body.errors![0]).toMatchObject({
      message: expect.stringContaining("at most 3 requests per 60 s"),
      extensions: { code: "RATE_LIMITED", retryAfterSeconds: Number(refused.headers.get("retry-after")) },
    });
    // Per key: another tenant's key is not affected.
    expect((await send({ query: "{ __typename }" }, { authorization: other.authorization })).status).toBe(200);
  });

  it("the share of RATE_LIMIT_BURST_SECONDS: a burst past it is refused with that span's wait", async () => {
    // 12 per 60 s is 2 per 10 s: the third request within 10 s is refused by the short limit.
    const send = appWith({ rateLimitRequests: 12, rateLimitWindowSeconds: 60, rateLimitBurstSeconds: 10 });
    const { authorization } = await tenantKey("bursty");
    for (let i = 0; i < 2; i++) expect((await send({ query: "{ __typename }" }, { authorization })).status).toBe(200);
    const refused = await send({ query: "{ __typename }" }, { authorization });
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(10);
    const { extensions } = refused.body.errors![0]!;
    expect(refused.body.errors![0]!.message).toContain("at most 2 requests per 10 s");
    expect(extensions).toMatchObject({ code: "RATE_LIMITED", retryAfterSeconds: retryAfter });
    expect(extensions!.retryAfterMs).toBeGreaterThan(0);
    expect(extensions!.retryAfterMs).toBeLessThanOrEqual(10_000);
    expect(Math.ceil((extensions!.retryAfterMs as number) / 1000)).toBe(retryAfter);
  });

  it("the same requests spread over the spans pass: a sub-second wait is Retry-After 1 and retryAfterMs", async () => {
    // 6000 per 3000 s is 2 per second; the window is far away.
    const send = appWith({ rateLimitRequests: 6000, rateLimitWindowSeconds: 3000, rateLimitBurstSeconds: 1 });
    const { authorization } = await tenantKey("spread");
    const typename = () => send({ query: "{ __typename }" }, { authorization });
    for (let i = 0; i < 2; i++) expect((await typename()).status).toBe(200);
    const refused = await typename();
    const refusedAt = Date.now();
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("1");
    const retryAfterMs = refused.body.errors![0]!.extensions!.retryAfterMs as number;
    expect(retryAfterMs).toBeGreaterThan(0);
    expect(retryAfterMs).toBeLessThanOrEqual(1_000);
    // The next span: its share passes again, no sooner than the refusal said (less the answer's
    // own trip back), and the window has not counted it against anything but its total.
    await until(async () => (await typename()).status === 200, "the next span's first request to pass", 5_000);
    expect(Date.now() - refusedAt).toBeGreaterThanOrEqual(retryAfterMs - 100);
    expect((await typename()).status).toBe(200);
  });

  it("the short limit's share is rounded up and is off when 0 or not shorter than the window", () => {
    expect(limitsOf({ requests: 6000, windowSeconds: 60, burstSeconds: 1 })).toEqual([
      { requests: 6000, seconds: 60 },
      { requests: 100, seconds: 1 },
    ]);
    expect(limitsOf({ requests: 100, windowSeconds: 60, burstSeconds: 1 })[1]).toEqual({ requests: 2, seconds: 1 });
    expect(limitsOf({ requests: 100, windowSeconds: 60, burstSeconds: 0 })).toHaveLength(1);
    expect(limitsOf({ requests: 100, windowSeconds: 60, burstSeconds: 60 })).toHaveLength(1);
    expect(limitsOf({ requests: 0, windowSeconds: 60, burstSeconds: 1 })).toEqual([]);
  });

  it("counts WebSocket operations too: beyond the limit an operation fails with RATE_LIMITED", async () => {
    const server = await startServer({
      store,
      config: testConfig,
      port: 0,
      limits: { rateLimitRequests: 2, rateLimitWindowSeconds: 60, rateLimitBurstSeconds: 0 },
    });
    const { authorization } = await tenantKey("ws-limited");
    const client = createWsClient({
      url: `${server.url.replace(/^http/, "ws")}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      connectionParams: { authorization },
    });
    try {
      const once = () =>
        client
          .iterate({ query: "{ __typename }" })
          .next()
          .then(
            (r) => r.value,
            (errors) => errors,
          );
      expect(await once()).toEqual({ data: { __typename: "Query" } });
      expect(await once()).toEqual({ data: { __typename: "Query" } });
      const [refused] = await once();
      expect(refused).toMatchObject({ extensions: { code: "RATE_LIMITED", retryAfterMs: expect.any(Number) } });
      expect(refused.extensions).not.toHaveProperty("http");
    } finally {
      await client.dispose();
      await server.close();
    }
  });

  // Issue 29: the Responses API's WebSocket mode refused without saying how long to wait, where its
  // HTTP answers carry Retry-After. The refusal is an `error` event with the HTTP answer's status
  // and wait headers (what OpenAI's SDKs read before a retry) and the same message.
  it("the /v1 WebSocket mode's refusal carries its wait, as the HTTP answer's status and headers", async () => {
    const server = await startServer({
      store,
      config: testConfig,
      port: 0,
      limits: { rateLimitRequests: 2, rateLimitWindowSeconds: 60, rateLimitBurstSeconds: 0 },
    });
    const { authorization } = await tenantKey("v1-ws-limited");
    const socket = new WebSocket(`${server.url.replace(/^http/, "ws")}/v1/responses`, { headers: { authorization } });
    try {
      await new Promise((resolve, reject) => socket.once("open", resolve).once("error", reject));
      const events: Record<string, unknown>[] = [];
      socket.on("message", (data) => events.push(JSON.parse(String(data)) as Record<string, unknown>));
      // No model is configured: the first two are refused for that, after counting; the third by the limit.
      for (let i = 0; i < 3; i++) socket.send(JSON.stringify({ type: "response.create", model: "m", input: "hi" }));
      await until(() => events.length === 3, "three answers");
      const refused = events.find((event) => (event.error as { code?: string }).code === "rate_limited")!;
      expect(refused).toMatchObject({
        type: "error",
        status: 429,
        error: {
          type: "rate_limit_error",
          code: "rate_limited",
          param: null,
          message: expect.stringContaining("at most 2 requests per 60 s"),
        },
      });
      const headers = refused.headers as Record<string, string>;
      const seconds = Number(headers["retry-after"]);
      const ms = Number(headers["retry-after-ms"]);
      // The window's wait: it started with the first request, moments ago.
      expect(seconds).toBeGreaterThan(30);
      expect(seconds).toBeLessThanOrEqual(60);
      expect(Math.ceil(ms / 1000)).toBe(seconds);
      expect((refused.error as { message: string }).message).toContain(`retry in ${seconds} s`);
    } finally {
      socket.close();
      await server.close();
    }
  });
});
