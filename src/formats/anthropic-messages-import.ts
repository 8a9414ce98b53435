// Anthropic Messages into events: the inverse of toAnthropicConversation. Accepts a request body
// `{ system?, messages }` or a bare list of messages. A user message's blocks become one human
// event per run of content blocks and one tool result per tool_result block; an assistant
// message's blocks become one event each (thinking → reasoning, text → AI, tool_use → tool call).
// Blocks dialogql has no column for (server tool use, web search results, redacted thinking, …)
// are kept whole, so a same-format export gives every byte back.
import { z } from "zod";
import { ValidationError } from "../errors.js";
import { blankEvent, type NewEvent } from "../vocabulary/events.js";
import { isJsonObject } from "../vocabulary/json.js";
import { claimCallId, type Problems, requireList, zodProblems } from "./import-checks.js";
import { joinedText, type Part } from "../vocabulary/parts.js";
import { extraKeys, type ProviderFields } from "../vocabulary/provider-fields.js";
import type { ImportedEvent } from "./turns.js";

type Block = Record<string, unknown> & { type: string };

const textBlock = z.looseObject({ type: z.literal("text"), text: z.string() });
const imageSource = z.discriminatedUnion("type", [
  z.looseObject({
    type: z.literal("base64"),
    media_type: z.enum(["image/jpeg", "image/png", "image/gif", "image/webp"]),
    data: z.string().min(1),
  }),
  z.looseObject({ type: z.literal("url"), url: z.string().min(1) }),
  z.looseObject({ type: z.literal("file"), file_id: z.string().min(1) }),
]);
const documentSource = z.discriminatedUnion("type", [
  z.looseObject({ type: z.literal("base64"), media_type: z.literal("application/pdf"), data: z.string().min(1) }),
  z.looseObject({ type: z.literal("text"), media_type: z.literal("text/plain"), data: z.string() }),
  z.looseObject({
    type: z.literal("content"),
    content: z.union([z.string(), z.array(z.looseObject({ type: z.string() }))]),
  }),
  z.looseObject({ type: z.literal("url"), url: z.string().min(1) }),
  z.looseObject({ type: z.literal("file"), file_id: z.string().min(1) }),
]);
// The blocks dialogql reads; any other block type is kept whole and checked only for its `type`.
const knownBlocks: Record<string, z.ZodType> = {
  text: textBlock,
  image: z.looseObject({ type: z.literal("image"), source: imageSource }),
  document: z.looseObject({ type: z.literal("document"), source: documentSource }),
  thinking: z.looseObject({ type: z.literal("thinking"), thinking: z.string(), signature: z.string() }),
  redacted_thinking: z.looseObject({ type: z.literal("redacted_thinking"), data: z.string() }),
  tool_use: z.looseObject({
    type: z.literal("tool_use"),
    id: z.string().min(1),
    name: z.string().min(1),
    input: z.unknown(),
  }),
  tool_result: z.looseObject({
    type: z.literal("tool_result"),
    tool_use_id: z.string().min(1),
    content: z.union([z.string(), z.array(z.looseObject({ type: z.string() }))]).optional(),
    is_error: z.boolean().optional(),
  }),
};

const anthropic = (more: Partial<ProviderFields>): ProviderFields => ({ format: "ANTHROPIC_MESSAGES", ...more });

export function fromAnthropicConversation(value: unknown, path: string[] = ["messages"]): ImportedEvent[] {
  const body = isJsonObject(value) ? value : { messages: value };
  if (isJsonObject(value)) {
    const unknown = Object.keys(value).filter((key) => key !== "system" && key !== "messages");
    if (unknown.length) throw ValidationError.at([...path, unknown[0]!], "expected only system and messages");
  }
  const messagesPath = isJsonObject(value) ? [...path, "messages"] : path;
  const list = requireList(body.messages, messagesPath, "Anthropic messages");
  const problems: Problems = [];
  const imported: ImportedEvent[] = [];
  if (body.system !== undefined) {
    const event = readSystem(body.system, [...path, "system"], problems, { topLevel: true });
    if (event) imported.push({ event, path: [...path, "system"] });
  }
  const calls = new Map<string, string>();
  list.forEach((message, index) => {
    const at = [...messagesPath, String(index)];
    if (!isJsonObject(message)) return void problems.push({ path: at, message: "must be a message object" });
    const before = problems.length;
    const events = readMessage(message, at, problems, calls);
    if (problems.length !== before) return;
    const extra = extraKeys(message, ["role", "content"]);
    events.forEach(({ event, path: eventPath }, i) => {
      event.providerFields = {
        ...event.providerFields!,
        ...(i > 0 && { continues: true }),
        ...(i === 0 && extra && { extra }),
      };
      imported.push({
        event,
        path: eventPath,
        ...(event.type === "TOOL_RESULT" && { callIdPath: [...eventPath, "tool_use_id"] }),
      });
    });
  });
  if (problems.length) throw new ValidationError(problems);
  return imported;
}

interface Read {
  event: NewEvent;
  path: string[];
}

