// LibreChat's conversation export (the "Export" of a conversation, JSON): `{conversationId, title,
// endpoint, messages: [{messageId, parentMessageId, isCreatedByUser, sender, text, content, model,
// createdAt}]}`; with "recursive" set the messages nest under `children` instead. A root message's
// parent is the all-zero id.
import type { WriteLimits } from "../../store/store.js";
import { ValidationError } from "../../errors.js";
import type { HistoryEventInput } from "../../vocabulary/events.js";
import { type ImportedConversation, eventsOf, isObject, recordName, text, timeOf } from "./conversation.js";
import { type TreeMessage, turnsOfTree } from "./message-tree.js";

const NO_PARENT = "00000000-0000-0000-0000-000000000000";

export const isLibreChatConversation = (value: unknown) =>
  isObject(value) && typeof value.conversationId === "string" && Array.isArray(value.messages);

export function readLibreChatExport(limits: WriteLimits, items: unknown[], offset = 0): ImportedConversation[] {
  return items.map((item, index) => {
    const where = [
      recordName(offset + index, isObject(item) ? item.title : null, isObject(item) ? item.conversationId : null),
    ];
    if (!isLibreChatConversation(item)) throw ValidationError.at(where, "is not a LibreChat conversation");
    const conversation = item as Record<string, unknown>;
    const id = conversation.conversationId as string;
    const flat = flatten(conversation.messages as unknown[], null);
    const messages: TreeMessage[] = flat.map(({ message, parentId }, i) => {
      const messageId = text(message.messageId) ?? `${i}`;
      const at = [...where, `message ${messageId}`];
      const parent = text(message.parentMessageId) ?? parentId;
      return {
        id: messageId,
        parentId: parent === NO_PARENT ? null : parent,
        events: eventsOf(limits, eventInputs(message), at),
        model: message.isCreatedByUser ? null : text(message.model),
      };
    });
    // The newest message is the one the app had open.
    const newest = [...flat]
      .sort((a, b) => (timeOf(a.message.createdAt)?.getTime() ?? 0) - (timeOf(b.message.createdAt)?.getTime() ?? 0))
      .at(-1);
    return {
      importKey: `librechat:${id}`,
      title: text(conversation.title),
      metadata: { imported: { source: "librechat", id, endpoint: text(conversation.endpoint) } },
      turns: turnsOfTree({ messages, currentId: newest ? text(newest.message.messageId) : null }),
    };
  });
}

function flatten(
  list: unknown[],
  parentId: string | null,
): { message: Record<string, unknown>; parentId: string | null }[] {
  const out: { message: Record<string, unknown>; parentId: string | null }[] = [];
  const stack = list
    .filter(isObject)
    .map((message) => ({ message, parentId }))
    .reverse();
  while (stack.length) {
    const entry = stack.pop()!;
    out.push(entry);
    const children = Array.isArray(entry.message.children) ? entry.message.children.filter(isObject) : [];
    const id = text(entry.message.messageId);
    for (const child of [...children].reverse()) stack.push({ message: child, parentId: id });
  }
  return out;
}

function eventInputs(message: Record<string, unknown>): HistoryEventInput[] {
  const fromParts = Array.isArray(message.content)
    ? message.content
        .filter(isObject)
        .map((part) =>
          part.type === "text" ? (text(part.text) ?? (isObject(part.text) ? text(part.text.value) : null)) : null,
        )
        .filter(Boolean)
        .join("\n")
    : "";
  const content = text(message.text) || fromParts;
  if (!content) return [];
  const createdAt = timeOf(message.createdAt);
  return message.isCreatedByUser ? [{ human: { content, createdAt } }] : [{ ai: { content, createdAt } }];
}
