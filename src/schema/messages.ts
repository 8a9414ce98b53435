// Conversation formats: a context exported in a provider's format for the next model call (whole
// or fitted to a token budget), and a provider's conversation imported as responses
// (src/formats does the conversions; docs/formats.md describes them).
import { messageFormats } from "../formats/index.js";
import { tokenizerNames } from "../formats/token-budget.js";
import { exportMessages, fitMessages, tokenCountOf } from "../services/context-views.js";
import { builder } from "./builder.js";
import { INPUT_LIMITS, inputLimit } from "./input-limits.js";
import { Dialog } from "./dialog.js";
import { contextTip } from "./dialog-context.js";
import { answerWithResponse, committedWrite, idOrNull } from "./committed-write.js";
import { writeErrors } from "./errors.js";
import { Response } from "./response.js";

export const MessageFormat = builder.enumType("MessageFormat", {
  values: {
    OPENAI_CHAT: { description: "Chat Completions `messages` (system, user, assistant with tool_calls, tool)." },
    OPENAI_RESPONSES: {
      description: "Responses API `input` items (message, function_call, function_call_output, reasoning, …).",
    },
    ANTHROPIC_MESSAGES: {
      description:
        "An Anthropic Messages request body `{system, messages}` (content blocks: text, image, document, thinking, tool_use, tool_result, …).",
    },
    AI_SDK_UI: {
      description: "Vercel AI SDK `UIMessage`s as `useChat` keeps them (parts: text, reasoning, tool-*, file, …).",
    },
  } satisfies Record<(typeof messageFormats)[number], unknown>,
});

export const Tokenizer = builder.enumType("Tokenizer", {
  description:
    "An OpenAI encoding (gpt-tokenizer) to count tokens with; for other providers' models the count is an approximation.",
  values: {
    O200K_BASE: { description: "GPT-4o, GPT-4.1, GPT-5 and o-series models (the default)." },
    CL100K_BASE: { description: "GPT-4 and GPT-3.5 models." },
  } satisfies Record<(typeof tokenizerNames)[number], unknown>,
});

const exportArgs = builder.args((t) => ({
  format: t.field({ type: MessageFormat, required: true }),
  includeReasoning: t.boolean({
    description:
      "Include reasoning: as `reasoning_content` on assistant messages (OPENAI_CHAT, default false), as reasoning items (OPENAI_RESPONSES, default true; only reasoning imported with its item id), as thinking blocks (ANTHROPIC_MESSAGES, default true; only thinking imported with its signature), as reasoning parts (AI_SDK_UI, default true).",
  }),
  maxTokens: t.int({
    description:
      "Keep only the newest turns that fit this many tokens: system and developer prompts always kept, a tool call never separated from its result. `fittedMessages` says what was left out.",
  }),
  tokenizer: t.field({ type: Tokenizer, description: "How tokens are counted for maxTokens (default O200K_BASE)." }),
}));

const exportDescription =
  "The context as JSON ready to send to a model: metadata and timestamps left out; messages imported in the same format come back exactly as they were.";

builder.prismaObjectField(Response, "messages", (t) =>
  t.field({
    type: "JSON",
    nullable: false,
    description: exportDescription,
    args: exportArgs,
    resolve: (response, args, ctx) => exportMessages(ctx.store.database, response.id, args.format, args),
  }),
);

builder.prismaObjectField(Dialog, "messages", (t) =>
  t.field({
    type: "JSON",
    nullable: false,
    description: `${exportDescription} Of the head's context, or of \`responseId\`'s.`,
    args: { ...exportArgs, responseId: t.arg.id() },
    select: { headId: true },
    resolve: async (dialog, args, ctx) =>
      exportMessages(ctx.store.database, await contextTip(ctx, dialog, args.responseId), args.format, args),
  }),
);

interface Fitted {
  messages: unknown;
  tokenCount: number;
  droppedEventCount: number;
  droppedThroughSeq: number | null;
}
const FittedMessages = builder.objectRef<Fitted>("FittedMessages").implement({
  description: "An export fitted to a token budget, and what the budget left out.",
  fields: (t) => ({
    messages: t.expose("messages", { type: "JSON" }),
    tokenCount: t.exposeInt("tokenCount", { description: "Tokens of the events kept, as dialogql counts them." }),
    droppedEventCount: t.exposeInt("droppedEventCount", { description: "Events of the context left out." }),
    droppedThroughSeq: t.exposeInt("droppedThroughSeq", {
      nullable: true,
      description: "Every event up to this seq was left out, except system and developer prompts (null: none).",
    }),
  }),
});

builder.prismaObjectField(Response, "fittedMessages", (t) =>
  t.field({
    type: FittedMessages,
    nullable: false,
    description: `${exportDescription} Fitted to maxTokens (everything when it is absent), with what was left out.`,
    args: exportArgs,
    resolve: (response, args, ctx) => fitMessages(ctx.store.database, response.id, args.format, args),
  }),
);

builder.prismaObjectField(Dialog, "tokenCount", (t) =>
  t.int({
    nullable: false,
    description:
      "Tokens of the context of `responseId` (default: the head), counted as `maxTokens` budgets count them: each event's text plus a few tokens of framing, 85 per image or file.",
    args: { responseId: t.arg.id(), tokenizer: t.arg({ type: Tokenizer }) },
    select: { headId: true },
    resolve: async (dialog, { responseId, tokenizer }, ctx) =>
      tokenCountOf(ctx.store.database, await contextTip(ctx, dialog, responseId), tokenizer ?? undefined),
  }),
);

const ImportMessagesInput = builder.inputType("ImportMessagesInput", {
  fields: (t) => ({
    dialogId: t.id({
      description: "Continue this dialog's head. Inferred from previousResponseId when that is given.",
    }),
    previousResponseId: t.id({ description: "Continue this response. With neither, a new dialog is created." }),
    format: t.field({ type: MessageFormat, required: true }),
    messages: t.field({
      type: "JSON",
      required: true,
      description:
        "Chat messages (OPENAI_CHAT), Responses input items (OPENAI_RESPONSES), an Anthropic `{system, messages}` body or a list of its messages (ANTHROPIC_MESSAGES), UIMessages (AI_SDK_UI).",
    }),
    model: t.string({
      description: "Recorded on every response the import creates.",
      ...inputLimit(INPUT_LIMITS.name),
    }),
  }),
});

builder.mutationField("importMessages", (t) =>
  t.prismaField({
    type: "Response",
    errors: { types: writeErrors },
    description:
      "Store a conversation as chained responses: each message to the model (system, developer, user) opens a response once the previous one has output; the assistant's reasoning, text, tool calls and their tool results are its output. Returns the last response; on any error nothing is stored.",
    args: { input: t.arg({ type: ImportMessagesInput, required: true }) },
    tenant: { dialogs: ["input.dialogId"], chainedTo: ["input.previousResponseId"] },
    resolve: async (query, _root, { input }, ctx) => {
      const request = {
        ...input,
        dialogId: idOrNull(input.dialogId),
        previousResponseId: idOrNull(input.previousResponseId),
        messages: input.messages,
        tenantId: ctx.scope.tenantId,
      };
      const written = await committedWrite(ctx, () => ctx.writes.importMessages(request));
      return answerWithResponse(ctx, written, query);
    },
  }),
);
