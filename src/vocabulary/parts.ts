// Content parts in OpenAI's two vocabularies. A message's parts are stored as the client sent
// them — chat (`text`, `image_url`, `input_audio`, `file`) or Responses (`input_text`,
// `output_text`, `input_image`, `input_file`) — so an export in the same format gives them back
// unchanged; an export in the other format converts each part to its nearest equivalent.
import { z } from "zod";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a provider's part: fields read per type after a check
export type Part = { type: string } & Record<string, any>;

const imageDetail = z.enum(["auto", "low", "high", "original"]);

// Chat parts. Extra keys are kept so nothing a client sent is lost on export.
export const chatTextPartSchema = z.looseObject({ type: z.literal("text"), text: z.string() });
export const refusalPartSchema = z.looseObject({ type: z.literal("refusal"), refusal: z.string() });

export const contentPartSchema = z.discriminatedUnion("type", [
  chatTextPartSchema,
  z.looseObject({
    type: z.literal("image_url"),
    image_url: z.looseObject({ url: z.string().min(1), detail: imageDetail.optional() }),
  }),
  z.looseObject({
    type: z.literal("input_audio"),
    input_audio: z.looseObject({ data: z.string().min(1), format: z.enum(["wav", "mp3"]) }),
  }),
  z.looseObject({
    type: z.literal("file"),
    file: z
      .looseObject({
        file_id: z.string().optional(),
        file_data: z.string().optional(),
        filename: z.string().optional(),
      })
      .refine((f) => f.file_id || f.file_data, "a file part needs file_id or file_data"),
  }),
]);

// Responses parts: what a user, system or developer message and a function call output may hold…
export const responsesInputPartSchema = z.discriminatedUnion("type", [
  z.looseObject({ type: z.literal("input_text"), text: z.string() }),
  z
    .looseObject({
      type: z.literal("input_image"),
      detail: imageDetail,
      image_url: z.string().min(1).nullish(),
      file_id: z.string().min(1).nullish(),
    })
    .refine((p) => p.image_url || p.file_id, "an input_image needs image_url or file_id"),
  z
    .looseObject({
      type: z.literal("input_file"),
      file_id: z.string().min(1).nullish(),
      file_data: z.string().min(1).optional(),
      file_url: z.string().min(1).optional(),
      filename: z.string().optional(),
    })
    .refine((p) => p.file_id || p.file_data || p.file_url, "an input_file needs file_id, file_data or file_url"),
]);

const span = { start_index: z.number().int(), end_index: z.number().int() };
const annotationSchema = z.discriminatedUnion("type", [
  z.looseObject({ type: z.literal("file_citation"), file_id: z.string(), filename: z.string(), index: z.number() }),
  z.looseObject({ type: z.literal("url_citation"), url: z.string(), title: z.string(), ...span }),
  z.looseObject({
    type: z.literal("container_file_citation"),
    container_id: z.string(),
    file_id: z.string(),
    filename: z.string(),
    ...span,
  }),
  z.looseObject({ type: z.literal("file_path"), file_id: z.string(), index: z.number() }),
]);
const topLogprob = { token: z.string(), bytes: z.array(z.number()), logprob: z.number() };

// …and what an assistant's output message holds.
export const responsesOutputPartSchema = z.discriminatedUnion("type", [
  z.looseObject({
    type: z.literal("output_text"),
    text: z.string(),
    // OpenAI accepts an output_text part without annotations (clients replaying history omit them).
    annotations: z.array(annotationSchema).optional(),
    logprobs: z.array(z.looseObject({ ...topLogprob, top_logprobs: z.array(z.looseObject(topLogprob)) })).optional(),
  }),
  refusalPartSchema,
]);

export const summaryPartSchema = z.looseObject({ type: z.literal("summary_text"), text: z.string() });

/** The text a part carries, if it is a text-like part. */
export function partText(part: Part): string | null {
  switch (part.type) {
    case "text":
    case "input_text":
    case "output_text":
    case "summary_text":
      return part.text;
    case "refusal":
      return part.refusal;
    default:
      return null;
  }
}

/** The text parts of a list, joined: how a list of parts reads where only a string fits. */
export const joinedText = (parts: Part[], separator = "\n") =>
  parts
    .map(partText)
    .filter((text) => text != null)
    .join(separator);

// A part the target format cannot carry becomes a short text note rather than vanishing, so the
// model still sees that something was there (e.g. audio in a Responses export).
const note = (text: string) => ({ type: "text", text: `[${text}]` });

const chatPartTypes = new Set(["text", "image_url", "input_audio", "file", "refusal"]);

/** `data:<type>;base64,<data>` split into its media type and data, or null for other URLs. */
export function parseDataUrl(url: string): { mediaType: string; data: string } | null {
  const match = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  return match ? { mediaType: match[1]!, data: match[2]! } : null;
}

