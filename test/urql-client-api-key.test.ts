// An app's urql client (dialogql/client/react) given a tenant's API key, against a real server that
// has keys: the key travels as Authorization over HTTP and in graphql-ws connectionParams, so the
// tenant's dialogs are what the client reads, writes and hears live; and when the server refuses
// the caller (no key, a wrong key, a key revoked under an open socket) the app is told why.
import { beforeAll, describe, expect, it } from "vitest";
import { filter, onEnd, pipe, subscribe, take, toPromise } from "wonka";
import WebSocket from "ws";
import type { Client, OperationResult } from "urql";
import { revokeApiKey } from "../src/auth/api-keys.js";
import { store } from "./support/database.js";
import {
  CreateDialogDocument,
  CreateResponseDocument,
  DialogDocument,
  DialogsDocument,
  HistoryDeltaDocument,
} from "../src/client/index.js";
import { createDialogqlUrqlClient, type DialogqlUrqlOptions } from "../src/client/react/index.js";
import type { RunningServer } from "../src/server/http-server.js";
import { startTestServer } from "./support/live.js";
import { tenantKey } from "./support/tenants.js";

const NO_KEY = "An API key is required: send Authorization: Bearer <key>";
const WRONG_KEY = "Invalid or revoked API key";
const fresh = { requestPolicy: "network-only" } as const;

let server: RunningServer;
let acme: Awaited<ReturnType<typeof tenantKey>>;
let globex: Awaited<ReturnType<typeof tenantKey>>;

beforeAll(async () => {
  // Keys exist before the server starts: it is not in development mode.
  acme = await tenantKey("acme");
  globex = await tenantKey("globex");
  server = await startTestServer();
});

function urqlClient(options: DialogqlUrqlOptions) {
  return createDialogqlUrqlClient({ url: `${server.url}/graphql`, webSocketImpl: WebSocket, ...options });
}

async function createDialog(client: Client, title: string) {
  const { data, error } = await client.mutation(CreateDialogDocument, { input: { title } }).toPromise();
  if (error || data?.createDialog.__typename !== "Dialog")
    throw new Error(`createDialog: ${error ?? JSON.stringify(data)}`);
  return data.createDialog.id;
}

/** The first answer of historyDelta through urql's subscription exchange (over graphql-ws). */
function firstDelta(client: Client, dialogId: string): Promise<OperationResult> {
  return pipe(
    client.subscription(HistoryDeltaDocument, { dialogId, afterSeq: 0 }),
    filter((result) => Boolean(result.data || result.error)),
    take(1),
    toPromise,
  );
}

const closeCodeOf = (result: OperationResult) => (result.error?.networkError as unknown as { code?: number })?.code;

describe("the urql client with an API key", () => {
  it("sends the key over HTTP: what it writes and reads is its tenant's", async () => {
    const client = urqlClient({ apiKey: acme.key });
    const dialogId = await createDialog(client, "Acme's first dialog");

    const listed = await client.query(DialogsDocument, { first: 10 }, fresh).toPromise();
    expect(listed.error).toBeUndefined();
    expect(listed.data!.dialogs.edges.map((edge) => edge.node.id)).toEqual([dialogId]);

    // Another tenant's key reads the same id as one that does not exist.
    const asGlobex = await urqlClient({ apiKey: globex.key }).query(DialogDocument, { id: dialogId }).toPromise();
    expect(asGlobex.data?.dialog).toBeNull();
    expect(asGlobex.error?.graphQLErrors.map((e) => e.extensions.code)).toEqual(["NOT_FOUND"]);
  });

  it("sends the key over graphql-ws: a subscription hears its tenant's turn", async () => {
    const client = urqlClient({ apiKey: acme.key });
    const dialogId = await createDialog(client, "Heard live");
    const written = await client
      .mutation(CreateResponseDocument, {
        input: { dialogId, input: [{ human: { content: "Hello over the socket" } }] },
      })
      .toPromise();
    expect(written.error).toBeUndefined();

    const delta = await firstDelta(client, dialogId);
    expect(delta.error).toBeUndefined();
    expect(delta.data!.historyDelta).toMatchObject({
      dialogId,
      seq: 1,
      append: [{ __typename: "HumanEvent", content: "Hello over the socket" }],
    });
  });

  it("reads a key given as a function for every request, so the caller can change it", async () => {
    let current: string | null = acme.key;
    const refusals: string[] = [];
    const client = urqlClient({ apiKey: () => current, onUnauthenticated: (reason) => refusals.push(reason) });
    const acmeDialog = await createDialog(client, "Acme, then Globex");

    current = globex.key;
    const asGlobex = await client.query(DialogsDocument, { first: 10 }, fresh).toPromise();
    expect(asGlobex.data!.dialogs.edges.map((edge) => edge.node.id)).not.toContain(acmeDialog);

    current = null;
    const anonymous = await client.query(DialogsDocument, { first: 10 }, fresh).toPromise();
    expect(anonymous.error?.response?.status).toBe(401);
    expect(refusals).toEqual([NO_KEY]);
  });

  it("tells the app why the server refused: no key or a wrong one, over HTTP and graphql-ws", async () => {
    const dialogId = await createDialog(urqlClient({ apiKey: acme.key }), "Not for strangers");
    for (const [apiKey, reason] of [
      [undefined, NO_KEY],
      ["dq_" + "x".repeat(43), WRONG_KEY],
    ] as const) {
      const refusals: string[] = [];
      const client = urqlClient({ apiKey, onUnauthenticated: (refused) => refusals.push(refused) });

      const overHttp = await client.query(DialogsDocument, { first: 1 }).toPromise();
      expect(overHttp.error?.response?.status).toBe(401);
      expect(overHttp.error?.graphQLErrors.map((e) => e.extensions.code)).toEqual(["UNAUTHENTICATED"]);

      // The socket is refused at connection_init with 4401, which graphql-ws does not retry.
      const overWs = await firstDelta(client, dialogId);
      expect(closeCodeOf(overWs)).toBe(4401);
      expect(refusals).toEqual([reason, reason]);
    }
  });

  it("tells the app when its key is revoked under an open subscription (4403)", async () => {
    const temporary = await tenantKey("acme");
    const refusals: string[] = [];
    const client = urqlClient({ apiKey: temporary.key, onUnauthenticated: (reason) => refusals.push(reason) });
    const dialogId = await createDialog(client, "Revoked while watching");
    await client
      .mutation(CreateResponseDocument, { input: { dialogId, input: [{ human: { content: "hi" } }] } })
      .toPromise();

    const results: OperationResult[] = [];
    const ended = new Promise<void>((resolve) => {
      pipe(
        client.subscription(HistoryDeltaDocument, { dialogId, afterSeq: 0 }),
        filter((result) => Boolean(result.data || result.error)),
        take(2),
        onEnd(resolve),
        subscribe((result) => results.push(result)),
      );
    });
    await expect.poll(() => results.length).toBe(1);
    expect(results[0]!.data?.historyDelta.seq).toBe(1);

    await revokeApiKey(store, temporary.id);
    server.live.broadcast({ type: "keyRevoked", keyId: temporary.id });
    await ended;
    expect(closeCodeOf(results[1]!)).toBe(4403);
    expect(refusals).toEqual(["API key revoked"]);
  });
});
