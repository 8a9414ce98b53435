// The raw baseline for a write: the rows createResponse stores for one turn (lock the dialog,
// read the head's depth and segment, insert the response and its four events, move the head), written with
// plain parameterised SQL in one transaction.
import { randomUUID } from "node:crypto";
import type { Database } from "../../src/db/database.js";

export async function createRawDialog(database: Database) {
  const id = `raw_${randomUUID()}`;
  await database.withSession((s) => s.query(`INSERT INTO "Dialog" (id, "updatedAt") VALUES ($1, now())`, [id]));
  return id;
}

export function writeRawTurn(database: Database, dialogId: string, turn: number) {
  return database.transaction(async (s) => {
    const [dialog] = await s.query<{ lastSeq: number; headId: string | null }>(
      `SELECT "lastSeq", "headId" FROM "Dialog" WHERE id = $1 FOR UPDATE`,
      [dialogId],
    );
    const [head] = dialog!.headId
      ? await s.query<{ depth: number; segmentId: string }>(`SELECT depth, "segmentId" FROM "Response" WHERE id = $1`, [
          dialog!.headId,
        ])
      : [];
    const responseId = `resp_${randomUUID()}`;
    // A linear chain: every turn continues its parent's segment (the first names it).
    const segmentId = head?.segmentId ?? responseId;
    const depth = (head?.depth ?? -1) + 1;
    await s.query(
      `INSERT INTO "Response" (id, "dialogId", "previousResponseId", depth, model, status, "completedAt", "segmentId")
       VALUES ($1, $2, $3, $4, 'bench', 'COMPLETED', now(), $5)`,
      [responseId, dialogId, dialog!.headId, depth, segmentId],
    );
    const seq = dialog!.lastSeq;
    await s.query(
      `INSERT INTO "Event" (id, "dialogId", "responseId", "segmentId", depth, seq, phase, type, content, "modelName", "callId", "toolName", args) VALUES
       ($1, $5, $6, $12, $13, $7, 'INPUT', 'HUMAN', $9, NULL, NULL, NULL, NULL),
       ($2, $5, $6, $12, $13, $7 + 1, 'OUTPUT', 'REASONING', $10, 'bench-model', NULL, NULL, NULL),
       ($3, $5, $6, $12, $13, $7 + 2, 'OUTPUT', 'AI', $11, NULL, NULL, NULL, NULL),
       ($4, $5, $6, $12, $13, $7 + 3, 'OUTPUT', 'TOOL_CALL', NULL, NULL, $8, 'read_file', '{"path":"file.py"}'::jsonb)`,
      [
        randomUUID(),
        randomUUID(),
        randomUUID(),
        randomUUID(),
        dialogId,
        responseId,
        seq + 1,
        `call_${turn}`,
        `Question ${turn}`,
        "I should read the file first...",
        "I'll read it",
        segmentId,
        depth,
      ],
    );
    await s.query(`UPDATE "Dialog" SET "lastSeq" = $2, "headId" = $3, "updatedAt" = now() WHERE id = $1`, [
      dialogId,
      seq + 4,
      responseId,
    ]);
  });
}

/** `clients` concurrent loops, each on its own dialog, for `durationMs`. */
export async function runRawWriters(database: Database, clients: number, durationMs: number) {
  const dialogs = await Promise.all(Array.from({ length: clients }, () => createRawDialog(database)));
  const deadline = performance.now() + durationMs;
  const latencies: number[] = [];
  const started = performance.now();
  await Promise.all(
    dialogs.map(async (dialogId) => {
      for (let turn = 0; performance.now() < deadline; turn++) {
        const start = performance.now();
        await writeRawTurn(database, dialogId, turn);
        latencies.push(performance.now() - start);
      }
    }),
  );
  return { turns: latencies.length, elapsedMs: performance.now() - started, latencies };
}
