// What the chat writes, in one place: a message sent (to the model when one is configured, else
// stored as a turn that waits for an answer written by hand), an answer written by hand, a turn
// stopped, and a title asked for. Every call resolves to null or a readable problem; the history
// itself arrives through the dialog's live subscription like any other write.
import { useCallback } from "react";
import { useClient } from "urql";
import {
  AppendEventsDocument,
  CompleteResponseDocument,
  CreateResponseDocument,
  GenerateResponseDocument,
} from "../../../src/client/index.js";
import { CancelResponseDocument, TitleDialogDocument } from "../lib/chat-operations.js";
import { readableError } from "../lib/readable-error.js";

/**
 * Where a new turn goes: after a response (a branch if it has children), a dialog's head, a new
 * first turn of a dialog (`fromStart`: a branch from its start), or a new dialog.
 */
export interface Place {
  dialogId?: string | null;
  previousResponseId?: string | null;
  fromStart?: boolean;
}

export type Sent = { dialogId: string; responseId: string } | { problem: string };

interface Answer {
  __typename: string;
  message?: string;
}

const problemOf = (answer: Answer | undefined, error: unknown): string | null => {
  if (error) return readableError(error);
  if (!answer) return "The server sent no answer.";
  return answer.__typename === "Response" || answer.__typename === "Dialog" ? null : (answer.message ?? "refused");
};

export function useChat() {
  const client = useClient();

  /** A human message: answered by `model`, or (model null) stored IN_PROGRESS, waiting for an answer. */
  const sendHuman = useCallback(
    async (place: Place, content: string, model: string | null): Promise<Sent> => {
      const input = [{ human: { content } }];
      if (model) {
        const result = await client
          .mutation(GenerateResponseDocument, { input: { ...place, model, input } })
          .toPromise();
        const answer = result.data?.generateResponse;
        const problem = problemOf(answer, result.error);
        if (problem || answer?.__typename !== "Response") return { problem: problem ?? "refused" };
        return { dialogId: answer.dialog.id, responseId: answer.id };
      }
      const result = await client.mutation(CreateResponseDocument, { input: { ...place, input } }).toPromise();
      const answer = result.data?.createResponse;
      const problem = problemOf(answer, result.error);
      if (problem || answer?.__typename !== "Response") return { problem: problem ?? "refused" };
      return { dialogId: answer.dialog.id, responseId: answer.id };
    },
    [client],
  );

  /** An AI message written by hand: it answers the waiting turn, or is a turn of its own. */
  const writeAnswer = useCallback(
    async (place: Place, content: string, waitingTurnId: string | null): Promise<Sent> => {
      const events = [{ ai: { content } }];
      if (waitingTurnId) {
        const appended = await client
          .mutation(AppendEventsDocument, { input: { responseId: waitingTurnId, events } })
          .toPromise();
        const problem = problemOf(appended.data?.appendEvents, appended.error);
        if (problem) return { problem };
        const done = await client
          .mutation(CompleteResponseDocument, { input: { responseId: waitingTurnId } })
          .toPromise();
        const closed = problemOf(done.data?.completeResponse, done.error);
        return closed ? { problem: closed } : { dialogId: place.dialogId ?? "", responseId: waitingTurnId };
      }
      const result = await client.mutation(CreateResponseDocument, { input: { ...place, input: events } }).toPromise();
      const answer = result.data?.createResponse;
      const problem = problemOf(answer, result.error);
      if (problem || answer?.__typename !== "Response") return { problem: problem ?? "refused" };
      return { dialogId: answer.dialog.id, responseId: answer.id };
    },
    [client],
  );

  const stop = useCallback(
    async (responseId: string): Promise<string | null> => {
      const result = await client.mutation(CancelResponseDocument, { responseId }).toPromise();
      return problemOf(result.data?.cancelResponse, result.error);
    },
    [client],
  );

  /** Names an untitled dialog from its first exchange; failing to is no reason to bother the reader. */
  const title = useCallback(
    async (dialogId: string, model: string | null) => {
      await client.mutation(TitleDialogDocument, { dialogId, model }).toPromise();
    },
    [client],
  );

  return { sendHuman, writeAnswer, stop, title };
}
