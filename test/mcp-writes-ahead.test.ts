// An MCP turn does not wait for its writes to commit before its next model call is sent: its tools
// are listed and its first call sent while its opening write commits (src/generation/first-call.ts),
// its first step read while its listing commits (src/generation/turn-writer.ts, saveItemsAhead),
// and the call after a tool's result while that result commits (src/generation/call-ahead.ts). Yet
// nothing of a call reaches the client, a watcher or the database before the write it follows has
// committed, and a write that fails aborts the call sent meanwhile and stores nothing of it.
import pg from "pg";
import { describe, expect, it } from "vitest";
import { database } from "./support/database.js";
import { type GeneratingServer, startGeneratingServer } from "./support/generating-server.js";
import { keptTurn } from "./support/kept-turn.js";
import { type McpServerProcess, openGate, startTestMcpServer, waitingAtGate } from "./support/mcp-servers.js";
import { ownPoolPerFile } from "./support/own-pool.js";
import { asCaller, wsAs } from "./support/tenants.js";
import { until } from "./support/until.js";

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

const tools = (server: McpServerProcess) => [
  { type: "mcp", server_label: "test", server_url: server.url, require_approval: "never" },
];

/** POST /v1/responses, streamed; `events` fills with the stream's event types as they arrive. */
function streamedTurn(g: GeneratingServer, body: Record<string, unknown>) {
  const events: string[] = [];
  const done = fetch(`${g.server.url}/v1/responses`, {
    method: "POST",
    headers: { authorization: `Bearer ${g.key}`, "content-type": "application/json" },
    body: JSON.stringify({ model: "stand-in-1", stream: true, ...body }),
  }).then(async (response) => {
    const decoder = new TextDecoder();
    let text = "";
    const reader = response.body!.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      text += decoder.decode(read.value, { stream: true });
      const lines = text.split("\n");
      text = lines.pop()!;
      for (const line of lines) if (line.startsWith("event: ")) events.push(line.slice(7));
    }
    return response.status;
  });
  return { events, done };
}

async function newDialog(g: GeneratingServer) {
  const created = await asCaller(g.server, g.key)(`mutation { createDialog(input: {}) { ... on Dialog { id } } }`);
  return (created.body.data as { createDialog: { id: string } }).createDialog.id;
}

const eventsOf = async (dialogId: string) =>
  (
    await database.query<{ type: string; toolName: string | null }>(
      `SELECT type, "toolName" FROM "Event" WHERE "dialogId" = $1 ORDER BY seq`,
      [dialogId],
    )
  ).map((event) => `${event.type}:${event.toolName ?? ""}`);

/**
 * Every historyDelta of the dialog a graphql-ws watcher is sent: the events it appends as
 * `Type:toolName`, "text" for a text delta, `status:S` for a status-only one.
 */
function watch(g: GeneratingServer, dialogId: string) {
  const seen: string[] = [];
  type Delta = {
    historyDelta: { status: string; text: unknown; append: { __typename: string; toolName?: string }[] };
  };
  const iterator = wsAs(g.server, g.key).iterate<Delta>({
    query: `subscription ($dialogId: ID!) { historyDelta(dialogId: $dialogId, afterSeq: 0) { status text { __typename }
      append { __typename ... on ToolCallEvent { toolName } ... on ToolResultEvent { toolName } } } }`,
    variables: { dialogId },
  });
  void (async () => {
    for await (const value of iterator as AsyncIterable<{ data: Delta }>) {
      const { append, text, status } = value.data.historyDelta;
      // A delta with events and a final status (the answer committed with the end) is one entry.
      const ended = status !== "IN_PROGRESS" ? `status:${status}` : "";
      if (append.length)
        seen.push([append.map((e) => `${e.__typename}:${e.toolName ?? ""}`).join(","), ended].join(" ").trim());
      else seen.push(text ? "text" : `status:${status}`);
    }
  })().catch(() => {});
  return { seen, stop: () => iterator.return?.() };
}

