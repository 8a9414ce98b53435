// HistoryDelta (seed 004): what one committed write added to a dialog, pushed to subscribers.
import { prisma } from "../db/prisma.js";
import { NotFoundError, ValidationError } from "../errors.js";
import { type HistoryDeltaView, readDelta } from "../live/delta-reads.js";
import { historyDeltaStream } from "../live/history-delta-stream.js";
import { renewLoaders } from "../server/context.js";
import { builder } from "./builder.js";
import { HistoryEvent } from "./history-event.js";
import { Response, ResponseStatusEnum } from "./response.js";

const HistoryDelta = builder.objectRef<HistoryDeltaView>("HistoryDelta").implement({
  description:
    "One committed write to a dialog: the events it appended (none for a status-only change) and the response's status after it. `previousSeq` is the dialog's last seq before the write and `seq` after it, so a client that has seen up to n applies a delta with previousSeq = n, ignores one with seq <= n, and has missed something if previousSeq > n.",
  fields: (t) => ({
    dialogId: t.exposeID("dialogId"),
    cleared: t.exposeBoolean("cleared", {
      description:
        "clearDialog: every event of the dialog up to `seq` is gone. Drop what you hold and continue after `seq`; responseId, response and status are null and append is empty.",
    }),
    responseId: t.exposeID("responseId", { nullable: true, description: "The response written (null for a clear)." }),
    response: t.field({ type: Response, nullable: true, resolve: (delta) => delta.response }),
    seq: t.exposeInt("seq", { description: "Seq of the delta's last event (= previousSeq when it appends none)." }),
    previousSeq: t.exposeInt("previousSeq"),
    append: t.field({ type: [HistoryEvent], resolve: (delta) => delta.events }),
    status: t.expose("status", { type: ResponseStatusEnum, nullable: true }),
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
    },
    subscribe: async (_root, { dialogId, afterSeq }, ctx) => {
      const id = String(dialogId);
      const dialog = await prisma.dialog.findUnique({
        where: { id, tenantId: ctx.scope.tenantId },
        select: { lastSeq: true },
      });
      if (!dialog) throw NotFoundError.dialog(id);
      if (afterSeq != null && (afterSeq < 0 || afterSeq > dialog.lastSeq)) {
        throw ValidationError.at(["afterSeq"], `must be between 0 and the dialog's last seq (${dialog.lastSeq})`);
      }
      return historyDeltaStream(ctx.live, id, afterSeq ?? null);
    },
    // Live payloads carry ids and seqs only; replayed deltas were read in batches already.
    resolve: (item, _args, ctx) => {
      renewLoaders(ctx);
      return "events" in item ? item : readDelta(item);
    },
  }),
);