function readSystem(
  content: unknown,
  at: string[],
  problems: Problems,
  more: Partial<ProviderFields> = {},
): NewEvent | null {
  if (typeof content === "string")
    return blankEvent("SYSTEM", { content, providerFields: anthropic({ ...more, asString: true }) });
  if (!Array.isArray(content) || !content.length) {
    problems.push({ path: at, message: "must be a string or a non-empty list of text blocks" });
    return null;
  }
  const before = problems.length;
  content.forEach((block, i) => {
    const parsed = textBlock.safeParse(block);
    if (!parsed.success) zodProblems(parsed.error.issues, [...at, String(i)], problems);
  });
  if (problems.length !== before) return null;
  return blankEvent("SYSTEM", { parts: content as Part[], providerFields: anthropic(more) });
}

function readMessage(
  message: Record<string, unknown>,
  at: string[],
  problems: Problems,
  calls: Map<string, string>,
): Read[] {
  const contentPath = [...at, "content"];
  const { role, content } = message;
  if (role !== "user" && role !== "assistant" && role !== "system") {
    problems.push({
      path: [...at, "role"],
      message: `unsupported role ${JSON.stringify(role)}: expected user, assistant or system`,
    });
    return [];
  }
  if (role === "system") {
    const event = readSystem(content, contentPath, problems);
    return event ? [{ event, path: at }] : [];
  }
  if (typeof content === "string") {
    const type = role === "user" ? "HUMAN" : "AI";
    return [{ event: blankEvent(type, { content, providerFields: anthropic({ asString: true }) }), path: at }];
  }
  if (!Array.isArray(content) || !content.length) {
    problems.push({ path: contentPath, message: "must be a string or a non-empty list of content blocks" });
    return [];
  }
  const before = problems.length;
  content.forEach((block, i) => checkBlock(block, [...contentPath, String(i)], problems));
  if (problems.length !== before) return [];
  const blocks = content as Block[];
  return role === "user"
    ? readUserBlocks(blocks, contentPath)
    : readAssistantBlocks(blocks, contentPath, problems, calls);
}

function checkBlock(block: unknown, at: string[], problems: Problems) {
  if (!isJsonObject(block) || typeof block.type !== "string") {
    return void problems.push({ path: at, message: "must be a content block with a type" });
  }
  const parsed = Object.hasOwn(knownBlocks, block.type) ? knownBlocks[block.type]!.safeParse(block) : null;
  if (parsed && !parsed.success) zodProblems(parsed.error.issues, at, problems);
}

// A user message: consecutive content blocks make one human event; each tool_result its own event.
function readUserBlocks(blocks: Block[], at: string[]): Read[] {
  const reads: Read[] = [];
  let run: Part[] | null = null;
  blocks.forEach((block, i) => {
    if (block.type !== "tool_result") {
      if (!run)
        reads.push({
          event: blankEvent("HUMAN", { parts: (run = []), providerFields: anthropic({}) }),
          path: [...at, String(i)],
        });
      run.push(block as Part);
      return;
    }
    run = null;
    const content = block.content as string | Part[] | undefined;
    const block_ = extraKeys(block, ["type", "tool_use_id", "content"]);
    reads.push({
      path: [...at, String(i)],
      event: blankEvent("TOOL_RESULT", {
        callId: block.tool_use_id as string,
        isError: block.is_error === true,
        content: typeof content === "string" ? content : content ? joinedText(content) : null,
        parts: Array.isArray(content) ? content : null,
        providerFields: anthropic({ ...(block_ && { block: block_ }) }),
      }),
    });
  });
  return reads;
}

function readAssistantBlocks(blocks: Block[], at: string[], problems: Problems, calls: Map<string, string>): Read[] {
  return blocks.map((block, i): Read => {
    const path = [...at, String(i)];
    const kept = (known: string[]) => {
      const extra = extraKeys(block, known);
      return anthropic(extra ? { block: extra } : {});
    };
    switch (block.type) {
      case "text":
        return {
          path,
          event: blankEvent("AI", { content: block.text as string, providerFields: kept(["type", "text"]) }),
        };
      case "thinking":
        return {
          path,
          event: blankEvent("REASONING", {
            content: block.thinking as string,
            providerFields: kept(["type", "thinking"]),
          }),
        };
      case "redacted_thinking":
        // Encrypted: nothing to read, but the API wants it back verbatim.
        return {
          path,
          event: blankEvent("REASONING", {
            content: "",
            parts: [block as Part],
            providerFields: anthropic({ opaque: true }),
          }),
        };
      case "tool_use": {
        const id = block.id as string;
        claimCallId(id, block.name as string, calls, [...path, "id"], problems);
        // dialogql's arguments are an object; any other input is given back as it came.
        const args = isJsonObject(block.input) ? block.input : {};
        const known = isJsonObject(block.input) ? ["type", "id", "name", "input"] : ["type", "id", "name"];
        return {
          path,
          event: blankEvent("TOOL_CALL", {
            callId: id,
            toolName: block.name as string,
            args,
            providerFields: kept(known),
          }),
        };
      }
      default:
        return {
          path,
          event: blankEvent("AI", { parts: [block as Part], providerFields: anthropic({ opaque: true }) }),
        };
    }
  });
}
