// Which OpenAI models the AI SDK's Responses provider treats as reasoning models, and so sends no
// temperature or top_p for (it drops them with only a warning). The rule mirrors the provider's
// own (@ai-sdk/openai's model capabilities, by model id: the o-series, and GPT 5 and later except
// the "chat" models; from GPT 5.1 to 5.x, reasoning effort "none" keeps the sampling settings).
// test/fidelity-params.test.ts runs the real provider against a stand-in upstream for a
// table of model ids, so a change of the provider's rule shows up there.

interface GptVersion {
  major: number;
  minor?: number;
  variant?: string;
}

function gptVersion(modelId: string): GptVersion | undefined {
  const match = /^gpt-(\d+)(?:\.(\d+))?(?:-(.+))?$/.exec(modelId);
  if (!match) return undefined;
  return { major: Number(match[1]), minor: match[2] == null ? undefined : Number(match[2]), variant: match[3] };
}

/** Whether the provider would drop temperature and top_p for this model and reasoning effort. */
export function dropsSampling(modelId: string, reasoningEffort: unknown, forceReasoning: unknown): boolean {
  const gpt = gptVersion(modelId);
  const isChatModel = gpt?.minor == null && (gpt?.variant?.startsWith("chat") ?? false);
  const reasoning =
    typeof forceReasoning === "boolean"
      ? forceReasoning
      : /^o\d+(?:-|$)/.test(modelId) || (gpt != null && gpt.major >= 5 && !isChatModel);
  if (!reasoning) return false;
  const keepsSamplingWithoutEffort = gpt != null && gpt.major < 6 && (gpt.major > 5 || (gpt.minor ?? 0) >= 1);
  return !(reasoningEffort === "none" && keepsSamplingWithoutEffort);
}
