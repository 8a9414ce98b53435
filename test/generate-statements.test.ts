// The statements a generated turn sends to the database, counted through the statement log (not
// timed): each one is a round trip whose sending cost more than its work in the profiles
// (docs/performance.md, "Generation at wire speed"). A turn continuing a kept response sends its
// admission check, the parent lookup, the opening write, the in-flight text's row (a short answer
// is committed before a checkpoint is due: none is sent), for its answer and its end together (one
// write) the lock that reads the response and one statement (the turn knows its dialog: no
// lookup), and the read of its own events that keeps its context. Its two committed writes return
// their delta's rows, so with Redis none is read back to travel with its delta, and the count is
// the same with Redis and without. An MCP turn's appends (its listing, the model's call, the
// call's result) are likewise the lock and one statement each: no dialog lookup, no look-up of the
// call a result answers. This file fails if a change adds one.
import { beforeAll, describe, expect, it } from "vitest";
import { onStatement } from "../src/statement-log.js";
import { startGeneratingServer, type GeneratingServer } from "./support/generating-server.js";
import { startTestMcpServer } from "./support/mcp-servers.js";
import { withoutKeyChecks } from "./support/query-counter.js";
import { until } from "./support/until.js";

let g: GeneratingServer;
beforeAll(async () => {
  g = await startGeneratingServer();
  g.upstream.fallback = { output: [{ text: "An answer in a few words." }] };
});

// Every statement the process sends (the server runs in this process), in order.
const statements: string[] = [];
onStatement((sql) => statements.push(sql));
const count = (text: string) => statements.filter((sql) => sql.includes(text)).length;
/** The read of a turn's own events that keeps its context. */
const keepReads = () => count(`SELECT e."id", e."seq"`);
/** The read-backs of committed writes for their deltas (src/live/delta-reads.ts): none, the writes return their rows. */
const deltaReads = () => count(`jsonb_agg(to_jsonb(e) ORDER BY e.seq)`);
/** The lookup of a response's dialog before a write to it: none, the turn knows it. */
const dialogLookups = (sent: string[]) => sent.filter((sql) => /^SELECT "dialogId" FROM "Response"/.test(sql.trim()));
/** Once per app, not per turn: which responses had text in flight when it started (held-texts.ts). */
const once = (sql: string) => sql.includes(`"inFlightPart"`) && sql.includes(`"public"."Response"."id"`);

/** One streamed turn; answers its id and the statements it sent, its keep included. */
async function turn(input: string, previousResponseId?: string) {
  const from = statements.length;
  const kept = keepReads();
  const stream = await g.openai.responses.create({
    model: "stand-in-1",
    input,
    previous_response_id: previousResponseId,
    stream: true,
  });
  let id: string | undefined;
  for await (const event of stream) if (event.type === "response.completed") id = event.response.id;
  // Its last statement: the keep (its end's delta was published before it).
  await until(() => keepReads() > kept, "the turn's context to be kept");
  return { id: id!, sent: withoutKeyChecks(statements.slice(from)).filter((sql) => !once(sql)) };
}

// The most a turn may send, with Redis or without.
const MOST = 7;
/** A checkpoint of in-flight text (src/services/in-flight-checkpoints.ts). */
const checkpoints = (sent: string[]) =>
  sent.filter((sql) => /UPDATE "Response" SET "inFlightPart" = \$\d+::int/.test(sql));

describe("statements per generated turn", () => {
  it(`sends at most ${MOST} for a turn continuing a kept response`, async () => {
    const reads = deltaReads();
    let previous = (await turn("One")).id;
    for (const input of ["Two", "Three", "Four"]) {
      const { id, sent } = await turn(input, previous);
      expect(sent.length, sent.map((sql) => sql.replace(/\s+/g, " ").slice(0, 100)).join("\n")).toBeLessThanOrEqual(
        MOST,
      );
      expect(dialogLookups(sent)).toEqual([]);
      expect(checkpoints(sent)).toEqual([]);
      previous = id;
    }
    // No committed write of these turns was read back for its delta (with Redis: to carry it).
    expect(deltaReads() - reads).toBe(0);
  });

  it("commits its answer and its end together: the lock and one statement", async () => {
    const first = await turn("Count me");
    const { sent } = await turn("And me", first.id);
    // The answer's event, the counters, the final status and the dialog row: one statement.
    const locks = sent.filter((sql) => /FROM "Dialog" WHERE id = \$\d+ FOR UPDATE/.test(sql) && sql.includes("xmin"));
    const heldWrites = sent.filter((sql) => sql.trimStart().startsWith("WITH held0 AS"));
    expect([locks.length, heldWrites.length]).toEqual([1, 1]);
    // No read of the response's status, usage or events apart from the lock.
    expect(sent.filter((sql) => /^SELECT (status|model, "apiKeyId"|type, content)/.test(sql.trim()))).toEqual([]);
  });
});

describe("statements of an MCP turn", () => {
  it("writes its listing, the model's call and the call's result each with the lock and one statement", async () => {
    const mcp = await startTestMcpServer();
    g.upstream.script(
      { output: [{ toolCall: { name: "add", arguments: '{"a":1,"b":2}' } }] },
      { output: [{ text: "3" }] },
    );
    const from = statements.length;
    const kept = keepReads();
    const response = await g.openai.responses.create({
      model: "stand-in-1",
      input: "Add 1 and 2",
      tools: [{ type: "mcp", server_label: "calc", server_url: mcp.url, require_approval: "never" }],
    });
    expect(response.status).toBe("completed");
    await until(() => keepReads() > kept, "the turn's context to be kept");
    const sent = withoutKeyChecks(statements.slice(from)).filter((sql) => !once(sql));
    // The turn knows its dialog, and the call its result answers: it wrote them.
    expect(dialogLookups(sent)).toEqual([]);
    expect(sent.filter((sql) => sql.includes(`SELECT e."callId", e."toolName"`))).toEqual([]);
    // The listing, the call, the result, and the answer with the end: the lock and one statement each.
    const locks = sent.filter((sql) => /FROM "Dialog" WHERE id = \$\d+ FOR UPDATE/.test(sql) && sql.includes("xmin"));
    const heldWrites = sent.filter((sql) => sql.trimStart().startsWith("WITH held0 AS"));
    expect([locks.length, heldWrites.length]).toEqual([4, 4]);
  });
});
