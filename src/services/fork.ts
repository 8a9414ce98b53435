// forkDialog: a new dialog whose history is a copy of the context of one
// response, remembering where it came from (forkedFrom). The copy gets new ids; its events are
// numbered 1..n, in context order (src/store/fork-copy.ts copies them in the write primitive).
import { newDialogId } from "../ids.js";
import { lockDialog, writeDialog } from "../store/locked-dialog.js";
import { copyContext } from "../store/fork-copy.js";
import type { Store } from "../store/store.js";
import { readChain, readContextEventIds } from "./context.js";
import { parseDialogFields } from "./dialogs.js";
import { chainTargetNotFound, responseExpired } from "./retention.js";
import type { WriteResult } from "./write-result.js";

export interface ForkDialogInput {
  responseId: string;
  /** Default: the original dialog's title. */
  title?: string | null;
}

/** The new dialog (dialogId) and its head: the copy of `responseId`. */
export interface ForkResult extends WriteResult {
  sourceDialogId: string;
}

export async function forkDialog(store: Store, input: ForkDialogInput): Promise<ForkResult> {
  const { title } = parseDialogFields({ title: input.title });
  const source = await store.prisma.response.findUnique({
    where: { id: input.responseId },
    select: { dialogId: true, dialog: { select: { title: true, metadata: true, tenantId: true } } },
  });
  const notFound = () => chainTargetNotFound(input.responseId, store.retentionMs);
  if (!source) throw notFound();
  const created = {
    id: newDialogId(),
    // A fork belongs to the tenant of what it copies (the caller's: checked before).
    tenantId: source.dialog.tenantId,
    title: title ?? source.dialog.title,
    metadata: (source.dialog.metadata ?? {}) as Record<string, unknown>,
    forkedFromId: input.responseId,
  };
  const outcome = await writeDialog(store, { create: created }, async (write) => {
    // Holds off a concurrent clearDialog or deleteDialog of the original while it is read.
    await lockDialog(
      write.session,
      { id: source.dialogId, whenMissing: notFound, whenExpired: () => responseExpired(input.responseId) },
      write.now,
      store.retentionMs,
    );
    const chain = await readChain(input.responseId, write.session);
    if (!chain.length) throw notFound();
    const eventIds = await readContextEventIds(input.responseId, write.session);
    return copyContext(write, chain, eventIds);
  });
  return {
    dialogId: created.id,
    responseId: outcome.value.headId,
    previousSeq: 0,
    seq: outcome.seq,
    status: outcome.value.status,
    sourceDialogId: source.dialogId,
  };
}
