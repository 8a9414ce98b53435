// The shared view's read path: `GET /api/shared/<token>` answers the shared history (the dialog's
// head branch, or the shared branch) in the shape the viewer draws GraphQL events in, and
// `GET /api/shared/<token>/live` is a Server-Sent Events stream that says when it changed (and
// streams an answer's text as it is typed). No API key: the token is the credential, and it opens
// that one dialog and nothing else. A revoked or expired link is 404, and its live stream ends.
import { isDeleted, isText, type LiveBus, type Listener } from "../live/live-bus.js";
import { toChatPart } from "../vocabulary/parts.js";
import { logger } from "../logger.js";
import { readContext } from "../services/context.js";
import { openShareLink } from "../services/share-links.js";
import type { Store } from "../store/store.js";
import type { ShareLink } from "../generated/prisma/client.js";
import { json } from "./history-endpoint.js";

/** What a share token may look like; anything else opens nothing (and never reaches the database). */
const TOKEN = /^[A-Za-z0-9_-]{1,100}$/;

const typeNames = {
  HUMAN: "HumanEvent",
  AI: "AiEvent",
  SYSTEM: "SystemEvent",
  REASONING: "ReasoningEvent",
  TOOL_CALL: "ToolCallEvent",
  TOOL_RESULT: "ToolResultEvent",
} as const;

/**
 * `GET /api/shared/:token` (`live`: false) and `GET /api/shared/:token/live` (true) for the
 * server's router: no API key, the token is the credential.
 */
export function sharedDialogRoute(store: Store, live: LiveBus, stream: boolean) {
  return async (request: Request, token: string): Promise<Response> => {
    try {
      const link = TOKEN.test(token) ? await openShareLink(store, token) : null;
      if (!link)
        return json(404, { detail: "This link does not open: it was revoked, it expired, or it never existed." });
      return stream ? await liveStream(store, live, link, request.signal) : json(200, await sharedHistory(store, link));
    } catch (error) {
      logger.error("shared dialog read failed", error);
      return json(500, { detail: "Internal server error" });
    }
  };
}

async function sharedHistory(store: Store, link: ShareLink) {
  const dialog = await store.prisma.dialog.findUniqueOrThrow({
    where: { id: link.dialogId },
    select: { id: true, title: true, lastSeq: true, headId: true },
  });
  const tip = link.responseId ?? dialog.headId;
  const events = tip ? await readContext(tip, null, store.database, dialog.id) : [];
  const responseIds = [...new Set([...events.map((event) => event.responseId), ...(tip ? [tip] : [])])];
  const responses = await store.prisma.response.findMany({
    where: { id: { in: responseIds } },
    select: {
      id: true,
      status: true,
      model: true,
      depth: true,
      createdAt: true,
      previousResponseId: true,
      error: true,
    },
  });
  return {
    dialog: { id: dialog.id, title: dialog.title },
    responseId: tip,
    lastSeq: dialog.lastSeq,
    expiresAt: link.expiresAt,
    responses: Object.fromEntries(
      responses.map((r) => [
        r.id,
        { ...r, previousResponse: r.previousResponseId ? { id: r.previousResponseId } : null },
      ]),
    ),
    events: events.map((event) => ({
      __typename: typeNames[event.type],
      id: event.id,
      seq: event.seq,
      type: event.type,
      createdAt: event.createdAt,
      metadata: event.metadata,
      response: { id: event.responseId },
      content: event.content ?? "",
      parts: Array.isArray(event.parts) ? event.parts.map(readablePart) : null,
      modelName: event.modelName,
      callId: event.callId,
      toolName: event.toolName,
      args: event.args,
      isError: event.isError ?? false,
    })),
  };
}

/** A part in the shape of the GraphQL ContentPart union (what the viewer draws). */
function readablePart(stored: unknown) {
  const part = toChatPart(stored as Parameters<typeof toChatPart>[0]);
  switch (part.type) {
    case "image_url":
      return { __typename: "ImageUrlPart", url: part.image_url.url, detail: part.image_url.detail ?? null };
    case "input_audio":
      return { __typename: "AudioPart", format: part.input_audio.format };
    case "file":
      return { __typename: "FilePart", fileId: part.file.file_id ?? null, filename: part.file.filename ?? null };
    case "refusal":
      return { __typename: "TextPart", text: part.refusal };
    default:
      return { __typename: "TextPart", text: part.text ?? "" };
  }
}

/** `change` after every committed write to the dialog, `text` as an answer is typed; ends with the link. */
async function liveStream(store: Store, live: LiveBus, link: ShareLink, signal: AbortSignal) {
  const listener: Listener = await live.listen("historyDelta", link.dialogId);
  const encoder = new TextEncoder();
  const frame = (event: string, data: unknown) => encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const end = () => {
        void listener.return?.();
        try {
          controller.close();
        } catch {
          // already closed
        }
      };
      signal.addEventListener("abort", end, { once: true });
      controller.enqueue(frame("ready", { lastSeq: null }));
      for await (const message of listener) {
        if (isDeleted(message)) {
          controller.enqueue(frame("gone", {}));
          break;
        }
        if (isText(message)) {
          const { responseId, part, offset, delta, type } = message.text;
          controller.enqueue(frame("text", { responseId, part, offset, delta, type }));
          continue;
        }
        // A link revoked (or expired) while open stops here.
        if (!(await openShareLink(store, link.token))) {
          controller.enqueue(frame("gone", {}));
          break;
        }
        controller.enqueue(frame("change", {}));
      }
      end();
    },
    cancel() {
      void listener.return?.();
    },
  });
  return new Response(stream, {
    headers: { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" },
  });
}
