// `GET /v1/responses/{id}?stream=true&starting_after=N` (and the stream of a `background: true,
// stream: true` create): the turn's events after N, then live until its closing event, served by
// any instance. It follows the live layer, not the process running the turn: the dialog's live
// payloads (committed writes and text deltas, through Redis across instances) say when to look
// again, and each look reads the committed output and the in-flight text (resumable-events.ts
// numbers what it finds). The listener is in place before the first read, so nothing committed
// meanwhile is missed; looks are coalesced, so a fast typist costs a read per batch, not per delta.
import { outputItemId } from "../generation/output-items.js";
import { isText, type LiveMessage } from "../live/live-bus.js";
import type { ResponsesDeps } from "./responses-deps.js";
import { sseFrame } from "./stream-events.js";
import { obfuscated } from "./obfuscation.js";
import { eventsAfter, type TurnState } from "./resumable-events.js";
import { toResponseObject } from "./response-object.js";
import { readResponseView } from "./stored-responses.js";

export const sseHeaders = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-cache",
  connection: "keep-alive",
};

/** What a stream shows beyond the defaults, as the request's `include` and options asked. */
export interface StreamShown {
  /** Delta events carry random padding (`include_obfuscation`). */
  obfuscate: boolean;
  /** Reasoning items carry their kept `encrypted_content` (`include: reasoning.encrypted_content`). */
  encryptedReasoning: boolean;
}

async function readTurnState({ store, writes }: ResponsesDeps, responseId: string): Promise<TurnState> {
  // The in-flight text first: once committed it is among the events read after it, and a text
  // whose part is already an event is stale.
  const held = await writes.textOf(responseId);
  const view = await readResponseView(store, responseId);
  const eventCount = await store.prisma.event.count({ where: { responseId } });
  const items = [...view.output];
  const open = view.status === "IN_PROGRESS" && held != null && held.part === eventCount && held.text.length > 0;
  if (open) {
    const type = held.type === "AI" ? "message" : "reasoning";
    items.push({ type, id: outputItemId(type, responseId, items.length), text: held.text });
  }
  const response = toResponseObject(view);
  return { response, items, lastOpen: open, final: view.status !== "IN_PROGRESS" };
}

/** The state without the kept encrypted reasoning, as OpenAI streams it when `include` does not ask. */
function withoutEncryptedReasoning(state: TurnState): TurnState {
  const hide = <T extends { type: string }>(item: T) =>
    item.type === "reasoning" ? { ...item, encryptedContent: null, encrypted_content: null } : item;
  return {
    ...state,
    items: state.items.map(hide),
    response: { ...state.response, output: state.response.output.map(hide) },
  };
}

/** The turn's events after `startingAfter` as server-sent events, live until its end. */
export async function followResponse(
  deps: ResponsesDeps,
  responseId: string,
  dialogId: string,
  startingAfter: number,
  shown: StreamShown,
) {
  const updates = await deps.live.listen("historyDelta", dialogId);
  const encoder = new TextEncoder();
  let sent = startingAfter;
  let closed = false;
  const stop = () => {
    closed = true;
    void updates.return?.();
  };
  // Payloads only say "look again": the ones that arrive during a look make one more look.
  let dirty = false;
  let ended = false;
  let wake = null as (() => void) | null;
  void (async () => {
    for await (const message of updates) {
      if (!concerns(message, responseId)) continue;
      dirty = true;
      wake?.();
    }
    ended = true;
    wake?.();
  })();
  const changed = async () => {
    if (!dirty && !ended) await new Promise<void>((resolve) => (wake = resolve));
    wake = null;
    const more = dirty;
    dirty = false;
    return more;
  };
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      try {
        for (;;) {
          const read = await readTurnState(deps, responseId);
          const state = shown.encryptedReasoning ? read : withoutEncryptedReasoning(read);
          for (const event of eventsAfter(state, sent)) {
            if (closed) return;
            controller.enqueue(encoder.encode(sseFrame(shown.obfuscate ? obfuscated(event) : event)));
            sent = event.sequence_number;
          }
          if (state.final || closed) break;
          if (!(await changed())) break;
        }
        if (!closed) controller.close();
      } catch (error) {
        if (!closed) controller.error(error);
      } finally {
        stop();
      }
    },
    cancel: stop,
  });
  return new Response(body, { headers: sseHeaders });
}

/** Whether a live payload may change what the turn's stream shows (other responses' do not). */
function concerns(message: LiveMessage, responseId: string) {
  if (isText(message)) return message.text.responseId === responseId;
  return !("responseId" in message) || message.responseId === responseId;
}
