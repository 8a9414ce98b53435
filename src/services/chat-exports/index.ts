// Reading a chat app's export: which app wrote it (told, or recognised from its shape), and its
// conversations, checked whole before anything is stored — a bad record is an error naming it.
import type { WriteLimits } from "../../store/store.js";
import { ValidationError } from "../../errors.js";
import { isChatGptConversation, readChatGptExport } from "./chatgpt.js";
import { type ImportedConversation, isObject } from "./conversation.js";
import { isLibreChatConversation, readLibreChatExport } from "./librechat.js";
import { isOpenWebUiChat, readOpenWebUiExport } from "./open-webui.js";
import { readOpenAiJsonl } from "./openai-jsonl.js";

export type { ImportedConversation } from "./conversation.js";
export type { TurnNode } from "./message-tree.js";

export const chatExportFormats = ["CHATGPT", "OPEN_WEBUI", "LIBRECHAT", "OPENAI_JSONL"] as const;
export type ChatExportFormat = (typeof chatExportFormats)[number];

export interface ReadExport {
  format: ChatExportFormat;
  conversations: ImportedConversation[];
}

/**
 * The file's text, in `format` or (null) whichever format it is recognised as. `offset` is the
 * index of the text's first record in the whole file, when the text is a slice of it, so that
 * problems name records as the file numbers them.
 */
export function readChatExport(
  limits: WriteLimits,
  source: string,
  format: ChatExportFormat | null = null,
  offset = 0,
): ReadExport {
  const json = format === "OPENAI_JSONL" ? undefined : parseWhole(source);
  const detected = format ?? detect(json, source);
  if (detected === "OPENAI_JSONL") return { format: detected, conversations: readOpenAiJsonl(limits, source, offset) };
  const items = Array.isArray(json) ? json : [json];
  const read = { CHATGPT: readChatGptExport, OPEN_WEBUI: readOpenWebUiExport, LIBRECHAT: readLibreChatExport }[
    detected
  ];
  return { format: detected, conversations: read(limits, items, offset) };
}

function parseWhole(source: string): unknown {
  try {
    return JSON.parse(source);
  } catch {
    return undefined; // JSONL, or not JSON at all: detect() says which
  }
}

function detect(json: unknown, source: string): ChatExportFormat {
  if (json === undefined) {
    if (source.trim().startsWith("{") && source.includes("\n")) return "OPENAI_JSONL";
    throw ValidationError.at(["file"], "is neither JSON nor JSON Lines");
  }
  const first = Array.isArray(json) ? json[0] : json;
  if (isChatGptConversation(first)) return "CHATGPT";
  if (isOpenWebUiChat(first)) return "OPEN_WEBUI";
  if (isLibreChatConversation(first)) return "LIBRECHAT";
  // One line of JSONL is a whole JSON document too.
  if (isObject(first) && Array.isArray(first.messages)) return "OPENAI_JSONL";
  if (Array.isArray(json) && !json.length) throw ValidationError.at(["file"], "holds no conversations");
  throw ValidationError.at(
    ["file"],
    "is not a ChatGPT export (conversations.json), an Open WebUI or LibreChat export, or OpenAI-format JSONL",
  );
}
