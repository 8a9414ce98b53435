// Where a generated turn goes. A stored turn is written through the same service functions as
// every other turn — createResponse (IN_PROGRESS, with its input), appendEvents per completed
// model step, completeResponse with the final status and usage — and each committed write is
// published to the live bus, so GraphQL subscribers watch it as it is generated. An unstored turn
// (`store: false`) reads the context it continues and keeps nothing.
import type { ResponseStatus } from "../generated/prisma/enums.js";
import { newResponseId } from "../ids.js";
import type { LiveBus } from "../live/live-bus.js";
import { rememberWrite } from "../auth/tenant-scope.js";
import { prisma } from "../db/prisma.js";
import { NotFoundError } from "../errors.js";
import type { StoredEvent } from "../formats/stored-event.js";
import { readContext } from "../services/context.js";
import { type HistoryEventInput, parseEventInputs } from "../services/event-input.js";
import { appendEvents, completeResponse } from "../services/response-lifecycle.js";
import { createResponse, type UsageInput } from "../services/responses.js";

export interface TurnStart {
  tenantId: string;
  dialogId?: string | null;
  previousResponseId?: string | null;
  model: string;
  input: HistoryEventInput[];
  metadata?: Record<string, unknown>;
}

export interface BegunTurn {
  responseId: string;
  /** null for an unstored turn. */
  dialogId: string | null;
  /** The response this turn continues (the explicit one, or the dialog's head). */
  previousResponseId: string | null;
  createdAt: Date;
  /** The whole context the model is given: the chain's events, root first, then the new input. */
  context: StoredEvent[];
}

export type FinalStatus = Extract<ResponseStatus, "COMPLETED" | "FAILED" | "INCOMPLETE" | "CANCELLED">;

export interface TurnSink {
  begin(start: TurnStart): Promise<BegunTurn>;
  append(responseId: string, events: HistoryEventInput[]): Promise<void>;
  finish(responseId: string, status: FinalStatus, usage: UsageInput | null, error: unknown): Promise<void>;
}

export function storedTurns(live: LiveBus): TurnSink {
  return {
    async begin(start) {
      const write = await createResponse(
        {
          dialogId: start.dialogId,
          previousResponseId: start.previousResponseId,
          model: start.model,
          input: start.input,
          metadata: start.metadata ?? {},
        },
        start.tenantId,
      );
      rememberWrite(write, start.tenantId);
      live.publish(write);
      const response =
        write.written?.response ?? (await prisma.response.findUniqueOrThrow({ where: { id: write.responseId } }));
      return {
        responseId: write.responseId,
        dialogId: write.dialogId,
        previousResponseId: response.previousResponseId,
        createdAt: response.createdAt,
        context: await readContext(write.responseId),
      };
    },
    async append(responseId, events) {
      if (events.length) live.publish(await appendEvents({ responseId, events }));
    },
    async finish(responseId, status, usage, error) {
      live.publish(await completeResponse({ responseId, status, usage, error: error ?? null }));
    },
  };
}

export const unstoredTurns: TurnSink = {
  async begin(start) {
    const input = parseEventInputs(start.input, ["input"]);
    let previous = start.previousResponseId ?? null;
    if (!previous && start.dialogId) {
      const dialog = await prisma.dialog.findUnique({ where: { id: start.dialogId }, select: { headId: true } });
      if (!dialog) throw NotFoundError.dialog(start.dialogId);
      previous = dialog.headId;
    }
    const earlier = previous ? await readContext(previous) : [];
    return {
      responseId: newResponseId(),
      dialogId: null,
      previousResponseId: previous,
      createdAt: new Date(),
      context: [...earlier, ...input.map((event) => ({ ...event, providerFields: event.providerFields ?? null }))],
    };
  },
  append: async () => {},
  finish: async () => {},
};
