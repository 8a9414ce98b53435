// Checkpoints of in-flight text on the response row (src/history-writes/ holds the live
// text). A checkpoint only ever touches an IN_PROGRESS response and is read back only while its
// part still matches the response's event count: text committed or dropped since is never revived.
import { Prisma, type Response } from "../generated/prisma/client.js";
import type { InFlightState, InFlightType } from "../vocabulary/in-flight.js";
import { eraseCheckpoint, writeCheckpoint } from "../store/in-flight-checkpoints.js";
import { eventCountOf } from "../vocabulary/event-counts.js";
import { run } from "../store/sql.js";
import type { Store } from "../store/store.js";

export async function saveCheckpoint(store: Store, state: InFlightState): Promise<void> {
  await writeCheckpoint(store, { ...state, at: new Date(state.at) });
}

/**
 * What a response's row says about it: its tenant, status, next event index and checkpoint. One
 * plain statement (Prisma would send two, and compile both): every streamed answer reads it.
 */
export async function readResponseForText({ database }: Store, responseId: string) {
  const [row] = await run<Response & { tenantId: string }>(
    Prisma.sql`SELECT r.*, d."tenantId" FROM "Response" r JOIN "Dialog" d ON d.id = r."dialogId" WHERE r.id = ${responseId}`,
    database,
  );
  if (!row) return null;
  const { tenantId, ...response } = row;
  return { response, tenantId, checkpoint: checkpointOf(response, tenantId) };
}

/** The checkpointed text of an IN_PROGRESS response, unless it was committed or dropped since. */
export function checkpointOf(response: Response, tenantId: string): InFlightState | null {
  if (response.status !== "IN_PROGRESS" || response.inFlightPart == null || response.inFlightType == null) return null;
  if (response.inFlightPart !== eventCountOf(response)) return null;
  return {
    dialogId: response.dialogId,
    responseId: response.id,
    tenantId,
    part: response.inFlightPart,
    type: response.inFlightType as InFlightType,
    text: response.inFlightText ?? "",
    at: response.inFlightAt?.getTime() ?? 0,
  };
}

/** IN_PROGRESS responses of a dialog, to look for text in flight when a subscriber joins. */
export function inProgressResponses({ prisma }: Store, dialogId: string) {
  return prisma.response.findMany({
    where: { dialogId, status: "IN_PROGRESS" },
    include: { dialog: { select: { tenantId: true } } },
  });
}

/**
 * IN_PROGRESS responses nobody was heard from since `before`: their last text delta, event or
 * checkpoint (inFlightAt) is older, or they never had one and were created before it (a generated
 * turn whose instance died, or whose end could not be stored, before it wrote anything).
 */
export function idleStreamingResponses({ prisma }: Store, before: Date) {
  return prisma.response.findMany({
    where: {
      status: "IN_PROGRESS",
      OR: [{ inFlightAt: { lt: before } }, { inFlightAt: null, createdAt: { lt: before } }],
    },
    select: { id: true },
    take: 100,
  });
}

/**
 * The text was committed or dropped: forget it, but keep when the agent was last heard from, so
 * an agent that vanishes after this is still noticed by the idle sweep.
 */
export async function clearCheckpoint(store: Store, responseId: string, now: number): Promise<void> {
  await eraseCheckpoint(store, responseId, new Date(now));
}

/** Ids of IN_PROGRESS responses with checkpointed text (what a restarted server may have had in flight). */
export async function responsesWithCheckpoints({ prisma }: Store): Promise<string[]> {
  const rows = await prisma.response.findMany({
    where: { status: "IN_PROGRESS", inFlightAt: { not: null }, inFlightPart: { not: null } },
    select: { id: true },
  });
  return rows.map((row) => row.id);
}
