// Checkpoints of in-flight text on the response row (src/services/in-flight-checkpoints.ts decides
// when). They touch only an IN_PROGRESS response's inFlight* columns: no seq, head, count or
// lifecycle column, so they need no dialog lock.
// Plain statements rather than Prisma's updateMany: a streamed answer checkpoints every few hundred
// milliseconds, and Prisma's query compiler costs several times PostgreSQL's work for a one-row update.
import { Prisma } from "../generated/prisma/client.js";
import type { HistoryEventType } from "../generated/prisma/enums.js";
import { run } from "./sql.js";
import type { Store } from "./store.js";

export async function writeCheckpoint(
  { database }: Store,
  checkpoint: {
    responseId: string;
    part: number;
    type: HistoryEventType;
    text: string;
    at: Date;
  },
): Promise<void> {
  await run(
    Prisma.sql`UPDATE "Response" SET "inFlightPart" = ${checkpoint.part}::int,
      "inFlightType" = ${checkpoint.type}::"HistoryEventType", "inFlightText" = ${checkpoint.text},
      "inFlightAt" = ${checkpoint.at.toISOString()}::timestamp
    WHERE id = ${checkpoint.responseId} AND status = 'IN_PROGRESS'`,
    database,
  );
}

/** Forgets the text but keeps when the agent was last heard from (`at`). */
export async function eraseCheckpoint({ database }: Store, responseId: string, at: Date): Promise<void> {
  await run(
    Prisma.sql`UPDATE "Response" SET "inFlightPart" = NULL, "inFlightType" = NULL, "inFlightText" = NULL,
      "inFlightAt" = ${at.toISOString()}::timestamp
    WHERE id = ${responseId} AND status = 'IN_PROGRESS' AND "inFlightAt" IS NOT NULL`,
    database,
  );
}
