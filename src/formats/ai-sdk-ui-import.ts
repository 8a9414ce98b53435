// Vercel AI SDK UIMessages (what `useChat` persists) into events: the inverse of toUiMessages.
// System and user messages become one event holding their parts. An assistant message's parts
// become one event each — text → AI, reasoning → reasoning, file → AI with that part, a tool part
// → a tool call plus, once it has an output or an error, its tool result. Parts that are not steps
// (step-start, sources, data-*) ride along with the next event, so a same-format export gives the
// message back exactly, message id and metadata included.
import { z } from "zod";
import { ValidationError } from "../errors.js";
import { blankEvent, type NewEvent } from "../vocabulary/events.js";
import { isJsonObject } from "../vocabulary/json.js";
import { claimCallId, type Problems, requireList, zodProblems } from "./import-checks.js";
import type { Part } from "../vocabulary/parts.js";
import { extraKeys, type ProviderFields } from "../vocabulary/provider-fields.js";
import type { ImportedEvent } from "./turns.js";

type UiPart = Record<string, unknown> & { type: string };

const toolStates = [
  "input-streaming",
  "input-available",
  "approval-requested",
  "approval-responded",
  "output-available",
  "output-error",
  "output-denied",
] as const;
const toolPart = z.looseObject({ toolCallId: z.string().min(1), state: z.enum(toolStates) });
const partSchemas: Record<string, z.ZodType> = {
  text: z.looseObject({ text: z.string() }),
  reasoning: z.looseObject({ text: z.string() }),
  file: z.looseObject({ mediaType: z.string().min(1), url: z.string().min(1) }),
  "source-url": z.looseObject({ sourceId: z.string(), url: z.string() }),
  "source-document": z.looseObject({ sourceId: z.string(), mediaType: z.string(), title: z.string() }),
  "dynamic-tool": toolPart.extend({ toolName: z.string().min(1) }),
};
const messageSchema = z.looseObject({
  id: z.string({ error: "a UIMessage needs its id" }).min(1, "a UIMessage needs its id"),
  role: z.enum(["system", "user", "assistant"], { error: "unsupported role: expected system, user or assistant" }),
  parts: z.array(z.looseObject({ type: z.string({ error: "a part needs a type" }) })),
});

const isToolPart = (part: UiPart) => part.type === "dynamic-tool" || part.type.startsWith("tool-");
/** Parts that are not a step of their own: kept with the event they precede. */
const isRider = (part: UiPart) => !["text", "reasoning", "file"].includes(part.type) && !isToolPart(part);
const aiSdk = (more: Partial<ProviderFields>): ProviderFields => ({ format: "AI_SDK_UI", ...more });

export function fromUiMessages(messages: unknown, path: string[] = ["messages"]): ImportedEvent[] {
  const list = requireList(messages, path, "UI messages");
  const problems: Problems = [];
  const imported: ImportedEvent[] = [];
  const calls = new Map<string, string>();
  list.forEach((message, index) => {
    const at = [...path, String(index)];
    const parsed = messageSchema.safeParse(message);
    if (!parsed.success) return zodProblems(parsed.error.issues, at, problems);
    const before = problems.length;
    const parts = parsed.data.parts as UiPart[];
    parts.forEach((part, i) => checkPart(part, [...at, "parts", String(i)], problems));
    if (problems.length !== before) return;
    const events =
      parsed.data.role === "assistant"
        ? readAssistantParts(parts, [...at, "parts"], problems, calls)
        : [
            blankEvent(parsed.data.role === "user" ? "HUMAN" : "SYSTEM", {
              parts: parts as Part[],
              providerFields: aiSdk({}),
            }),
          ];
    if (problems.length !== before) return;
    const extra = extraKeys(parsed.data, ["role", "parts"]);
    events.forEach((event, i) => {
      event.providerFields = {
        ...event.providerFields!,
        ...(i > 0 && { continues: true }),
        ...(i === 0 && extra && { extra }),
      };
      imported.push({ event, path: at, ...(event.type === "TOOL_RESULT" && { callIdPath: [...at, "parts"] }) });
    });
  });
  if (problems.length) throw new ValidationError(problems);
  return imported;
}

function checkPart(part: UiPart, at: string[], problems: Problems) {
  const schema =
    isToolPart(part) && part.type !== "dynamic-tool"
      ? toolPart
      : Object.hasOwn(partSchemas, part.type)
        ? partSchemas[part.type]
        : null;
  const parsed = schema?.safeParse(part);
  if (parsed && !parsed.success) return zodProblems(parsed.error.issues, at, problems);
  if (part.state === "output-error" && isToolPart(part) && typeof part.errorText !== "string") {
    problems.push({ path: [...at, "errorText"], message: "an output-error tool part needs its errorText" });
  }
  if (part.state === "output-available" && isToolPart(part) && !("output" in part)) {
    problems.push({ path: [...at, "output"], message: "an output-available tool part needs its output" });
  }
}

function readAssistantParts(parts: UiPart[], at: string[], problems: Problems, calls: Map<string, string>): NewEvent[] {
  const events: NewEvent[] = [];
  let riders: unknown[] = [];
  const add = (event: NewEvent) => {
    if (riders.length) event.providerFields = { ...event.providerFields!, before: riders };
    riders = [];
    events.push(event);
  };
  const kept = (part: UiPart, known: string[]) => {
    const block = extraKeys(part, known);
    return aiSdk(block ? { block } : {});
  };
  parts.forEach((part, i) => {
    if (isRider(part)) return void riders.push(part);
    switch (part.type) {
      case "text":
        return add(blankEvent("AI", { content: part.text as string, providerFields: kept(part, ["type", "text"]) }));
      case "reasoning":
        return add(
          blankEvent("REASONING", { content: part.text as string, providerFields: kept(part, ["type", "text"]) }),
        );
      case "file":
        return add(blankEvent("AI", { parts: [part as Part], providerFields: aiSdk({ opaque: true }) }));
    }
    // A tool part: the call, and its result once there is one. The part itself is kept whole on
    // the call (state, output, approval, provider metadata), so the result needs nothing more.
    const callId = part.toolCallId as string;
    const toolName = part.type === "dynamic-tool" ? (part.toolName as string) : part.type.slice("tool-".length);
    claimCallId(callId, toolName, calls, [...at, String(i), "toolCallId"], problems);
    const objectInput = isJsonObject(part.input);
    add(
      blankEvent("TOOL_CALL", {
        callId,
        toolName,
        args: objectInput ? part.input : {},
        providerFields: {
          ...kept(part, objectInput ? ["toolCallId", "input"] : ["toolCallId"]),
          ...(part.input === undefined && { noInput: true }),
        },
      }),
    );
    if (part.state === "output-available" || part.state === "output-error") {
      const failed = part.state === "output-error";
      const output = failed ? part.errorText : part.output;
      events.push(
        blankEvent("TOOL_RESULT", {
          callId,
          toolName,
          isError: failed,
          content: typeof output === "string" ? output : JSON.stringify(output ?? null),
          providerFields: aiSdk({ inCallPart: true }),
        }),
      );
    }
  });
  const last = events.at(-1);
  if (last && riders.length) last.providerFields = { ...last.providerFields!, after: riders };
  // A message with no step (no parts, or a lone step-start): an empty AI event keeps its place.
  if (!last) events.push(blankEvent("AI", { content: "", providerFields: aiSdk({ opaque: true, before: riders }) }));
  return events;
}
