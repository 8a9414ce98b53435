// Browser-facing protections and what unexpected failures look like: CSRF prevention (same-origin
// JSON and GraphiQL still work), no CORS for other origins unless configured, GraphiQL and
// introspection off in production, request ids, and masked errors that carry the request id.
import { type GraphQLResult, testApp } from "./support/graphql.js";
import { createSchema, createYoga } from "graphql-yoga";
import { describe, expect, it, vi } from "vitest";
import { loadConfig } from "../src/config.js";
import { useErrorReporting } from "../src/server/error-reporting.js";
import { logger } from "../src/logger.js";
import { requestIdOf, useRequestId } from "../src/request-id.js";

const app = testApp({ graphiql: true, introspection: true });
const send = (path: string, init: RequestInit = {}) => app.fetch(`http://localhost${path}`, init);

describe("CSRF prevention", () => {
  it("refuses cross-site simple requests: a form post, text/plain, a plain GET", async () => {
    const form = await send("/graphql", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "query=%7B__typename%7D",
    });
    const text = await send("/graphql", {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: '{"query":"{ __typename }"}',
    });
    const get = await send("/graphql?query=%7B__typename%7D");
    expect([form.status, text.status, get.status]).toEqual([403, 403, 403]);
  });

  it("lets same-origin JSON POSTs, GETs with the CSRF header and GraphiQL's page through", async () => {
    const json = await send("/graphql", {
      method: "POST",
      headers: { "content-type": "application/json", origin: "http://localhost" },
      body: JSON.stringify({ query: "{ __typename }" }),
    });
    expect(await json.json()).toEqual({ data: { __typename: "Query" } });
    const get = await send("/graphql?query=%7B__typename%7D", { headers: { "x-graphql-yoga-csrf": "1" } });
    expect(await get.json()).toEqual({ data: { __typename: "Query" } });
    const page = await send("/graphql", { headers: { accept: "text/html" } });
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/<title>dialogql<\/title>/);
  });

  it("gives other origins no CORS permission unless CORS_ORIGINS lists them", async () => {
    const preflight = await send("/graphql", {
      method: "OPTIONS",
      headers: { origin: "https://elsewhere.example", "access-control-request-method": "POST" },
    });
    expect(preflight.headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("production", () => {
  it("NODE_ENV=production turns GraphiQL and introspection off by default; each can be turned back on", () => {
    expect(loadConfig({ NODE_ENV: "production" })).toMatchObject({ GRAPHIQL: false, INTROSPECTION: false });
    expect(loadConfig({ NODE_ENV: "production", GRAPHIQL: "true" })).toMatchObject({
      GRAPHIQL: true,
      INTROSPECTION: false,
    });
    expect(loadConfig({})).toMatchObject({ GRAPHIQL: true, INTROSPECTION: true });
  });

  it("then serves no GraphiQL page, answers no introspection and suggests no field names", async () => {
    const production = testApp({ graphiql: false, introspection: false });
    const post = async (query: string) => {
      const response = await production.fetch("http://localhost/graphql", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query }),
      });
      return (await response.json()) as GraphQLResult;
    };
    const page = await production.fetch("http://localhost/graphql", { headers: { accept: "text/html" } });
    expect(await page.text()).not.toMatch(/graphiql/i);
    expect((await post("{ __schema { types { name } } }")).errors![0]!.message).toMatch(/introspection/i);
    const typo = await post("{ dialgs { edges { node { id } } } }");
    expect(JSON.stringify(typo)).not.toMatch(/Did you mean/);
  });
});

describe("request ids and unexpected errors", () => {
  it("every response carries x-request-id; a sane one from the load balancer is kept", async () => {
    const fresh = await send("/graphql", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"query":"{ __typename }"}',
    });
    expect(fresh.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await send("/graphql", {
      method: "POST",
      headers: { "content-type": "application/json", "x-request-id": "lb-1234" },
      body: '{"query":"{ __typename }"}',
    });
    expect(kept.headers.get("x-request-id")).toBe("lb-1234");
    const replaced = await send("/graphql", {
      method: "POST",
      headers: { "content-type": "application/json", "x-request-id": "no spaces or <tags> allowed" },
      body: '{"query":"{ __typename }"}',
    });
    expect(replaced.headers.get("x-request-id")).not.toBe("no spaces or <tags> allowed");
  });

  it("masks an unexpected error as INTERNAL_SERVER_ERROR with the request id, and logs it with that id", async () => {
    const logged = vi.spyOn(logger, "error").mockImplementation(() => undefined);
    const yoga = createYoga({
      schema: createSchema({
        typeDefs: "type Query { boom: String }",
        resolvers: { Query: { boom: () => Promise.reject(new Error("password=hunter2 at db:5432")) } },
      }),
      logging: false,
      context: ({ request }) => ({ requestId: requestIdOf(request) }),
      plugins: [useRequestId(), useErrorReporting()],
    });
    const response = await yoga.fetch("http://localhost/graphql", {
      method: "POST",
      headers: { "content-type": "application/json", "x-request-id": "req-42" },
      body: JSON.stringify({ query: "{ boom }" }),
    });
    const body = (await response.json()) as GraphQLResult;
    expect(body.errors![0]).toMatchObject({
      message: "Unexpected error.",
      extensions: { code: "INTERNAL_SERVER_ERROR", requestId: "req-42" },
    });
    expect(JSON.stringify(body)).not.toMatch(/hunter2/);
    expect(logged).toHaveBeenCalledWith(
      "request req-42: unexpected error",
      expect.objectContaining({ message: expect.stringMatching(/hunter2/) }),
    );
    logged.mockRestore();
  });
});
