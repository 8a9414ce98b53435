// The client's typed operations, each sent to a real server the way an app sends them: a dialog
// is created, written to, read back in every shape the contract offers, followed, and deleted.
import { beforeAll, describe, expect, it } from "vitest";
import {
  AppendEventsDocument,
  CompleteResponseDocument,
  CreateDialogDocument,
  CreateResponseDocument,
  DeleteDialogDocument,
  DialogDocument,
  type DialogqlClient,
  DialogqlError,
  DialogsDocument,
  DialogTreeDocument,
  InterruptResponseDocument,
  ResponseContextDocument,
  ResponseDocument,
  type ResponseUpdatedSubscription,
  ResponseUpdatedDocument,
  UpdateDialogDocument,
} from "../src/client/index.js";
import type { ExecutionResult } from "../src/client/transport.js";
import { testClient } from "./support/client.js";
import { startTestServer } from "./support/live.js";

let client: DialogqlClient;
beforeAll(async () => {
  client = testClient((await startTestServer()).url, "ws");
});

/** The member of a mutation's result union the test expects, or a failure naming what came. */
function expectType<T extends { __typename: string }, N extends T["__typename"]>(result: T, name: N) {
  if (result.__typename !== name) throw new Error(`expected ${name}, got ${JSON.stringify(result)}`);
  return result as Extract<T, { __typename: N }>;
}

describe("the typed client operations", () => {
  it("write, read and delete a dialog", async () => {
    const created = expectType(
      (await client.request(CreateDialogDocument, { input: { title: "Ops", metadata: { team: "a" } } })).createDialog,
      "Dialog",
    );
    expect(created).toMatchObject({ title: "Ops", metadata: { team: "a" }, lastSeq: 0, head: null });
    const renamed = expectType(
      (await client.request(UpdateDialogDocument, { input: { id: created.id, title: "Ops, renamed" } })).updateDialog,
      "Dialog",
    );
    expect(renamed.title).toBe("Ops, renamed");

    const turn = expectType(
      (
        await client.request(CreateResponseDocument, {
          input: { dialogId: created.id, model: "gpt-4o", input: [{ human: { content: "Hi" } }] },
        })
      ).createResponse,
      "Response",
    );
    expect(turn).toMatchObject({ status: "IN_PROGRESS", model: "gpt-4o", output: [], previousResponse: null });
    const appended = expectType(
      (
        await client.request(AppendEventsDocument, {
          input: { responseId: turn.id, events: [{ ai: { content: "Hel" } }] },
        })
      ).appendEvents,
      "Response",
    );
    expect(appended.output.map((e) => e.__typename)).toEqual(["AiEvent"]);
    const interrupted = expectType(
      (
        await client.request(InterruptResponseDocument, {
          input: { responseId: turn.id, behavior: "SAVE_PARTIAL", partialText: "Hello th" },
        })
      ).interruptResponse,
      "Response",
    );
    expect(interrupted.status).toBe("INCOMPLETE");
    const refused = (await client.request(CompleteResponseDocument, { input: { responseId: turn.id } }))
      .completeResponse;
    expect(refused.__typename).toBe("ConflictError");

    const { response } = await client.request(ResponseDocument, { id: turn.id });
    expect(response?.input.map((e) => e.type)).toEqual(["HUMAN"]);
    expect(response?.output.map((e) => e.type)).toEqual(["AI", "AI"]);
    const { response: withContext } = await client.request(ResponseContextDocument, { id: turn.id, types: ["AI"] });
    expect(withContext?.context.totalMessages).toBe(2);
    const { dialog } = await client.request(DialogDocument, { id: created.id });
    expect(dialog?.branches.map((b) => b.id)).toEqual([turn.id]);
    const { dialog: tree } = await client.request(DialogTreeDocument, { id: created.id, first: 10 });
    expect(tree?.responses.edges.map((e) => e.node.id)).toEqual([turn.id]);
    const { dialogs } = await client.request(DialogsDocument, { first: 1 });
    expect(dialogs.edges[0]?.node.id).toBe(created.id);

    expectType(
      (await client.request(DeleteDialogDocument, { input: { id: created.id } })).deleteDialog,
      "DeleteDialogPayload",
    );
    const gone = await client.request(DialogDocument, { id: created.id }).catch((error: unknown) => error);
    expect(gone).toBeInstanceOf(DialogqlError);
    expect(gone).toMatchObject({ code: "NOT_FOUND", message: `Dialog ${created.id} not found` });
  });

  it("follow one response with responseUpdated until it is finished", async () => {
    const turn = expectType(
      (await client.request(CreateResponseDocument, { input: { input: [{ human: { content: "Count" } }] } }))
        .createResponse,
      "Response",
    );
    const updates: ExecutionResult<ResponseUpdatedSubscription>[] = [];
    const ended = new Promise<void>((resolve, reject) =>
      client.subscribe(
        ResponseUpdatedDocument,
        { responseId: turn.id },
        {
          next: (result) => {
            updates.push(result);
            // Each write waits for the state before it, so every update shows one step.
            if (updates.length === 1) void write([{ ai: { content: "1" } }]);
            if (updates.length === 2) void client.request(CompleteResponseDocument, { input: { responseId: turn.id } });
          },
          error: reject,
          complete: resolve,
        },
      ),
    );
    const write = (events: { ai: { content: string } }[]) =>
      client.request(AppendEventsDocument, { input: { responseId: turn.id, events } });
    await ended;
    expect(updates.map((u) => [u.data?.responseUpdated.status, u.data?.responseUpdated.output.length])).toEqual([
      ["IN_PROGRESS", 0],
      ["IN_PROGRESS", 1],
      ["COMPLETED", 1],
    ]);
  });
});
