// HistoryConnection: a Relay page of a response's context, plus the totals computed over
// the whole selection (not the page). The page and the totals are one SQL statement each.
import { type ResolveCursorConnectionArgs, resolveCursorConnection } from "@pothos/plugin-relay";
import { collectSubFields } from "@graphql-tools/utils";
import { type GraphQLObjectType, type GraphQLResolveInfo, getNamedType } from "graphql";
import { ValidationError } from "../errors.js";
import type { HistoryEventType } from "../generated/prisma/enums.js";
import {
  type ContextEvent,
  type ContextPosition,
  type ContextTotals,
  countContext,
  readContextPage,
} from "../services/context.js";
import type { RequestBudget } from "./request-budget.js";
import type { Store } from "../store/store.js";
import { builder } from "./builder.js";
import { HistoryEvent, HistoryEventTypeEnum } from "./history-event.js";

export const DEFAULT_HISTORY_PAGE = 100;
export const MAX_HISTORY_PAGE = 10_000;

interface HistoryTotals {
  totals: () => Promise<ContextTotals>;
}

export const HistoryConnection = builder.connectionObject(
  {
    type: HistoryEvent,
    name: "HistoryConnection",
    fields: (t) => {
      const total = (pick: (totals: ContextTotals) => number) =>
        t.int({ resolve: async (page) => pick(await (page as unknown as HistoryTotals).totals()) });
      return {
        totalMessages: total((totals) => totals.all),
        totalReasoning: total((totals) => totals.REASONING),
        totalToolCalls: total((totals) => totals.TOOL_CALL),
      };
    },
  },
  { name: "HistoryEdge" },
);

export const historyArgs = builder.args((t) => ({
  types: t.field({
    type: [HistoryEventTypeEnum],
    description: "Only events of these types (filter by role). Totals count the same selection.",
  }),
  ...t.connectionArgs(),
}));

// Cursors name a place in a context, (depth of the response, seq of the event): stable while
// the context grows, and the same in every branch that shares the event.
const toCursor = (event: ContextEvent) => Buffer.from(`${event.depth}:${event.seq}`).toString("base64url");

function fromCursor(cursor: string | null | undefined, arg: string): ContextPosition | null {
  if (cursor == null) return null;
  const match = /^(\d+):(\d+)$/.exec(Buffer.from(cursor, "base64url").toString());
  if (!match) throw ValidationError.at([arg], "not a history cursor");
  return { depth: Number(match[1]), seq: Number(match[2]) };
}

export interface HistoryArgs {
  types?: HistoryEventType[] | null;
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
}

/**
 * A page of the context of `responseId`; an empty dialog (no response yet) has an empty history.
 * When the selection (`info`) asks for totals, they are counted alongside the page, on another
 * connection, rather than after it.
 */
export async function resolveHistory(
  { budget, store }: { budget: RequestBudget; store: Store },
  responseId: string | null,
  args: HistoryArgs,
  info?: GraphQLResolveInfo,
  /** The response's dialog, when known: every statement names it (docs/scaling.md). */
  dialogId?: string,
) {
  const totals = memo(() =>
    responseId ? countContext(responseId, args.types, store.database, dialogId) : Promise.resolve(emptyTotals),
  );
  if (info && selectsTotals(info)) void totals().catch(() => {}); // its resolver reports a failure
  const page = await resolveCursorConnection(
    { args, toCursor, defaultSize: DEFAULT_HISTORY_PAGE, maxSize: MAX_HISTORY_PAGE },
    async ({ before, after, limit, inverted }: ResolveCursorConnectionArgs): Promise<ContextEvent[]> => {
      const range = { after: fromCursor(after, "after"), before: fromCursor(before, "before") };
      if (!responseId) return [];
      return budget.read(limit, () =>
        readContextPage(responseId, { types: args.types, ...range, limit, inverted, dialogId }, store.database),
      );
    },
  );
  return { ...page!, totals };
}

const TOTAL_FIELDS = ["totalMessages", "totalReasoning", "totalToolCalls"];

function selectsTotals(info: GraphQLResolveInfo) {
  const connection = getNamedType(info.returnType) as GraphQLObjectType;
  const { fields } = collectSubFields(info.schema, info.fragments, info.variableValues, connection, [
    ...info.fieldNodes,
  ]);
  return TOTAL_FIELDS.some((name) => fields.has(name));
}

const emptyTotals: ContextTotals = { all: 0, HUMAN: 0, AI: 0, REASONING: 0, TOOL_CALL: 0, TOOL_RESULT: 0, SYSTEM: 0 };

function memo<T>(load: () => Promise<T>) {
  let result: Promise<T> | undefined;
  return () => (result ??= load());
}