describe.runIf(onPostgres)("an MCP turn's writes ahead of its model calls (PostgreSQL)", () => {
  const patient = ownPoolPerFile("dialogql-mcp-ahead-patient", { DATABASE_LOCK_TIMEOUT_MS: "20000" });
  const hasty = ownPoolPerFile("dialogql-mcp-ahead-hasty", { DATABASE_LOCK_TIMEOUT_MS: "1000" });

  /** A server on the patient pool after one kept turn, its upstream scripted to call `add` once and answer "3". */
  async function afterKeptTurnAddingOneAndTwo() {
    const [g, mcp] = await Promise.all([
      startGeneratingServer({}, "tenant-a", { store: patient.store }),
      startTestMcpServer(),
    ]);
    const first = await keptTurn(g, "One");
    const [row] = await database.query<{ dialogId: string }>(`SELECT "dialogId" FROM "Response" WHERE id = $1`, [
      first.id,
    ]);
    g.upstream.script(
      { output: [{ toolCall: { name: "add", arguments: '{"a":1,"b":2}' } }] },
      { output: [{ text: "3" }] },
    );
    return { g, mcp, first, dialogId: row!.dialogId, before: g.upstream.requests.length };
  }

  it("lists the tools and sends the first call while the opening write waits; nothing is seen before it commits", async () => {
    const { g, mcp, first, dialogId, before } = await afterKeptTurnAddingOneAndTwo();
    await patient.admin.query("BEGIN");
    let turn: ReturnType<typeof streamedTurn>;
    try {
      await patient.admin.query(`SELECT id FROM "Dialog" WHERE id = $1 FOR UPDATE`, [dialogId]);
      turn = streamedTurn(g, { input: "Add 1 and 2", previous_response_id: first.id, tools: tools(mcp) });
      await until(async () => (await patient.waitingOnLock()) >= 1, "the opening write to wait for the lock");
      await until(() => g.upstream.requests.length > before, "the first model call");
      // The call offers the listed tools: they were listed while the write waited.
      expect(g.upstream.requests.at(-1)!.body.tools?.map((tool) => tool.function?.name)).toContain("add");
      await g.upstream.requests.at(-1)!.closed;
      expect(turn.events).toEqual([]);
      expect(await eventsOf(dialogId)).toEqual(["HUMAN:", "AI:"]);
    } finally {
      await patient.admin.query("COMMIT");
    }
    expect(await turn.done).toBe(200);
    const items = turn.events.filter((type) => type.startsWith("response.output_item.added") || type.includes("mcp"));
    expect(items.slice(0, 3)).toEqual([
      "response.output_item.added",
      "response.mcp_list_tools.in_progress",
      "response.mcp_list_tools.completed",
    ]);
    expect(turn.events.at(-1)).toBe("response.completed");
    expect(g.upstream.requests.length).toBe(before + 2);
    expect(await eventsOf(dialogId)).toEqual([
      "HUMAN:",
      "AI:",
      "HUMAN:",
      "TOOL_CALL:mcp_list_tools",
      "TOOL_RESULT:mcp_list_tools",
      "TOOL_CALL:add",
      "TOOL_RESULT:add",
      "AI:",
    ]);
  });

  it("goes on with the first step while the listing commits; the client sees nothing of the step before it has", async () => {
    const { g, mcp, first, dialogId, before } = await afterKeptTurnAddingOneAndTwo();
    // A second session queues for the dialog's row behind the opening write, so it has the row when
    // that write commits, and the listing's write waits for it.
    const second = new pg.Client({ connectionString: process.env.DATABASE_URL, application_name: "mcp-ahead-second" });
    await second.connect();
    const secondWaits = async () => {
      await patient.admin.query("SELECT pg_stat_clear_snapshot()");
      const { rows } = await patient.admin.query<{ waiting: number }>(
        `SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE application_name = 'mcp-ahead-second' AND wait_event_type = 'Lock'`,
      );
      return rows[0]!.waiting === 1;
    };
    let turn: ReturnType<typeof streamedTurn>;
    try {
      await patient.admin.query("BEGIN");
      await patient.admin.query(`SELECT id FROM "Dialog" WHERE id = $1 FOR UPDATE`, [dialogId]);
      turn = streamedTurn(g, { input: "Add 1 and 2", previous_response_id: first.id, tools: tools(mcp) });
      await until(async () => (await patient.waitingOnLock()) >= 1, "the opening write to wait for the lock");
      await second.query("BEGIN");
      const queued = second.query(`SELECT id FROM "Dialog" WHERE id = $1 FOR UPDATE`, [dialogId]);
      await until(secondWaits, "the second session to queue behind the opening write");
      await patient.admin.query("COMMIT");
      await queued;
      await until(async () => (await patient.waitingOnLock()) >= 1, "the listing's write to wait for the lock");
      await until(() => g.upstream.requests.length > before, "the first model call");
      await g.upstream.requests.at(-1)!.closed;
      // The model has answered with its call; the client has the listing begun, nothing of the call.
      expect(turn.events).toContain("response.mcp_list_tools.in_progress");
      expect(turn.events).not.toContain("response.mcp_list_tools.completed");
      expect(turn.events.filter((type) => type === "response.output_item.added")).toHaveLength(1);
      expect(await eventsOf(dialogId)).toEqual(["HUMAN:", "AI:", "HUMAN:"]);
    } finally {
      await patient.admin.query("ROLLBACK").catch(() => undefined);
      await second.query("COMMIT").catch(() => undefined);
      await second.end();
    }
    expect(await turn.done).toBe(200);
    const listed = turn.events.indexOf("response.mcp_list_tools.completed");
    const added = turn.events
      .map((type, at) => (type === "response.output_item.added" ? at : -1))
      .filter((at) => at >= 0);
    expect(listed).toBeGreaterThan(-1);
    expect(added[1]).toBeGreaterThan(listed);
    expect(await eventsOf(dialogId)).toEqual([
      "HUMAN:",
      "AI:",
      "HUMAN:",
      "TOOL_CALL:mcp_list_tools",
      "TOOL_RESULT:mcp_list_tools",
      "TOOL_CALL:add",
      "TOOL_RESULT:add",
      "AI:",
    ]);
  });

  it("sends the next call while a result commits; no watcher or client sees any of it before the commit", async () => {
    const [g, mcp] = await Promise.all([
      startGeneratingServer({}, "tenant-a", { store: patient.store }),
      startTestMcpServer(),
    ]);
    const dialogId = await newDialog(g);
    const watcher = watch(g, dialogId);
    g.upstream.script(
      { output: [{ toolCall: { name: "gated", arguments: "{}" } }] },
      { output: [{ text: "Passed." }] },
    );
    const before = g.upstream.requests.length;
    const turn = streamedTurn(g, { input: "Go", conversation: dialogId, tools: tools(mcp) });
    await until(async () => (await waitingAtGate(mcp)) === 1, "the tool to run");
    await patient.admin.query("BEGIN");
    let seenWhileLocked: string[];
    try {
      await patient.admin.query(`SELECT id FROM "Dialog" WHERE id = $1 FOR UPDATE`, [dialogId]);
      await openGate(mcp);
      await until(async () => (await patient.waitingOnLock()) >= 1, "the result's write to wait for the lock");
      await until(() => g.upstream.requests.length === before + 2, "the model call after the result");
      // The call carries the result, and its answer is whole at the upstream.
      const told = g.upstream.requests.at(-1)!.body.messages!.at(-1) as { role: string; content: string };
      expect(told).toMatchObject({ role: "tool", content: "through the gate" });
      await g.upstream.requests.at(-1)!.closed;
      seenWhileLocked = [...watcher.seen];
      expect(turn.events).not.toContain("response.mcp_call.completed");
      expect(turn.events).not.toContain("response.output_text.delta");
      expect(await eventsOf(dialogId)).toEqual([
        "HUMAN:",
        "TOOL_CALL:mcp_list_tools",
        "TOOL_RESULT:mcp_list_tools",
        "TOOL_CALL:gated",
      ]);
    } finally {
      await patient.admin.query("COMMIT");
    }
    expect(await turn.done).toBe(200);
    expect(seenWhileLocked).toEqual([
      "HumanEvent:",
      "ToolCallEvent:mcp_list_tools,ToolResultEvent:mcp_list_tools",
      "ToolCallEvent:gated",
    ]);
    // After the commit: the call's completion, then the answer.
    const completed = turn.events.indexOf("response.mcp_call.completed");
    expect(completed).toBeGreaterThan(-1);
    expect(turn.events.indexOf("response.output_text.delta")).toBeGreaterThan(completed);
    await until(() => watcher.seen.some((step) => step.endsWith("status:COMPLETED")), "the end's delta");
    // The answer and the end: one write, one delta.
    expect(watcher.seen.slice(3).filter((step) => step !== "text")).toEqual([
      "ToolResultEvent:gated",
      "AiEvent: status:COMPLETED",
    ]);
    expect(watcher.seen.indexOf("text")).toBeGreaterThan(watcher.seen.indexOf("ToolResultEvent:gated"));
    await watcher.stop();
  });

  it("a result's write that fails aborts the call sent meanwhile and stores nothing of it", async () => {
    const [g, mcp] = await Promise.all([
      startGeneratingServer({}, "tenant-a", { store: hasty.store }),
      startTestMcpServer(),
    ]);
    const dialogId = await newDialog(g);
    let gate!: () => void;
    g.upstream.script(
      { output: [{ toolCall: { name: "gated", arguments: "{}" } }] },
      { output: [{ text: "Never seen." }], holdAfterFirstChunk: new Promise((r) => (gate = r)), holdAfterChunks: 0 },
    );
    const before = g.upstream.requests.length;
    const turn = streamedTurn(g, { input: "Go", conversation: dialogId, tools: tools(mcp) });
    await until(async () => (await waitingAtGate(mcp)) === 1, "the tool to run");
    await hasty.admin.query("BEGIN");
    try {
      await hasty.admin.query(`SELECT id FROM "Dialog" WHERE id = $1 FOR UPDATE`, [dialogId]);
      await openGate(mcp);
      await until(() => g.upstream.requests.length === before + 2, "the model call after the result");
      // Aborted by dialogql once the result's write gave up on the lock, not answered by the upstream.
      await g.upstream.requests.at(-1)!.closed;
    } finally {
      await hasty.admin.query("COMMIT");
      gate();
    }
    expect(await turn.done).toBe(200);
    expect(turn.events.at(-1)).toBe("response.failed");
    expect(turn.events).not.toContain("response.output_text.delta");
    expect(turn.events).not.toContain("response.mcp_call.completed");
    expect(g.upstream.requests.length).toBe(before + 2);
    const [response] = await database.query<{ status: string }>(`SELECT status FROM "Response" WHERE "dialogId" = $1`, [
      dialogId,
    ]);
    expect(response!.status).toBe("FAILED");
    expect(await eventsOf(dialogId)).toEqual([
      "HUMAN:",
      "TOOL_CALL:mcp_list_tools",
      "TOOL_RESULT:mcp_list_tools",
      "TOOL_CALL:gated",
    ]);
  });
});

