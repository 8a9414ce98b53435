// What was really committed, read from PostgreSQL itself after the run: every response of the
// bench's dialogs is one delta whose seq is its last event's seq. Writes the writer never heard
// back about (their instance was killed, the load balancer gave up) are in it too, so a subscriber
// that missed one of those is counted as having lost it, and a write acknowledged but missing
// from the database is reported.
import pg from "pg";
import type { Committed } from "../load/cluster-subscribers.js";
import type { WriteRecord } from "./writer.js";

export async function committedDeltas(
  directUrl: string,
  dialogIds: string[],
  afterSeq: number,
  written: WriteRecord[],
) {
  const client = new pg.Client({ connectionString: directUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ dialogId: string; seq: number }>(
      `SELECT "dialogId", max(seq) AS seq FROM "Event" WHERE "dialogId" = ANY($1) GROUP BY "dialogId", "responseId"`,
      [dialogIds],
    );
    const indexOf = new Map(dialogIds.map((id, i) => [id, i]));
    const known = new Map(written.map((w) => [`${w.dialog}:${w.seq}`, w]));
    const committed: Committed[] = [];
    const inDatabase = new Set<string>();
    for (const row of rows) {
      if (row.seq <= afterSeq) continue;
      const dialog = indexOf.get(row.dialogId)!;
      const key = `${dialog}:${row.seq}`;
      inDatabase.add(key);
      const write = known.get(key);
      committed.push(
        write
          ? { dialog, seq: row.seq, sentAt: write.sentAt, instance: write.instance, phase: write.phase }
          : { dialog, seq: row.seq, sentAt: null, instance: "", phase: "unacknowledged" },
      );
    }
    const acknowledgedMissing = [...known.keys()].filter((key) => !inDatabase.has(key));
    return { committed, acknowledgedMissing };
  } finally {
    await client.end();
  }
}
