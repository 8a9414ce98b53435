// Checkpoints of in-flight text on the response row (src/services/in-flight-checkpoints.ts decides
// when). They touch only an IN_PROGRESS response's inFlight* columns: no seq, head, count or
// lifecycle column, so they need no dialog lock.
import type { Store } from "./store.js";
import type { HistoryEventType } from "../generated/prisma/enums.js";

export async function writeCheckpoint(
  { prisma }: Store,
  checkpoint: {
    responseId: string;
    part: number;
    type: HistoryEventType;
    text: string;
    at: Date;
  },
): Promise<void> {
  await prisma.response.updateMany({
    where: { id: checkpoint.responseId, status: "IN_PROGRESS" },
    data: {
      inFlightPart: checkpoint.part,
      inFlightType: checkpoint.type,
      inFlightText: checkpoint.text,
      inFlightAt: checkpoint.at,
    },
  });
}

/** Forgets the text but keeps when the agent was last heard from (`at`). */
export async function eraseCheckpoint({ prisma }: Store, responseId: string, at: Date): Promise<void> {
  await prisma.response.updateMany({
    where: { id: responseId, status: "IN_PROGRESS", inFlightAt: { not: null } },
    data: { inFlightPart: null, inFlightType: null, inFlightText: null, inFlightAt: at },
  });
}
