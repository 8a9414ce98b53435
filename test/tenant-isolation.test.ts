// Two tenants on one server. Whatever tenant B does with tenant A's ids — read, write, fork, import,
// subscribe, fetch over REST; over HTTP, SSE and WebSocket — it gets exactly what it gets for ids
// that do not exist (same status, same error, same message once the id itself is set aside), and
// A's data is untouched. Lists show each tenant only its own dialogs.
import SchemaBuilder from "@pothos/core";
import {
  type GraphQLField,
  type GraphQLInputType,
  getNamedType,
  getNullableType,
  graphql as execute,
  isInputObjectType,
  isListType,
} from "graphql";
import { beforeAll, describe, expect, it } from "vitest";
import { prisma } from "./support/database.js";
import { schema } from "../src/schema/index.js";
import TenantScopePlugin, { type TenantRule } from "../src/schema/tenant-scope-plugin.js";
import type { RunningServer } from "../src/server/http-server.js";
import { startTestServer, subscribe } from "./support/live.js";
import {
  asCaller,
  firstResult,
  restAs,
  sseAs,
  tenantKey,
  unknownIds,
  wsAs,
  type RawAnswer,
} from "./support/tenants.js";
import { graphql } from "../src/client/generated/index.js";
import { member } from "./support/narrow.js";

interface Ids {
  dialog: string;
  response: string;
}

let server: RunningServer;
let keyA: string;
let keyB: string;
let a: Ids & { open: string; title: string };
let ownDialogOfB: string;

const WRITE = `__typename ... on Error { code message }`;

const CREATE_RESPONSE = graphql(`
  mutation TenantIsolationCreateResponse {
    createResponse(input: { input: [{ human: { content: "secret" } }], output: [{ ai: { content: "ok" } }] }) {
      ... on Response {
        id
        dialog {
          id
          title
        }
      }
    }
  }
`);

const CREATE_RESPONSE2 = graphql(`
  mutation TenantIsolationCreateResponse2($d: ID!) {
    createResponse(input: { dialogId: $d, input: [{ human: { content: "more" } }] }) {
      ... on Response {
        id
      }
    }
  }
`);

const UPDATE_DIALOG = graphql(`
  mutation TenantIsolationUpdateDialog($d: ID!) {
    updateDialog(input: { id: $d, title: "A's dialog" }) {
      __typename
    }
  }
`);

const CREATE_DIALOG = graphql(`
  mutation TenantIsolationCreateDialog {
    createDialog(input: { title: "B's" }) {
      ... on Dialog {
        id
      }
    }
  }
`);

beforeAll(async () => {
  server = await startTestServer();
  [keyA, keyB] = [(await tenantKey("alpha")).key, (await tenantKey("beta")).key];
  const asA = asCaller(server, keyA);
  const created = await asA(CREATE_RESPONSE);
  const dialog = created.body.data!.createResponse.dialog.id;
  const open = await asA(CREATE_RESPONSE2, { d: dialog });
  await asA(UPDATE_DIALOG, { d: dialog });
  a = {
    dialog,
    response: created.body.data!.createResponse.id,
    open: open.body.data!.createResponse.id,
    title: "A's dialog",
  };
  const own = await asCaller(server, keyB)(CREATE_DIALOG);
  ownDialogOfB = own.body.data!.createDialog.id;
});

const rootFieldsOf = (of: typeof schema) =>
  [of.getQueryType(), of.getMutationType(), of.getSubscriptionType()].flatMap((type) =>
    Object.values(type?.getFields() ?? {}),
  ) as GraphQLField<unknown, unknown>[];

/** Dotted paths of the ID values an argument of `type` holds (inside input objects and lists). */
function idPathsOf(type: GraphQLInputType, path: string[]): string[] {
  const inner = getNullableType(type);
  if (isListType(inner)) return idPathsOf(inner.ofType, path);
  if (isInputObjectType(inner)) {
    // Events carry call ids, not ids of rows.
    if (inner.name === "HistoryEventInput") return [];
    return Object.values(inner.getFields()).flatMap((field) => idPathsOf(field.type, [...path, field.name]));
  }
  return getNamedType(inner).name === "ID" ? [path.join(".")] : [];
}

