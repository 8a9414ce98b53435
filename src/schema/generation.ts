// Generating a turn through a configured model: generateResponse runs the same model loop as
// POST /v1/responses and returns the IN_PROGRESS Response at once (its progress arrives over
// historyDelta); cancelResponse stops it; titleDialog names a dialog from its first exchange;
// `models` tells clients (the web viewer) whether a model is configured.
import { BudgetExceededError } from "../errors.js";
import { titleDialog } from "../generation/dialog-title.js";
import { ModelNotConfiguredError } from "../generation/providers.js";
import { cancelTurn } from "../generation/turn-cancel.js";
import { storedTurns } from "../generation/turn-sink.js";
import { builder } from "./builder.js";
import { INPUT_LIMITS, inputLimit } from "./input-limits.js";
import { ErrorInterface, writeErrors } from "./errors.js";
import { committedWrite } from "./committed-write.js";
import { HistoryEventInput } from "./event-inputs.js";
import { McpToolInput, mcpServersOf } from "./tool-approvals.js";

builder.objectType(ModelNotConfiguredError, {
  name: "ModelNotConfiguredError",
  description:
    "No provider serves the model: set OPENAI_API_KEY / OPENAI_BASE_URL, ANTHROPIC_API_KEY or MODEL_PROVIDERS.",
  interfaces: [ErrorInterface],
  isTypeOf: (value) => value instanceof ModelNotConfiguredError,
});

const ModelsInfo = builder.objectRef<{ configured: boolean; defaultModel: string | null }>("ModelsInfo").implement({
  description: "The model providers this server is configured with (docs/responses-api.md).",
  fields: (t) => ({
    configured: t.exposeBoolean("configured", { description: "Whether generateResponse can call any model." }),
    defaultModel: t.exposeString("defaultModel", {
      nullable: true,
      description: "DEFAULT_MODEL, or a provider's usual model.",
    }),
  }),
});

builder.queryField("models", (t) =>
  // Which providers are configured: the same for every tenant.
  t.field({ type: ModelsInfo, tenant: "none", resolve: (_root, _args, ctx) => ctx.generator.models }),
);

const FunctionToolInput = builder.inputType("FunctionToolInput", {
  description: "A function the model may call; its calls come back as ToolCallEvents for the client to run.",
  fields: (t) => ({
    name: t.string({ required: true }),
    description: t.string(),
    parameters: t.field({ type: "JSONObject", description: "JSON Schema of the arguments." }),
  }),
});

const GenerateResponseInput = builder.inputType("GenerateResponseInput", {
  fields: (t) => ({
    dialogId: t.id({
      description: "Continue this dialog's head (a new dialog when neither this nor previousResponseId is given).",
    }),
    previousResponseId: t.id({ description: "Continue from this response: a new branch if it already has children." }),
    fromStart: t.boolean({
      description:
        "A new first turn of dialogId, beside the first one, instead of a turn after its head: a branch from the start (an edited first message, a regenerated first answer). Not with previousResponseId.",
    }),
    model: t.string({ required: true, ...inputLimit(INPUT_LIMITS.name) }),
    input: t.field({ type: [HistoryEventInput], required: true, description: "What the model is given this turn." }),
    instructions: t.string({ description: "A system prompt for this turn only (not stored in the history)." }),
    tools: t.field({ type: [FunctionToolInput] }),
    mcpTools: t.field({ type: [McpToolInput], description: "MCP servers dialogql calls within the turn." }),
    maxToolCalls: t.int({ description: "At most this many MCP calls in the turn." }),
    temperature: t.float(),
    maxOutputTokens: t.int(),
  }),
});

builder.mutationField("generateResponse", (t) =>
  t.prismaField({
    type: "Response",
    errors: { types: [...writeErrors, ModelNotConfiguredError, BudgetExceededError] },
    description:
      "Store the input as a new IN_PROGRESS response and have the model answer it; the answer arrives over historyDelta and responseUpdated.",
    args: { input: t.arg({ type: GenerateResponseInput, required: true }) },
    tenant: { dialogs: ["input.dialogId"], chainedTo: ["input.previousResponseId"] },
    resolve: async (query, _root, { input }, ctx) => {
      const dialogId = input.dialogId == null ? null : String(input.dialogId);
      const previousResponseId = input.previousResponseId == null ? null : String(input.previousResponseId);
      const mcp = { servers: mcpServersOf(input.mcpTools, ctx.generator.mcp.allowed), approvals: [] };
      const started = await ctx.generator.start(
        {
          ...input,
          dialogId,
          previousResponseId,
          tenantId: ctx.scope.tenantId,
          apiKeyId: ctx.viewer.keyId,
          traceContext: ctx.traceContext,
          tools: input.tools ?? null,
          mcp,
        },
        storedTurns(ctx),
      );
      return ctx.store.prisma.response.findUniqueOrThrow({ ...query, where: { id: started.responseId } });
    },
  }),
);

builder.mutationField("cancelResponse", (t) =>
  t.prismaField({
    type: "Response",
    errors: { types: writeErrors },
    description:
      "Stop an IN_PROGRESS response: a turn dialogql is generating stops the model and its tools where it runs (any instance) and keeps what it wrote (as POST /v1/responses/{id}/cancel); any other open turn ends CANCELLED. A finished response is returned as it is.",
    args: { responseId: t.arg.id({ required: true }) },
    tenant: { responses: ["responseId"] },
    resolve: async (query, _root, args, ctx) => {
      const responseId = String(args.responseId);
      const { dialogId } = await ctx.store.prisma.response.findUniqueOrThrow({
        where: { id: responseId },
        select: { dialogId: true },
      });
      // Stopped where it runs (another instance through a notice); an agent's turn, or one whose
      // process is gone, is ended as interruptResponse ends it.
      await cancelTurn(responseId, dialogId, ctx, () =>
        committedWrite(ctx, () => ctx.writes.cancelResponse(responseId)),
      );
      return ctx.store.prisma.response.findUniqueOrThrow({ ...query, where: { id: responseId } });
    },
  }),
);

builder.mutationField("titleDialog", (t) =>
  t.prismaField({
    type: "Dialog",
    errors: { types: writeErrors },
    description:
      "Give an untitled dialog a title from its first exchange: written by the model when one is configured, else the first words of the first message. A titled dialog keeps its title.",
    args: {
      dialogId: t.arg.id({ required: true }),
      model: t.arg.string({ description: "The model to ask.", ...inputLimit(INPUT_LIMITS.name) }),
    },
    tenant: { dialogs: ["dialogId"] },
    resolve: async (query, _root, args, ctx) => {
      const dialogId = String(args.dialogId);
      await titleDialog(ctx.store, dialogId, {
        generator: ctx.generator,
        caller: { tenantId: ctx.viewer.tenantId, keyId: ctx.viewer.keyId },
        model: args.model,
        // Through the one door, as every dialog change.
        setTitle: (title) => ctx.writes.updateDialog(dialogId, { title }),
      });
      return ctx.store.prisma.dialog.findUniqueOrThrow({ ...query, where: { id: dialogId } });
    },
  }),
);
