// What a write to a response reads of it under the lock (DialogWrite.readResponse,
// or the statement that takes the lock, src/store/locked-dialog.ts): its status and dialog, and
// for its end its usage and its events for the chat hash.
import { Prisma } from "../generated/prisma/client.js";
import type { ResponseStatus } from "../generated/prisma/enums.js";
import type { ChatHashedEvent } from "../formats/chat-context-hash.js";
import { chatHashedEventsOf } from "./chat-hash.js";
import type { Usage } from "./rows.js";

/** What a write to an IN_PROGRESS response reads of it under the lock (readResponse). */
export type ResponseForWrite = { status: ResponseStatus; dialogId: string } & Partial<UsageRow> & {
    events?: ChatHashedEvent[];
  };

/**
 * The statement reading a response for a write to it: its status and dialog, and with `forEnd`
 * what its final status needs (its usage, its events for the chat hash).
 */
export const responseForWrite = (dialogId: string, responseId: string, forEnd: boolean) =>
  Prisma.sql`SELECT status, "dialogId"${forEnd ? Prisma.sql`, ${usageRowColumns}, ${chatHashedEventsOf} AS events` : Prisma.empty}
    FROM "Response" r WHERE "dialogId" = ${dialogId} AND id = ${responseId}`;

/** What removing a response reads of it first: its parent and depth, and how many responses continue it. */
export interface ResponseForRemoval {
  previousResponseId: string | null;
  depth: number;
  children: number;
}

export const responseForRemoval = (dialogId: string, responseId: string) =>
  Prisma.sql`SELECT r."previousResponseId", r.depth,
    (SELECT count(*)::int FROM "Response" c WHERE c."dialogId" = r."dialogId" AND c."previousResponseId" = r.id) AS children
    FROM "Response" r WHERE r."dialogId" = ${dialogId} AND r.id = ${responseId}`;

/** A response's usage as its change is priced from (DialogWrite#changeUsage). */
export interface UsageRow extends Usage {
  model: string | null;
  apiKeyId: string | null;
  cost: number;
  segmentId: string;
  depth: number;
}

export const usageRowColumns = Prisma.sql`model, "apiKeyId", "inputTokens", "outputTokens", "cachedTokens", "reasoningTokens", cost,
  "segmentId", depth`;
