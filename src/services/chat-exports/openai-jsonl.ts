// OpenAI-format JSONL: one conversation per line, `{"messages": [...]}` in Chat Completions' shape
// (the fine-tuning and batch files' format), or a bare array of messages. A line has no id of its
// own, so its key is a hash of its text: the same line imported twice is found again.
import { createHash } from "node:crypto";
import type { WriteLimits } from "../../store/store.js";
import { ValidationError } from "../../errors.js";
import { checkEventCount, checkEventSize } from "../event-input.js";
import type { FieldError } from "../../errors.js";
import { fromChatMessages } from "../../formats/openai-chat-import.js";
import { type ImportedConversation, isObject } from "./conversation.js";
import { turnsOfTree } from "./message-tree.js";

export function readOpenAiJsonl(limits: WriteLimits, source: string, offset = 0): ImportedConversation[] {
  const conversations: ImportedConversation[] = [];
  source.split("\n").forEach((line, index) => {
    if (!line.trim()) return;
    const where = `line ${offset + index + 1}`;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch (error) {
      throw ValidationError.at([where], `is not JSON (${(error as Error).message})`);
    }
    const messages = Array.isArray(parsed) ? parsed : isObject(parsed) ? parsed.messages : undefined;
    if (!Array.isArray(messages)) throw ValidationError.at([where], "has no `messages` array");
    checkEventCount(limits, messages.length, [where, "messages"]);
    const errors: FieldError[] = [];
    messages.forEach((message, i) => checkEventSize(limits, message, [where, "messages", String(i)], errors));
    if (errors.length) throw new ValidationError(errors);
    const events = fromChatMessages(messages, [where, "messages"]);
    // One message per node, in a line: a single branch.
    const tree = events.map((event, i) => ({
      id: String(i),
      parentId: i ? String(i - 1) : null,
      events: [event],
      model: null,
    }));
    const firstHuman = events.find((e) => e.event.type === "HUMAN")?.event.content;
    conversations.push({
      importKey: `jsonl:${createHash("sha256").update(line.trim()).digest("hex").slice(0, 32)}`,
      title: firstHuman ? firstHuman.replace(/\s+/g, " ").trim().slice(0, 80) : null,
      metadata: { imported: { source: "openai-jsonl", line: offset + index + 1 } },
      turns: turnsOfTree({ messages: tree, currentId: String(events.length - 1) }),
    });
  });
  return conversations;
}
