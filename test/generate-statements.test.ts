// The statements a generated turn sends to the database, counted through the statement log (not
// timed): each one is a round trip whose sending cost more than its work in the profiles
// (docs/performance.md, "Generation at wire speed"). A turn continuing a kept response sends its
// admission check, the parent lookup, the opening write, the in-flight text's row and first
// checkpoint, for its step's commit and for its end the response's dialog, the lock that reads the
// response and one statement, and the read of its own events that keeps its context; with Redis, each
// of its three committed writes is read back once to travel with its delta. This file fails if a
// change adds one.
import { beforeAll, describe, expect, it } from "vitest";
import { onStatement } from "../src/statement-log.js";
import { startGeneratingServer, type GeneratingServer } from "./support/generating-server.js";
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
/** The read-backs of committed writes that travel with their deltas through Redis (three a turn). */
const deltaReads = () => count(`to_jsonb(r) AS response`);
/** Once per app, not per turn: which responses had text in flight when it started (held-texts.ts). */
const once = (sql: string) => sql.includes(`"inFlightPart"`) && sql.includes(`"public"."Response"."id"`);

/** One streamed turn; answers its id and the statements it sent, its keep included. */
async function turn(input: string, previousResponseId?: string) {
  const from = statements.length;
  const kept = keepReads();
  const read = deltaReads();
  const stream = await g.openai.responses.create({
    model: "stand-in-1",
    input,
    previous_response_id: previousResponseId,
    stream: true,
  });
  let id: string | undefined;
  for await (const event of stream) if (event.type === "response.completed") id = event.response.id;
  // Its last statements: the keep, and with Redis the read-back of its end's delta.
  await until(() => keepReads() > kept, "the turn's context to be kept");
  if (process.env.TEST_REDIS_URL) await until(() => deltaReads() >= read + 3, "the turn's deltas to be read back");
  return { id: id!, sent: withoutKeyChecks(statements.slice(from)).filter((sql) => !once(sql)) };
}

// The most a turn may send: 12 statements, and 3 read-backs of its deltas with Redis.
const MOST = process.env.TEST_REDIS_URL ? 15 : 12;

describe("statements per generated turn", () => {
  it(`sends at most ${MOST} for a turn continuing a kept response`, async () => {
    let previous = (await turn("One")).id;
    for (const input of ["Two", "Three", "Four"]) {
      const { id, sent } = await turn(input, previous);
      expect(sent.length, sent.map((sql) => sql.replace(/\s+/g, " ").slice(0, 100)).join("\n")).toBeLessThanOrEqual(
        MOST,
      );
      previous = id;
    }
  });

  it("ends a step and a turn with one statement each besides the lock", async () => {
    const first = await turn("Count me");
    const { sent } = await turn("And me", first.id);
    // The step's events, the counters and the dialog row: one statement; the end likewise.
    const locks = sent.filter((sql) => /FROM "Dialog" WHERE id = \$\d+ FOR UPDATE/.test(sql) && sql.includes("xmin"));
    const heldWrites = sent.filter((sql) => sql.trimStart().startsWith("WITH held0 AS"));
    expect([locks.length, heldWrites.length]).toEqual([2, 2]);
    // No read of the response's status, usage or events apart from the lock.
    expect(sent.filter((sql) => /^SELECT (status|model, "apiKeyId"|type, content)/.test(sql.trim()))).toEqual([]);
  });
});
