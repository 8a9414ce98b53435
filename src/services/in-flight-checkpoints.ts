// Checkpoints of in-flight text (src/history-writes/ holds the live text; src/store/ keeps the
// checkpointed text as pieces, each checkpoint adding what was typed since the one before). A
// checkpoint only ever touches an IN_PROGRESS response and is read back only while its part still
// matches the response's event count: text committed or dropped since is never revived.
import { Prisma, type Response } from "../generated/prisma/client.js";
import type { InFlightState, InFlightType, TextTail } from "../vocabulary/in-flight.js";
import { appendCheckpoint, checkpointTextOf, eraseCheckpoint } from "../store/in-flight-checkpoints.js";
import { eventCountOf } from "../vocabulary/event-counts.js";
import { run } from "../store/sql.js";
import type { Store } from "../store/store.js";

// Another writer of the same text (an instance sharing it through Redis) may add a piece between
// this one's read and write; each try starts where the stored text then ends.
const TRIES = 3;

/**
 * Checkpoints the held text, of which `tail` is the part from `tail.from` on: appends what the
 * stored text lacks of it, starting at `storedEnd` (where this instance knows the stored text
 * ends; unknown, it is asked first). Answers where the stored text ends now, or null when the
 * response is no longer IN_PROGRESS.
 */
export async function saveCheckpoint(
  store: Store,
  { head, from, text: tail }: TextTail,
  storedEnd: number | undefined,
): Promise<number | null> {
  const end = from + pieceEnd(tail);
  let offset = storedEnd;
  for (let tries = 0; tries < TRIES; tries++) {
    // The stored text ends before what was read (it cannot: `from` is where it ended): next time.
    if (offset !== undefined && offset < from) return offset;
    // Unknown, the first try adds nothing and learns where the stored text ends.
    const text = offset === undefined || offset >= end ? "" : tail.slice(offset - from, end - from);
    const { dialogId, responseId, part, type } = head;
    const piece = { dialogId, responseId, part, type, at: new Date(head.at), offset: offset ?? 0, text };
    const written = await appendCheckpoint(store, piece);
    if (!written.inProgress) return null;
    if (written.end >= end) return written.end;
    offset = written.end;
  }
  return offset ?? null;
}

/** Where a piece may end: not between the two halves of a surrogate pair (each piece is valid UTF-16). */
function pieceEnd(text: string) {
  const last = text.charCodeAt(text.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? text.length - 1 : text.length;
}

type ResponseRow = Response & { tenantId: string; inFlightText: string | null };

/**
 * What a response's row says about it: its tenant, status, next event index and checkpoint. One
 * plain statement (Prisma would send two, and compile both): every streamed answer reads it.
 */
export async function readResponseForText({ database }: Store, responseId: string) {
  const [row] = await run<ResponseRow>(
    Prisma.sql`SELECT r.*, d."tenantId", ${checkpointTextOf("r")} AS "inFlightText"
    FROM "Response" r JOIN "Dialog" d ON d.id = r."dialogId" WHERE r.id = ${responseId}`,
    database,
  );
  if (!row) return null;
  const { tenantId, inFlightText, ...response } = row;
  return { response, tenantId, checkpoint: checkpointOf(response, tenantId, inFlightText) };
}

/** A response's status, or null when it is gone: what a checkpoint checks first, without its text. */
export async function statusOf({ database }: Store, dialogId: string, responseId: string) {
  const [row] = await run<Pick<Response, "status">>(
    Prisma.sql`SELECT status FROM "Response" WHERE "dialogId" = ${dialogId} AND id = ${responseId}`,
    database,
  );
  return row?.status ?? null;
}

/** The checkpointed text of an IN_PROGRESS response, unless it was committed or dropped since. */
export function checkpointOf(response: Response, tenantId: string, text: string | null): InFlightState | null {
  if (response.status !== "IN_PROGRESS" || response.inFlightPart == null || response.inFlightType == null) return null;
  if (response.inFlightPart !== eventCountOf(response)) return null;
  return {
    dialogId: response.dialogId,
    responseId: response.id,
    tenantId,
    part: response.inFlightPart,
    type: response.inFlightType as InFlightType,
    text: text ?? "",
    at: response.inFlightAt?.getTime() ?? 0,
  };
}

/**
 * The checkpoints of a dialog's IN_PROGRESS responses, to look for text in flight when a subscriber
 * joins. One plain statement (Prisma would send three, the include's, and compile them): every
 * subscription's start-up reads ask it, thousands at once in a connect storm.
 */
export async function inProgressCheckpoints({ database }: Store, dialogId: string) {
  const rows = await run<ResponseRow>(
    Prisma.sql`SELECT r.*, d."tenantId", ${checkpointTextOf("r")} AS "inFlightText"
    FROM "Response" r JOIN "Dialog" d ON d.id = r."dialogId"
    WHERE r."dialogId" = ${dialogId} AND r.status = 'IN_PROGRESS'`,
    database,
  );
  return rows.map(({ tenantId, inFlightText, ...response }) => ({
    responseId: response.id,
    // No piece of the current part: the text is empty, as joining no pieces gave.
    checkpoint: checkpointOf(response, tenantId, inFlightText ?? ""),
  }));
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
export async function clearCheckpoint(store: Store, dialogId: string, responseId: string, now: number): Promise<void> {
  await eraseCheckpoint(store, dialogId, responseId, new Date(now));
}

/** Ids of IN_PROGRESS responses with checkpointed text (what a restarted server may have had in flight). */
export async function responsesWithCheckpoints({ prisma }: Store): Promise<string[]> {
  const rows = await prisma.response.findMany({
    where: { status: "IN_PROGRESS", inFlightAt: { not: null }, inFlightPart: { not: null } },
    select: { id: true },
  });
  return rows.map((row) => row.id);
}
