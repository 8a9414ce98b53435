// HistoryEventInput: a @oneOf input with one field per kind of event, e.g. {human: {content: "Hi"}}.
// Fields a kind needs are checked by the service (src/services/event-input.ts) rather than made
// non-null here, so a missing one comes back as a ValidationError with its path.
import { builder } from "./builder.js";
import { INPUT_LIMITS, inputLimit, sizedAsEvent } from "./input-limits.js";

const common = (t: Parameters<Parameters<typeof builder.inputType>[1]["fields"]>[0]) => ({
  metadata: t.field({
    type: "JSON",
    description: "A JSON object kept with the event.",
    ...inputLimit(INPUT_LIMITS.metadata),
  }),
  createdAt: t.field({ type: "DateTime", description: "When it happened, if not now." }),
});

const MessageEventInput = builder.inputType("MessageEventInput", {
  description: "A human, AI or system message: text `content`, OpenAI content `parts`, or both.",
  fields: (t) => ({
    content: t.string(),
    parts: t.field({
      type: ["JSON"],
      description: 'OpenAI chat content parts, e.g. {"type": "image_url", "image_url": {"url": "…"}}.',
    }),
    ...common(t),
  }),
});

const ReasoningEventInput = builder.inputType("ReasoningEventInput", {
  fields: (t) => ({
    content: t.string({ description: "Required." }),
    modelName: t.string(inputLimit(INPUT_LIMITS.name)),
    ...common(t),
  }),
});

const ToolCallEventInput = builder.inputType("ToolCallEventInput", {
  fields: (t) => ({
    callId: t.string({ description: "The call's id; generated when absent.", ...inputLimit(INPUT_LIMITS.name) }),
    toolName: t.string({ description: "Required.", ...inputLimit(INPUT_LIMITS.name) }),
    args: t.field({ type: "JSON", description: "A JSON object of arguments." }),
    ...common(t),
  }),
});

const ToolResultEventInput = builder.inputType("ToolResultEventInput", {
  fields: (t) => ({
    callId: t.string({
      description: "Required: the callId of a tool call in the context.",
      ...inputLimit(INPUT_LIMITS.name),
    }),
    toolName: t.string(inputLimit(INPUT_LIMITS.name)),
    content: t.string({ description: "Required." }),
    isError: t.boolean(),
    ...common(t),
  }),
});

export const HistoryEventInput = builder.inputType("HistoryEventInput", {
  isOneOf: true,
  // Its content, parts and arguments count towards MAX_EVENT_BYTES as a whole (src/services/event-input.ts).
  ...sizedAsEvent,
  fields: (t) => ({
    human: t.field({ type: MessageEventInput }),
    ai: t.field({ type: MessageEventInput }),
    system: t.field({ type: MessageEventInput }),
    reasoning: t.field({ type: ReasoningEventInput }),
    toolCall: t.field({ type: ToolCallEventInput }),
    toolResult: t.field({ type: ToolResultEventInput }),
  }),
});
