// Issue 29, finding 6: a generated turn always ends. Its end is written again while the database is
// away; a turn whose end still cannot be written answers what is actually stored (503, "stored as in
// progress", not "stored as failed"); and the idle sweep of any instance closes an IN_PROGRESS
// response nobody was heard from for IN_FLIGHT_IDLE_TIMEOUT — checkpoint or not — as INCOMPLETE.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { graphql } from "../src/client/generated/index.js";
import type { Store } from "../src/store/store.js";
import { prisma } from "./support/database.js";
import { startGeneratingServer } from "./support/generating-server.js";
import { executeOk, testApp } from "./support/graphql.js";
import { openProxiedStore, type TcpProxy } from "./support/proxied-store.js";
import { until } from "./support/until.js";

const IDLE_MS = 5 * 60_000; // IN_FLIGHT_IDLE_TIMEOUT's default

const START_TURN = graphql(`
  mutation TurnAlwaysEndsStart {
    createResponse(input: { model: "agent", status: IN_PROGRESS, input: [{ human: { content: "go" } }] }) {
      ... on Response {
        id
      }
    }
  }
`);

const APPEND = graphql(`
  mutation TurnAlwaysEndsAppend($responseId: ID!) {
    appendEvents(input: { responseId: $responseId, events: [{ ai: { content: "still here" } }] }) {
      __typename
    }
  }
`);

/** An app on this file's store whose clock is `aheadMs` in the future: another instance, later. */
const instanceLater = (aheadMs: number) => testApp({ inFlight: { clock: () => Date.now() + aheadMs } });

describe("the idle sweep closes abandoned turns, checkpoint or not", () => {
  it("an IN_PROGRESS response that never wrote text is closed INCOMPLETE once idle; one still writing events is not", async () => {
    const abandoned = (await executeOk(START_TURN)).createResponse as { id: string };
    const busy = (await executeOk(START_TURN)).createResponse as { id: string };
    // Both were created long ago; the busy one's agent has just appended an event: it was heard from now.
    const longAgo = new Date(Date.now() - 2 * IDLE_MS);
    await prisma.response.updateMany({ where: { id: { in: [abandoned.id, busy.id] } }, data: { createdAt: longAgo } });
    await executeOk(APPEND, { responseId: busy.id });

    const ended = await instanceLater(IDLE_MS / 2).services.writes.endIdleResponses();
    expect(ended).toContain(abandoned.id);
    expect(ended).not.toContain(busy.id);
    expect(await prisma.response.findUniqueOrThrow({ where: { id: abandoned.id } })).toMatchObject({
      status: "INCOMPLETE",
    });
    expect((await prisma.response.findUniqueOrThrow({ where: { id: busy.id } })).status).toBe("IN_PROGRESS");
  });
});

const runs = Boolean(process.env.TEST_DATABASE_URL);
describe.runIf(runs)("a turn whose end meets a database outage (PostgreSQL)", () => {
  let proxied: Store;
  let proxy: TcpProxy;
  beforeAll(async () => {
    ({ store: proxied, proxy } = await openProxiedStore(300));
  });
  afterAll(() => proxied?.close());

  /** Whether a turn of the tenant is stored, in progress. */
  const turnOpened = async (tenantId: string) =>
    (await prisma.response.count({ where: { status: "IN_PROGRESS", dialog: { tenantId } } })) > 0;

  it("a short outage mid-turn: the turn stops, its end is written once the database is back, and the answer says it is stored as failed", async () => {
    const g = await startGeneratingServer({}, "outage-short", { store: proxied });
    let open!: () => void;
    // A step with a call is committed before the turn goes on: that write meets the outage.
    const call = { toolCall: { name: "lookup", arguments: "{}" } };
    g.upstream.script({
      output: [{ text: "Stopped midway." }, call],
      holdAfterFirstChunk: new Promise((r) => (open = r)),
    });
    const lookup = {
      type: "function" as const,
      name: "lookup",
      parameters: { type: "object", properties: {} },
      strict: false,
    };
    const answer = g.openai.responses
      .create({ model: "stand-in-1", input: "hi", tools: [lookup] })
      .catch((error) => error);
    await until(() => g.upstream.requests.length > 0, "the upstream called");
    // The upstream is called while the turn's opening write commits (src/generation/first-call.ts): mid-turn is once it has.
    await until(() => turnOpened("outage-short"), "the turn opened");
    await proxy.stop();
    open();
    // Back before the retries of the turn's end run out.
    setTimeout(() => void proxy.start(), 600);
    const error = await answer;
    expect(error).toMatchObject({ status: 503, code: "unavailable" });
    expect(error.message).toContain("is stored as failed");
    const id = /resp_[0-9A-Z]+/.exec(error.message)![0];
    expect(await prisma.response.findUniqueOrThrow({ where: { id }, select: { status: true, error: true } })).toEqual({
      status: "FAILED",
      error: { code: "unavailable", message: expect.stringContaining("database became unavailable") },
    });
  });

  it("an outage while the answer is typed: the end, with the whole answer, is written once the database is back", async () => {
    const g = await startGeneratingServer({}, "outage-typing", { store: proxied });
    let open!: () => void;
    const text = "Typed while the database was away.";
    g.upstream.script({ output: [{ text }], holdAfterFirstChunk: new Promise((r) => (open = r)) });
    const answer = g.openai.responses.create({ model: "stand-in-1", input: "hi" });
    await until(() => g.upstream.requests.length > 0, "the upstream called");
    await until(() => turnOpened("outage-typing"), "the turn opened");
    // The answer's text cannot be opened (its row is not read): the end writes the answer whole.
    await proxy.stop();
    open();
    setTimeout(() => void proxy.start(), 600);
    const response = await answer;
    expect([response.status, response.output_text]).toEqual(["completed", text]);
    const stored = await prisma.response.findUniqueOrThrow({
      where: { id: response.id },
      select: { status: true, events: { select: { type: true, content: true }, orderBy: { seq: "asc" } } },
    });
    expect(stored).toEqual({
      status: "COMPLETED",
      events: [
        { type: "HUMAN", content: "hi" },
        { type: "AI", content: text },
      ],
    });
  });

  it("a long outage: the answer says the turn is stored in progress, and any instance's sweep closes it later", async () => {
    const g = await startGeneratingServer({}, "outage-long", { store: proxied });
    let open!: () => void;
    g.upstream.script({ output: [{ text: "Never stored." }], holdAfterFirstChunk: new Promise((r) => (open = r)) });
    const answer = g.openai.responses.create({ model: "stand-in-1", input: "hi" }).catch((error) => error);
    await until(() => g.upstream.requests.length > 0, "the upstream called");
    // The upstream is called while the turn's opening write commits (src/generation/first-call.ts): mid-turn is once it has.
    await until(() => turnOpened("outage-long"), "the turn opened");
    await proxy.stop();
    open();
    const error = await answer;
    await proxy.start();
    expect(error).toMatchObject({ status: 503, code: "unavailable" });
    expect(error.message).toContain("stored as in progress");
    const id = /resp_[0-9A-Z]+/.exec(error.message)![0];
    expect((await prisma.response.findUniqueOrThrow({ where: { id } })).status).toBe("IN_PROGRESS");

    expect(await instanceLater(IDLE_MS + 1_000).services.writes.endIdleResponses()).toContain(id);
    expect((await prisma.response.findUniqueOrThrow({ where: { id } })).status).toBe("INCOMPLETE");
  }, 60_000);
});
