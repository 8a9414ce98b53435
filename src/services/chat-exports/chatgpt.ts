// ChatGPT's data export (`conversations.json`): an array of conversations, each a `mapping` of
// message nodes (`{id, message, parent, children}`) with `current_node` the message the app showed
// last. A message has `author.role` (user, assistant, system, tool), `content.content_type` with
// `parts` (text, or objects such as image asset pointers), `create_time` in seconds, the model in
// `metadata.model_slug`, and `recipient`: "all" for a reply to the person, a tool's name for a call
// (the code interpreter's `code`, a browser query), whose output comes back as a `tool` message.
import type { WriteLimits } from "../../store/store.js";
import { ValidationError } from "../../errors.js";
import type { HistoryEventInput } from "../../vocabulary/events.js";
import { type ImportedConversation, eventsOf, isObject, recordName, text, timeOf } from "./conversation.js";
import { type TreeMessage, turnsOfTree } from "./message-tree.js";

export const isChatGptConversation = (value: unknown) => isObject(value) && isObject(value.mapping);

export function readChatGptExport(limits: WriteLimits, items: unknown[], offset = 0): ImportedConversation[] {
  return items.map((item, index) => {
    const where = [recordName(offset + index, isObject(item) ? item.title : null, isObject(item) ? item.id : null)];
    if (!isChatGptConversation(item)) throw ValidationError.at(where, "is not a ChatGPT conversation (no `mapping`)");
    return readConversation(limits, item as Record<string, unknown>, where);
  });
}

function readConversation(limits: WriteLimits, conversation: Record<string, unknown>, where: string[]) {
  const id = text(conversation.conversation_id) ?? text(conversation.id);
  if (!id) throw ValidationError.at(where, "has no `id` or `conversation_id`");
  const mapping = conversation.mapping as Record<string, unknown>;
  const messages: TreeMessage[] = [];
  for (const [nodeId, node] of Object.entries(mapping)) {
    const at = [...where, `message ${nodeId}`];
    if (!isObject(node)) throw ValidationError.at(at, "is not an object");
    const parentId = text(node.parent);
    const message = isObject(node.message) ? node.message : null;
    const inputs = message ? eventInputs(message, nodeId, mapping, at) : [];
    const model = message && isObject(message.metadata) ? text(message.metadata.model_slug) : null;
    messages.push({ id: nodeId, parentId, events: eventsOf(limits, inputs, at), model });
  }
  const turns = turnsOfTree({ messages, currentId: text(conversation.current_node) });
  const created = timeOf(conversation.create_time);
  const updated = timeOf(conversation.update_time);
  return {
    importKey: `chatgpt:${id}`,
    title: text(conversation.title),
    metadata: {
      imported: {
        source: "chatgpt",
        id,
        ...(created && { createdAt: created.toISOString() }),
        ...(updated && { updatedAt: updated.toISOString() }),
      },
    },
    turns,
  } satisfies ImportedConversation;
}