/** Runs `operation` as B with A's ids and with unknown ids; the answers must match once ids are set aside. */
async function expectSameAsUnknown(operation: (ids: Ids & { open: string }) => Promise<unknown>) {
  const unknown = { ...unknownIds(), open: unknownIds().response };
  const withA = await operation(a);
  const withUnknown = await operation(unknown);
  const blank = (value: unknown, ids: string[]) =>
    ids.reduce((text, id) => text.replaceAll(id, "<id>"), JSON.stringify(value));
  expect(blank(withA, [a.dialog, a.response, a.open])).toBe(
    blank(withUnknown, [unknown.dialog, unknown.response, unknown.open]),
  );
  return withA;
}

const DIALOG_HISTORY = graphql(`
  query TenantIsolationDialogHistory($d: ID!, $r: ID!) {
    dialog(id: $d) {
      history(responseId: $r) {
        totalMessages
      }
    }
  }
`);

const DIALOGS_EDGES = graphql(`
  query TenantIsolationDialogsEdges {
    dialogs(first: 100) {
      edges {
        node {
          id
        }
      }
    }
  }
`);

const DIALOG_TITLE = graphql(`
  query TenantIsolationDialogTitle($d: ID!) {
    dialog(id: $d) {
      title
      lastSeq
      responses {
        edges {
          node {
            id
          }
        }
      }
      head {
        id
        status
      }
    }
  }
`);

