// API keys at the door: single-tenant development mode while no key exists, AUTH=required refusing
// everyone without a key, 401 for missing/malformed/unknown/revoked keys on every transport, one
// cached lookup per request, and a revoked key's open WebSocket and SSE connections closed.
import { createClient as createWsClient } from "graphql-ws";
import { store, testConfig } from "./support/database.js";
import { describe, expect, it } from "vitest";
import WebSocket from "ws";
import { revokeApiKey } from "../src/auth/api-keys.js";
import { startServer } from "../src/server/http-server.js";
import { startTestServer } from "./support/live.js";
import { countStatements } from "./support/query-counter.js";
import { asCaller, restAs, sseAs, tenantKey, wsAs } from "./support/tenants.js";
import { graphql } from "../src/client/generated/index.js";

const TYPENAME = "{ __typename }";

const CREATE_DIALOG = graphql(`
  mutation AuthenticationCreateDialog {
    createDialog(input: { title: "dev" }) {
      ... on Dialog {
        id
      }
    }
  }
`);

const _TYPENAME = graphql(`
  query Authentication_Typename {
    __typename
  }
`);

const CREATE_RESPONSE = graphql(`
  mutation AuthenticationCreateResponse {
    createResponse(input: { input: [{ human: { content: "hi" } }] }) {
      ... on Response {
        dialog {
          id
        }
      }
    }
  }
`);

describe("authentication", () => {
  it("runs in single-tenant development mode while no key exists; AUTH=required refuses all the same", async () => {
    const open = await startTestServer();
    const anonymous = await asCaller(open, null)(CREATE_DIALOG);
    expect(anonymous.status).toBe(200);
    // OpenAI-compatible clients always send some key: while none exists, any value is accepted.
    for (const placeholder of ["sk-any", "dq_" + "y".repeat(43)]) {
      const withPlaceholder = await asCaller(open, placeholder)(_TYPENAME);
      expect(withPlaceholder.status, placeholder).toBe(200);
    }
    expect(await open.authenticator.describe()).toMatchObject({
      level: "warn",
      message: expect.stringContaining("single-tenant development mode"),
    });

    const strict = await startServer({ store, config: testConfig, port: 0, auth: "required" });
    try {
      const refused = await asCaller(strict, null)(TYPENAME);
      expect(refused.status).toBe(401);
      expect(refused.body.errors![0]!.extensions?.code).toBe("UNAUTHENTICATED");
      expect(await strict.authenticator.describe()).toMatchObject({
        message: expect.stringContaining("AUTH=required"),
      });
    } finally {
      await strict.close();
    }
  });

  it("once a key exists, refuses calls without a valid key on HTTP, REST, SSE and WebSocket", async () => {
    const server = await startTestServer();
    await tenantKey("acme");
    // What `npm run keys -- create` tells running servers (through Redis when there is one).
    server.live.broadcast({ type: "keysChanged" });

    for (const key of [null, "dq_" + "x".repeat(43), "sk-any"]) {
      const http = await asCaller(server, key)(TYPENAME);
      expect([http.status, http.body.errors![0]!.extensions?.code]).toEqual([401, "UNAUTHENTICATED"]);
      const rest = await restAs(server, key)("/api/dialogs/01JNOSUCH/history");
      expect(rest.status).toBe(401);
      expect(rest.body).toEqual({ detail: expect.stringMatching(/API key/) });
    }
    const malformed = await fetch(`${server.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Basic abc" },
      body: JSON.stringify({ query: TYPENAME }),
    });
    expect(malformed.status).toBe(401);
    expect(malformed.headers.get("www-authenticate")).toBe("Bearer");

    const sse = await sseAs(server, null)
      .iterate({ query: `subscription { historyDelta(dialogId: "x") { seq } }` })
      .next()
      .catch((e) => e);
    expect(String(sse)).toMatch(/401|UNAUTHENTICATED|API key/);

    const closed = await new Promise<number>((resolve) => {
      const client = createWsClient({
        url: `${server.url.replace(/^http/, "ws")}/graphql`,
        webSocketImpl: WebSocket,
        retryAttempts: 0,
        on: { closed: (event) => resolve((event as { code: number }).code) },
      });
      client.subscribe(
        { query: TYPENAME },
        { next: () => undefined, error: () => undefined, complete: () => undefined },
      );
    });
    expect(closed).toBe(4401);
  });

  it("costs one lookup for a key's first request and none after (cached)", async () => {
    // The whole process is counted: no revocation poll may fire meanwhile (every second by default,
    // which a loaded machine can take for one request).
    const server = await startTestServer({ revocationPollMs: 3_600_000 });
    const { key } = await tenantKey("cached");
    const call = asCaller(server, key);
    // Served over HTTP, in the server's async context: count what the whole process sends.
    const first = await countStatements(() => call(TYPENAME), { wholeProcess: true });
    const second = await countStatements(() => call(TYPENAME), { wholeProcess: true });
    expect(first.result.status).toBe(200);
    // The whole process is counted, so the work of other apps' timers (sweeps and revocation polls
    // of servers that earlier tests or other files of this worker started) can fall in the window:
    // the lookups of a key by its hash are what is asserted (not the "does any key exist?" count,
    // refreshed every few seconds by whichever request, nor another server's revocation poll).
    const keyReads = (statements: string[]) =>
      statements.filter((sql) => sql.includes('"ApiKey"') && sql.includes('"hash"') && !/\bCOUNT\(/i.test(sql));
    expect(keyReads(first.statements)).toHaveLength(1);
    expect(keyReads(second.statements)).toHaveLength(0);
  });

  it("closes a revoked key's open WebSocket and SSE subscriptions and refuses it from then on", async () => {
    const server = await startTestServer();
    const { key, id } = await tenantKey("revoked");
    const write = asCaller(server, key);
    const created = await write(CREATE_RESPONSE);
    const dialogId = created.body.data!.createResponse.dialog.id;
    const subscription = {
      query: `subscription($d: ID!) { historyDelta(dialogId: $d, afterSeq: 0) { seq } }`,
      variables: { d: dialogId },
    };
    const overWs = wsAs(server, key).iterate(subscription);
    const overSse = sseAs(server, key).iterate(subscription);
    expect((await overWs.next()).value).toEqual({ data: { historyDelta: { seq: 1 } } });
    expect((await overSse.next()).value).toEqual({ data: { historyDelta: { seq: 1 } } });

    await revokeApiKey(store, id);
    server.live.broadcast({ type: "keyRevoked", keyId: id });
    const wsEnd = await overWs.next().catch((error) => error);
    expect(wsEnd).toMatchObject({ code: 4403, reason: "API key revoked" });
    const sseEnd = await overSse.next().then(
      (result) => result,
      (error) => ({ error: String(error) }),
    );
    expect(sseEnd).not.toMatchObject({ value: { data: expect.anything() } });
    expect((await write(TYPENAME)).status).toBe(401);
  });

  it("learns of a revocation it was not told about by polling the database", async () => {
    // Not rate limited: the loop below may ask more than a key's share of a second.
    const server = await startTestServer({ revocationPollMs: 50, limits: { rateLimitRequests: 0 } });
    const { key, id } = await tenantKey("polled");
    expect((await asCaller(server, key)(TYPENAME)).status).toBe(200); // verified, and cached
    await revokeApiKey(store, id); // in the database only, as `npm run keys` without Redis
    const started = Date.now();
    let status = 200;
    // Each request answers from the cache until a poll has read the revocation.
    while (status === 200 && Date.now() - started < 15_000) status = (await asCaller(server, key)(TYPENAME)).status;
    expect(status).toBe(401);
  });
});
