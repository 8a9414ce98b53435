// The Open Responses compliance suite's requests (openresponses/openresponses,
// src/lib/compliance-tests.ts: basic, streaming, system prompt, tool calling with and without
// streaming, image input, multi-turn), sent as it sends them (plain fetch, Bearer key) and judged
// by its validators: the status, the output item types, the streaming events, and every field its
// ResponseResource schema requires. The suite itself could not be fetched onto this machine; this
// replays its templates, it does not replace running it.
import { beforeAll, describe, expect, it } from "vitest";
import { startGeneratingServer, type GeneratingServer } from "./support/generating-server.js";

let g: GeneratingServer;
beforeAll(async () => {
  g = await startGeneratingServer();
  g.upstream.fallback = { output: [{ text: "Hello there, friend." }], usage: { input: 9, output: 4 } };
});

// The `required` list of schema/components/schemas/ResponseResource.json.
const REQUIRED = [
  "id",
  "object",
  "created_at",
  "completed_at",
  "status",
  "incomplete_details",
  "model",
  "previous_response_id",
  "instructions",
  "output",
  "error",
  "tools",
  "tool_choice",
  "truncation",
  "parallel_tool_calls",
  "text",
  "top_p",
  "presence_penalty",
  "frequency_penalty",
  "top_logprobs",
  "temperature",
  "reasoning",
  "user",
  "usage",
  "max_output_tokens",
  "max_tool_calls",
  "store",
  "background",
  "service_tier",
  "metadata",
  "safety_identifier",
  "prompt_cache_key",
];

const weatherTool = {
  type: "function",
  name: "get_weather",
  description: "Get the current weather for a location",
  parameters: {
    type: "object",
    properties: { location: { type: "string", description: "The city and state, e.g. San Francisco, CA" } },
    required: ["location"],
  },
};
const weatherCall = { output: [{ toolCall: { name: "get_weather", arguments: '{"location":"San Francisco, CA"}' } }] };

/** The fields of a Responses resource that these checks read (the rest by name, as JSON). */
interface ResourceJson {
  id: string;
  object: string;
  status: string;
  created_at: number;
  output: { type: string; call_id?: string; arguments?: string; [field: string]: unknown }[];
  [field: string]: unknown;
}

/** A streamed event: its type, and the resource or item it carries. */
interface StreamEventJson {
  type: string;
  response?: ResourceJson;
  item?: { type: string };
  [field: string]: unknown;
}

