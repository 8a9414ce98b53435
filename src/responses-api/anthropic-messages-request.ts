// The body of `POST /v1/messages` (Anthropic's Messages API): `model`, `max_tokens` and `messages`
// are required as Anthropic requires them; every other parameter is applied — given to the model
// loop, or to the upstream in its own terms — or refused with a 400 naming it
// (docs/chat-completions.md has the table). A key the API does not have is refused as Anthropic
// refuses it ("Extra inputs are not permitted").
import { z } from "zod";
import type { GenerateRequest, ToolChoice } from "../generation/generate-turn.js";
import type { UpstreamKind } from "../generation/providers.js";
import { InvalidRequest, paramName } from "./create-request.js";

const customTool = z.strictObject({
  type: z.literal("custom", { error: "only custom (client) tools are supported" }).optional(),
  name: z.string().min(1).max(128),
  description: z.string().optional(),
  input_schema: z.looseObject({ type: z.literal("object") }),
});

const toolChoice = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("auto"), disable_parallel_tool_use: z.boolean().optional() }),
  z.strictObject({ type: z.literal("any"), disable_parallel_tool_use: z.boolean().optional() }),
  z.strictObject({
    type: z.literal("tool"),
    name: z.string().min(1),
    disable_parallel_tool_use: z.boolean().optional(),
  }),
  z.strictObject({ type: z.literal("none") }),
]);

const thinking = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("enabled"), budget_tokens: z.number().int().min(1024) }),
  z.strictObject({ type: z.literal("disabled") }),
]);

const messagesBodySchema = z.strictObject({
  model: z.string({ error: "Field required" }).min(1),
  max_tokens: z.number({ error: "Field required" }).int().min(1),
  messages: z.array(z.unknown(), { error: "Field required" }).min(1, "at least one message is required"),
  system: z.union([z.string(), z.array(z.looseObject({ type: z.literal("text"), text: z.string() }))]).optional(),
  stream: z.boolean().optional(),
  stop_sequences: z.array(z.string()).optional(),
  temperature: z.number().min(0).max(1).optional(),
  top_p: z.number().min(0).max(1).optional(),
  top_k: z.number().int().min(0).optional(),
  tools: z.array(customTool).optional(),
  tool_choice: toolChoice.optional(),
  metadata: z.strictObject({ user_id: z.string().max(256).nullish() }).optional(),
  thinking: thinking.optional(),
  output_config: z
    .strictObject({
      format: z.strictObject({ type: z.literal("json_schema"), schema: z.record(z.string(), z.unknown()) }).nullish(),
      effort: z
        .enum(["low", "medium", "high", "xhigh"], { error: "only low, medium, high and xhigh are supported" })
        .nullish(),
    })
    .optional(),
});

export type MessagesBody = z.infer<typeof messagesBodySchema>;

export function parseMessagesBody(raw: unknown): MessagesBody {
  const parsed = messagesBodySchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  if (issue.code === "unrecognized_keys") {
    const at = paramName([...issue.path, issue.keys[0]!]);
    return invalidParam(at, "Extra inputs are not permitted");
  }
  return invalidParam(paramName(issue.path), issue.message);
}

function invalidParam(param: string, message: string): never {
  throw new InvalidRequest(param ? `${param}: ${message}` : message, param || null);
}

/** The model loop's settings for the body; a parameter the model's upstream cannot take is a 400 naming it. */
export function messagesSettings(
  body: MessagesBody,
  upstream: UpstreamKind,
): Omit<GenerateRequest, "tenantId" | "dialogId" | "previousResponseId" | "input"> {
  const anthropic = upstream === "anthropic";
  const providerOptions: Record<string, Record<string, unknown>> = {};
  if (body.top_k != null && !anthropic) notForUpstream("top_k", upstream);
  if (body.thinking?.type === "enabled") {
    if (!anthropic) notForUpstream("thinking", upstream);
    providerOptions.anthropic = { thinking: { type: "enabled", budgetTokens: body.thinking.budget_tokens } };
  }
  const userId = body.metadata?.user_id;
  if (userId != null) {
    if (upstream !== "openai-chat") notForUpstream("metadata.user_id", upstream);
    providerOptions.openai = { user: userId };
  }
  const choice = body.tool_choice;
  if (choice && "disable_parallel_tool_use" in choice && choice.disable_parallel_tool_use) {
    if (anthropic) providerOptions.anthropic = { ...providerOptions.anthropic, disableParallelToolUse: true };
    else if (upstream === "openai-chat")
      providerOptions.openai = { ...providerOptions.openai, parallel_tool_calls: false };
    else providerOptions.openai = { ...providerOptions.openai, parallelToolCalls: false };
  }
  const format = body.output_config?.format;
  const effort = body.output_config?.effort;
  if (effort != null && anthropic) notForUpstream("output_config.effort", upstream);
  // The compatible provider turns a schema into json_object unless told it has structured outputs.
  if (format && upstream === "openai-chat") {
    const jsonSchema = { name: "response", strict: true, schema: format.schema };
    providerOptions.openai = {
      ...providerOptions.openai,
      response_format: { type: "json_schema", json_schema: jsonSchema },
    };
  }
  return {
    model: body.model,
    metadata: {},
    reasoningEffort: effort,
    responseFormat:
      format && upstream !== "openai-chat" ? { type: "json_schema", name: "response", schema: format.schema } : null,
    tools: body.tools?.map((tool) => ({
      name: tool.name,
      description: tool.description,
      parameters: tool.input_schema,
    })),
    toolChoice: toolChoiceOf(choice),
    temperature: body.temperature,
    topP: body.top_p,
    maxOutputTokens: body.max_tokens,
    settings: {
      ...(body.stop_sequences && { stopSequences: body.stop_sequences }),
      ...(body.top_k != null && { topK: body.top_k }),
    },
    providerOptions,
  };
}

function toolChoiceOf(choice: MessagesBody["tool_choice"]): ToolChoice | null {
  if (!choice) return null;
  if (choice.type === "tool") return { name: choice.name };
  return choice.type === "any" ? "required" : choice.type;
}

const upstreamNames: Record<UpstreamKind, string> = {
  "openai-chat": "OpenAI Chat Completions",
  "openai-responses": "the OpenAI Responses API",
  anthropic: "Anthropic Messages through the AI SDK",
};

const notForUpstream = (param: string, upstream: UpstreamKind): never =>
  invalidParam(
    param,
    `not supported for this model: its upstream speaks ${upstreamNames[upstream]}, which has no such parameter`,
  );
