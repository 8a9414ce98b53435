// POST /v1/responses/compact: a long context made short. The model summarises the context of
// previous_response_id (and any new input); the answer is the context's user messages followed
// by the summary as an assistant message — items a client can send as the input of a fresh
// chain. Nothing is stored: compaction is a view of history, not a turn of it (the history
// itself is kept whole).
import type { TenantScope } from "../auth/tenant-scope.js";
import { toResponsesItems } from "../formats/openai-responses.js";
import type { Generator } from "../generation/generate-turn.js";
import { unstoredTurns } from "../generation/turn-sink.js";
import type { Store } from "../store/store.js";
import { ApiError, json } from "./api-errors.js";
import { parseCreateBody } from "./create-request.js";
import { readBody, toGenerateRequest } from "./create-response.js";

const COMPACTION_INSTRUCTIONS =
  "Summarise the conversation so far for your own later use: every fact, decision, open question and " +
  "commitment needed to continue it. Answer with the summary only.";

export async function handleCompact(
  request: Request,
  deps: { generator: Generator; scope: TenantScope; store: Store; keyId?: string | null },
) {
  const raw = (await readBody(request)) as Record<string, unknown> | null;
  const parsed = parseCreateBody({
    model: raw?.model,
    input: raw?.input ?? [],
    previous_response_id: raw?.previous_response_id,
  });
  const generate = await toGenerateRequest(parsed, deps.scope, deps.keyId);
  const started = await deps.generator.start(
    { ...generate, instructions: COMPACTION_INSTRUCTIONS },
    unstoredTurns(deps.store),
  );
  const outcome = await started.done;
  if (outcome.status !== "COMPLETED") {
    throw new ApiError(
      502,
      `The model upstream could not compact: ${outcome.error?.message ?? outcome.status}`,
      "server_error",
      null,
      "upstream_error",
    );
  }
  const summary = outcome.output.flatMap((item) => (item.type === "message" ? [item.text] : [])).join("\n");
  const userMessages = toResponsesItems(started.context.filter((event) => event.type === "HUMAN"));
  const usage = outcome.usage ?? {};
  return json(200, {
    id: started.responseId,
    object: "response.compaction",
    created_at: Math.floor(started.createdAt.getTime() / 1000),
    output: [
      ...userMessages,
      {
        type: "message",
        id: `msg_${started.responseId.replace(/^resp_/, "")}_summary`,
        role: "assistant",
        status: "completed",
        content: [{ type: "output_text", text: summary, annotations: [] }],
      },
    ],
    usage: {
      input_tokens: usage.inputTokens ?? 0,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: usage.outputTokens ?? 0,
      output_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
      total_tokens: usage.totalTokens ?? (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0),
    },
  });
}