/** The events one ChatGPT message becomes (none for the hidden scaffolding messages). */
function eventInputs(
  message: Record<string, unknown>,
  nodeId: string,
  mapping: Record<string, unknown>,
  at: string[],
): HistoryEventInput[] {
  const author = isObject(message.author) ? message.author : {};
  const role = text(author.role);
  const content = isObject(message.content) ? message.content : {};
  const contentType = text(content.content_type) ?? "text";
  const metadata = isObject(message.metadata) ? message.metadata : {};
  const createdAt = timeOf(message.create_time);
  const recipient = text(message.recipient) ?? "all";
  const body = textOf(content);
  const parts = partsOf(content, metadata);
  if (metadata.is_visually_hidden_from_conversation === true) return [];

  switch (role) {
    case "system":
    case "user":
      if (contentType === "user_editable_context") {
        const instructions = [text(content.user_profile), text(content.user_instructions)].filter(Boolean).join("\n\n");
        return instructions ? [{ system: { content: instructions, createdAt } }] : [];
      }
      if (!body && !parts.length) return [];
      return role === "system"
        ? [{ system: { content: body, createdAt } }]
        : [{ human: { content: body, parts: parts.length ? parts : null, createdAt } }];
    case "assistant":
      if (contentType === "thoughts" || contentType === "reasoning_recap") {
        return body ? [{ reasoning: { content: body, modelName: text(metadata.model_slug), createdAt } }] : [];
      }
      if (recipient !== "all")
        return [{ toolCall: { callId: callIdOf(nodeId), toolName: recipient, args: argsOf(body), createdAt } }];
      if (!body && !parts.length) return [];
      return [{ ai: { content: body, parts: parts.length ? parts : null, createdAt } }];
    case "tool": {
      const toolName = text(author.name) ?? "tool";
      const call = callAnswered(mapping, nodeId, toolName);
      const result = {
        callId: call ?? callIdOf(nodeId),
        toolName,
        content: body || JSON.stringify(content),
        createdAt,
      };
      // A tool message with no call before it (ChatGPT's own browsing or file tools) gets one, so
      // the result answers something, as every tool result in dialogql does.
      return call
        ? [{ toolResult: result }]
        : [{ toolCall: { callId: result.callId, toolName, args: {}, createdAt } }, { toolResult: result }];
    }
    default:
      throw ValidationError.at([...at, "author", "role"], `unknown role ${JSON.stringify(role)}`);
  }
}

const callIdOf = (nodeId: string) => `call_${nodeId}`;

/** The assistant message (a parent, a few steps up at most) that called this tool. */
function callAnswered(mapping: Record<string, unknown>, nodeId: string, toolName: string): string | null {
  let id = nodeParent(mapping, nodeId);
  for (let steps = 0; id && steps < 8; steps++, id = nodeParent(mapping, id)) {
    const node = mapping[id];
    const message = isObject(node) && isObject(node.message) ? node.message : null;
    if (!message) continue;
    const author = isObject(message.author) ? message.author : {};
    if (author.role === "user") return null;
    const recipient = text(message.recipient);
    if (author.role === "assistant" && recipient && recipient !== "all") {
      return recipient === toolName || toolName.startsWith(recipient) ? callIdOf(id) : null;
    }
  }
  return null;
}

const nodeParent = (mapping: Record<string, unknown>, id: string) => {
  const node = mapping[id];
  return isObject(node) ? text(node.parent) : null;
};

function argsOf(body: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(body);
    if (isObject(parsed)) return parsed;
  } catch {
    // code and plain queries are not JSON
  }
  return { input: body };
}

/** The text of a message: its string parts, or the text of code and tool output. */
function textOf(content: Record<string, unknown>): string {
  if (typeof content.text === "string") return content.text;
  if (Array.isArray(content.thoughts)) {
    return content.thoughts
      .map((t) =>
        isObject(t)
          ? [text(t.summary) && `**${t.summary as string}**`, text(t.content)].filter(Boolean).join("\n")
          : "",
      )
      .filter(Boolean)
      .join("\n\n");
  }
  if (typeof content.content === "string") return content.content;
  if (typeof content.result === "string") return content.result;
  if (!Array.isArray(content.parts)) return "";
  return content.parts.filter((part): part is string => typeof part === "string").join("\n");
}

/** Attachments and images as content parts (beside the text): files by their export id and name. */
function partsOf(content: Record<string, unknown>, metadata: Record<string, unknown>): unknown[] {
  const parts: unknown[] = [];
  if (Array.isArray(content.parts)) {
    for (const part of content.parts) {
      if (!isObject(part)) continue;
      const pointer = text(part.asset_pointer);
      if (pointer)
        parts.push({
          type: "file",
          file: { file_id: pointer, filename: text(part.name) ?? pointer.split("/").at(-1) },
        });
    }
  }
  if (Array.isArray(metadata.attachments)) {
    for (const attachment of metadata.attachments) {
      if (!isObject(attachment) || !text(attachment.id)) continue;
      parts.push({ type: "file", file: { file_id: attachment.id, filename: text(attachment.name) ?? undefined } });
    }
  }
  return parts;
}
