// Token streaming for agents that call their own model: streamText grows the open AI or reasoning
// event of an IN_PROGRESS response, commitText ends the step (src/history-writes/ decides).
import { TextOffsetError } from "../errors.js";
import type { TextPosition } from "../history-writes/history-writes.js";
import { builder } from "./builder.js";
import { writeErrors } from "./errors.js";
import { HistoryEventTypeEnum } from "./history-event.js";

const StreamTextInput = builder.inputType("StreamTextInput", {
  fields: (t) => ({
    responseId: t.id({ required: true, description: "An IN_PROGRESS response." }),
    type: t.field({
      type: HistoryEventTypeEnum,
      required: true,
      description: "AI or REASONING. A delta of the other type than the open text commits that text first.",
    }),
    delta: t.string({ required: true, description: "The text to append (at most MAX_TEXT_DELTA_CHARS characters)." }),
    offset: t.int({
      description:
        "Where the delta starts in the event's text (UTF-16 code units): must be where the text ends, else a TextOffsetError. Omit it to append at the end.",
    }),
  }),
});

const TextPositionRef = builder.objectRef<TextPosition>("TextPosition").implement({
  description: "Where an accepted text delta landed.",
  fields: (t) => ({
    responseId: t.exposeID("responseId"),
    part: t.exposeInt("part", { description: "The index the event will have among the response's events." }),
    type: t.field({ type: HistoryEventTypeEnum, resolve: (position) => position.type }),
    offset: t.exposeInt("offset"),
    length: t.exposeInt("length", { description: "The text's length after the delta: the next delta's offset." }),
  }),
});

builder.mutationFields((t) => ({
  streamText: t.field({
    type: TextPositionRef,
    errors: { types: [TextOffsetError, ...writeErrors] },
    description:
      "Append a delta to the in-flight text of an IN_PROGRESS response; historyDelta subscribers see it at once. Cheap enough for a token stream (no event is written; the text is checkpointed now and then).",
    args: { input: t.arg({ type: StreamTextInput, required: true }) },
    // The in-flight layer checks the response's tenant itself: a delta must not cost a query.
    tenant: "caller",
    resolve: (_root, { input }, ctx) =>
      ctx.writes.streamText(
        { ...input, responseId: String(input.responseId), type: input.type as "AI" },
        ctx.scope.tenantId,
      ),
  }),
  commitText: t.prismaField({
    type: "Response",
    errors: { types: writeErrors },
    description:
      "End the step: the in-flight text becomes one AI or reasoning event with its seq (nothing happens without one).",
    args: { responseId: t.arg.id({ required: true }) },
    tenant: { responses: ["responseId"] },
    resolve: async (query, _root, { responseId }, ctx) => {
      const id = String(responseId);
      await ctx.writes.commitText(id);
      return ctx.store.prisma.response.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
}));
