// Tables ready to be distributed by dialog (issue 32, docs/scaling.md "Tables ready to distribute
// by dialog"): every statement the hot paths send to Response, Event or InFlightChunk names the
// dialog, so a database that spreads those tables over machines by dialog id could send each to the
// one machine holding that dialog. The hot paths run here as a client would drive them — GraphQL
// writes, streamed text, a subscription's catch-up and live deltas, history reads, /v1 turns, and
// the tenant-wide lists (search and dialogs: bounded, not keyed by dialog) — with
// the statement log on. The statements that cannot name the dialog (they are how a bare response
// id is resolved to its dialog, or tenant-wide by nature) are listed by name below and in the doc:
// a new statement on these tables that names no dialog fails this file.
import { beforeAll, describe, expect, it } from "vitest";
import { onStatement } from "../src/statement-log.js";
import { startGeneratingServer, type GeneratingServer } from "./support/generating-server.js";
import { firstResult, asCaller, restAs, wsAs } from "./support/tenants.js";
import { TextSubscriber, iterateTextDeltas } from "./support/text-stream.js";

let g: GeneratingServer;
beforeAll(async () => {
  g = await startGeneratingServer();
});

const sent: string[] = [];
let recording = false;
onStatement((sql) => recording && sent.push(sql.replace(/\s+/g, " ").trim()));

