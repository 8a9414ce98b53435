// Token log probabilities, as the upstream gives them with each streamed piece of text. The AI
// SDK collects them only into the step's end metadata, so a turn that asked for them reads the
// raw chunks (`includeRawChunks`) and takes them from there, in OpenAI's shape (token, logprob,
// bytes, top_logprobs), per delta: the Responses API streams them with each output_text delta.

export interface TopLogprob {
  token: string;
  logprob: number;
  bytes: number[];
}

export interface TokenLogprob extends TopLogprob {
  top_logprobs: TopLogprob[];
}

/** What a turn asked for: logprobs of the answer's tokens, with `top` alternatives each. */
export interface LogprobsRequest {
  top: number;
}

/**
 * The logprobs a raw upstream chunk carries for the answer's text: a Responses
 * `response.output_text.delta` event, or a Chat Completions chunk's `choices[0].logprobs.content`.
 * Null when the chunk carries none.
 */
export function logprobsOfChunk(raw: unknown, top: number): TokenLogprob[] | null {
  const chunk = raw as {
    type?: string;
    logprobs?: unknown;
    choices?: { logprobs?: { content?: unknown } | null }[];
  } | null;
  const given = chunk?.type === "response.output_text.delta" ? chunk.logprobs : chunk?.choices?.[0]?.logprobs?.content;
  if (!Array.isArray(given) || !given.length) return null;
  return given.map((entry) => tokenLogprob(entry, top));
}

function tokenLogprob(entry: Record<string, unknown>, top: number): TokenLogprob {
  const alternatives = Array.isArray(entry.top_logprobs) ? (entry.top_logprobs as Record<string, unknown>[]) : [];
  // Never more alternatives than the request asked for, whatever the upstream sent.
  return { ...topLogprob(entry), top_logprobs: alternatives.slice(0, top).map(topLogprob) };
}

function topLogprob(entry: Record<string, unknown>): TopLogprob {
  const token = String(entry.token ?? "");
  return {
    token,
    logprob: Number(entry.logprob ?? 0),
    bytes: Array.isArray(entry.bytes) ? (entry.bytes as number[]) : [...Buffer.from(token, "utf8")],
  };
}
