// Importing a chat export from the viewer: the file is cut into slices; every slice is checked
// first (a dry run), so a bad record stops the import before anything is stored, then stored. The
// progress counts slices through both passes.
import { useCallback, useState } from "react";
import { useClient } from "urql";
import { ImportChatsDocument } from "../lib/chat-operations.js";
import { sliceExport } from "../lib/import-slices.js";
import { readableError } from "../lib/readable-error.js";
import { DIALOG_CHANGED } from "./use-dialog-pages.js";

export type ImportState =
  | { phase: "idle" }
  | { phase: "checking" | "importing"; done: number; total: number; file: string }
  | { phase: "done"; file: string; imported: number; skipped: number; firstDialogId: string | null }
  | { phase: "failed"; file: string; problem: string; stored: boolean };

export function useImportChats() {
  const client = useClient();
  const [state, setState] = useState<ImportState>({ phase: "idle" });

  const run = useCallback(
    async (file: File) => {
      const name = file.name;
      const slices = sliceExport(await file.text());
      const send = async (index: number, dryRun: boolean) => {
        const slice = slices[index]!;
        const result = await client
          .mutation(ImportChatsDocument, { input: { data: slice.data, offset: slice.offset, dryRun } })
          .toPromise();
        const answer = result.data?.importChats;
        if (result.error || !answer) throw new Error(readableError(result.error ?? "no answer"));
        if (answer.__typename !== "ImportChatsPayload") {
          const details =
            "fieldErrors" in answer && answer.fieldErrors?.length
              ? answer.fieldErrors.map((e) => `${e.path.join(" › ")}: ${e.message}`).join("; ")
              : answer.message;
          throw new Error(details);
        }
        return answer;
      };
      let storing = false;
      try {
        for (let i = 0; i < slices.length; i++) {
          setState({ phase: "checking", done: i, total: slices.length, file: name });
          await send(i, true);
        }
        storing = true;
        let imported = 0;
        let skipped = 0;
        let firstDialogId: string | null = null;
        for (let i = 0; i < slices.length; i++) {
          setState({ phase: "importing", done: i, total: slices.length, file: name });
          const answer = await send(i, false);
          imported += answer.imported;
          skipped += answer.skipped;
          firstDialogId ??= answer.dialogs[0]?.id ?? null;
        }
        setState({ phase: "done", file: name, imported, skipped, firstDialogId });
        window.dispatchEvent(new Event(DIALOG_CHANGED));
      } catch (error) {
        setState({ phase: "failed", file: name, problem: (error as Error).message, stored: storing });
      }
    },
    [client],
  );

  return { state, run, reset: () => setState({ phase: "idle" }) };
}
