// Storing conversations read from a chat app's export (./chat-exports/): each one becomes a
// dialog of the tenant, its turns written through the store's write primitive in one transaction —
// the whole conversation or none of it — each turn continuing its parent, so the app's edits and
// regenerations are branches. A conversation already imported by the tenant (same import key) is
// found, not stored again. Each turn keeps the times its messages were written at, and the dialog
// the time of its first: an old chat is listed as old, not as made today.
import type { ImportedConversation } from "./chat-exports/index.js";
import type { TurnNode } from "./chat-exports/message-tree.js";
import type { Response } from "../generated/prisma/client.js";
import { newDialogId, newResponseId } from "../ids.js";
import { writeDialog } from "../store/locked-dialog.js";
import type { Store } from "../store/store.js";
import { isUniqueViolation } from "../store/write-turn.js";

export interface StoredConversation {
  dialogId: string;
  importKey: string;
  /** False when the tenant had imported it before: nothing was written. */
  created: boolean;
}

export async function storeConversation(
  store: Store,
  conversation: ImportedConversation,
  tenantId: string,
): Promise<StoredConversation> {
  const { importKey } = conversation;
  const found = await findImported(store, tenantId, importKey);
  if (found) return found;
  const times = new Map(conversation.turns.map((turn) => [turn.key, timesOf(turn)]));
  const createdAt = earliest([...times.values()].map((t) => t?.created));
  try {
    const outcome = await writeDialog(
      store,
      {
        create: {
          id: newDialogId(createdAt ?? undefined),
          tenantId,
          title: conversation.title,
          metadata: conversation.metadata,
          importKey,
          createdAt,
        },
      },
      async (write) => {
        const stored = new Map<string, Pick<Response, "id" | "depth">>();
        for (const turn of conversation.turns) {
          const parent = turn.parentKey ? (stored.get(turn.parentKey) ?? null) : null;
          const at = times.get(turn.key) ?? null;
          const [response] = await write.addTurns(
            [
              {
                // Made of the time it was answered: responses are listed by id, and a regenerated
                // answer (the same question, answered later) then comes after the first.
                id: newResponseId(at?.completed),
                times: at,
                model: turn.model,
                // What the export holds is history as it was left, answered or not.
                status: "COMPLETED",
                // An import records what was said, not what it cost: it carries no usage and charges no key.
                usage: {
                  inputTokens: null,
                  outputTokens: null,
                  reasoningTokens: null,
                  totalTokens: null,
                  cachedTokens: null,
                },
                apiKeyId: null,
                error: null,
                metadata: {},
                idempotencyKey: null,
                requestHash: null,
                input: turn.input.map((item) => item.event),
                output: turn.output.map((item) => item.event),
              },
            ],
            parent,
          );
          stored.set(turn.key, response!);
        }
      },
    );
    return { dialogId: outcome.dialog.id, importKey, created: true };
  } catch (error) {
    // The same conversation imported at the same moment by another request: that one stored it.
    if (isUniqueViolation(error)) {
      const winner = await findImported(store, tenantId, importKey);
      if (winner) return winner;
    }
    throw error;
  }
}

async function findImported(store: Store, tenantId: string, importKey: string): Promise<StoredConversation | null> {
  const dialog = await store.prisma.dialog.findUnique({
    where: { tenantId_importKey: { tenantId, importKey } },
    select: { id: true },
  });
  return dialog ? { dialogId: dialog.id, importKey, created: false } : null;
}

/** A turn's first and last message times, when the export gave any. */
function timesOf(turn: TurnNode): { created: Date; completed: Date } | null {
  const dates = [...turn.input, ...turn.output].flatMap((item) => (item.event.createdAt ? [item.event.createdAt] : []));
  const created = earliest(dates);
  if (!created) return null;
  return { created, completed: new Date(Math.max(...dates.map((date) => date.getTime()))) };
}

function earliest(dates: (Date | null | undefined)[]): Date | null {
  const known = dates.filter((date): date is Date => date != null);
  return known.length ? new Date(Math.min(...known.map((date) => date.getTime()))) : null;
}