/**
 * A part in chat vocabulary: for chat exports, GraphQL `parts`, transcripts, and as the common
 * ground other formats convert through. Parts stored in Responses, Anthropic or AI SDK vocabulary
 * become their nearest chat part; what has none becomes a short note.
 */
export function toChatPart(part: Part): Part {
  switch (part.type) {
    case "input_text":
    case "output_text":
      return { type: "text", text: part.text };
    case "input_image":
      if (!part.image_url) return note(`image ${part.file_id}`);
      return { type: "image_url", image_url: { url: part.image_url, detail: part.detail } };
    case "input_file": {
      const { file_id, file_data, filename } = part;
      if (!file_id && !file_data) return note(`file ${part.file_url}`);
      return {
        type: "file",
        file: { ...(file_id && { file_id }), ...(file_data && { file_data }), ...(filename && { filename }) },
      };
    }
    case "file":
      // The AI SDK's file part ({mediaType, url}) shares chat's type name but not its shape.
      return part.file ? part : fromAiSdkFile(part);
    case "image":
      return fromAnthropicImage(part);
    case "document":
      return fromAnthropicDocument(part);
    case "source-url":
      return note(`source ${part.title ? `${part.title} ` : ""}${part.url}`);
    case "source-document":
      return note(`source ${part.title}`);
    default:
      return chatPartTypes.has(part.type) ? part : note(part.type);
  }
}

function fromAnthropicImage(part: Part): Part {
  const source = part.source ?? {};
  if (source.type === "base64")
    return { type: "image_url", image_url: { url: `data:${source.media_type};base64,${source.data}` } };
  if (source.type === "url") return { type: "image_url", image_url: { url: source.url } };
  return note(`image ${source.file_id ?? ""}`.trim());
}

function fromAnthropicDocument(part: Part): Part {
  const source = part.source ?? {};
  const filename = part.title ?? undefined;
  switch (source.type) {
    case "base64":
      return {
        type: "file",
        file: { file_data: `data:${source.media_type};base64,${source.data}`, ...(filename && { filename }) },
      };
    case "text":
      return { type: "text", text: source.data };
    case "content":
      return typeof source.content === "string"
        ? { type: "text", text: source.content }
        : { type: "text", text: joinedText(source.content ?? []) };
    default:
      return note(`document ${filename ?? source.url ?? source.file_id ?? ""}`.trim());
  }
}

function fromAiSdkFile(part: Part): Part {
  const { mediaType, url, filename } = part;
  if (typeof mediaType === "string" && mediaType.startsWith("image/")) return { type: "image_url", image_url: { url } };
  if (typeof url === "string" && parseDataUrl(url))
    return { type: "file", file: { file_data: url, ...(filename && { filename }) } };
  return note(`file ${filename ?? url}`);
}

/** A chat part with only the keys chat defines: what a part from another provider's format becomes. */
export function toPlainChatPart(part: Part): Part {
  const chat = toChatPart(part);
  return chat.type === "text" ? { type: "text", text: chat.text } : chat;
}

/** A part as the Responses API takes it in a user, system or developer message or a tool output. */
export function toResponsesInputPart(part: Part): Part {
  switch (part.type) {
    case "text":
    case "output_text":
    case "refusal":
      return { type: "input_text", text: partText(part) };
    case "image_url":
      return { type: "input_image", image_url: part.image_url.url, detail: part.image_url.detail ?? "auto" };
    case "file":
      return { type: "input_file", ...part.file };
    case "input_audio":
      return {
        type: "input_text",
        text: `[audio (${part.input_audio.format}) left out: Responses input has no audio part]`,
      };
    default:
      return part;
  }
}

/**
 * A part where chat allows text only (system and tool messages; assistant text also keeps
 * refusals): anything else becomes a note naming it.
 */
export function toChatTextPart(part: Part, { keepRefusal = false } = {}): Part {
  const chat = toChatPart(part);
  if (chat.type === "text" || (keepRefusal && chat.type === "refusal")) return chat;
  const text = partText(chat);
  if (text != null) return { type: "text", text };
  const url: string | undefined = chat.type === "image_url" ? chat.image_url.url : undefined;
  // A data: URL can be megabytes; the note names the image without it.
  return url && !url.startsWith("data:") ? note(`image ${url}`) : { type: "text", text: describePart(chat) };
}

/** How a part reads in a one-line transcript. */
export function describePart(part: Part): string {
  const chat = toChatPart(part);
  switch (chat.type) {
    case "image_url":
      return "[image]";
    case "input_audio":
      return "[audio]";
    case "file":
      return `[file${chat.file.filename ? ` ${chat.file.filename}` : ""}]`;
    default:
      return partText(chat) ?? `[${chat.type}]`;
  }
}
