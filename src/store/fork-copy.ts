// Copying a context into a new dialog (forkDialog), inside the write primitive: responses and
// events are copied by INSERT … SELECT, one statement each whatever the depth, reading the
// originals through id mappings made here (ids are ULIDs, which only the application makes).
// Both statements list their columns: a column added to Response or Event must be added here too
// to be copied (the fork test compares every field of the copy with the original). A copy holds
// all the events of its original, so it takes its event counts too. The copied chain is linear and
// the new dialog's only one, so it is one segment of its own (docs/architecture.md, "Context
// addressing"), named after the copy of the root, whose segment counts run along the chain.
import { Prisma } from "../generated/prisma/client.js";
import type { ResponseStatus } from "../generated/prisma/enums.js";
import { newEventId, newResponseId } from "../ids.js";
import { countColumns } from "../vocabulary/event-counts.js";
import type { DialogWrite } from "./dialog-write.js";
import { segmentCountColumnList, segmentUsageColumnList } from "./rows.js";
import { run } from "./sql.js";
import { addUsage, noUsage, usageKinds, type UsageSums } from "./usage.js";

/**
 * Copies `chain` (root first) and the events `eventIds` (in context order) into the dialog of
 * `write`, numbering the events after its last seq; the copy of the chain's last response becomes
 * the head. Returns the head's id and status.
 */
export async function copyContext(write: DialogWrite, chain: { id: string; depth: number }[], eventIds: string[]) {
  const oldIds = chain.map((response) => response.id);
  const newIds = chain.map(() => newResponseId());
  // The chain is linear: each copy continues the copy of the response before it.
  const newPrevious = [null, ...newIds.slice(0, -1)];
  const dialogId = write.dialog.id;
  const segmentId = newIds[0]!;
  const inSegment = (column: string, type = "int") =>
    Prisma.raw(`sum(COALESCE(r."${column}", 0)) OVER (ORDER BY m.ord)::${type} AS "${column}InSegment"`);
  // The copies keep their originals' usage (the fork's totals count them) but charge nothing again:
  // the ledger already holds what the originals cost.
  const copied = await run<{ id: string; status: ResponseStatus } & UsageSums>(
    Prisma.sql`
    INSERT INTO "Response" (id, "dialogId", "previousResponseId", depth, model, status, "inputTokens",
      "outputTokens", "reasoningTokens", "totalTokens", error, metadata, "createdAt", "completedAt",
      "humanEvents", "aiEvents", "reasoningEvents", "toolCallEvents", "toolResultEvents", "systemEvents",
      "segmentId", ${segmentCountColumnList}, "cachedTokens", cost, "apiKeyId", ${segmentUsageColumnList})
    SELECT m.new_id, ${dialogId}, m.new_previous, r.depth, r.model, r.status, r."inputTokens",
      r."outputTokens", r."reasoningTokens", r."totalTokens", r.error, r.metadata, r."createdAt", r."completedAt",
      r."humanEvents", r."aiEvents", r."reasoningEvents", r."toolCallEvents", r."toolResultEvents", r."systemEvents",
      ${segmentId}, ${Prisma.join(Object.values(countColumns).map((column) => inSegment(column)))},
      r."cachedTokens", r.cost, r."apiKeyId",
      ${Prisma.join([...usageKinds.map((kind) => inSegment(kind)), inSegment("cost", "float8")])}
    FROM unnest(${oldIds}::text[], ${newIds}::text[], ${newPrevious}::text[]) WITH ORDINALITY
      AS m(old_id, new_id, new_previous, ord)
    JOIN "Response" r ON r.id = m.old_id
    RETURNING id, status, COALESCE("inputTokens", 0) AS "inputTokens", COALESCE("outputTokens", 0) AS "outputTokens",
      COALESCE("cachedTokens", 0) AS "cachedTokens", COALESCE("reasoningTokens", 0) AS "reasoningTokens", cost`,
    write.session,
  );
  if (eventIds.length) {
    const newEventIds = eventIds.map(() => newEventId());
    // WITH ORDINALITY numbers the events in the order the ids were read: the context's order.
    await run(
      Prisma.sql`
      INSERT INTO "Event" (id, "dialogId", "responseId", seq, "segmentId", depth, phase, type, content, parts, "modelName",
        "callId", "toolName", args, "isError", "providerFields", metadata, "createdAt")
      SELECT m.new_id, ${dialogId}, rm.new_id, ${write.seq}::int + m.seq::int, ${segmentId}, e.depth, e.phase, e.type,
        e.content, e.parts,
        e."modelName", e."callId", e."toolName", e.args, e."isError", e."providerFields", e.metadata, e."createdAt"
      FROM unnest(${eventIds}::text[], ${newEventIds}::text[]) WITH ORDINALITY AS m(old_id, new_id, seq)
      JOIN "Event" e ON e.id = m.old_id
      JOIN unnest(${oldIds}::text[], ${newIds}::text[]) AS rm(old_id, new_id) ON rm.old_id = e."responseId"`,
      write.session,
    );
  }
  const head = { id: newIds.at(-1)!, depth: chain.at(-1)!.depth };
  write.adoptCopied(
    eventIds.length,
    head,
    copied.reduce<UsageSums>((sum, row) => addUsage(sum, row), noUsage()),
  );
  return { headId: head.id, status: copied.find((row) => row.id === head.id)!.status };
}
