// The Dialog's fields that read a context: the history of one of its responses (default: the
// head), its count, its newest event, its transcript.
import { NotFoundError } from "../errors.js";
import { DEFAULT_TRANSCRIPT_CONTENT_LENGTH } from "../formats/transcript.js";
import { countContext, readContextPage } from "../services/context.js";
import { transcriptOf } from "../services/context-views.js";
import type { Context } from "./context.js";
import { builder } from "./builder.js";
import { Dialog } from "./dialog.js";
import { HistoryConnection, historyArgs, resolveHistory } from "./history-connection.js";
import { HistoryEvent, HistoryEventTypeEnum } from "./history-event.js";

const responseIdDescription = "Read the context of this response of the dialog (default: the head).";

builder.prismaObjectFields(Dialog, (t) => {
  /** Which context (a response of the dialog, default the head) and which types of its events. */
  const typedContextArgs = () => ({
    responseId: t.arg.id({ description: responseIdDescription }),
    types: t.arg({ type: [HistoryEventTypeEnum] }),
  });
  return {
    history: t.field({
      type: HistoryConnection,
      description: "The context of `responseId` (default: the head), root first, Relay-paginated.",
      args: { responseId: t.arg.id(), ...historyArgs },
      select: { headId: true },
      resolve: async (dialog, { responseId, ...args }, ctx, info) =>
        resolveHistory(ctx, await contextTip(ctx, dialog, responseId), args, info, dialog.id),
    }),
    eventCount: t.int({
      nullable: false,
      description: "Number of events in the context, of the given types if any.",
      args: typedContextArgs(),
      select: { headId: true },
      resolve: async (dialog, { responseId, types }, ctx) => {
        const tip = await contextTip(ctx, dialog, responseId);
        return tip ? (await countContext(tip, types, ctx.store.database)).all : 0;
      },
    }),
    lastEvent: t.field({
      type: HistoryEvent,
      nullable: true,
      description: "The newest event of the context, of the given types if any.",
      args: typedContextArgs(),
      select: { headId: true },
      resolve: async (dialog, { responseId, types }, ctx) => {
        const tip = await contextTip(ctx, dialog, responseId);
        if (!tip) return null;
        const [last] = await readContextPage(tip, { types, limit: 1, inverted: true }, ctx.store.database);
        return last ?? null;
      },
    }),
    transcript: t.string({
      nullable: false,
      description:
        "The context as readable text, for logs and debugging: a header, then `  1. [user] …` per event, long content shortened.",
      args: {
        responseId: t.arg.id({ description: responseIdDescription }),
        maxContentLength: t.arg.int({
          description: `Content longer than this is cut and ends with "..." (default ${DEFAULT_TRANSCRIPT_CONTENT_LENGTH}).`,
        }),
      },
      select: { headId: true },
      resolve: async (dialog, { responseId, maxContentLength }, ctx) =>
        transcriptOf(ctx.store.database, await contextTip(ctx, dialog, responseId), {
          maxContentLength: maxContentLength ?? undefined,
        }),
    }),
  };
});

/**
 * The response whose context a dialog field reads: `responseId` when it is one of the dialog's
 * responses, else the head (null for a dialog with no response yet).
 */
export async function contextTip(
  ctx: Context,
  dialog: { id: string; headId: string | null },
  responseId?: string | number | null,
) {
  if (responseId == null) return dialog.headId;
  const id = String(responseId);
  const response = await ctx.store.prisma.response.findUnique({ where: { id }, select: { dialogId: true } });
  if (response?.dialogId !== dialog.id) throw NotFoundError.response(id);
  return id;
}
