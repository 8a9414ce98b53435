// A model upstream for tests: a real HTTP server on a free loopback port that speaks OpenAI's
// Chat Completions (`POST /chat/completions`) and Responses (`POST /responses`) wire formats and
// Anthropic's Messages (`POST /messages`), streaming (SSE) and not. What it answers is scripted per request: each request takes the next
// scripted reply (or the fallback), so a test says exactly what "the model" does — text,
// reasoning, tool calls, a slow stream, an HTTP error, a connection dropped mid-stream — and can
// read back every request body it was sent.
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";

export type ScriptedOutput =
  { text: string } | { reasoning: string } | { toolCall: { name: string; arguments: string; id?: string } };

export interface ScriptedReply {
  output: ScriptedOutput[];
  usage?: { input: number; output: number; reasoning?: number };
  /** Characters of text per streamed chunk (8 when not given, as models stream a few at a time). */
  chunkChars?: number;
  /** Pause between streamed chunks, in ms (a slow model). */
  chunkDelayMs?: number;
  /** Pause before the first streamed chunk, in ms (a model's time to first token). */
  firstChunkDelayMs?: number;
  /** Answer this HTTP status with an OpenAI-shaped error instead (`retryAfterMs`: with OpenAI's `retry-after-ms`). */
  httpError?: { status: number; message: string; retryAfterMs?: number };
  /** Stream this many chunks, then destroy the connection. */
  dropAfterChunks?: number;
  /** Ends the reply as cut off at the token limit instead of finished. */
  cutOff?: boolean;
  /** Anthropic: the reply ended at this one of the request's stop sequences. */
  stopSequence?: string;
  /** Waits for this before streaming anything after the first chunk (a test's gate). */
  holdAfterFirstChunk?: Promise<void>;
  /** With holdAfterFirstChunk: how many chunks go out before the gate (1 when not given). */
  holdAfterChunks?: number;
  /** A second gate: nothing more is streamed after `afterChunks` chunks until `until` settles. */
  holdAgain?: { afterChunks: number; until: Promise<void> };
}

/** A JSON schema as tools declare their parameters (the parts the stand-in reads). */
interface JsonSchema {
  type?: string;
  required?: string[];
  properties?: Record<string, JsonSchema>;
  enum?: unknown[];
}

/** An offered tool: Chat Completions nests it under `function`, Responses does not. */
interface OfferedTool {
  type?: string;
  name?: string;
  parameters?: JsonSchema;
  function?: { name?: string; parameters?: JsonSchema };
}

/**
 * A request body as the stand-in was sent it: a Chat Completions request (the `messages` tests
 * assert on) or a Responses one (`input`).
 */
export interface UpstreamRequestBody {
  model?: string;
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  messages?: ChatCompletionMessageParam[];
  input?: { role?: string; type?: string }[] | string;
  tools?: OfferedTool[];
  tool_choice?: unknown;
  [field: string]: unknown;
}

export interface UpstreamRequest {
  path: string;
  headers: IncomingMessage["headers"];
  body: UpstreamRequestBody;
  /** Settles when the request's answer is over: sent whole, or its connection closed by the caller. */
  closed: Promise<void>;
}

export interface UpstreamStandIn {
  /** Base URL, as OPENAI_BASE_URL takes it: http://127.0.0.1:port/v1 */
  url: string;
  requests: UpstreamRequest[];
  /** Queues replies; requests take them in order, then fall back to `fallback`. */
  script(...replies: ScriptedReply[]): void;
  fallback: ScriptedReply;
  /**
   * With nothing scripted, a request that offers function tools (and does not say
   * `tool_choice: "none"`) is answered with a call of the first one instead of the fallback, its
   * arguments made from the tool's JSON schema: a model that uses the tools it is given (and
   * answers once the last message is a tool's result).
   */
  callOfferedTools: boolean;
  close(): Promise<void>;
}