describe("an MCP turn's writes ahead of its model calls", () => {
  it("the results of two calls of one step are written in order, each before the next call sees it", async () => {
    const [g, mcp] = await Promise.all([startGeneratingServer(), startTestMcpServer()]);
    const dialogId = await newDialog(g);
    g.upstream.script(
      {
        output: [
          { toolCall: { name: "add", arguments: '{"a":1,"b":1}' } },
          { toolCall: { name: "add", arguments: '{"a":2,"b":2}' } },
        ],
      },
      { output: [{ text: "2 and 4." }] },
    );
    const turn = streamedTurn(g, { input: "Two sums", conversation: dialogId, tools: tools(mcp) });
    expect(await turn.done).toBe(200);
    expect(turn.events.filter((type) => type === "response.mcp_call.completed")).toHaveLength(2);
    const told = g.upstream.requests.at(-1)!.body.messages!.slice(-2) as { role: string; content: string }[];
    expect(told).toMatchObject([
      { role: "tool", content: "2" },
      { role: "tool", content: "4" },
    ]);
    expect(await eventsOf(dialogId)).toEqual([
      "HUMAN:",
      "TOOL_CALL:mcp_list_tools",
      "TOOL_RESULT:mcp_list_tools",
      "TOOL_CALL:add",
      "TOOL_CALL:add",
      "TOOL_RESULT:add",
      "TOOL_RESULT:add",
      "AI:",
    ]);
  });
});
