// Conversation formats: a context exported as OpenAI messages for the next model call, and an
// OpenAI conversation imported as responses (src/formats does the conversions).
import { messageFormats } from "../formats/index.js";
import { exportMessages } from "../services/context-views.js";
import { importMessages } from "../services/import-messages.js";
import { builder } from "./builder.js";
import { contextTip, Dialog } from "./dialog.js";
import { answerWithResponse, committedWrite, idOrNull } from "./committed-write.js";
import { writeErrors } from "./errors.js";
import { Response } from "./response.js";

export const MessageFormat = builder.enumType("MessageFormat", {
  values: {
    OPENAI_CHAT: { description: "Chat Completions `messages` (system, user, assistant with tool_calls, tool)." },
    OPENAI_RESPONSES: {
      description: "Responses API `input` items (message, function_call, function_call_output, reasoning).",
    },
  } satisfies Record<(typeof messageFormats)[number], unknown>,
});

const exportArgs = builder.args((t) => ({
  format: t.field({ type: MessageFormat, required: true }),
  includeReasoning: t.boolean({
    description:
      "Include reasoning: as `reasoning_content` on assistant messages (OPENAI_CHAT, default false), as reasoning items (OPENAI_RESPONSES, default true; only reasoning imported with its item id).",
  }),
}));

const exportDescription =
  "The context as a JSON list ready to send to OpenAI: metadata and timestamps left out; messages imported in the same format come back exactly as they were.";

builder.prismaObjectField(Response, "messages", (t) =>
  t.field({
    type: "JSON",
    nullable: false,
    description: exportDescription,
    args: exportArgs,
    resolve: (response, { format, includeReasoning }) => exportMessages(response.id, format, { includeReasoning }),
  }),
);

builder.prismaObjectField(Dialog, "messages", (t) =>
  t.field({
    type: "JSON",
    nullable: false,
    description: `${exportDescription} Of the head's context, or of \`responseId\`'s.`,
    args: { ...exportArgs, responseId: t.arg.id() },
    select: { headId: true },
    resolve: async (dialog, { format, includeReasoning, responseId }) =>
      exportMessages(await contextTip(dialog, responseId), format, { includeReasoning }),
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
      description: "A list of chat messages (OPENAI_CHAT) or Responses input items (OPENAI_RESPONSES).",
    }),
    model: t.string({ description: "Recorded on every response the import creates." }),
  }),
});

builder.mutationField("importMessages", (t) =>
  t.prismaField({
    type: "Response",
    errors: { types: writeErrors },
    description:
      "Store an OpenAI conversation as chained responses: each message to the model (system, developer, user) opens a response once the previous one has output; the assistant's reasoning, text, tool calls and their tool results are its output. Returns the last response; on any error nothing is stored.",
    args: { input: t.arg({ type: ImportMessagesInput, required: true }) },
    resolve: async (query, _root, { input }, ctx) => {
      const ids = { dialogId: idOrNull(input.dialogId), chainedTo: idOrNull(input.previousResponseId) };
      const request = { ...input, dialogId: ids.dialogId, previousResponseId: ids.chainedTo, messages: input.messages, tenantId: ctx.scope.tenantId };
      const written = await committedWrite(ctx, ids, () => importMessages(request));
      return answerWithResponse(written, query);
    },
  }),
);
