// Response: one turn. Its queries and the mutations that write it.
import { NotFoundError } from "../errors.js";
import { ResponseStatus } from "../generated/prisma/enums.js";
import { expiresAt } from "../services/retention.js";
import { answerWithResponse, committedWrite, idOrNull } from "./committed-write.js";
import { builder } from "./builder.js";
import { INPUT_LIMITS, inputLimit } from "./input-limits.js";
import { needsOwnColumnsOnly, responseRow } from "./own-columns.js";
import { writeErrors } from "./errors.js";
import { HistoryEventInput } from "./event-inputs.js";
import { BaseHistoryEvent, HistoryEvent } from "./history-event.js";
import { HistoryConnection, historyArgs, resolveHistory } from "./history-connection.js";

export const ResponseStatusEnum = builder.enumType(ResponseStatus, { name: "ResponseStatus" });

interface UsageShape {
  inputTokens: number | null;
  outputTokens: number | null;
  reasoningTokens: number | null;
  totalTokens: number | null;
  cachedTokens: number | null;
  cost: number;
}

export const Usage = builder.objectRef<UsageShape>("Usage").implement({
  fields: (t) => ({
    inputTokens: t.exposeInt("inputTokens", { nullable: true }),
    outputTokens: t.exposeInt("outputTokens", { nullable: true }),
    reasoningTokens: t.exposeInt("reasoningTokens", { nullable: true }),
    totalTokens: t.exposeInt("totalTokens", { nullable: true }),
    cachedTokens: t.exposeInt("cachedTokens", {
      nullable: true,
      description: "Input tokens read from the provider's prompt cache (a part of inputTokens).",
    }),
    cost: t.exposeFloat("cost", {
      description: "What this usage cost when it was written (MODEL_PRICES; 0 for an unlisted model).",
    }),
  }),
});