/** Text is streamed a few characters at a time, as models do. */
const CHUNK_CHARS = 8;
const chunksOf = (text: string, size = CHUNK_CHARS) => text.match(new RegExp(`[\\s\\S]{1,${size}}`, "g")) ?? [""];

export async function startUpstreamStandIn(): Promise<UpstreamStandIn> {
  const queue: ScriptedReply[] = [];
  const requests: UpstreamRequest[] = [];
  const stand: UpstreamStandIn = {
    url: "",
    requests,
    script: (...replies) => void queue.push(...replies),
    fallback: { output: [{ text: "Hello from the stand-in." }], usage: { input: 10, output: 5 } },
    callOfferedTools: false,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = createServer(async (request, response) => {
    const body = await readJson(request);
    // Aborted by the caller before its body was whole (a call discarded as it was made): no request.
    if (!body) return;
    const path = (request.url ?? "").replace(/^\/v1/, "");
    const closed = new Promise<void>((resolve) => response.once("close", () => resolve()));
    requests.push({ path, headers: request.headers, body, closed });
    const reply = queue.shift() ?? (stand.callOfferedTools ? callOfOfferedTool(body) : undefined) ?? stand.fallback;
    if (reply.httpError) {
      const retryAfter = reply.httpError.retryAfterMs;
      response.writeHead(reply.httpError.status, {
        "content-type": "application/json",
        ...(retryAfter !== undefined && { "retry-after-ms": String(retryAfter) }),
      });
      return response.end(
        JSON.stringify({ error: { message: reply.httpError.message, type: "server_error", param: null, code: null } }),
      );
    }
    const wire =
      path === "/chat/completions"
        ? chatWire
        : path === "/responses"
          ? responsesWire
          : path === "/messages"
            ? anthropicWire
            : null;
    if (!wire) {
      response.writeHead(404, { "content-type": "application/json" });
      return response.end(JSON.stringify({ error: { message: `no route ${path}`, type: "invalid_request_error" } }));
    }
    const model = String(body?.model ?? "stand-in");
    if (!body?.stream) {
      response.writeHead(200, { "content-type": "application/json" });
      return response.end(JSON.stringify(wire.whole(reply, model)));
    }
    response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    response.flushHeaders();
    let sent = 0;
    for (const chunk of wire.chunks(reply, model, Boolean(body.stream_options?.include_usage), body)) {
      if (reply.dropAfterChunks !== undefined && sent >= reply.dropAfterChunks) {
        response.socket?.destroy();
        return;
      }
      const pause = sent > 0 ? reply.chunkDelayMs : reply.firstChunkDelayMs;
      if (pause) await new Promise((resolve) => setTimeout(resolve, pause));
      if (sent === (reply.holdAfterChunks ?? 1) && reply.holdAfterFirstChunk) await reply.holdAfterFirstChunk;
      if (reply.holdAgain && sent === reply.holdAgain.afterChunks) await reply.holdAgain.until;
      if (response.destroyed) return;
      // Each chunk is on the wire before the next step (a drop then cuts after it, not before).
      await new Promise<void>((resolve) => response.write(chunk, () => resolve()));
      sent++;
    }
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  stand.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return stand;
}

/** A call of the first function tool the request offers (Chat Completions or Responses shape). */
function callOfOfferedTool(body: UpstreamRequestBody): ScriptedReply | undefined {
  if (!Array.isArray(body?.tools) || body.tool_choice === "none") return undefined;
  // Once it has a tool's result it answers (the fallback), as a model does.
  const items: { role?: string; type?: string }[] | string | undefined = body.messages ?? body.input;
  const last = Array.isArray(items) ? items.at(-1) : undefined;
  if (last?.role === "tool" || last?.type === "function_call_output") return undefined;
  const tool = body.tools.find((t) => t?.type === "function");
  const fn = tool?.function ?? tool; // chat nests it under `function`, responses does not
  if (typeof fn?.name !== "string") return undefined;
  return {
    output: [{ toolCall: { name: fn.name, arguments: JSON.stringify(exampleOf(fn.parameters)) } }],
    usage: { input: 10, output: 5 },
  };
}

/** A value that satisfies a simple JSON schema: every required property, typed. */
function exampleOf(schema: JsonSchema | undefined): unknown {
  switch (schema?.type) {
    case "object": {
      const value: Record<string, unknown> = {};
      for (const key of schema.required ?? []) value[key] = exampleOf(schema.properties?.[key]);
      return value;
    }
    case "array":
      return [];
    case "number":
    case "integer":
      return 0;
    case "boolean":
      return false;
    default:
      return Array.isArray(schema?.enum) ? schema.enum[0] : "example";
  }
}

/** The body as JSON (an empty object when it is not JSON: the stand-in then answers its fallback). */
async function readJson(request: IncomingMessage): Promise<UpstreamRequestBody | null> {
  let text = "";
  try {
    for await (const chunk of request) text += chunk;
  } catch {
    return null;
  }
  try {
    return (JSON.parse(text) ?? {}) as UpstreamRequestBody;
  } catch {
    return {};
  }
}

const sse = (data: unknown) => `data: ${JSON.stringify(data)}\n\n`;
const usageOf = (reply: ScriptedReply) => reply.usage ?? { input: 10, output: 5 };
const calls = (reply: ScriptedReply) =>
  reply.output.flatMap((out, index) =>
    "toolCall" in out ? [{ ...out.toolCall, id: out.toolCall.id ?? `call_${index}` }] : [],
  );
/**
 * Made-up logprobs of a streamed piece, as the upstream gives them when asked: one token per piece,
 * with `top` alternatives (the token itself first).
 */
function pieceLogprobs(piece: string, top: number) {
  const entry = (token: string, logprob: number) => ({ token, logprob, bytes: [...Buffer.from(token, "utf8")] });
  const alternatives = Array.from({ length: top }, (_, rank) =>
    entry(rank ? `${piece}~${rank}` : piece, rank ? -0.5 * rank : 0),
  );
  return [{ ...entry(piece, -0.25), top_logprobs: alternatives }];
}

/** How many alternatives a request asked for, or null when it asked for no logprobs (either wire). */
function askedLogprobs(body: UpstreamRequestBody): number | null {
  const include = Array.isArray(body.include) ? body.include : [];
  if (!body.logprobs && !include.includes("message.output_text.logprobs")) return null;
  return typeof body.top_logprobs === "number" ? body.top_logprobs : 0;
}

const textOf = (reply: ScriptedReply, kind: "text" | "reasoning") =>
  reply.output.map((out) => (kind in out ? (out as Record<string, string>)[kind] : "")).join("");

const chatWire = {
  whole(reply: ScriptedReply, model: string) {
    const toolCalls = calls(reply).map((call) => ({
      id: call.id,
      type: "function",
      function: { name: call.name, arguments: call.arguments },
    }));
    const usage = usageOf(reply);
    return {
      id: "chatcmpl-standin",
      object: "chat.completion",
      created: Math.floor(Date.now() / 1000),
      model,
      choices: [
        {
          index: 0,
          message: {
            role: "assistant",
            content: textOf(reply, "text") || null,
            ...(textOf(reply, "reasoning") && { reasoning_content: textOf(reply, "reasoning") }),
            ...(toolCalls.length && { tool_calls: toolCalls }),
          },
          finish_reason: reply.cutOff ? "length" : toolCalls.length ? "tool_calls" : "stop",
        },
      ],
      usage: { prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output },
    };
  },
  *chunks(reply: ScriptedReply, model: string, includeUsage: boolean, body: UpstreamRequestBody) {
    const top = askedLogprobs(body);
    const base = {
      id: "chatcmpl-standin",
      object: "chat.completion.chunk",
      created: Math.floor(Date.now() / 1000),
      model,
    };
    const delta = (value: object, finish: string | null = null) =>
      sse({ ...base, choices: [{ index: 0, delta: value, finish_reason: finish }] });
    yield delta({ role: "assistant", content: "" });
    let toolIndex = 0;
    for (const [index, out] of reply.output.entries()) {
      if ("text" in out) {
        for (const piece of chunksOf(out.text, reply.chunkChars)) {
          if (top == null) yield delta({ content: piece });
          else {
            const logprobs = { content: pieceLogprobs(piece, top), refusal: null };
            yield sse({ ...base, choices: [{ index: 0, delta: { content: piece }, logprobs, finish_reason: null }] });
          }
        }
      }
      if ("reasoning" in out)
        for (const piece of chunksOf(out.reasoning, reply.chunkChars)) yield delta({ reasoning_content: piece });
      if ("toolCall" in out) {
        const id = out.toolCall.id ?? `call_${index}`;
        const at = toolIndex++;
        yield delta({
          tool_calls: [{ index: at, id, type: "function", function: { name: out.toolCall.name, arguments: "" } }],
        });
        for (const piece of chunksOf(out.toolCall.arguments)) {
          yield delta({ tool_calls: [{ index: at, function: { arguments: piece } }] });
        }
      }
    }
    yield delta({}, reply.cutOff ? "length" : toolIndex ? "tool_calls" : "stop");
    const usage = usageOf(reply);
    if (includeUsage) {
      yield sse({
        ...base,
        choices: [],
        usage: {
          prompt_tokens: usage.input,
          completion_tokens: usage.output,
          total_tokens: usage.input + usage.output,
        },
      });
    }
    yield "data: [DONE]\n\n";
  },
};

function responsesOutput(reply: ScriptedReply, body: UpstreamRequestBody = {}) {
  const encrypted = Array.isArray(body.include) && body.include.includes("reasoning.encrypted_content");
  return reply.output.map((out, index) => {
    if ("text" in out) {
      return {
        type: "message",
        id: `msg_${index}`,
        role: "assistant",
        status: "completed",
        content: [{ type: "output_text", text: out.text, annotations: [] }],
      };
    }
    if ("reasoning" in out) {
      return {
        type: "reasoning",
        id: `rs_${index}`,
        summary: [{ type: "summary_text", text: out.reasoning }],
        ...(encrypted && { encrypted_content: `encrypted:${out.reasoning}` }),
      };
    }
    return {
      type: "function_call",
      id: `fc_${index}`,
      call_id: out.toolCall.id ?? `call_${index}`,
      name: out.toolCall.name,
      arguments: out.toolCall.arguments,
      status: "completed",
    };
  });
}

const responsesWire = {
  whole(reply: ScriptedReply, model: string, body: UpstreamRequestBody = {}) {
    const usage = usageOf(reply);
    return {
      id: "resp_standin",
      object: "response",
      created_at: Math.floor(Date.now() / 1000),
      status: "completed",
      model,
      output: responsesOutput(reply, body),
      incomplete_details: null,
      usage: {
        input_tokens: usage.input,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: usage.output,
        output_tokens_details: { reasoning_tokens: usage.reasoning ?? 0 },
        total_tokens: usage.input + usage.output,
      },
    };
  },
  *chunks(reply: ScriptedReply, model: string, _includeUsage: boolean, body: UpstreamRequestBody) {
    const whole = responsesWire.whole(reply, model, body);
    const top = askedLogprobs(body);
    let sequence = 0;
    const event = (type: string, fields: object) => sse({ type, sequence_number: sequence++, ...fields });
    yield event("response.created", { response: { ...whole, status: "in_progress", output: [], usage: null } });
    for (const [index, item] of whole.output.entries()) {
      const out = reply.output[index]!;
      if (item.type === "message") {
        yield event("response.output_item.added", {
          output_index: index,
          item: { ...item, status: "in_progress", content: [] },
        });
        for (const piece of chunksOf((out as { text: string }).text, reply.chunkChars)) {
          yield event("response.output_text.delta", {
            item_id: item.id,
            output_index: index,
            content_index: 0,
            delta: piece,
            logprobs: top == null ? [] : pieceLogprobs(piece, top),
          });
        }
      } else if (item.type === "reasoning") {
        yield event("response.output_item.added", { output_index: index, item: { ...item, summary: [] } });
        for (const piece of chunksOf((out as { reasoning: string }).reasoning, reply.chunkChars)) {
          yield event("response.reasoning_summary_text.delta", {
            item_id: item.id,
            output_index: index,
            summary_index: 0,
            delta: piece,
          });
        }
      } else {
        yield event("response.output_item.added", {
          output_index: index,
          item: { ...item, arguments: "", status: "in_progress" },
        });
        for (const piece of chunksOf((item as { arguments: string }).arguments)) {
          yield event("response.function_call_arguments.delta", {
            item_id: item.id,
            output_index: index,
            delta: piece,
          });
        }
      }
      yield event("response.output_item.done", { output_index: index, item });
    }
    yield event("response.completed", { response: whole });
  },
};

/** Anthropic's Messages: content blocks, and the named SSE events that build them. */
const anthropicWire = {
  whole(reply: ScriptedReply, model: string) {
    const usage = usageOf(reply);
    const content = reply.output.map((out, index) =>
      "text" in out
        ? { type: "text", text: out.text }
        : "reasoning" in out
          ? { type: "thinking", thinking: out.reasoning, signature: `sig_${index}` }
          : {
              type: "tool_use",
              id: out.toolCall.id ?? `toolu_${index}`,
              name: out.toolCall.name,
              input: JSON.parse(out.toolCall.arguments || "{}"),
            },
    );
    const stop = reply.cutOff
      ? "max_tokens"
      : reply.stopSequence
        ? "stop_sequence"
        : content.some((b) => b.type === "tool_use")
          ? "tool_use"
          : "end_turn";
    return {
      id: "msg_standin",
      type: "message",
      role: "assistant",
      model,
      content,
      stop_reason: stop,
      stop_sequence: reply.stopSequence ?? null,
      usage: { input_tokens: usage.input, output_tokens: usage.output },
    };
  },
  *chunks(reply: ScriptedReply, model: string) {
    const whole = anthropicWire.whole(reply, model);
    const event = (type: string, fields: object) => `event: ${type}\ndata: ${JSON.stringify({ type, ...fields })}\n\n`;
    const usage = { input_tokens: whole.usage.input_tokens, output_tokens: 1 };
    yield event("message_start", { message: { ...whole, content: [], stop_reason: null, usage } });
    for (const [index, block] of whole.content.entries()) {
      if (block.type === "text") {
        yield event("content_block_start", { index, content_block: { type: "text", text: "" } });
        for (const piece of chunksOf(block.text!)) {
          yield event("content_block_delta", { index, delta: { type: "text_delta", text: piece } });
        }
      } else if (block.type === "thinking") {
        yield event("content_block_start", { index, content_block: { type: "thinking", thinking: "", signature: "" } });
        yield event("content_block_delta", { index, delta: { type: "thinking_delta", thinking: block.thinking } });
        yield event("content_block_delta", { index, delta: { type: "signature_delta", signature: block.signature } });
      } else {
        yield event("content_block_start", { index, content_block: { ...block, input: {} } });
        for (const piece of chunksOf(JSON.stringify(block.input))) {
          yield event("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: piece } });
        }
      }
      yield event("content_block_stop", { index });
    }
    yield event("message_delta", {
      delta: { stop_reason: whole.stop_reason, stop_sequence: whole.stop_sequence },
      usage: { output_tokens: whole.usage.output_tokens },
    });
    yield event("message_stop", {});
  },
};

/**
 * Scripts a reply of `text` that stops after its first 16 characters (the role chunk, then two of
 * eight) until `open()` is called: a model caught mid-answer, with `typed` the text it has given.
 */
export function scriptHeldText(stand: UpstreamStandIn, text: string) {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  stand.script({ output: [{ text }], chunkChars: 8, holdAfterFirstChunk: opened, holdAfterChunks: 3 });
  return { open, typed: text.slice(0, 16) };
}
