// The migration that puts the dialog in the keys of Response and InFlightChunk (issue 32) keeps
// what a database held before it: text pieces stored before it take their response's dialog, a
// segment still never forks, and a response's pieces are still one per place. Run against a
// database of its own, on PostgreSQL when the suite runs there, else on PGlite.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listMigrations } from "../src/db/migration-files.js";
import { type Scratch, scratchDatabase } from "./support/scratch-database.js";

const MIGRATION = "20261126120000_dialog_in_keys";

let db: Scratch;
beforeAll(async () => {
  db = await scratchDatabase();
  const migrations = await listMigrations();
  const at = migrations.findIndex((m) => m.name === MIGRATION);
  expect(at).toBeGreaterThan(0);
  for (const m of migrations.slice(0, at)) await db.run(`BEGIN;\n${m.sql}\n;COMMIT;`);
  // A dialog with a finished response and one whose answer is being typed, as stored before.
  await db.run(`INSERT INTO "Dialog" (id, "updatedAt", "lastSeq") VALUES ('d1', now(), 2)`);
  await db.run(`INSERT INTO "Response" (id, "dialogId", depth, "segmentId", status)
    VALUES ('r0', 'd1', 0, 'r0', 'COMPLETED'), ('r1', 'd1', 1, 'r0', 'IN_PROGRESS')`);
  await db.run(`UPDATE "Response" SET "inFlightPart" = 1, "inFlightType" = 'AI', "inFlightAt" = now() WHERE id = 'r1'`);
  await db.run(`INSERT INTO "InFlightChunk" ("responseId", part, "offset", "end", text)
    VALUES ('r1', 1, 0, 5, 'Hello'), ('r1', 1, 5, 7, ', ')`);
  for (const m of migrations.slice(at)) await db.run(`BEGIN;\n${m.sql}\n;COMMIT;`);
});
afterAll(() => db?.close());

const fails = async (sql: string) =>
  db.run(sql).then(
    () => "stored",
    (error: Error) => error.message,
  );

describe("the dialog in the keys", () => {
  it("gives the pieces stored before it their response's dialog", async () => {
    const pieces = await db.query<{ dialogId: string; text: string }>(
      `SELECT "dialogId", text FROM "InFlightChunk" ORDER BY "offset"`,
    );
    expect(pieces).toEqual([
      { dialogId: "d1", text: "Hello" },
      { dialogId: "d1", text: ", " },
    ]);
  });

  it("includes the dialog in each key, last, and keeps what is unique", async () => {
    const keys = await db.query<{ indexname: string; indexdef: string }>(
      `SELECT indexname, indexdef FROM pg_indexes
       WHERE indexname IN ('Response_segmentId_depth_dialogId_key', 'InFlightChunk_pkey') ORDER BY indexname`,
    );
    expect(keys.map((key) => [key.indexname, /\((.*)\)/.exec(key.indexdef)![1]])).toEqual([
      ["InFlightChunk_pkey", `"responseId", part, "offset", "dialogId"`],
      ["Response_segmentId_depth_dialogId_key", `"segmentId", depth, "dialogId"`],
    ]);
    // A second response at the same place of a segment, or a second piece at the same place: refused.
    expect(
      await fails(`INSERT INTO "Response" (id, "dialogId", depth, "segmentId", status)
        VALUES ('r1b', 'd1', 1, 'r0', 'COMPLETED')`),
    ).toMatch(/duplicate key/);
    expect(
      await fails(`INSERT INTO "InFlightChunk" ("dialogId", "responseId", part, "offset", "end", text)
        VALUES ('d1', 'r1', 1, 5, 7, ', ')`),
    ).toMatch(/duplicate key/);
    // A piece names its dialog: none is stored without one.
    expect(
      await fails(
        `INSERT INTO "InFlightChunk" ("responseId", part, "offset", "end", text) VALUES ('r1', 1, 7, 8, '!')`,
      ),
    ).toMatch(/null value/);
  });
});
