// A database written before context segments existed keeps working: the migration that brings
// them places every response in a segment (a parent's oldest child continues its segment, later
// children start their own), fills the running counts and each event's (segmentId, depth), and the
// context reads then give the history in the same order as before. Run against a database of its
// own, on PostgreSQL when the suite runs there, else on PGlite.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listMigrations } from "../src/db/migration-files.js";
import { contextPageStatement } from "../src/services/context.js";
import { type Scratch, scratchDatabase } from "./support/scratch-database.js";

const SEGMENTS_MIGRATION = "20261123120000_context_segments";

let db: Scratch;
beforeAll(async () => {
  db = await scratchDatabase();
  const migrations = await listMigrations();
  const at = migrations.findIndex((m) => m.name === SEGMENTS_MIGRATION);
  expect(at).toBeGreaterThan(0);
  for (const m of migrations.slice(0, at)) await db.run(`BEGIN;\n${m.sql}\n;COMMIT;`);

  // The dialog as the older schema stored it:
  //   r0 ─ r1 ─┬─ r2 ─ r3        (r2 is r1's oldest child)
  //            ├─ b2 ─ b3        (written after r2)
  //            └─ c2             (written last)
  // plus a dialog of one response. Each response has a question and an answer (b3 a tool call).
  const responses: [string, string | null, number, string][] = [
    ["r0", null, 0, "2026-01-01T00:00:00Z"],
    ["r1", "r0", 1, "2026-01-01T00:01:00Z"],
    ["r2", "r1", 2, "2026-01-01T00:02:00Z"],
    ["r3", "r2", 3, "2026-01-01T00:03:00Z"],
    ["b2", "r1", 2, "2026-01-01T00:04:00Z"],
    ["b3", "b2", 3, "2026-01-01T00:05:00Z"],
    ["c2", "r1", 2, "2026-01-01T00:06:00Z"],
  ];
  await db.run(`INSERT INTO "Dialog" (id, "updatedAt", "lastSeq") VALUES ('d1', now(), 14), ('d2', now(), 2)`);
  for (const [id, previous, depth, at] of responses) {
    const toolCall = id === "b3";
    await db.query(
      `INSERT INTO "Response" (id, "dialogId", "previousResponseId", depth, status, "createdAt", "humanEvents", "aiEvents", "toolCallEvents")
       VALUES ($1, 'd1', $2, $3, 'COMPLETED', $4, 1, $5, $6)`,
      [id, previous, depth, at, toolCall ? 0 : 1, toolCall ? 1 : 0],
    );
  }
  await db.run(`INSERT INTO "Response" (id, "dialogId", depth, status, "humanEvents", "aiEvents")
    VALUES ('solo', 'd2', 0, 'COMPLETED', 1, 1)`);
  let seq = 0;
  for (const [id] of responses) {
    const second = id === "b3" ? "TOOL_CALL" : "AI";
    await db.query(
      `INSERT INTO "Event" (id, "dialogId", "responseId", seq, phase, type, content) VALUES
       ($1 || '-q', 'd1', $1, $2, 'INPUT', 'HUMAN', 'q ' || $1), ($1 || '-a', 'd1', $1, $3, 'OUTPUT', $4::"HistoryEventType", 'a ' || $1)`,
      [id, ++seq, ++seq, second],
    );
  }
  await db.run(`INSERT INTO "Event" (id, "dialogId", "responseId", seq, phase, type, content) VALUES
    ('solo-q', 'd2', 'solo', 1, 'INPUT', 'HUMAN', 'q'), ('solo-a', 'd2', 'solo', 2, 'OUTPUT', 'AI', 'a')`);

  const segments = migrations[at]!;
  await db.run(`BEGIN;\n${segments.sql}\n;COMMIT;`);
});

afterAll(() => db?.close());

describe("the context segments migration on an existing database", () => {
  it("puts each response in a segment: the oldest child continues its parent's, later ones start their own", async () => {
    const rows = await db.query<{ id: string; segmentId: string }>(
      `SELECT id, "segmentId" FROM "Response" ORDER BY id`,
    );
    expect(Object.fromEntries(rows.map((r) => [r.id, r.segmentId]))).toEqual({
      r0: "r0",
      r1: "r0",
      r2: "r0",
      r3: "r0",
      b2: "b2",
      b3: "b2",
      c2: "c2",
      solo: "solo",
    });
  });

  it("fills the running counts of each segment and each event's place", async () => {
    const counts = await db.query<{ id: string; human: number; ai: number; calls: number }>(
      `SELECT id, "humanEventsInSegment" AS human, "aiEventsInSegment" AS ai, "toolCallEventsInSegment" AS calls
       FROM "Response" ORDER BY id`,
    );
    expect(counts).toEqual([
      { id: "b2", human: 1, ai: 1, calls: 0 },
      { id: "b3", human: 2, ai: 1, calls: 1 },
      { id: "c2", human: 1, ai: 1, calls: 0 },
      { id: "r0", human: 1, ai: 1, calls: 0 },
      { id: "r1", human: 2, ai: 2, calls: 0 },
      { id: "r2", human: 3, ai: 3, calls: 0 },
      { id: "r3", human: 4, ai: 4, calls: 0 },
      { id: "solo", human: 1, ai: 1, calls: 0 },
    ]);
    const misplaced = await db.query(
      `SELECT e.id FROM "Event" e JOIN "Response" r ON r.id = e."responseId"
       WHERE e."segmentId" IS DISTINCT FROM r."segmentId" OR e.depth IS DISTINCT FROM r.depth`,
    );
    expect(misplaced).toEqual([]);
  });

  it("reads each branch's context in order through the segments", async () => {
    const contextOf = async (tip: string) => {
      const statement = contextPageStatement(tip, { limit: null, inverted: false });
      return (await db.query<{ id: string }>(statement.text, statement.values)).map((e) => e.id);
    };
    expect(await contextOf("r3")).toEqual(["r0", "r1", "r2", "r3"].flatMap((id) => [`${id}-q`, `${id}-a`]));
    expect(await contextOf("b3")).toEqual(["r0", "r1", "b2", "b3"].flatMap((id) => [`${id}-q`, `${id}-a`]));
    expect(await contextOf("c2")).toEqual(["r0", "r1", "c2"].flatMap((id) => [`${id}-q`, `${id}-a`]));
    expect(await contextOf("solo")).toEqual(["solo-q", "solo-a"]);
  });

  it("lets the next write continue a segment only from its last response", async () => {
    const tail = async (parent: string) =>
      (await db.query<{ segmentId: string }>(`SELECT "segmentId" FROM "segmentTail"($1)`, [parent])).map(
        (r) => r.segmentId,
      );
    expect(await tail("r3")).toEqual(["r0"]);
    expect(await tail("b3")).toEqual(["b2"]);
    expect(await tail("r1")).toEqual([]);
    expect(await tail("c2")).toEqual(["c2"]);
  });
});
