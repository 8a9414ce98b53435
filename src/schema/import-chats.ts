// importChats: conversations from a chat app's export (ChatGPT's conversations.json, Open WebUI,
// LibreChat, OpenAI-format JSONL) become the caller's dialogs. The whole text is read and checked
// first — a bad record is a ValidationError naming it, and nothing is stored — then each
// conversation is stored in one transaction; one imported before is found, not stored twice. The
// viewer sends a large file a slice of conversations at a time (dryRun first, to check them all).
import { chatExportFormats, readChatExport } from "../services/chat-exports/index.js";
import { builder } from "./builder.js";
import { Dialog } from "./dialog.js";
import { writeErrors } from "./errors.js";

const ChatExportFormatEnum = builder.enumType("ChatExportFormat", {
  description: "Which chat app wrote an export.",
  values: {
    CHATGPT: { description: "ChatGPT's data export: conversations.json (its `mapping` trees become branches)." },
    OPEN_WEBUI: { description: "Open WebUI's chat export (JSON)." },
    LIBRECHAT: { description: "LibreChat's conversation export (JSON)." },
    OPENAI_JSONL: { description: 'One conversation per line: `{"messages": [...]}` in Chat Completions\' shape.' },
  } as const,
});

const ImportChatsInput = builder.inputType("ImportChatsInput", {
  fields: (t) => ({
    data: t.string({ required: true, description: "The export file's text (or a slice of its conversations)." }),
    format: t.field({ type: ChatExportFormatEnum, description: "Recognised from the text when not given." }),
    dryRun: t.boolean({ description: "Only read and check: nothing is stored." }),
    offset: t.int({
      description:
        "For a slice of a file: the index of its first conversation (or line) in the file, so problems name records as the file numbers them.",
    }),
  }),
});

interface ImportChatsResult {
  format: (typeof chatExportFormats)[number];
  conversations: number;
  dialogIds: string[];
  imported: number;
  skipped: number;
}

const ImportChatsPayload = builder.objectRef<ImportChatsResult>("ImportChatsPayload").implement({
  fields: (t) => ({
    format: t.field({ type: ChatExportFormatEnum, resolve: (result) => result.format }),
    conversations: t.exposeInt("conversations", { description: "Conversations read from the text." }),
    imported: t.exposeInt("imported", { description: "Stored now as new dialogs." }),
    skipped: t.exposeInt("skipped", { description: "Imported before by this tenant: left as they were." }),
    dialogs: t.prismaField({
      type: [Dialog],
      description: "The dialogs holding the conversations, in the file's order (none for a dry run).",
      resolve: async (query, result, _args, { store }) => {
        const rows = await store.prisma.dialog.findMany({ ...query, where: { id: { in: result.dialogIds } } });
        const byId = new Map(rows.map((row) => [row.id, row]));
        return result.dialogIds.flatMap((id) => byId.get(id) ?? []);
      },
    }),
  }),
});

builder.mutationField("importChats", (t) =>
  t.field({
    type: ImportChatsPayload,
    errors: { types: writeErrors },
    args: { input: t.arg({ type: ImportChatsInput, required: true }) },
    // Every dialog it makes is the caller's.
    tenant: "caller",
    resolve: async (_root, { input }, { store, scope, writes }) => {
      const read = readChatExport(store.writeLimits, input.data, input.format ?? null, input.offset ?? 0);
      const result: ImportChatsResult = {
        format: read.format,
        conversations: read.conversations.length,
        dialogIds: [],
        imported: 0,
        skipped: 0,
      };
      if (input.dryRun) return result;
      for (const conversation of read.conversations) {
        const stored = await writes.importConversation(conversation, scope.tenantId);
        result.dialogIds.push(stored.dialogId);
        if (stored.created) result.imported++;
        else result.skipped++;
      }
      return result;
    },
  }),
);