describe("tenant B naming tenant A's ids", () => {
  const asB = () => asCaller(server, keyB);

  const operations: [string, string, (ids: Ids & { open: string }) => Record<string, unknown>][] = [
    ["reads the dialog", `query($d: ID!) { dialog(id: $d) { id title } }`, (ids) => ({ d: ids.dialog })],
    ["reads the response", `query($r: ID!) { response(id: $r) { id } }`, (ids) => ({ r: ids.response })],
    [
      "compares its branches",
      `query($r: ID!, $o: ID!) { compareBranches(a: $r, b: $o) { commonAncestor { id } } }`,
      (ids) => ({ r: ids.response, o: ids.open }),
    ],
    [
      "updates the dialog",
      `mutation($d: ID!) { updateDialog(input: { id: $d, title: "B was here" }) { ${WRITE} } }`,
      (ids) => ({ d: ids.dialog }),
    ],
    [
      "clears the dialog",
      `mutation($d: ID!) { clearDialog(input: { id: $d }) { ${WRITE} } }`,
      (ids) => ({ d: ids.dialog }),
    ],
    [
      "deletes the dialog",
      `mutation($d: ID!) { deleteDialog(input: { id: $d }) { ${WRITE} } }`,
      (ids) => ({ d: ids.dialog }),
    ],
    [
      "forks the response",
      `mutation($r: ID!) { forkDialog(input: { responseId: $r }) { ${WRITE} } }`,
      (ids) => ({ r: ids.response }),
    ],
    [
      "writes to the dialog",
      `mutation($d: ID!) { createResponse(input: { dialogId: $d, input: [{ human: { content: "x" } }] }) { ${WRITE} } }`,
      (ids) => ({ d: ids.dialog }),
    ],
    [
      "chains to the response",
      `mutation($r: ID!) { createResponse(input: { previousResponseId: $r, input: [{ human: { content: "x" } }] }) { ${WRITE} } }`,
      (ids) => ({ r: ids.response }),
    ],
    [
      "appends events",
      `mutation($r: ID!) { appendEvents(input: { responseId: $r, events: [{ ai: { content: "x" } }] }) { ${WRITE} } }`,
      (ids) => ({ r: ids.open }),
    ],
    [
      "completes the response",
      `mutation($r: ID!) { completeResponse(input: { responseId: $r }) { ${WRITE} } }`,
      (ids) => ({ r: ids.open }),
    ],
    [
      "interrupts the response",
      `mutation($r: ID!) { interruptResponse(input: { responseId: $r, behavior: DISCARD }) { ${WRITE} } }`,
      (ids) => ({ r: ids.open }),
    ],
    [
      "imports into the dialog",
      `mutation($d: ID!) { importMessages(input: { dialogId: $d, format: OPENAI_CHAT, messages: [{ role: "user", content: "x" }] }) { ${WRITE} } }`,
      (ids) => ({ d: ids.dialog }),
    ],
    [
      "generates after the response",
      `mutation($r: ID!) { generateResponse(input: { previousResponseId: $r, model: "m", input: [{ human: { content: "x" } }] }) { ${WRITE} } }`,
      (ids) => ({ r: ids.response }),
    ],
    [
      "approves a tool call of the response",
      `mutation($r: ID!) { approveToolCall(input: { responseId: $r, approvalRequestId: "mcpr_x", approve: true }) { ${WRITE} } }`,
      (ids) => ({ r: ids.response }),
    ],
    [
      "cancels the response",
      `mutation($r: ID!) { cancelResponse(responseId: $r) { ${WRITE} } }`,
      (ids) => ({ r: ids.open }),
    ],
    ["titles the dialog", `mutation($d: ID!) { titleDialog(dialogId: $d) { ${WRITE} } }`, (ids) => ({ d: ids.dialog })],
    [
      "shares the dialog",
      `mutation($d: ID!) { createShareLink(input: { dialogId: $d }) { ${WRITE} } }`,
      (ids) => ({ d: ids.dialog }),
    ],
    [
      "shares the branch",
      `mutation($d: ID!, $r: ID!) { createShareLink(input: { dialogId: $d, responseId: $r }) { ${WRITE} } }`,
      (ids) => ({ d: ids.dialog, r: ids.response }),
    ],
    [
      "imports after the response",
      `mutation($r: ID!) { importMessages(input: { previousResponseId: $r, format: OPENAI_CHAT, messages: [{ role: "user", content: "x" }] }) { ${WRITE} } }`,
      (ids) => ({ r: ids.response }),
    ],
  ];

  it("every root field of the schema is scoped: each has a case in this file", () => {
    // Root fields named by `operations` run as B with A's ids above; the others are covered by
    // the tests named here. A new root field fails this test until its isolation is tested.
    const coveredElsewhere: Record<string, string> = {
      dialogs: "lists only its own dialogs",
      createDialog: "names no id: the dialog is stamped with the caller's tenant (lists only its own dialogs)",
      historyDelta: "subscribes over SSE and WebSocket",
      responseUpdated: "subscribes over SSE and WebSocket",
      search: "test/search.test.ts, search across tenants",
      streamText: "test/live-in-flight-text.test.ts, another tenant's response is not found",
      commitText: "test/live-in-flight-text.test.ts, another tenant's response is not found",
      models: "names no id: the server's configured models",
      usage: "test/usage-budgets.test.ts, tenant B sees none of tenant A's usage (GraphQL and CSV)",
      budgets: "test/usage-budgets.test.ts, budgets are listed to the tenant's callers only",
      budgetSpend: "names no id: the budgets of the caller's own key and tenant",
      setBudget: "test/usage-budgets.test.ts, a subject outside the caller's tenant is not found",
      removeBudget: "test/usage-budgets.test.ts, another tenant cannot remove a budget",
      importChats: "test/import-chats.test.ts: the dialogs it makes are the caller's, and import keys are per tenant",
      revokeShareLink: "test/share-links.test.ts: another tenant's token is not found",
    };
    const exercised = operations.map(([, query]) => /\{\s*(\w+)\(/.exec(query)![1]!);
    const rootFields = rootFieldsOf(schema).map((field) => field.name);
    const uncovered = rootFields.filter((field) => !exercised.includes(field) && !(field in coveredElsewhere));
    expect(uncovered).toEqual([]);
  });

  it("every root field declares its tenant rule, and the rule names each id argument it is given", () => {
    // ID arguments a "caller" field checks in its own query, filtered by the caller's tenant
    // (each has a case above or in the test named here).
    const filteredByTheirQuery: Record<string, string[]> = {
      dialog: ["id"],
      response: ["id"],
      historyDelta: ["dialogId", "textOffsets.responseId"],
      streamText: ["input.responseId"],
      // Looked up among the events of input.responseId, which the rule checks.
      approveToolCall: ["input.approvalRequestId"],
      // A filter, ANDed with the caller's tenant: another tenant's dialog matches nothing.
      dialogs: ["filter.dialogId"],
      search: ["filter.dialogId"],
      // The ledger is read with the caller's tenant in the query: another tenant's key matches nothing.
      usage: ["filter.apiKeyIds"],
      // Deleted only with the caller's tenant in the query.
      removeBudget: ["id"],
    };
    const problems: string[] = [];
    for (const field of rootFieldsOf(schema)) {
      const rule = field.extensions.tenant as TenantRule | undefined;
      if (!rule) {
        problems.push(`${field.name}: no rule`);
        continue;
      }
      const named =
        typeof rule === "string" ? [] : [rule.dialogs ?? [], rule.responses ?? [], rule.chainedTo ?? []].flat();
      const idPaths = field.args.flatMap((arg) => idPathsOf(arg.type, [arg.name]));
      for (const path of named) if (!idPaths.includes(path)) problems.push(`${field.name}: names no argument ${path}`);
      for (const path of idPaths) {
        if (!named.includes(path) && !filteredByTheirQuery[field.name]?.includes(path)) {
          problems.push(`${field.name}: ${path} is not checked`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  for (const [what, query, variables] of operations) {
    it(`${what} over HTTP: same answer as for an unknown id`, async () => {
      const answer = (await expectSameAsUnknown((ids) => asB()(query, variables(ids)))) as RawAnswer;
      expect(JSON.stringify(answer.body)).toMatch(/NOT_FOUND/);
    });
  }

  it("reads another branch of its own dialog by A's response id: same as an unknown id", async () => {
    await expectSameAsUnknown((ids) =>
      asB()(DIALOG_HISTORY, {
        d: ownDialogOfB,
        r: ids.response,
      }),
    );
  });

  it("fetches the REST history, of the dialog or of a response: same 404 as an unknown id", async () => {
    const rest = restAs(server, keyB);
    const byDialog = (await expectSameAsUnknown((ids) => rest(`/api/dialogs/${ids.dialog}/history`))) as RawAnswer;
    expect(byDialog.status).toBe(404);
    const byResponse = (await expectSameAsUnknown((ids) =>
      rest(`/api/dialogs/${ownDialogOfB}/history?response_id=${ids.response}`),
    )) as RawAnswer;
    expect(byResponse.status).toBe(404);
  });

  it("subscribes over SSE and WebSocket: same error as for an unknown id", async () => {
    const history = graphql(`
      subscription TenantIsolationHistoryDeltaSeq($d: ID!) {
        historyDelta(dialogId: $d, afterSeq: 0) {
          seq
        }
      }
    `);
    const updates = graphql(`
      subscription TenantIsolationResponseUpdatedId($r: ID!) {
        responseUpdated(responseId: $r) {
          id
          status
        }
      }
    `);
    const overSse = await expectSameAsUnknown((ids) =>
      firstResult(subscribe(sseAs(server, keyB), history, { d: ids.dialog })),
    );
    expect(JSON.stringify(overSse)).toMatch(/NOT_FOUND/);
    const overWs = await expectSameAsUnknown((ids) =>
      firstResult(subscribe(wsAs(server, keyB), history, { d: ids.dialog })),
    );
    expect(JSON.stringify(overWs)).toMatch(/NOT_FOUND/);
    await expectSameAsUnknown((ids) => firstResult(subscribe(wsAs(server, keyB), updates, { r: ids.open })));
  });

  it("lists only its own dialogs", async () => {
    const listed = await asB()(DIALOGS_EDGES);
    expect(listed.body.data!.dialogs.edges.map((e) => e.node.id)).toEqual([ownDialogOfB]);
  });

  it("left tenant A's data exactly as it was", async () => {
    const asA = asCaller(server, keyA);
    const seen = await asA(DIALOG_TITLE, {
      d: a.dialog,
    });
    expect(seen.body.errors).toBeUndefined();
    expect(seen.body.data!.dialog).toEqual({
      title: a.title,
      lastSeq: 3,
      responses: { edges: [{ node: { id: a.response } }, { node: { id: a.open } }] },
      head: { id: a.open, status: "IN_PROGRESS" },
    });
    expect(await prisma.dialog.count({ where: { tenantId: "alpha" } })).toBe(1);
  });
});

const CREATE_RESPONSE3 = graphql(`
  mutation TenantIsolationCreateResponse3($c: String!) {
    createResponse(input: { idempotencyKey: "shared", input: [{ human: { content: $c } }] }) {
      __typename
      ... on Response {
        id
      }
    }
  }
`);

describe("idempotency keys per tenant", () => {
  it("the same key in two tenants makes two responses, neither a conflict", async () => {
    const write = (key: string, content: string) => asCaller(server, key)(CREATE_RESPONSE3, { c: content });
    const ofA = (await write(keyA, "from A")).body.data!.createResponse;
    const ofB = (await write(keyB, "from B")).body.data!.createResponse;
    expect([ofA.__typename, ofB.__typename]).toEqual(["Response", "Response"]);
    expect(member(ofA, "Response").id).not.toBe(member(ofB, "Response").id);
    expect(member((await write(keyB, "from B")).body.data!.createResponse, "Response").id).toBe(
      member(ofB, "Response").id,
    );
  });
});

describe("the tenant rule, declared once per root field", () => {
  const newBuilder = () =>
    // The app's builder's plugins, but this one, need options these small schemas do not use.
    new SchemaBuilder<{ Context: { scope: { optionalDialog(id: string | null): Promise<void> } } }>({
      plugins: [TenantScopePlugin],
    } as never);

  it("is required: a root field without one fails the schema build", () => {
    const builder = newBuilder();
    builder.queryType({});
    builder.queryField("forgotten", (t) => t.string({ args: { id: t.arg.id() }, resolve: () => "read" }));
    expect(() => builder.toSchema()).toThrow(/Query\.forgotten declares no tenant rule/);
  });

  it("is checked before the resolver runs: an id the caller does not own never reaches it", async () => {
    const builder = newBuilder();
    builder.queryType({});
    const resolved: string[] = [];
    builder.queryField("read", (t) =>
      t.string({
        args: { id: t.arg.id({ required: true }) },
        tenant: { dialogs: ["id"] },
        resolve: (_root, { id }) => (resolved.push(String(id)), "read"),
      }),
    );
    const owned = new Set(["mine"]);
    const contextValue = {
      store: { retentionMs: null },
      scope: {
        optionalDialog: async (id: string | null) => {
          if (id != null && !owned.has(id)) throw new Error(`Dialog ${id} not found`);
        },
        optionalResponse: async () => {},
      },
    };
    const run = (id: string) =>
      execute({
        schema: builder.toSchema(),
        source: `query($id: ID!) { read(id: $id) }`,
        variableValues: { id },
        contextValue,
      });
    expect((await run("mine")).data).toEqual({ read: "read" });
    expect((await run("theirs")).errors?.map((error) => error.message)).toEqual(["Dialog theirs not found"]);
    expect(resolved).toEqual(["mine"]);
  });
});