async function create(body: object, stream = false): Promise<{ final: ResourceJson; events: StreamEventJson[] }> {
  const response = await fetch(`${g.server.url}/v1/responses`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${g.key}` },
    body: JSON.stringify({ ...body, stream }),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  if (!stream) return { final: (await response.json()) as ResourceJson, events: [] };
  const text = await response.text();
  const events: StreamEventJson[] = text
    .split("\n\n")
    .filter(Boolean)
    .map((frame) =>
      JSON.parse(
        frame
          .split("\n")
          .find((line) => line.startsWith("data: "))!
          .slice(6),
      ),
    );
  const final = events.findLast((event) => event.type.startsWith("response.") && event.response)?.response;
  return { final: final!, events };
}

function checkResource(resource: ResourceJson) {
  for (const field of REQUIRED) expect(resource, field).toHaveProperty(field);
  expect(resource.object).toBe("response");
  expect(Number.isInteger(resource.created_at)).toBe(true);
  for (const field of ["top_p", "presence_penalty", "frequency_penalty", "temperature"])
    expect(typeof resource[field]).toBe("number");
}

describe("the Open Responses compliance templates", () => {
  it("basic-response", async () => {
    const { final } = await create({
      model: "stand-in-1",
      input: [{ type: "message", role: "user", content: "Say hello in exactly 3 words." }],
    });
    checkResource(final);
    expect(final.status).toBe("completed");
    expect(final.output.length).toBeGreaterThan(0);
  });

  it("streaming-response", async () => {
    const { final, events } = await create(
      { model: "stand-in-1", input: [{ type: "message", role: "user", content: "Count from 1 to 5." }] },
      true,
    );
    expect(events.length).toBeGreaterThan(0);
    checkResource(final);
    expect(final.status).toBe("completed");
  });

  it("system-prompt", async () => {
    const { final } = await create({
      model: "stand-in-1",
      input: [
        { type: "message", role: "system", content: "You are a pirate. Always respond in pirate speak." },
        { type: "message", role: "user", content: "Say hello." },
      ],
    });
    checkResource(final);
    expect(final.status).toBe("completed");
    expect(g.upstream.requests.at(-1)!.body.messages![0]).toEqual({
      role: "system",
      content: "You are a pirate. Always respond in pirate speak.",
    });
  });

  it("tool-calling", async () => {
    g.upstream.script(weatherCall);
    const { final } = await create({
      model: "stand-in-1",
      input: [{ type: "message", role: "user", content: "What's the weather like in San Francisco?" }],
      tools: [weatherTool],
    });
    checkResource(final);
    expect(final.output.some((item) => item.type === "function_call")).toBe(true);
  });

  it("tool-calling-streaming", async () => {
    g.upstream.script(weatherCall);
    const { final, events } = await create(
      {
        model: "stand-in-1",
        input: [{ type: "message", role: "user", content: "What's the weather like in San Francisco?" }],
        tools: [weatherTool],
      },
      true,
    );
    checkResource(final);
    const types = events.map((event) => event.type);
    expect(events.some((e) => e.type === "response.output_item.added" && e.item?.type === "function_call")).toBe(true);
    expect(types).toContain("response.function_call_arguments.delta");
    expect(types).toContain("response.function_call_arguments.done");
    expect(events.some((e) => e.type === "response.output_item.done" && e.item?.type === "function_call")).toBe(true);
  });

  it("image-input", async () => {
    const image =
      "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
    const { final } = await create({
      model: "stand-in-1",
      input: [
        {
          type: "message",
          role: "user",
          content: [
            { type: "input_text", text: "What do you see in this image? Answer in one sentence." },
            { type: "input_image", image_url: image },
          ],
        },
      ],
    });
    checkResource(final);
    expect(final.status).toBe("completed");
    const sent = g.upstream.requests.at(-1)!.body.messages![0]!.content;
    expect(sent).toEqual([
      { type: "text", text: "What do you see in this image? Answer in one sentence." },
      { type: "image_url", image_url: { url: image } },
    ]);
  });

  // The suite's own image is a remote URL (Google's logo): it goes to the upstream as it is, as
  // OpenAI's provider sends it, instead of dialogql downloading it (which failed here: no network).
  it("image-input with a remote image URL", async () => {
    const image = "https://www.google.com/images/branding/googlelogo/2x/googlelogo_color_272x92dp.png";
    const { final } = await create({
      model: "stand-in-1",
      input: [
        {
          type: "message",
          role: "user",
          content: [
            { type: "input_text", text: "What is it?" },
            { type: "input_image", image_url: image },
          ],
        },
      ],
    });
    checkResource(final);
    expect(final.status).toBe("completed");
    expect(g.upstream.requests.at(-1)!.body.messages![0]!.content![1]).toEqual({
      type: "image_url",
      image_url: { url: image },
    });
  });

  it("tool-calling against a model that calls the tools it is offered (nothing scripted)", async () => {
    g.upstream.callOfferedTools = true;
    try {
      const { final } = await create({
        model: "stand-in-1",
        input: "What's the weather like in San Francisco?",
        tools: [weatherTool],
      });
      checkResource(final);
      const call = final.output.find((item) => item.type === "function_call");
      expect(call).toMatchObject({ name: "get_weather", status: "completed" });
      expect(JSON.parse(call!.arguments!)).toEqual({ location: "example" });
      const answered = await create({
        model: "stand-in-1",
        previous_response_id: final.id,
        input: [{ type: "function_call_output", call_id: call!.call_id, output: "64 degrees and clear" }],
        tools: [weatherTool],
      });
      expect(answered.final.status).toBe("completed");
      expect(answered.final.output.map((item) => item.type)).toEqual(["message"]);
      const plain = await create({ model: "stand-in-1", input: "Hello", tools: [weatherTool], tool_choice: "none" });
      expect(plain.final.output.map((item) => item.type)).toEqual(["message"]);
    } finally {
      g.upstream.callOfferedTools = false;
    }
  });

  it("multi-turn", async () => {
    const { final } = await create({
      model: "stand-in-1",
      input: [
        { type: "message", role: "user", content: "My name is Alice." },
        { type: "message", role: "assistant", content: "Hello Alice! Nice to meet you. How can I help you today?" },
        { type: "message", role: "user", content: "What is my name?" },
      ],
    });
    checkResource(final);
    expect(final.status).toBe("completed");
  });
});
