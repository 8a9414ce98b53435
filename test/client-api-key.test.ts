// dialogql/client's own client (createDialogqlClient) and watchHistory given a tenant's API key,
// against a real server that has keys: the key travels over HTTP, SSE and graphql-ws alike, and a
// watcher the server refuses stops with status "unauthenticated" instead of retrying forever.
import { beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { revokeApiKey } from "../src/auth/api-keys.js";
import { store } from "./support/database.js";
import {
  CreateDialogDocument,
  CreateResponseDocument,
  createDialogqlClient,
  type DialogqlClientOptions,
} from "../src/client/index.js";
import type { RunningServer } from "../src/server/http-server.js";
import { startTestServer } from "./support/live.js";
import { tenantKey } from "./support/tenants.js";

let server: RunningServer;
let acme: Awaited<ReturnType<typeof tenantKey>>;

beforeAll(async () => {
  // Keys exist before the server starts: it is not in development mode.
  acme = await tenantKey("acme");
  server = await startTestServer();
});

const clientWith = (options: Partial<DialogqlClientOptions>) =>
  createDialogqlClient({ url: `${server.url}/graphql`, webSocketImpl: WebSocket, ...options });

async function dialogWithTurn(apiKey: string) {
  const client = clientWith({ apiKey });
  const { createDialog } = await client.request(CreateDialogDocument, { input: { title: "Keyed" } });
  if (createDialog.__typename !== "Dialog") throw new Error(JSON.stringify(createDialog));
  await client.request(CreateResponseDocument, {
    input: { dialogId: createDialog.id, input: [{ human: { content: "Hello" } }] },
  });
  return { client, dialogId: createDialog.id };
}

describe("createDialogqlClient with an API key", () => {
  for (const transport of ["ws", "sse"] as const) {
    it(`follows a dialog live over ${transport}`, async () => {
      const { client, dialogId } = await dialogWithTurn(acme.key);
      const watcher = clientWith({ apiKey: acme.key, transport }).watchHistory(dialogId);
      await watcher.until((state) => state.status === "live" && state.events.length === 1, 10_000);
      await client.request(CreateResponseDocument, { input: { dialogId, input: [{ human: { content: "Again" } }] } });
      const state = await watcher.until((s) => s.events.length === 2, 10_000);
      expect(state.events.map((event: any) => event.content)).toEqual(["Hello", "Again"]);
      watcher.close();
    });
  }

  it("stops watching, without retrying, when the server refuses the key", async () => {
    const { dialogId } = await dialogWithTurn(acme.key);
    const watcher = clientWith({ apiKey: "dq_" + "x".repeat(43) }).watchHistory(dialogId, { retryDelay: () => 10 });
    const state = await watcher.until((s) => s.status !== "loading", 10_000);
    expect(state.status).toBe("unauthenticated");
    expect(state.error?.message).toContain("Invalid or revoked API key");
    watcher.close();
  });

  it("stops watching when its key is revoked under the open socket", async () => {
    const temporary = await tenantKey("acme");
    const { dialogId } = await dialogWithTurn(temporary.key);
    const watcher = clientWith({ apiKey: temporary.key }).watchHistory(dialogId, { retryDelay: () => 10 });
    await watcher.until((s) => s.status === "live", 10_000);
    await revokeApiKey(store, temporary.id);
    const state = await watcher.until((s) => s.status !== "live", 10_000);
    expect(state.status).toBe("unauthenticated");
    watcher.close();
  });
});
