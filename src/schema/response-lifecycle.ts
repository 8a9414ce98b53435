// Writing a turn step by step: appendEvents while the agent works, then
// completeResponse or interruptResponse; responseUpdated follows one response live.
import { stopTurnEverywhere } from "../generation/turn-cancel.js";
import { responseUpdatesStream } from "../live/response-updates-stream.js";
import { renewLoaders } from "./context.js";
import { builder } from "./builder.js";
import { answerWithResponse, committedWrite } from "./committed-write.js";
import { writeErrors } from "./errors.js";
import { HistoryEventInput } from "./event-inputs.js";
import { ResponseStatusEnum, UsageInput } from "./response.js";

const AppendEventsInput = builder.inputType("AppendEventsInput", {
  fields: (t) => ({
    responseId: t.id({ required: true, description: "An IN_PROGRESS response." }),
    events: t.field({ type: [HistoryEventInput], required: true, description: "Output events, in order." }),
    expectedSeq: t.int({
      description: "The dialog's last seq as the caller knows it; if another write came first, a ConflictError.",
    }),
  }),
});

const CompleteResponseInput = builder.inputType("CompleteResponseInput", {
  fields: (t) => ({
    responseId: t.id({ required: true }),
    status: t.field({ type: ResponseStatusEnum, description: "The final status; COMPLETED by default." }),
    usage: t.field({ type: UsageInput }),
    error: t.field({ type: "JSON", description: "What went wrong, for a FAILED response." }),
  }),
});

const InterruptBehavior = builder.enumType("InterruptBehavior", {
  description: "What an interrupted response keeps of the answer it was writing.",
  values: {
    SAVE_PARTIAL: { description: "Keep the partial text as an AI message; the response ends INCOMPLETE." },
    SAVE_MARKED: {
      description: "Keep it with metadata {interrupted: true}; the response ends INCOMPLETE.",
    },
    DISCARD: { description: "Keep nothing; the response ends CANCELLED." },
  } as const,
});

const InterruptResponseInput = builder.inputType("InterruptResponseInput", {
  fields: (t) => ({
    responseId: t.id({ required: true }),
    behavior: t.field({ type: InterruptBehavior, required: true }),
    partialText: t.string({
      description:
        "The answer so far. Without it, SAVE_PARTIAL and SAVE_MARKED keep the text streamed so far (streamText); it is required when nothing was streamed, unless behavior is DISCARD.",
    }),
  }),
});

builder.mutationFields((t) => ({
  appendEvents: t.prismaField({
    type: "Response",
    errors: { types: writeErrors },
    description: "Add output events to an IN_PROGRESS response as the agent's steps complete.",
    args: { input: t.arg({ type: AppendEventsInput, required: true }) },
    tenant: { responses: ["input.responseId"] },
    resolve: async (query, _root, { input }, ctx) => {
      const responseId = String(input.responseId);
      const written = await committedWrite(ctx, () =>
        // The response's in-flight text goes with the write (src/history-writes/lifecycle-writes.ts).
        ctx.writes.appendEvents({ ...input, responseId }),
      );
      return answerWithResponse(ctx, written, query);
    },
  }),
  completeResponse: t.prismaField({
    type: "Response",
    errors: { types: writeErrors },
    description: "Finish an IN_PROGRESS response with its final status, usage and error.",
    args: { input: t.arg({ type: CompleteResponseInput, required: true }) },
    tenant: { responses: ["input.responseId"] },
    resolve: async (query, _root, { input }, ctx) => {
      const responseId = String(input.responseId);
      const written = await committedWrite(ctx, () =>
        // The response's in-flight text goes with the write (src/history-writes/lifecycle-writes.ts).
        ctx.writes.completeResponse({ ...input, responseId }),
      );
      return answerWithResponse(ctx, written, query);
    },
  }),
  interruptResponse: t.prismaField({
    type: "Response",
    errors: { types: writeErrors },
    description: "Stop an IN_PROGRESS response, keeping its partial answer or not.",
    args: { input: t.arg({ type: InterruptResponseInput, required: true }) },
    tenant: { responses: ["input.responseId"] },
    resolve: async (query, _root, { input }, ctx) => {
      const responseId = String(input.responseId);
      const written = await committedWrite(ctx, () =>
        // The response's in-flight text goes with the write (src/history-writes/lifecycle-writes.ts).
        ctx.writes.interruptResponse({ ...input, responseId }),
      );
      // A generated turn stops too, wherever it runs: no more model or tool calls.
      stopTurnEverywhere(ctx.generator, ctx.live, responseId);
      return answerWithResponse(ctx, written, query);
    },
  }),
}));

builder.subscriptionField("responseUpdated", (t) =>
  t.prismaField({
    type: "Response",
    description: "One response: its state now, then again after every committed write to it; ends once it is finished.",
    args: { responseId: t.arg.id({ required: true }) },
    tenant: { responses: ["responseId"] },
    subscribe: (_root, { responseId }, ctx) => responseUpdatesStream(ctx.store, ctx.live, String(responseId)),
    resolve: (query, id: string, _args, ctx) => {
      renewLoaders(ctx);
      return ctx.store.prisma.response.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
);