/** The tables distributed by dialog (Dialog itself is keyed by its id: `WHERE id = dialog`). */
const DIALOG_TABLES = /"(?:public"\.")?(Response|Event|InFlightChunk)"/;
/** A statement naming the dialog: a condition on a dialogId column, or the row's dialogId written. */
const NAMES_DIALOG = /"dialogId" = |"dialogId" IN |"dialogId" = \$|INSERT INTO "(Response|Event)" \(id, "dialogId"/;

/**
 * What may name no dialog, each with why (the same rows as docs/scaling.md). Each matches the
 * start of the statement's text.
 */
const WITHOUT_DIALOG: Record<string, RegExp> = {
  // Resolving a bare response id (a client's only handle) to its dialog: the lookup itself.
  "a write to a response id: its dialog": /^SELECT "dialogId" FROM "Response" WHERE id = \$1$/,
  "previous_response_id / previousResponseId: its dialog and depth":
    /^SELECT id, "dialogId", depth FROM "Response" WHERE id = \$1$/,
  "streamed text to a response id: its row and tenant": /^SELECT r\.\*, d\."tenantId", .* WHERE r\.id = \$1$/,
  "response(id:), /v1/responses/{id}: the row by id (Prisma)":
    /^SELECT "public"\."Response"\."id", .* WHERE \(?"public"\."Response"\."id" (=|IN)/,
  "Response.context: the row by id and tenant":
    /^SELECT r\.\* FROM "Response" r JOIN "Dialog" d ON d\.id = r\."dialogId" WHERE r\.id = \$1 AND d\."tenantId" = \$2$/,
  // Reads of a response's events through Prisma's relation (by responseId): Prisma knows no
  // composite relation here yet (docs/scaling.md, the plan).
  "a response's events by Prisma relation":
    /^SELECT "public"\."Event"\."id", .* WHERE .*"public"\."Event"\."responseId" (=|IN)/,
  // Tenant-wide by nature, counted up to COUNT_CAP.
  search: /^WITH matched AS MATERIALIZED \(SELECT e\.id FROM "Event" e JOIN "Dialog" d/,
  "search's count": /^SELECT count\(\*\)::int AS n FROM \(SELECT 1 FROM "Event" e JOIN "Dialog" d/,
  // A timer of the app, not a request: which responses had text in flight when it started.
  "the in-flight text recovery":
    /^SELECT "public"\."Response"\."id" FROM "public"\."Response" WHERE \("public"\."Response"\."status"/,
};

const unexplained = (statements: string[]) =>
  statements.filter(
    (sql) =>
      DIALOG_TABLES.test(sql) &&
      !NAMES_DIALOG.test(sql) &&
      !Object.values(WITHOUT_DIALOG).some((allowed) => allowed.test(sql)) &&
      !sql.includes('"ApiKey"'),
  );

async function graphql(query: string, variables?: Record<string, unknown>) {
  const { body } = await asCaller(g.server, g.key)(query, variables);
  if (body.errors?.length) throw new Error(JSON.stringify(body.errors));
  return body.data as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** One-line documents of the operations the story sends. */
const OPS = {
  create: `mutation ($i: CreateResponseInput!) { createResponse(input: $i) { ... on Response { id dialog { id } } } }`,
  append: `mutation ($i: AppendEventsInput!) { appendEvents(input: $i) { __typename } }`,
  text: `mutation ($i: StreamTextInput!) { streamText(input: $i) { __typename } }`,
  complete: `mutation ($i: CompleteResponseInput!) { completeResponse(input: $i) { __typename } }`,
  interrupt: `mutation ($i: InterruptResponseInput!) { interruptResponse(input: $i) { __typename } }`,
  response: `query ($id: ID!) { response(id: $id) { id status output { __typename } } }`,
  history: `query ($d: ID!) { dialog(id: $d) { history(first: 50) { totalMessages edges { cursor } } } }`,
  context: `query ($id: ID!) { response(id: $id) { context(first: 50) { totalMessages } } }`,
  updates: `subscription ($id: ID!) { responseUpdated(responseId: $id) { id status } }`,
  search: `query ($q: String!) { search(query: $q, first: 5) { totalCount } }`,
  dialogs: `query ($n: Int) { dialogs(first: $n) { totalCount } }`,
};
const human = (content: string) => [{ human: { content } }];

describe("hot-path statements name the dialog", () => {
  it("writes, text, subscriptions, history reads, /v1 turns and the tenant-wide lists", async () => {
    recording = true;
    const { createResponse: first } = await graphql(OPS.create, { i: { model: "m", input: human("Hi") } });
    const dialogId = first.dialog.id as string;
    const watcher = new TextSubscriber(iterateTextDeltas(wsAs(g.server, g.key)), { dialogId, afterSeq: 0 });
    await watcher.until((w) => w.events.length === 1);
    const firstUpdate = firstResult(wsAs(g.server, g.key).iterate({ query: OPS.updates, variables: { id: first.id } }));

    await graphql(OPS.append, { i: { responseId: first.id, events: [{ reasoning: { content: "Hmm" } }] } });
    for (const delta of ["Hel", "lo"]) await graphql(OPS.text, { i: { responseId: first.id, type: "AI", delta } });
    await graphql(OPS.complete, { i: { responseId: first.id } });
    expect(await firstUpdate).toMatchObject({ data: { responseUpdated: { id: first.id } } });
    const output = [{ ai: { content: "Sure" } }];
    const chained = { previousResponseId: first.id, input: human("More"), output };
    const { createResponse: second } = await graphql(OPS.create, { i: chained });
    const { createResponse: third } = await graphql(OPS.create, { i: { dialogId, input: human("Stop") } });
    await graphql(OPS.text, { i: { responseId: third.id, type: "AI", delta: "Half" } });
    await graphql(OPS.interrupt, { i: { responseId: third.id, behavior: "SAVE_PARTIAL" } });
    await watcher.until((w) => w.events.some((event) => event.content === "Half"));

    await graphql(OPS.response, { id: second.id });
    await graphql(OPS.history, { d: dialogId });
    await graphql(OPS.context, { id: second.id });
    expect((await restAs(g.server, g.key)(`/api/dialogs/${dialogId}/history`)).status).toBe(200);

    const turn = await g.openai.responses.create({ model: "stand-in-1", input: "Hi", previous_response_id: third.id });
    const streamed = await g.openai.responses
      .stream({ model: "stand-in-1", previous_response_id: turn.id, input: "A story" })
      .finalResponse();
    await g.openai.responses.retrieve(streamed.id);
    await g.openai.responses.inputItems.list(streamed.id);
    await graphql(OPS.search, { q: "story" });
    await graphql(OPS.dialogs, { n: 5 });
    await watcher.until((w) => w.events.some((event) => event.content === "A story"));
    watcher.close();
    recording = false;

    expect(unexplained(sent)).toEqual([]);
    // Each exception is still what it says (a renamed statement would leave a stale row here).
    const unused = Object.entries(WITHOUT_DIALOG).filter(([, allowed]) => !sent.some((sql) => allowed.test(sql)));
    // (The recovery is read once per app, by whichever write comes first: maybe not in this file.)
    expect(unused.map(([why]) => why).filter((why) => why !== "the in-flight text recovery")).toEqual([]);
  });
});
