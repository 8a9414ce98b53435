// HistoryDelta: what one committed write added to a dialog, pushed to subscribers.
import { NotFoundError, ValidationError } from "../errors.js";
import { type HistoryDeltaView, readDelta, responseOfText } from "../live/delta-reads.js";
import { directLaneOf } from "../live/direct-delivery.js";
import { readDialogOwner } from "../live/catch-up-reads.js";
import { historyDeltaStream } from "../live/history-delta-stream.js";
import { streamIsLive } from "../live/stream-started.js";
import type { TextPayload } from "../live/live-bus.js";
import type { TextDeltaView } from "../live/text-positions.js";
import { eventCountOf } from "../vocabulary/event-counts.js";
import { renewLoaders } from "./context.js";
import { builder } from "./builder.js";
import { HistoryEvent, HistoryEventTypeEnum } from "./history-event.js";
import { Response, ResponseStatusEnum } from "./response.js";

const TextDelta = builder.objectRef<TextPayload>("TextDelta").implement({
  description:
    "Text typed into an in-flight AI or reasoning event of an IN_PROGRESS response (docs/live-history.md). The event is identified by its response and `part`, the index it will have among the response's events; `offset` is where `delta` starts in its text (UTF-16 code units, as JavaScript's String.length counts), so a client that has `offset` characters of it appends `delta`, and one that has more ignores what it has already.",
  fields: (t) => ({
    responseId: t.exposeID("responseId"),
    part: t.exposeInt("part"),
    type: t.field({ type: HistoryEventTypeEnum, resolve: (text) => text.type }),
    offset: t.exposeInt("offset"),
    delta: t.exposeString("delta"),
  }),
});

const HistoryDelta = builder.objectRef<HistoryDeltaView | TextDeltaView>("HistoryDelta").implement({
  description:
    "One committed write to a dialog: the events it appended (none for a status-only change) and the response's status after it. `previousSeq` is the dialog's last seq before the write and `seq` after it, so a client that has seen up to n applies a delta with previousSeq = n, ignores one with seq <= n, and has missed something if previousSeq > n.",
  fields: (t) => ({
    dialogId: t.exposeID("dialogId"),
    cleared: t.exposeBoolean("cleared", {
      description:
        "clearDialog: every event of the dialog up to `seq` is gone. Drop what you hold and continue after `seq`; responseId, response and status are null and append is empty.",
    }),
    responseId: t.exposeID("responseId", {
      nullable: true,
      description: "The response written, or deleted (null for a clear).",
    }),
    responseDeleted: t.boolean({
      description:
        "The response `responseId` was deleted (DELETE /v1/responses/{id}), with its events: drop them and its in-flight text. No seq moves (previousSeq = seq); response and status are null and append is empty.",
      resolve: (delta) => "responseDeleted" in delta,
    }),
    response: t.field({
      type: Response,
      nullable: true,
      // A text delta's row is kept per response while it streams (src/live/delta-reads.ts).
      resolve: (delta, _args, ctx) =>
        "text" in delta ? responseOfText(ctx.store, delta.dialogId, delta.text.responseId) : delta.response,
    }),
    seq: t.exposeInt("seq", { description: "Seq of the delta's last event (= previousSeq when it appends none)." }),
    previousSeq: t.exposeInt("previousSeq"),
    append: t.field({ type: [HistoryEvent], resolve: (delta) => delta.events }),
    status: t.expose("status", { type: ResponseStatusEnum, nullable: true }),
    text: t.field({
      type: TextDelta,
      nullable: true,
      description:
        "Set on a text delta: text typed into an in-flight event. It appends no event and moves no seq (seq = previousSeq = the last seq sent).",
      resolve: (delta) => ("text" in delta ? delta.text : null),
    }),
    endsTextPart: t.int({
      nullable: true,
      description:
        "In-flight text of this response with a part up to this one is over: committed as an event this write (or an earlier one) appended, or dropped. Clients drop that text; the event replaces it. (A finished response has no in-flight text either, and a clear drops all.)",
      resolve: (delta) => {
        if ("text" in delta || "responseDeleted" in delta || delta.cleared) return null;
        if (delta.endsTextPart != null) return delta.endsTextPart;
        // A replayed write does not know what it ended; the response's event count says the same.
        return delta.events.length ? eventCountOf(delta.response) - 1 : null;
      },
    }),
  }),
});

const TextOffsetInput = builder.inputType("TextOffsetInput", {
  description:
    "How much of one in-flight text a resuming client has (the part and offset of the last TextDelta it applied, plus its length).",
  fields: (t) => ({
    responseId: t.id({ required: true }),
    part: t.int({ required: true }),
    offset: t.int({
      required: true,
      description: "How many characters (UTF-16 code units) of the text the client has.",
    }),
  }),
});

builder.subscriptionField("historyDelta", (t) =>
  t.field({
    type: HistoryDelta,
    description:
      "Every committed write to the dialog, in seq order, each seq once. With `afterSeq`, what was committed after it comes first, then live deltas, with no gap and no duplicate between them.",
    args: {
      dialogId: t.arg.id({ required: true }),
      afterSeq: t.arg.int({ description: "The last seq the client has; 0 replays the whole dialog." }),
      textOffsets: t.arg({
        type: [TextOffsetInput],
        description:
          "How much of each in-flight text the client has; the rest of it comes first. Without it, texts come whole.",
      }),
    },
    // The dialog is read filtered by the caller's tenant: another tenant's is not found.
    tenant: "caller",
    subscribe: async (_root, { dialogId, afterSeq, textOffsets }, ctx) => {
      const id = String(dialogId);
      // Shared with the dialog's other subscribers starting now (a connect storm reads it once).
      // Start-up reads go through the request's budget (its time); like every database call of the
      // request, they take their connections in the tenant's share of the pool.
      const startUpReads = ctx.budget.startUp;
      const dialog = await readDialogOwner(ctx.store, id, startUpReads);
      if (!dialog || dialog.tenantId !== ctx.scope.tenantId) throw NotFoundError.dialog(id);
      if (afterSeq != null && (afterSeq < 0 || afterSeq > dialog.lastSeq)) {
        throw ValidationError.at(["afterSeq"], `must be between 0 and the dialog's last seq (${dialog.lastSeq})`);
      }
      const offsets = (textOffsets ?? []).map((at) => ({ ...at, responseId: String(at.responseId) }));
      if (offsets.some((at) => at.part < 0 || at.offset < 0)) {
        throw ValidationError.at(["textOffsets"], "part and offset must be 0 or more");
      }
      return historyDeltaStream(ctx.store, ctx.live, ctx.writes, id, afterSeq ?? null, {
        textOffsets: offsets,
        lane: directLaneOf(ctx),
        onLive: () => streamIsLive(ctx),
        startUpReads,
      });
    },
    // Live payloads carry ids and seqs only; replayed deltas were read in batches already.
    resolve: (item, _args, ctx) => {
      renewLoaders(ctx);
      return "events" in item ? item : readDelta(ctx.store, item);
    },
  }),
);
