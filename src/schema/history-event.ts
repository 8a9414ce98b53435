// The HistoryEvent union: one object type per kind of step, all stored as rows of Event.
import { type Part, toChatPart } from "../vocabulary/parts.js";
import { HistoryEventType } from "../generated/prisma/enums.js";
import { builder } from "./builder.js";

export const HistoryEventTypeEnum = builder.enumType(HistoryEventType, { name: "HistoryEventType" });

const typeNames = {
  HUMAN: "HumanEvent",
  AI: "AiEvent",
  REASONING: "ReasoningEvent",
  TOOL_CALL: "ToolCallEvent",
  TOOL_RESULT: "ToolResultEvent",
  SYSTEM: "SystemEvent",
} as const satisfies Record<HistoryEventType, string>;

// Fields that several kinds share (`content`, `callId`, `toolName`) have one type everywhere, so a
// client can select them from several union members at once without aliases.

// Fields every kind has. An interface as well as the union, so clients can select them once.
export const BaseHistoryEvent = builder.prismaInterface("Event", {
  name: "BaseHistoryEvent",
  fields: (t) => ({
    id: t.exposeID("id"),
    seq: t.exposeInt("seq", { description: "Position in the dialog: strictly increasing, gap-free." }),
    type: t.expose("type", { type: HistoryEventTypeEnum }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    metadata: t.expose("metadata", { type: "JSONObject" }),
    // `response` is added in response.ts, next to the Response type it returns.
  }),
  resolveType: (event) => typeNames[event.type],
});

// OpenAI content parts, typed for readers. Stored as the JSON the client sent, in chat or Responses
// vocabulary; read here in chat vocabulary (a refusal reads as text).
const readablePart = (part: Part): Part => {
  const chat = toChatPart(part);
  return chat.type === "refusal" ? { type: "text", text: chat.refusal } : chat;
};
const partRef = (name: string) => builder.objectRef<Part>(name);

const TextPart = partRef("TextPart").implement({
  fields: (t) => ({ text: t.string({ resolve: (p) => p.text }) }),
});
const ImageUrlPart = partRef("ImageUrlPart").implement({
  fields: (t) => ({
    url: t.string({ resolve: (p) => p.image_url.url }),
    detail: t.string({ nullable: true, resolve: (p) => p.image_url.detail ?? null }),
  }),
});
const AudioPart = partRef("AudioPart").implement({
  fields: (t) => ({
    data: t.string({ description: "Base64-encoded audio.", resolve: (p) => p.input_audio.data }),
    format: t.string({ resolve: (p) => p.input_audio.format }),
  }),
});
const FilePart = partRef("FilePart").implement({
  fields: (t) => ({
    fileId: t.string({ nullable: true, resolve: (p) => p.file.file_id ?? null }),
    filename: t.string({ nullable: true, resolve: (p) => p.file.filename ?? null }),
    fileData: t.string({ nullable: true, resolve: (p) => p.file.file_data ?? null }),
  }),
});
const partTypes = { text: TextPart, image_url: ImageUrlPart, input_audio: AudioPart, file: FilePart };

export const ContentPart = builder.unionType("ContentPart", {
  types: Object.values(partTypes),
  resolveType: (part) => partTypes[part.type as keyof typeof partTypes],
});

// Human, AI and system messages share a shape.
const messageEvent = (type: "HUMAN" | "AI" | "SYSTEM") =>
  builder.prismaObject("Event", {
    variant: typeNames[type],
    interfaces: [BaseHistoryEvent],
    fields: (t) => ({
      content: t.string({
        description: "The text; empty when the message has only `parts`.",
        resolve: (event) => event.content ?? "",
      }),
      parts: t.field({
        type: [ContentPart],
        nullable: true,
        description: "Multi-modal content (text, image URL, audio, file), when the message has any.",
        resolve: (event) => (event.parts as Part[] | null)?.map(readablePart) ?? null,
      }),
    }),
  });

const eventObjects = {
  HUMAN: messageEvent("HUMAN"),
  AI: messageEvent("AI"),
  SYSTEM: messageEvent("SYSTEM"),

  REASONING: builder.prismaObject("Event", {
    variant: typeNames.REASONING,
    interfaces: [BaseHistoryEvent],
    fields: (t) => ({
      content: t.string({ resolve: (event) => event.content ?? "" }),
      modelName: t.exposeString("modelName", { nullable: true }),
    }),
  }),
  TOOL_CALL: builder.prismaObject("Event", {
    variant: typeNames.TOOL_CALL,
    interfaces: [BaseHistoryEvent],
    fields: (t) => ({
      callId: t.string({ resolve: (event) => event.callId ?? "" }),
      toolName: t.string({ resolve: (event) => event.toolName ?? "" }),
      args: t.expose("args", { type: "JSONObject" }),
    }),
  }),
  TOOL_RESULT: builder.prismaObject("Event", {
    variant: typeNames.TOOL_RESULT,
    interfaces: [BaseHistoryEvent],
    fields: (t) => ({
      callId: t.string({ resolve: (event) => event.callId ?? "" }),
      toolName: t.string({
        description: "The tool's name: as written, or else the name of the call it answers.",
        resolve: (event) => event.toolName ?? "",
      }),
      content: t.string({ resolve: (event) => event.content ?? "" }),
      isError: t.boolean({ resolve: (event) => event.isError ?? false }),
    }),
  }),
};

export const HistoryEvent = builder.unionType("HistoryEvent", {
  types: Object.values(eventObjects),
  resolveType: (event: { type: HistoryEventType }) => typeNames[event.type],
});
