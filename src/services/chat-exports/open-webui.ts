// Open WebUI's chat export (Settings → Chats → Export): an array of chats, each `{id, title, chat:
// {history: {messages: {<id>: {id, parentId, childrenIds, role, content, model, timestamp}},
// currentId}}, created_at, updated_at}` — a message tree like ChatGPT's, keyed by id.
import type { WriteLimits } from "../../store/store.js";
import { ValidationError } from "../../errors.js";
import type { HistoryEventInput } from "../../vocabulary/events.js";
import { type ImportedConversation, eventsOf, isObject, recordName, text, timeOf } from "./conversation.js";
import { type TreeMessage, turnsOfTree } from "./message-tree.js";

const historyOf = (item: unknown) => {
  const chat = isObject(item) && isObject(item.chat) ? item.chat : item;
  return isObject(chat) && isObject(chat.history) && isObject(chat.history.messages) ? chat.history : null;
};

export const isOpenWebUiChat = (value: unknown) => historyOf(value) != null;

export function readOpenWebUiExport(limits: WriteLimits, items: unknown[], offset = 0): ImportedConversation[] {
  return items.map((item, index) => {
    const record = isObject(item) ? item : {};
    const chat = isObject(record.chat) ? record.chat : record;
    const title = text(record.title) ?? text(chat.title);
    const where = [recordName(offset + index, title, record.id)];
    const history = historyOf(item);
    if (!history) throw ValidationError.at(where, "is not an Open WebUI chat (no `chat.history.messages`)");
    const id = text(record.id) ?? text(chat.id);
    if (!id) throw ValidationError.at(where, "has no `id`");
    const messages: TreeMessage[] = Object.entries(history.messages as Record<string, unknown>).map(
      ([key, message]) => {
        const at = [...where, `message ${key}`];
        if (!isObject(message)) throw ValidationError.at(at, "is not an object");
        return {
          id: text(message.id) ?? key,
          parentId: text(message.parentId),
          events: eventsOf(limits, eventInputs(message, at), at),
          model: text(message.model),
        };
      },
    );
    const created = timeOf(record.created_at);
    return {
      importKey: `open-webui:${id}`,
      title,
      metadata: { imported: { source: "open-webui", id, ...(created && { createdAt: created.toISOString() }) } },
      turns: turnsOfTree({ messages, currentId: text(history.currentId) }),
    };
  });
}

function eventInputs(message: Record<string, unknown>, at: string[]): HistoryEventInput[] {
  const content = text(message.content) ?? "";
  const createdAt = timeOf(message.timestamp);
  const files = Array.isArray(message.files) ? message.files.filter(isObject) : [];
  const parts = files.flatMap((file): unknown[] => {
    const url = text(file.url);
    if (file.type === "image" && url && /^(https?:|data:image\/)/.test(url))
      return [{ type: "image_url", image_url: { url } }];
    const id = text(file.id) ?? url;
    return id ? [{ type: "file", file: { file_id: id, filename: text(file.name) ?? undefined } }] : [];
  });
  const fields = { content, parts: parts.length ? parts : null, createdAt };
  switch (message.role) {
    case "user":
      return [{ human: fields }];
    case "assistant":
      return content || parts.length ? [{ ai: fields }] : [];
    case "system":
      return [{ system: fields }];
    default:
      throw ValidationError.at([...at, "role"], `unknown role ${JSON.stringify(message.role)}`);
  }
}
