// Storing conversations read from a chat app's export (./chat-exports/): each one becomes a
// dialog of the tenant, its turns written through the store's write primitive in one transaction —
// the whole conversation or none of it — each turn continuing its parent, so the app's edits and
// regenerations are branches. A conversation already imported by the tenant (same import key) is
// found, not stored again.
import type { ImportedConversation } from "./chat-exports/index.js";
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
  try {
    const outcome = await writeDialog(
      store,
      {
        create: { id: newDialogId(), tenantId, title: conversation.title, metadata: conversation.metadata, importKey },
      },
      async (write) => {
        const stored = new Map<string, Pick<Response, "id" | "depth">>();
        for (const turn of conversation.turns) {
          const parent = turn.parentKey ? (stored.get(turn.parentKey) ?? null) : null;
          const [response] = await write.addTurns(
            [
              {
                id: newResponseId(),
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