export const Response = builder.prismaObject("Response", {
  fields: (t) => ({
    id: t.exposeID("id"),
    dialog: t.relation("dialog"),
    previousResponse: t.relation("previousResponse", { nullable: true }),
    children: t.relation("children", {
      description: "Responses chained to this one; more than one means the dialog branches here.",
      query: { orderBy: { id: "asc" } },
    }),
    depth: t.exposeInt("depth", { description: "Number of responses before this one on its chain." }),
    model: t.exposeString("model", { nullable: true }),
    status: t.expose("status", { type: ResponseStatusEnum }),
    usage: t.field({
      type: Usage,
      nullable: true,
      select: {
        inputTokens: true,
        outputTokens: true,
        reasoningTokens: true,
        totalTokens: true,
        cachedTokens: true,
        cost: true,
      },
      resolve: (r) =>
        [r.inputTokens, r.outputTokens, r.reasoningTokens, r.totalTokens, r.cachedTokens].every((n) => n == null)
          ? null
          : r,
    }),
    error: t.expose("error", { type: "JSON", nullable: true }),
    metadata: t.expose("metadata", { type: "JSONObject" }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    completedAt: t.expose("completedAt", { type: "DateTime", nullable: true }),
    expiresAt: t.field({
      type: "DateTime",
      nullable: true,
      description:
        "When retention deletes this response with its dialog, unless the dialog is written to before (null: kept forever).",
      select: { dialog: { select: { updatedAt: true } } },
      resolve: (r, _args, ctx) => expiresAt(r.dialog.updatedAt, ctx.store.retentionMs),
    }),
    input: t.field({
      type: [HistoryEvent],
      description: "The events this response was given, in order.",
      resolve: async (r, _args, ctx) =>
        (await ctx.loaders.eventsOfResponse.load(r.id)).filter((e) => e.phase === "INPUT"),
    }),
    output: t.field({
      type: [HistoryEvent],
      description: "The events this response produced, in order.",
      resolve: async (r, _args, ctx) =>
        (await ctx.loaders.eventsOfResponse.load(r.id)).filter((e) => e.phase === "OUTPUT"),
    }),
    context: t.field({
      type: HistoryConnection,
      description:
        "Every event on this response's chain, root first: previous input + previous output + this input and output.",
      args: historyArgs,
      resolve: (r, args, ctx, info) => resolveHistory(ctx, r.id, args, info, r.dialogId),
    }),
  }),
});

// Events read by the context query are plain rows; their responses load in one batch per request.
builder.interfaceField(BaseHistoryEvent, "response", (t) =>
  t.field({ type: Response, resolve: (event, _args, ctx) => ctx.loaders.response.load(event.responseId) }),
);

builder.queryField("response", (t) =>
  t.prismaField({
    type: "Response",
    nullable: true,
    args: { id: t.arg.id({ required: true }) },
    // One statement filtered by the tenant: another tenant's response is not found.
    tenant: "caller",
    resolve: async (query, _root, { id }, { scope, store }) => {
      const response = needsOwnColumnsOnly(query)
        ? await responseRow(store, String(id), scope.tenantId)
        : await store.prisma.response.findUnique({
            ...query,
            where: { id: String(id), dialog: { tenantId: scope.tenantId } },
          });
      if (!response) throw NotFoundError.response(String(id));
      return response;
    },
  }),
);

export const UsageInput = builder.inputType("UsageInput", {
  fields: (t) => ({
    inputTokens: t.int(),
    outputTokens: t.int(),
    reasoningTokens: t.int(),
    totalTokens: t.int(),
    cachedTokens: t.int({ description: "Input tokens read from the provider's prompt cache (a part of inputTokens)." }),
  }),
});

const CreateResponseInput = builder.inputType("CreateResponseInput", {
  fields: (t) => ({
    dialogId: t.id({
      description: "Chain to this dialog's head. Inferred from previousResponseId when that is given.",
    }),
    previousResponseId: t.id({ description: "Chain to this response (a new branch if it already has children)." }),
    fromStart: t.boolean({
      description:
        "A new first turn of dialogId, beside the first one, instead of a turn after its head: a branch from the start (an edited first message, a regenerated first answer). Not with previousResponseId.",
    }),
    model: t.string(inputLimit(INPUT_LIMITS.name)),
    input: t.field({ type: [HistoryEventInput], required: true }),
    output: t.field({
      type: [HistoryEventInput],
      description:
        "When given, the response is stored complete (status defaults to COMPLETED); otherwise it starts IN_PROGRESS.",
    }),
    status: t.field({ type: ResponseStatusEnum }),
    usage: t.field({ type: UsageInput }),
    error: t.field({ type: "JSON" }),
    metadata: t.field({ type: "JSON", description: "A JSON object.", ...inputLimit(INPUT_LIMITS.metadata) }),
    idempotencyKey: t.string({
      ...inputLimit(INPUT_LIMITS.idempotencyKey),
      description:
        "A retry with the same key and input returns the same response; the same key with another input is a ConflictError.",
    }),
  }),
});

builder.mutationField("createResponse", (t) =>
  t.prismaField({
    type: "Response",
    errors: { types: writeErrors },
    description:
      "Store a turn. With previousResponseId it chains to that response; with only dialogId, to the dialog's head; with neither, it starts a new dialog.",
    args: { input: t.arg({ type: CreateResponseInput, required: true }) },
    tenant: { dialogs: ["input.dialogId"], chainedTo: ["input.previousResponseId"] },
    resolve: async (query, _root, { input }, ctx) => {
      const request = {
        ...input,
        dialogId: idOrNull(input.dialogId),
        previousResponseId: idOrNull(input.previousResponseId),
      };
      const written = await committedWrite(ctx, () =>
        ctx.writes.createResponse(request, ctx.scope.tenantId, ctx.viewer.keyId),
      );
      return answerWithResponse(ctx, written, query);
    },
  }),
);
